package formats

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/qoscal/qoscal/data"
)

// allSeeds are the fixtures of every format under testdata/; each glob
// must match (seedFiles fails the test otherwise).
func allSeeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, glob := range []string{"ops/*.txt", "csv/*.csv", "gobench/*.txt", "gbench/*.json", "hyperfine/*.json", "pytest-benchmark/*.json"} {
		out = append(out, seedFiles(f, glob)...)
	}
	return out
}

// checkMeasurement fails t unless m has valid names and a positive,
// finite value within [MinValue, MaxValue].
func checkMeasurement(t *testing.T, where string, m data.Measurement) {
	t.Helper()
	for _, n := range []struct{ kind, s string }{{"benchmark", m.Benchmark}, {"variant", m.Variant}, {"unit", m.Unit}} {
		if err := data.CheckName(n.kind, n.s); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
	}
	if m.Benchmark == "" || !(m.Value >= MinValue && m.Value <= MaxValue) || math.IsInf(m.Value, 0) {
		t.Fatalf("%s: bad measurement %+v", where, m)
	}
}

// FuzzDetect: format detection over any bytes never panics, and neither
// does parsing the file in the format detected; every record that
// reading lets through has valid names and a value in range.
func FuzzDetect(f *testing.F) {
	for _, b := range allSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, n := range FormatNames() {
			registry[n].Detect(b)
		}
		detect(b)
		fuzzParse(t, "auto", b)
		tf, err := OpenReader("fuzz", bytes.NewReader(b), nil)
		if err != nil {
			return
		}
		eachRecord(tf, func(r Record) {
			checkMeasurement(t, "record", r.Measurement)
			if err := data.CheckName("run id", r.Run); err != nil {
				t.Fatal(err)
			}
			if err := checkLabels(r.Labels); err != nil {
				t.Fatal(err)
			}
		})
	})
}

// FuzzSizedBuffers: a file read with buffers sized to it (as OpenFile
// sizes them), or read whole (as OpenFile reads a small file: openBytes,
// with its plain-text path), gives the same format, encoding, records,
// notes and errors as one read with the full-size buffers of an input of
// unknown size.
func FuzzSizedBuffers(f *testing.F) {
	for _, b := range allSeeds(f) {
		f.Add(b)
	}
	for _, b := range wholeTextSeeds {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		full, sized, whole := readThreeWays(b)
		if full != sized {
			t.Errorf("buffers sized to the file:\n%s\nfull-size buffers:\n%s", sized, full)
		}
		if full != whole {
			t.Errorf("read whole:\n%s\nfull-size buffers:\n%s", whole, full)
		}
	})
}

// wholeTextSeeds are inputs at the edges of plainText: line ends of every
// kind, UTF-8 with and without a BOM, UTF-16, control characters.
var wholeTextSeeds = []string{
	"larson: threads=4 time=0.1 sec (5514093 ops/sec)\n",
	"larson: threads=4 time=0.1 sec (5514093 ops/sec)",
	"a: x=1 (5 ops/sec)\r\nb: x=1 (6 ops/sec)\rc: x=1 (7 ops/sec)\r\r\nd: x=1 (8 ops/sec)\r",
	"progress 10%\rprogress 100%\rlarson: x=1 (9 ops/sec)\n\n\n",
	"\xEF\xBB\xBFlarson: x=1 (5 ops/sec)\n",
	"lärson: x=1 (5 ops/sec)\nкэш: x=1 (6 ops/sec)\n",
	"larson: x=1 (5 ops/sec)\n\xC3\n",
	"larson: x=1 (5 ops/sec)\n\xC3",
	"larson: x=1 (5 ops/sec)\n\x00\n",
	"larson: x=1 (5 ops/sec)\n\x1b[0m\f\t\x7f\n",
	"l\x00a\x00:\x00 \x00x\x00=\x001\x00 \x00(\x005\x00 \x00o\x00p\x00s\x00/\x00s\x00e\x00c\x00)\x00",
	"\xFF\xFEl\x00:\x00",
	"xmalloc-test: threads=4 time=0.626 sec\nlarson: x=1 (5 ops/sec)\n",
	"run,benchmark,variant,value\r\nr1,b,v,1\r\nr1,b,w,2\r\n",
	"BenchmarkX-8   1000   1234 ns/op\r\n",
	"\r\n\r\n",
	"",
}

