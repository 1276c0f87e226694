package formats

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/unicode"

	"github.com/qoscal/qoscal/data"
)

// parseAll runs a format's parser over input and returns the records and
// the messages of the syntax errors, in order.
func parseAll(t *testing.T, format, file string, input []byte) ([]Record, []string, error) {
	t.Helper()
	f, err := LookupFormat(format)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := OpenReader(file, bytes.NewReader(input), f)
	if err != nil {
		return nil, nil, err
	}
	p := tf.Parser()
	var recs []Record
	var msgs []string
	for {
		r, err := p.Next()
		if err == io.EOF {
			return recs, msgs, nil
		}
		if se, ok := asSyntax(err); ok {
			msgs = append(msgs, se.Error())
			if len(msgs) > 100 {
				t.Fatal("parser does not make progress")
			}
			continue
		}
		if err != nil {
			return recs, msgs, err
		}
		recs = append(recs, r)
	}
}

// checkParse parses input in format and compares the records and the
// syntax-error messages with the wanted ones.
func checkParse(t *testing.T, format, file, input string, want []Record, errors []string) {
	t.Helper()
	got, errs, err := parseAll(t, format, file, []byte(input))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(errors, errs); diff != "" {
		t.Errorf("syntax errors (-want +got):\n%s", diff)
	}
}

func opsRec(line int, bench string, sample int, v float64) Record {
	return Record{Line: line, Measurement: data.Measurement{Benchmark: bench, Sample: sample, Value: v, Unit: OpsUnit}}
}

func TestOpsParser(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		want   []Record
		errors []string
	}{{
		name:  "one result line",
		input: "larson: threads=4 ops=400000 time=0.072 sec (5514093 ops/sec)\n",
		want:  []Record{opsRec(1, "larson", 0, 5514093)},
	}, {
		name: "headers, crash messages and benchmarks without ops/sec are ignored; line numbers count them",
		input: "=== Hoard allocator ===\n--- larson ---\nlarson: threads=4 (5514093 ops/sec)\n" +
			"xmalloc-test: producers=1 time=0.857 sec\nSegmentation fault\n--- sh8bench ---\nsh8bench: x=1 (20336963.5 ops/sec)\n",
		want: []Record{opsRec(3, "larson", 0, 5514093), opsRec(7, "sh8bench", 0, 20336963.5)},
	}, {
		name:  "a name repeated in one file gives one sample per occurrence",
		input: "a: x=1 (10 ops/sec)\nb: x=1 (20 ops/sec)\na: x=1 (11 ops/sec)\na: x=1 (12 ops/sec)\n",
		want:  []Record{opsRec(1, "a", 0, 10), opsRec(2, "b", 0, 20), opsRec(3, "a", 1, 11), opsRec(4, "a", 2, 12)},
	}, {
		name:  "CRLF line ends and a last line without newline",
		input: "=== x ===\r\nlarson: t=1 (5 ops/sec)\r\ncfrac: t=1 (7 ops/sec)",
		want:  []Record{opsRec(2, "larson", 0, 5), opsRec(3, "cfrac", 0, 7)},
	}, {
		name:  "lines ending in CR alone (old Mac tools) are one benchmark each",
		input: "=== x ===\ra: t=1 (1 ops/sec)\rb: t=1 (2 ops/sec)\rc: t=1 (3 ops/sec)\r",
		want:  []Record{opsRec(2, "a", 0, 1), opsRec(3, "b", 0, 2), opsRec(4, "c", 0, 3)},
	}, {
		name:  "a progress meter before the result line: each CR-separated segment is a line",
		input: "progress: 10%\rprogress: 100%\rlarson: threads=4 (5514093 ops/sec)\nsh8bench: x=1 (7 ops/sec)\n",
		want:  []Record{opsRec(3, "larson", 0, 5514093), opsRec(4, "sh8bench", 0, 7)},
	}, {
		name:  "CRLF stays one line end among lone CRs and LFs",
		input: "a: t=1 (1 ops/sec)\r\n\r\nb: t=1 (2 ops/sec)\r\rc: t=1 (3 ops/sec)\n\rd: t=1 (4 ops/sec)",
		want:  []Record{opsRec(1, "a", 0, 1), opsRec(3, "b", 0, 2), opsRec(5, "c", 0, 3), opsRec(7, "d", 0, 4)},
	}, {
		name:  "exponent notation",
		input: "a: x=1 (1.5e6 ops/sec)\n",
		want:  []Record{opsRec(1, "a", 0, 1.5e6)},
	}, {
		name:   "zero value",
		input:  "=== x ===\nlarson: t=1 (0 ops/sec)\n",
		errors: []string{"f.txt:2: benchmark larson: value 0 is not positive: measurements must be > 0"},
	}, {
		name:   "negative value",
		input:  "larson: t=1 (-5 ops/sec)\n",
		errors: []string{"f.txt:1: benchmark larson: value -5 is not positive: measurements must be > 0"},
	}, {
		name:   "NaN",
		input:  "larson: t=1 (NaN ops/sec)\n",
		errors: []string{`f.txt:1: benchmark larson: value "NaN" is not a number (NaN)`},
	}, {
		name:   "infinity",
		input:  "larson: t=1 (+Inf ops/sec)\n",
		errors: []string{`f.txt:1: benchmark larson: value "+Inf" is not finite`},
	}, {
		name:   "overflow",
		input:  "larson: t=1 (1e999 ops/sec)\n",
		errors: []string{"f.txt:1: benchmark larson: value 1e999 is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number"},
	}, {
		name:   "too large or subnormal: a ratio would overflow or lose precision",
		input:  "=== x ===\nlarson: t=1 (1e308 ops/sec)\ncfrac: t=1 (1e-320 ops/sec)\n",
		errors: []string{"f.txt:2: benchmark larson: value 1e308 is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number", "f.txt:3: benchmark cfrac: value 1e-320 is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number"},
	}, {
		name:   "not a number, and parsing goes on after it",
		input:  "larson: t=1 (12x4 ops/sec)\ncfrac: t=1 (9 ops/sec)\n",
		want:   []Record{opsRec(2, "cfrac", 0, 9)},
		errors: []string{`f.txt:1: benchmark larson: value "12x4" is not a plain decimal number: expected digits with an optional point and exponent, as benchmarks print them (5514093, 0.072, 1.5e-9)`},
	}, {
		name:   "ops/sec without the parenthesised value",
		input:  "a: x=1 (3 ops/sec)\nlarson: threads=4 5514093 ops/sec\n",
		want:   []Record{opsRec(1, "a", 0, 3)},
		errors: []string{`f.txt:2: malformed result line "larson: threads=4 5514093 ops/sec": expected ` + "`NAME: ... (VALUE ops/sec)`"},
	}, {
		name:   "missing value",
		input:  "larson: threads=4 ( ops/sec)\n",
		errors: []string{"f.txt:1: benchmark larson: missing value"},
	}, {
		name:   "no name before the colon",
		input:  ": threads=4 (5 ops/sec)\n",
		errors: []string{`f.txt:1: result line ": threads=4 (5 ops/sec)" has no benchmark name before the colon`},
	}, {
		name:   "truncated last line",
		input:  "a: x=1 (3 ops/sec)\nlarson: threads=4 ops=400000 time=0.07",
		want:   []Record{opsRec(1, "a", 0, 3)},
		errors: []string{`f.txt:2: truncated last line "larson: threads=4 ops=400000 time=0.07": expected it to end with ` + "`(VALUE ops/sec)`"},
	}, {
		name:   "truncated inside the value",
		input:  "a: x=1 (3 ops/sec)\nlarson: threads=4 ops=400000 time=0.072 sec (55140",
		want:   []Record{opsRec(1, "a", 0, 3)},
		errors: []string{`f.txt:2: truncated last line "larson: threads=4 ops=400000 time=0.072 sec (55140": expected it to end with ` + "`(VALUE ops/sec)`"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkParse(t, "ops", "f.txt", tt.input, tt.want, tt.errors) })
	}
}

