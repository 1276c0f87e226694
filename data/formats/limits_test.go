package formats

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// streamed opens a result file of the given format whose text is the
// parts, read as a stream: nothing of it is held but what the parser
// holds.
func streamed(t *testing.T, format, name string, parts ...io.Reader) *File {
	t.Helper()
	f, err := LookupFormat(format)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := OpenReader(name, io.MultiReader(parts...), f)
	if err != nil {
		t.Fatal(err)
	}
	return tf
}

// lines is n lines of s (s ends with a newline).
func lines(s string, n int) io.Reader { return &repeatReader{s: s, n: n} }

// readLimited reads f to its end, keeping no record, and returns the
// number of records read, the peak heap it took, and the error.
func readLimited(f *File) (n int, peak uint64, err error) {
	peak = peakHeap(func() {
		_, err = eachRecord(f, func(Record) { n++ })
	})
	return n, peak, err
}

// checkLimit fails t unless err is one syntax error, want, and the
// reading took less than maxPeak bytes of heap.
func checkLimit(t *testing.T, err error, peak uint64, want string, maxPeak uint64) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) || len(ie.Errs) != 1 || ie.Errs[0].Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	if peak > maxPeak {
		t.Errorf("peak heap %d MiB, want under %d MiB", peak>>20, maxPeak>>20)
	}
}

// TestLimits: memory stays bounded for any input, or the input is
// refused at its file and line, naming the limit. A 100 MB CSV header
// line took 961 MiB of heap (encoding/csv reads a record whole), and
// 3,000,000 samples of one benchmark were all held.
func TestLimits(t *testing.T) {
	const mib = 1 << 20
	t.Run("a 100 MB CSV header line", func(t *testing.T) {
		f := streamed(t, "csv", "r.csv", strings.NewReader("run,benchmark,variant,value,"), lines("x", 100*mib), strings.NewReader("\nr,a,b,1\n"))
		_, peak, err := readLimited(f)
		checkLimit(t, err, peak, "r.csv:1: line longer than 1048576 bytes (1 MiB), the limit for a line of a text result file: expected the lines a benchmark suite prints", 16*mib)
	})
	t.Run("a long CSV row after good ones", func(t *testing.T) {
		f := streamed(t, "csv", "r.csv", strings.NewReader("run,benchmark,variant,value\nr,a,b,1\nr,b,b,"), lines("1", 2*mib), strings.NewReader("\n"))
		n, _, err := readLimited(f)
		checkLimit(t, err, 0, "r.csv:3: line longer than 1048576 bytes (1 MiB), the limit for a line of a text result file: expected the lines a benchmark suite prints", 1)
		if n != 1 {
			t.Errorf("%d records before the long line, want 1", n)
		}
	})
	t.Run("3,000,000 samples of one benchmark", func(t *testing.T) {
		f := streamed(t, "ops", "big.txt", lines("larson: x=1 (5514093 ops/sec)\n", 3000000))
		n, peak, err := readLimited(f)
		checkLimit(t, err, peak, "big.txt:1000001: benchmark larson: more than 1000000 samples of one benchmark in one result file, the limit", 16*mib)
		if n != MaxSamples {
			t.Errorf("%d records, want the first %d", n, MaxSamples)
		}
	})
	t.Run("too many samples in a JSON array", func(t *testing.T) {
		f := streamed(t, "hyperfine", "h.json", strings.NewReader(`{"results": [{"command": "a", "times": [1`), lines(",1", MaxSamples), strings.NewReader("]}]}"))
		_, _, err := readLimited(f)
		checkLimit(t, err, 0, "h.json: benchmark a: more than 1000000 samples of one benchmark in one result file, the limit", 1)
	})
	t.Run("a CSV sample number beyond the samples one benchmark may have", func(t *testing.T) {
		f := streamed(t, "csv", "r.csv", strings.NewReader("run,benchmark,variant,value,sample\nr,a,b,1,0\nr,a,b,1,1000000\n"))
		_, _, err := readLimited(f)
		checkLimit(t, err, 0, "r.csv:3: benchmark a: sample 1000000 is beyond the limit of 1000000 samples of one benchmark in one run", 1)
	})
	t.Run("more measurements in one result file than the limit", func(t *testing.T) {
		f := streamed(t, "ops", "big.txt", lines("a: x=1 (5 ops/sec)\nb: x=1 (5 ops/sec)\nc: x=1 (5 ops/sec)\n", MaxMeasurements/3+1))
		n, peak, err := readLimited(f)
		checkLimit(t, err, peak, "big.txt:2000001: more than 2000000 measurements in one result file, the limit", 16*mib)
		if n != MaxMeasurements {
			t.Errorf("%d records, want the first %d", n, MaxMeasurements)
		}
	})
	t.Run("a CSV file whose runs are not grouped is held whole: the limit is the file's", func(t *testing.T) {
		var rows strings.Builder
		for i := range 100 {
			fmt.Fprintf(&rows, "r%d,a,b,1,\n", i)
		}
		f := streamed(t, "csv", "r.csv", strings.NewReader("run,benchmark,variant,value,sample\n"), lines(rows.String(), MaxMeasurements/100+1))
		_, _, err := readLimited(f)
		checkLimit(t, err, 0, "r.csv:2000002: more than 2000000 rows in one CSV file whose runs' rows are not together (the limit: such a file is held whole); sort the rows by run, and it is read a run at a time", 1)
	})
	t.Run("a CSV file whose runs are grouped: the limit is each run's", func(t *testing.T) {
		f := streamed(t, "csv", "r.csv", strings.NewReader("run,benchmark,variant,value,sample\n"), lines("r1,a,b,1,\nr1,b,b,1,\nr1,c,b,1,\nr1,d,b,1,\n", MaxMeasurements/4),
			lines("r2,a,b,1,\nr2,b,b,1,\nr2,c,b,1,\nr2,d,b,1,\n", MaxMeasurements/4), strings.NewReader("r2,e,b,1,\n"))
		f.Options.GroupedRuns = true
		_, _, err := readLimited(f)
		checkLimit(t, err, 0, "r.csv:4000002: run r2: more than 2000000 rows in one run, the limit", 1)
	})
	t.Run("a JSON result file of more numbers than its measurements could have", func(t *testing.T) {
		f := streamed(t, "hyperfine", "h.json", strings.NewReader(`{"results": [{"command": "a", "times": [1`), lines(",\n1", 4*MaxMeasurements), strings.NewReader("]}]}"))
		_, peak, err := readLimited(f)
		checkLimit(t, err, peak, "h.json:8000001: more than 8000000 numbers in one JSON result file, the limit (4 for each of the 2000000 measurements one result file may hold)", 200*mib)
	})
}