// readThreeWays reads b as a result file, with full-size buffers, with
// buffers sized to it, and whole (openBytes), and describes what each
// read: format, encoding, records, notes and errors.
func readThreeWays(b []byte) (full, sized, whole string) {
	read := func(open func() (*File, error)) string {
		tf, err := open()
		if err != nil {
			return "open: " + err.Error()
		}
		defer tf.Close()
		var out strings.Builder
		fmt.Fprintf(&out, "%s %s\n", tf.Format.Name, tf.Text.Encoding)
		notes, err := eachRecord(tf, func(r Record) { fmt.Fprintf(&out, "%+v\n", r) })
		fmt.Fprintf(&out, "%q %v", notes, err)
		return out.String()
	}
	full = read(func() (*File, error) { return openReaderSize("fuzz", bytes.NewReader(b), -1, nil) })
	sized = read(func() (*File, error) { return openReaderSize("fuzz", bytes.NewReader(b), int64(len(b)), nil) })
	whole = read(func() (*File, error) {
		buf := wholeBufs.Get().(*[]byte)
		*buf = append((*buf)[:0], b...)
		return openBytes("fuzz", buf, nil)
	})
	return full, sized, whole
}

// FuzzDecoder: the decoder reads, from any bytes, the same text and the
// same error as golang.org/x/text's transform.Reader with the same UTF-16
// decoder, whatever the input's chunks and the buffer's size.
func FuzzDecoder(f *testing.F) {
	for _, b := range allSeeds(f) {
		f.Add(b, uint8(0))
	}
	f.Add([]byte{0xFF, 0xFE, 'a', 0, 0x3D, 0xD8, 0x00, 0xDE, 'b'}, uint8(3))
	f.Fuzz(func(t *testing.T, b []byte, shape uint8) {
		decoders := []func() transform.Transformer{
			func() transform.Transformer {
				return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
			},
			func() transform.Transformer {
				return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
			},
			func() transform.Transformer {
				return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()
			},
			func() transform.Transformer {
				return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder()
			},
		}
		for _, dec := range decoders {
			want, wantErr := io.ReadAll(transform.NewReader(bytes.NewReader(b), dec()))
			var in io.Reader = bytes.NewReader(b)
			if shape&1 != 0 {
				in = iotest.OneByteReader(in)
			}
			size := 16 + int(shape>>1)
			got, gotErr := io.ReadAll(newDecoder(bufio.NewReaderSize(in, size), dec()))
			if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("input %x, buffer %d: decoder gave %q, %v; transform.Reader %q, %v", b, size, got, gotErr, want, wantErr)
			}
		}
	})
}

// plainDecimalRE is the rule plainDecimal writes out by hand.
var plainDecimalRE = regexp.MustCompile(`^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// FuzzParseNumber: parseNumber takes exactly the plain decimal numbers
// (plainDecimalRE; plainDecimal on the same text as bytes agrees), and
// reads each as strconv.ParseFloat does: the same number (bit for bit)
// and the same error. Anything else (hex, underscores, a plus sign,
// spaces, inf, NaN) is errNotPlain, though ParseFloat reads some of it.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"5514093", "0", "007", "999999999999999", "9999999999999999", "123456789012345", "1e5", "1.5", "-3", "+3", "", " 1", "1_000", "0x10", "0x1p40", "inf", "NaN", "18446744073709551616", ".5", "5.", ".", "-", "1e", "1e+", "1.e5", "1e999", "1e-400", "0.12345678901234567890123456789012345678"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gotErr := parseNumber(s)
		plain := plainDecimalRE.MatchString(s)
		if plainDecimal(s) != plain || plainDecimal([]byte(s)) != plain {
			t.Fatalf("plainDecimal(%q) = %v, the regular expression %v", s, plainDecimal(s), plain)
		}
		if !plain {
			if gotErr != errNotPlain {
				t.Errorf("parseNumber(%q) = %v, %v; want errNotPlain", s, got, gotErr)
			}
			return
		}
		want, wantErr := strconv.ParseFloat(s, 64)
		if math.Float64bits(got) != math.Float64bits(want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("parseNumber(%q) = %v, %v; strconv.ParseFloat: %v, %v", s, got, gotErr, want, wantErr)
		}
	})
}