// TestOpsSkippedNote: benchmark-like lines without an ops/sec figure are
// named in one note per file, but those expected (a calibration's
// expected_skips); headers, crash messages and progress meters are not.
// Skipped names every such line, expected or not, sorted, once each.
func TestOpsSkippedNote(t *testing.T) {
	tests := []struct {
		name, input string
		expected    []string
		want        []string
		skipped     []string
	}{{
		name:    "one benchmark without a rate",
		input:   "=== Hoard ===\n--- larson ---\nlarson: threads=4 (5514093 ops/sec)\nSegmentation fault\nprogress: 100%\n--- xmalloc-test ---\nxmalloc-test: threads=4 producers=1 time=0.626 sec\n",
		want:    []string{"hoard.txt: skipped 1 benchmark-like line without an ops/sec figure: line 7 xmalloc-test"},
		skipped: []string{"xmalloc-test"},
	}, {
		name:     "expected: no note, still named",
		input:    "larson: threads=4 (5514093 ops/sec)\nxmalloc-test: threads=4 producers=1 time=0.626 sec\n",
		expected: []string{"xmalloc-test"},
		skipped:  []string{"xmalloc-test"},
	}, {
		name:     "a new skip beside an expected one is noted alone",
		input:    "larson: threads=4 (5514093 ops/sec)\nxmalloc-test: threads=4 time=0.6 sec\ncfrac: n=3 time=1 sec\n",
		expected: []string{"xmalloc-test"},
		want:     []string{"hoard.txt: skipped 1 benchmark-like line without an ops/sec figure: line 3 cfrac"},
		skipped:  []string{"cfrac", "xmalloc-test"},
	}, {
		name:    "many: the first five are named",
		input:   "a: x=1 (1 ops/sec)\n" + strings.Repeat("b: x=1 time=1 sec\n", 7),
		want:    []string{"hoard.txt: skipped 7 benchmark-like lines without an ops/sec figure: line 2 b, line 3 b, line 4 b, line 5 b, line 6 b, and 2 more"},
		skipped: []string{"b"},
	}, {
		name:  "none",
		input: "=== x: y ===\n--- a ---\na: x=1 (1 ops/sec)\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := OpenReader("hoard.txt", strings.NewReader(tt.input), opsFormat)
			if err != nil {
				t.Fatal(err)
			}
			if tt.expected != nil {
				f.Options.ExpectedSkips = map[string]bool{}
				for _, name := range tt.expected {
					f.Options.ExpectedSkips[name] = true
				}
			}
			_, notes, err := ReadAll(f)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.skipped, f.Skipped()); diff != "" {
				t.Errorf("Skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOpsSkippedNamesBounded: a file of many distinct benchmark-like lines
// without a figure keeps at most MaxSkipNames of their names, and still
// counts every line in its note.
func TestOpsSkippedNamesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: x=1 (1 ops/sec)\n")
	n := MaxSkipNames + 50
	for i := range n {
		fmt.Fprintf(&b, "b%04d: x=1 time=1 sec\n", i)
	}
	f, err := OpenReader("hoard.txt", strings.NewReader(b.String()), opsFormat)
	if err != nil {
		t.Fatal(err)
	}
	_, notes, err := ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.Skipped()); got != MaxSkipNames {
		t.Errorf("Skipped holds %d names, want %d", got, MaxSkipNames)
	}
	if want := fmt.Sprintf("skipped %d benchmark-like lines", n); len(notes) != 1 || !strings.Contains(notes[0], want) {
		t.Errorf("notes = %q, want one holding %q", notes, want)
	}
}

func TestOpsStartedTime(t *testing.T) {
	input := "=== run=01 variant=baseline started=2026-12-01T07:33:21+00:00 ===\na: x=1 (3 ops/sec)\n"
	got, _, err := parseAll(t, "ops", "f.txt", []byte(input))
	if err != nil || len(got) != 1 {
		t.Fatalf("got %v, %v", got, err)
	}
	if want := "2026-12-01T07:33:21Z"; got[0].Time.UTC().Format("2006-01-02T15:04:05Z07:00") != want {
		t.Errorf("time = %v, want %s", got[0].Time, want)
	}
}

func csvRec(line int, run, bench, variant string, sample int, v float64, unit, role string, labels map[string]string) Record {
	return Record{Line: line, Run: run, Role: role, Labels: labels,
		Measurement: data.Measurement{Benchmark: bench, Variant: variant, Sample: sample, Value: v, Unit: unit}}
}

func csvRepRec(line int, run, bench, variant string, sample, repetition int, v float64) Record {
	return Record{Line: line, Run: run,
		Measurement: data.Measurement{Benchmark: bench, Variant: variant, Sample: sample, Repetition: repetition, Value: v}}
}

func TestCSVParser(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		want   []Record
		errors []string
	}{{
		name:  "required columns only: one row per run, variant and benchmark (and unit)",
		input: "run,benchmark,variant,value,unit\nr1,a,x,1.5,s\nr1,a,x,1.6,B\nr1,a,y,2,s\nr2,a,x,3,s\n",
		want: []Record{
			csvRec(2, "r1", "a", "x", 0, 1.5, "s", "", nil),
			csvRec(3, "r1", "a", "x", 0, 1.6, "B", "", nil),
			csvRec(4, "r1", "a", "y", 0, 2, "s", "", nil),
			csvRec(5, "r2", "a", "x", 0, 3, "s", "", nil),
		},
	}, {
		name:   "without a sample column a repeated run, benchmark and variant is an error naming both lines (it used to be a second sample)",
		input:  "run,benchmark,variant,value\nr1,a,x,1.5\nr1,a,y,2\nr1,a,x,1.6\n",
		want:   []Record{csvRec(2, "r1", "a", "x", 0, 1.5, "", "", nil), csvRec(3, "r1", "a", "y", 0, 2, "", "", nil)},
		errors: []string{"f.csv:4: run r1: benchmark a of variant x was given on line 2 already: without a sample column a run holds one value per benchmark and variant; add a sample column, or make the run ids distinct"},
	}, {
		name:  "with a sample column, empty cells number the samples in order",
		input: "run,benchmark,variant,value,sample\nr1,a,x,1.5,\nr1,a,x,1.6,\n",
		want:  []Record{csvRec(2, "r1", "a", "x", 0, 1.5, "", "", nil), csvRec(3, "r1", "a", "x", 1, 1.6, "", "", nil)},
	}, {
		name:   "the same with a unit",
		input:  "run,benchmark,variant,value,unit\nr1,a,x,1.5,ns/op\nr1,a,x,1.6,ns/op\n",
		want:   []Record{csvRec(2, "r1", "a", "x", 0, 1.5, "ns/op", "", nil)},
		errors: []string{"f.csv:3: run r1: benchmark a of variant x in ns/op was given on line 2 already: without a sample column a run holds one value per benchmark and variant; add a sample column, or make the run ids distinct"},
	}, {
		name:  "a repetition column: each row's repetition of the whole suite, from 1; sample numbers stay the run's own",
		input: "run,benchmark,variant,value,repetition,sample\nr1,a,x,1.5,1,0\nr1,a,x,1.6,2,1\nr1,a,x,1.7,,2\n",
		want:  []Record{csvRepRec(2, "r1", "a", "x", 0, 1, 1.5), csvRepRec(3, "r1", "a", "x", 1, 2, 1.6), csvRepRec(4, "r1", "a", "x", 2, 0, 1.7)},
	}, {
		name:   "a repetition column without a sample column: one row per benchmark and variant in each repetition, numbered as samples in order",
		input:  "run,benchmark,variant,value,repetition\nr1,a,x,1.5,1\nr1,a,y,2,1\nr1,a,x,1.6,2\nr1,a,x,1.7,2\n",
		want:   []Record{csvRepRec(2, "r1", "a", "x", 0, 1, 1.5), csvRepRec(3, "r1", "a", "y", 0, 1, 2), csvRepRec(4, "r1", "a", "x", 1, 2, 1.6)},
		errors: []string{"f.csv:5: run r1: benchmark a of variant x in repetition 2 was given on line 4 already: without a sample column a repetition holds one value per benchmark and variant; add a sample column"},
	}, {
		name:   "without a sample column, a run's rows give a repetition or none, in either order",
		input:  "run,benchmark,variant,value,repetition\nr1,a,x,1.5,1\nr1,a,x,1.6,\nr2,a,x,1.5,\nr2,a,x,1.6,2\n",
		want:   []Record{csvRepRec(2, "r1", "a", "x", 0, 1, 1.5), csvRec(4, "r2", "a", "x", 0, 1.5, "", "", nil)},
		errors: []string{"f.csv:3: run r1 gives a repetition on line 2 and none on line 3: give every row of a run its repetition, or none", "f.csv:5: run r2 gives a repetition on line 5 and none on line 4: give every row of a run its repetition, or none"},
	}, {
		name:   "a repetition that is no whole number from 1",
		input:  "run,benchmark,variant,value,repetition\nr1,a,x,1,0\nr1,b,x,1,-1\nr1,c,x,1,two\nr1,d,x,1,+2\n",
		errors: []string{`f.csv:2: repetition "0": expected a whole number >= 1`, `f.csv:3: repetition "-1": expected a whole number >= 1`, `f.csv:4: repetition "two": expected a whole number >= 1`, `f.csv:5: repetition "+2": expected a whole number >= 1`},
	}, {
		name:   "a column qoscal does not know is an error naming it",
		input:  "set,run,benchmark,variant,value\nhealthy,run-01,a,x,1\nregressed,run-01,a,x,2\n",
		errors: []string{`f.csv:1: column 1: unknown column "set": expected run, benchmark, variant, value, unit, sample, repetition, role, time or label.KEY; name it label.set to keep it as a label of the run, or pass --ignore-columns to ignore it`},
	}, {
		name:  "optional columns in any order and case, labels, blank lines",
		input: "Label.os,VALUE,unit,role,variant,benchmark,run,sample\n\nlinux,10,ns/op,Baseline,sys,b1,r1,3\n",
		want:  []Record{csvRec(3, "r1", "b1", "sys", 3, 10, "ns/op", "baseline", map[string]string{"os": "linux"})},
	}, {
		name:  "lines ending in CR alone",
		input: "run,benchmark,variant,value\rr1,a,x,1\rr1,b,x,2\r",
		want:  []Record{csvRec(2, "r1", "a", "x", 0, 1, "", "", nil), csvRec(3, "r1", "b", "x", 0, 2, "", "", nil)},
	}, {
		name:   "missing required column",
		input:  "run,benchmark,value\nr1,a,1\n",
		errors: []string{"f.csv:1: header lacks required column(s) variant: expected run,benchmark,variant,value"},
	}, {
		name:   "short row; parsing goes on",
		input:  "run,benchmark,variant,value\nr1,a,x\nr1,b,x,2\n",
		want:   []Record{csvRec(3, "r1", "b", "x", 0, 2, "", "", nil)},
		errors: []string{"f.csv:2: row has 3 fields, the header has 4"},
	}, {
		name:   "bad values",
		input:  "run,benchmark,variant,value\nr1,a,x,0\nr1,b,x,-1\nr1,c,x,NaN\nr1,d,x,abc\nr1,e,x,\n",
		errors: []string{"f.csv:2: value 0 is not positive: measurements must be > 0", "f.csv:3: value -1 is not positive: measurements must be > 0", `f.csv:4: value "NaN" is not a number (NaN)`, `f.csv:5: value "abc" is not a plain decimal number: expected digits with an optional point and exponent, as benchmarks print them (5514093, 0.072, 1.5e-9)`, "f.csv:6: missing value"},
	}, {
		name:   "bad role, sample and time",
		input:  "run,benchmark,variant,value,role,sample,time\nr1,a,x,1,boss,,\nr1,a,x,1,,-2,\nr1,a,x,1,,,yesterday\nr1,a,x,1,,+3,\n",
		errors: []string{`f.csv:2: role "boss": expected baseline, candidate or empty`, `f.csv:3: sample "-2": expected a whole number >= 0`, `f.csv:4: time "yesterday": expected RFC 3339, like 2026-12-01T07:33:21Z`, `f.csv:5: sample "+3": expected a whole number >= 0`},
	}, {
		name:   "empty key fields",
		input:  "run,benchmark,variant,value\n,a,x,1\n",
		errors: []string{"f.csv:2: empty run"},
	}, {
		name:   "no header at all",
		input:  "\n\n",
		errors: []string{"f.csv: no header row: expected run,benchmark,variant,value"},
	}, {
		name:   "broken quote stops the parser at its line",
		input:  "run,benchmark,variant,value\nr1,\"a,x,1\n",
		errors: []string{`f.csv:2: extraneous or missing " in quoted-field`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkParse(t, "csv", "f.csv", tt.input, tt.want, tt.errors) })
	}
}

// TestCSVIgnoreColumns: with ParseOptions.IgnoreColumns an unknown column
// is ignored, and run ids that repeat across its sets are still caught.
func TestCSVIgnoreColumns(t *testing.T) {
	input := "set,run,benchmark,variant,value\nhealthy,run-01,a,x,1\nhealthy,run-01,a,y,2\nregressed,run-01,a,x,3\n"
	tf, err := OpenReader("f.csv", strings.NewReader(input), csvFormat)
	if err != nil {
		t.Fatal(err)
	}
	tf.Options.IgnoreColumns = true
	_, _, err = ReadAll(tf)
	want := "f.csv:4: run run-01: benchmark a of variant x was given on line 2 already: without a sample column a run holds one value per benchmark and variant; add a sample column, or make the run ids distinct"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	tf, err = OpenReader("f.csv", strings.NewReader("Set,run,benchmark,variant,value\nh,r1,a,x,1\n"), csvFormat)
	if err != nil {
		t.Fatal(err)
	}
	tf.Options.IgnoreColumns = true
	recs, _, err := ReadAll(tf)
	if err != nil || len(recs) != 1 || recs[0].Run != "r1" {
		t.Errorf("records %+v, error %v", recs, err)
	}
}

const sampleText = "=== Hoard allocator ===\r\nlarson: threads=4 (5514093 ops/sec)\r\nsh8bench: x=1 (20336963 ops/sec)\r\n"

func TestTextDecoding(t *testing.T) {
	utf16 := func(order unicode.Endianness, bom unicode.BOMPolicy) []byte {
		b, err := unicode.UTF16(order, bom).NewEncoder().Bytes([]byte(sampleText))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name  string
		input []byte
		enc   Encoding
	}{
		{"UTF-8", []byte(sampleText), EncUTF8},
		{"UTF-8 with BOM", append([]byte{0xEF, 0xBB, 0xBF}, sampleText...), EncUTF8BOM},
		{"UTF-16LE with BOM (PowerShell Tee-Object)", utf16(unicode.LittleEndian, unicode.UseBOM), EncUTF16LEBOM},
		{"UTF-16BE with BOM", utf16(unicode.BigEndian, unicode.UseBOM), EncUTF16BEBOM},
		{"UTF-16LE without BOM", utf16(unicode.LittleEndian, unicode.IgnoreBOM), EncUTF16LE},
		{"UTF-16BE without BOM", utf16(unicode.BigEndian, unicode.IgnoreBOM), EncUTF16BE},
	}
	want := []Record{opsRec(2, "larson", 0, 5514093), opsRec(3, "sh8bench", 0, 20336963)}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := NewTextReader("f.txt", bytes.NewReader(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Encoding != tt.enc {
				t.Errorf("encoding = %q, want %q", tr.Encoding, tt.enc)
			}
			got, errs, err := parseAll(t, "auto", "f.txt", tt.input)
			if err != nil || len(errs) > 0 {
				t.Fatalf("parse: %v %v", err, errs)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTextErrors(t *testing.T) {
	odd, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(sampleText))
	if err != nil {
		t.Fatal(err)
	}
	odd = odd[:len(odd)-1]
	tests := []struct {
		name, want string
		input      []byte
	}{
		{"empty file", "f.txt: empty file: expected benchmark results", nil},
		{"binary garbage", "f.txt: binary data at byte 4: not a text result file", []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00larson: (5 ops/sec)\n")},
		{"invalid UTF-8", "f.txt: binary data at byte 3: not a text result file", []byte("abc\xff\xfe\xfdxyz\n")},
		{"UTF-16 with an odd byte count", "f.txt: utf-16le with BOM file has an odd number of bytes (193): it was cut in the middle of a character", odd},
		{"binary data after the first 4 KiB", "f.txt:201: binary data at byte 4600: not a text result file", []byte(strings.Repeat("bench: t=1 (1 ops/sec)\n", 200) + "\x00\x01\x02ELF\n")},
		{"invalid UTF-8 after the first 4 KiB, CR line ends", "f.txt:201: binary data at byte 4603: not a text result file", []byte(strings.Repeat("bench: t=1 (1 ops/sec)\r", 200) + "abc\xff\xfe\n")},
		{"a control character after the first 4 KiB of UTF-16", "f.txt:201: binary data (a NUL or other control character) in utf-16le with BOM text: not a text result file", utf16le(t, strings.Repeat("bench: t=1 (1 ops/sec)\n", 200)+"a\x00b\n")},
		{"text in no known format", "f.txt: no benchmark results found in the file: cannot tell the format (known formats: csv, gbench, gobench, hyperfine, ops, pytest-benchmark); use --input-format", []byte("hello\nworld\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := OpenReader("f.txt", bytes.NewReader(tt.input), nil)
			if err == nil {
				_, _, err = ReadAll(f)
			}
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tt.want {
				t.Errorf("error = %q\nwant    %q", err, tt.want)
			}
		})
	}
}

func utf16le(t *testing.T, s string) []byte {
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLineEndsAcrossReads: a CRLF, a lone CR and a UTF-8 sequence split
// between two reads of the underlying file are read as if whole.
func TestLineEndsAcrossReads(t *testing.T) {
	input := "=== é ===\r\nbenché: t=1 (1 ops/sec)\rb: t=1 (2 ops/sec)\r\nc: t=1 (3 ops/sec)\r"
	want := []Record{opsRec(2, "benché", 0, 1), opsRec(3, "b", 0, 2), opsRec(4, "c", 0, 3)}
	tr, err := NewTextReader("f.txt", iotest.OneByteReader(strings.NewReader(input)))
	if err != nil {
		t.Fatal(err)
	}
	var got []Record
	p := opsFormat.New(tr, "f.txt", ParseOptions{})
	for {
		r, err := p.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestReadAllNoResults(t *testing.T) {
	f, err := OpenReader("f.txt", strings.NewReader("=== a: b ===\n--- larson ---\n"), opsFormat)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = ReadAll(f)
	want := "f.txt: no result lines (format ops: allocator benchmark text, lines like `larson: threads=4 ... (5514093 ops/sec)`)"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct{ input, want string }{
		{"run,benchmark,variant,value\n", "csv"},
		{"\n\nrun, Benchmark ,variant,value,unit\n", "csv"},
		{"=== x ===\nlarson: t=1 (5 ops/sec)\n", "ops"},
		{"benchmark,value\n", ""},
		{"run,benchmark,variant,value\rr1,a,x,1\r", "csv"},
		{"progress: 10%\rlarson: t=1 (5 ops/sec)\r", "ops"},
	}
	for _, tt := range tests {
		got := ""
		if f := detect([]byte(tt.input)); f != nil {
			got = f.Name
		}
		if got != tt.want {
			t.Errorf("detect(%q) = %q, want %q", tt.input, got, tt.want)
		}
	}
}

// TestLargeFileStreams checks that parsing does not hold the whole input:
// a long file is parsed through a reader that yields it piece by piece,
// and the parser's memory stays bounded by the line buffer.
func TestLargeFileStreams(t *testing.T) {
	const lines = 200000
	line := "bench: threads=2 ops=4000000 time=0.595 sec (6722316 ops/sec)\n"
	r := io.MultiReader(strings.NewReader("=== start ===\n"), &repeatReader{s: line, n: lines})
	tf, err := OpenReader("big.txt", r, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := tf.Parser()
	n := 0
	for {
		rec, err := p.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Sample != n {
			t.Fatalf("sample %d, want %d", rec.Sample, n)
		}
		n++
	}
	if n != lines {
		t.Errorf("parsed %d records, want %d", n, lines)
	}
}

type repeatReader struct {
	s   string
	n   int
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.s[r.off:])
	r.off += k
	if r.off == len(r.s) {
		r.off = 0
		r.n--
	}
	return k, nil
}

func TestParseValue(t *testing.T) {
	for _, s := range []string{"1", "0.5", "1e150", "1e-150", "1.5e-9", "5514093"} {
		v, err := parseValue(s)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			t.Errorf("parseValue(%q) = %v, %v", s, v, err)
		}
	}
	// 1e300 and 5e-324 passed before issue 11: a ratio of 1e308 to a
	// normal value overflows, and 5e-324 is subnormal.
	const why = " is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number"
	for _, s := range []string{"1e300", "1e308", "5e-324", "1e-320", "1e-400", "0.1e-399", "1.1e150", "9e-151"} {
		v, err := parseValue(s)
		if err == nil || err.Error() != "value "+s+why {
			t.Errorf("parseValue(%q) = %v, %v, want the range error", s, v, err)
		}
	}
	for _, v := range []float64{1e300, 5e-324, 1e-151} {
		if err := checkSample(v); err == nil || err.Error() != "value "+fmt.Sprint(v)+why {
			t.Errorf("checkSample(%v) = %v, want the range error", v, err)
		}
	}
}

// seedFiles returns the fixture files under testdata/DIR; it fails the
// test when there are none, so a fuzz test is never left without seeds.
func seedFiles(t testing.TB, pattern string) [][]byte {
	paths, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no seed files match testdata/%s", pattern)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// fuzzParse checks the properties every parser keeps on any input: no
// panic, progress (finitely many results), every record has a benchmark
// name, a positive finite value and a line inside the input, and every
// syntax error names the file and a line inside the input.
func fuzzParse(t *testing.T, format string, input []byte) {
	f, _ := LookupFormat(format)
	tf, err := OpenReader("fuzz", bytes.NewReader(input), f)
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("open: non-syntax error %v", err)
		}
		return
	}
	// CR, LF and CRLF each end a line.
	lines := bytes.Count(input, []byte{'\n'}) + bytes.Count(input, []byte{'\r'}) - bytes.Count(input, []byte("\r\n")) + 1
	if tf.Text.Encoding != EncUTF8 && tf.Text.Encoding != EncUTF8BOM {
		lines = len(input) // decoded line count is bounded by the byte count
	}
	p := tf.Parser()
	for i := 0; ; i++ {
		if i > len(input)+10 {
			t.Fatal("parser yields more results than the input has bytes")
		}
		r, err := p.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			se, ok := asSyntax(err)
			if !ok {
				return // I/O errors end the stream
			}
			if se.File != "fuzz" || se.Line < 0 || se.Line > lines {
				t.Fatalf("syntax error with bad position: %+v (input has %d lines)", se, lines)
			}
			continue
		}
		// Line 0 is a record of a JSON format, which has no line of its own.
		if r.Benchmark == "" || !(r.Value > 0) || math.IsInf(r.Value, 0) || r.Line < 0 || r.Line > lines {
			t.Fatalf("bad record %+v", r)
		}
	}
}

func FuzzOps(f *testing.F) {
	for _, b := range seedFiles(f, "ops/*.txt") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { fuzzParse(t, "ops", b) })
}

func FuzzCSV(f *testing.F) {
	for _, b := range seedFiles(f, "csv/*.csv") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { fuzzParse(t, "csv", b) })
}

// opsLineRE is the regular expression matchOpsLine writes out by hand.
var opsLineRE = regexp.MustCompile(`^([^:]*):(.*)\(\s*([^()\s]*)\s+ops/sec\s*\)\s*$`)

// FuzzMatchOpsLine: matchOpsLine agrees with the regular expression it
// replaces, on whether a line matches and on the name and value it finds.
func FuzzMatchOpsLine(f *testing.F) {
	for _, s := range []string{
		"larson: threads=4 ops=400000 time=0.072 sec (5514093 ops/sec)",
		"a: (1 ops/sec)", "a:( ops/sec)", "a:(ops/sec)", "a:(  ops/sec )  ", "a:(1ops/sec)",
		"x (y): z (2 ops/sec)", "a: (1 ops/sec) (2 ops/sec)", "a: (1 (2) ops/sec)", "(1 ops/sec): a",
		"a:\n(1 ops/sec)", "a\n:(1 ops/sec)", "a: (1\n ops/sec\r)\n", "a: (\t1\fops/sec)", "a: (1 ops/sec)x",
		"a: (1 ops/secs)", "a: (1 ops/sec))", ":(1 ops/sec)", "a:b:c (1e3 ops/sec)", "a: (1\v ops/sec)",
		"\xff: (\xfe ops/sec)", "a: (1 ops/sec ops/sec)", "a: (ops/sec ops/sec)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		name, value, ok := matchOpsLine(line)
		m := opsLineRE.FindStringSubmatch(line)
		if ok != (m != nil) {
			t.Fatalf("matchOpsLine(%q) = %v, the regular expression %v", line, ok, m != nil)
		}
		if ok && (name != m[1] || value != m[3]) {
			t.Fatalf("matchOpsLine(%q) = %q, %q; the regular expression %q, %q", line, name, value, m[1], m[3])
		}
	})
}

// TestReadWhole: a file read whole (OpenFile of a small file: openBytes,
// with its plain-text path) reads as it does streamed, for the inputs at
// the edges of plainText; and plainText takes the ones it should.
func TestReadWhole(t *testing.T) {
	for _, in := range wholeTextSeeds {
		full, sized, whole := readThreeWays([]byte(in))
		if full != whole || full != sized {
			t.Errorf("%q:\nstreamed: %s\nread whole: %s", in, full, whole)
		}
	}
	for in, want := range map[string]string{
		"a\r\nb\rc\r\r\nd\n": "a\nb\nc\n\nd\n",
		"ä\x1b\f\t\x7f":      "ä\x1b\f\t\x7f",
	} {
		if got, ok := plainText([]byte(in)); !ok || string(got) != want {
			t.Errorf("plainText(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "\xEF\xBB\xBFa", "a\x00", "a\xC3", "\xFF\xFEa\x00", "a\x01b"} {
		if _, ok := plainText([]byte(in)); ok {
			t.Errorf("plainText(%q) takes it: it should go the general way", in)
		}
	}
}

// TestReadAll: readAll reads a file whole whatever its size was when a
// stat found it (it may have grown or shrunk since), and however its
// reads are cut; a read error is returned.
func TestReadAll(t *testing.T) {
	for _, n := range []int{0, 1, 700, wholeMax, wholeMax + 1, 3*wholeMax + 5} {
		content := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
		for _, size := range []int64{int64(n), 0, int64(n) / 2, int64(n) + 1, wholeMax} {
			for _, chunk := range []int{1 << 30, 100} {
				r := bytes.NewReader(content)
				read := func(p []byte) (int, error) { return r.Read(p[:min(len(p), chunk)]) }
				if chunk < len(content) && size != int64(n) {
					// Reads shorter than asked for end at size bytes; a
					// regular file's reads are short only at its end.
					continue
				}
				buf, err := readAll(size, read)
				if err != nil || !bytes.Equal(*buf, content) {
					t.Fatalf("%d bytes, stat said %d, reads of %d: got %d bytes, %v", n, size, chunk, len(*buf), err)
				}
				putWholeBuf(buf)
			}
		}
	}
	boom := errors.New("boom")
	if _, err := readAll(10, func([]byte) (int, error) { return 0, boom }); err != boom {
		t.Errorf("read error: %v", err)
	}
}

// TestOpsManyBenchmarks: past the opsIndexAt benchmarks that opsParser
// looks through one by one, it indexes them; the samples of each
// benchmark are numbered alike either way.
func TestOpsManyBenchmarks(t *testing.T) {
	for _, n := range []int{opsIndexAt - 1, opsIndexAt, opsIndexAt + 1, 3 * opsIndexAt} {
		var text strings.Builder
		var want []Record
		line := 0
		for round := range 3 {
			for b := range n {
				line++
				fmt.Fprintf(&text, "bench-%d: x=1 (%d ops/sec)\n", b, 100+round)
				want = append(want, opsRec(line, fmt.Sprintf("bench-%d", b), round, float64(100+round)))
			}
		}
		f, err := OpenReader("many.txt", strings.NewReader(text.String()), opsFormat)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d benchmarks: records (-want +got):\n%s", n, diff)
		}
	}
}

// TestPlainTextEveryByte: plainText, which passes over words of printable
// ASCII eight bytes at a time, finds every byte value at every place in
// and around a word as a byte-by-byte look would.
func TestPlainTextEveryByte(t *testing.T) {
	for c := range 256 {
		wantOK := c >= 0x20 && c < 0x80 || c == '\t' || c == '\n' || c == '\f' || c == 0x1b || c == '\r'
		for at := range 20 {
			in := []byte(strings.Repeat("larson: (5 ops/sec) ", 2)[:24])
			in[at] = byte(c)
			want := strings.ReplaceAll(string(in), "\r", "\n")
			got, ok := plainText(append([]byte(nil), in...))
			if ok != wantOK || ok && string(got) != want {
				t.Fatalf("byte %#x at %d: plainText = %q, %v; want %q, %v", c, at, got, ok, want, wantOK)
			}
		}
	}
	// UTF-8 sequences across the words' edges are taken whole.
	for _, r := range []string{"ä", "€", "𝄞"} {
		for at := range 20 {
			in := strings.Repeat("x", at) + r + strings.Repeat("y", 20-at)
			if got, ok := plainText([]byte(in)); !ok || string(got) != in {
				t.Errorf("plainText(%q) = %q, %v", in, got, ok)
			}
		}
	}
}
