package formats

import (
	"bytes"
	"fmt"
	"io"
)

// The limits of a result file, chosen so that reading any input takes
// memory bounded by them (the parsers stream, and a load holds one run
// at a time: see package load), and generous for real suites. Each is said by
// name, at the file and line that passes it, when an input does.
//
//   - A line of a text result file is at most maxLine (1 MiB); a line of
//     Go benchmark output that benchfmt reads (a result or configuration
//     line) at most gobenchMaxLine (64 KiB, benchfmt's own limit).
//   - A JSON result file is at most MaxJSONBytes (64 MiB), and holds at
//     most maxJSONNumbers numbers.
//   - One benchmark has at most MaxSamples samples (of one unit) in one
//     result file, or in one run of a CSV file.
//   - One result file holds at most MaxMeasurements measurements; a CSV
//     file whose runs' rows are together, at most MaxMeasurements rows in
//     each run (it is read a run at a time); any other CSV file, which is
//     held whole, at most MaxMeasurements rows.
const (
	// MaxSamples is a million: go test -count 100 and Google Benchmark's
	// --benchmark_repetitions take 100 or so, hyperfine's --runs
	// thousands, and pytest-benchmark records a round of a fast
	// function every few microseconds for its --benchmark-max-time
	// (200,000 rounds of a 100 ns function in 1 s).
	MaxSamples = 1_000_000
	// MaxMeasurements is two million: 128 MB of measurements held, the
	// most of a file that a 64 MiB JSON result file of real output
	// holds (pytest-benchmark prints a sample in about 25 bytes), and 20
	// times a suite of 1,000 Go benchmarks of four metrics at -count 25.
	MaxMeasurements = 2_000_000
	// maxJSONNumbers bounds the numbers of a JSON result file, counted
	// before it is decoded: 4 for each measurement it may hold (hyperfine
	// prints an exit code for each time, Google Benchmark an iteration
	// count and two indexes for each row), so that the decoded values
	// are bounded too (a 64 MiB file of "1," is 32 million).
	maxJSONNumbers = 4 * MaxMeasurements
)

// countRecord checks the limits on the records of one file as they are
// read: the samples of a benchmark and the measurements of the file (of
// the run, for a CSV file whose runs are grouped). It returns the error
// of the first record beyond a limit, after which the file is refused
// and its reading stops.
type recordLimits struct {
	file    string
	multi   bool // a file of whole runs (CSV)
	grouped bool // whose runs' rows are together
	n       int  // records of the file, or of the run
	run     string
}

func (l *recordLimits) check(r *Record) *SyntaxError {
	bad := func(format string, args ...any) *SyntaxError {
		return &SyntaxError{File: l.file, Line: r.Line, Msg: fmt.Sprintf(format, args...)}
	}
	if r.Sample >= MaxSamples {
		if l.multi {
			return bad("benchmark %s: sample %d is beyond the limit of %d samples of one benchmark in one run", r.Benchmark, r.Sample, MaxSamples)
		}
		return bad("benchmark %s: more than %d samples of one benchmark in one result file, the limit", r.Benchmark, MaxSamples)
	}
	if l.grouped && r.Run != l.run {
		l.run, l.n = r.Run, 0
	}
	l.n++
	if l.n <= MaxMeasurements {
		return nil
	}
	switch {
	case l.grouped:
		return bad("run %s: more than %d rows in one run, the limit", r.Run, MaxMeasurements)
	case l.multi:
		return bad("more than %d rows in one CSV file whose runs' rows are not together (the limit: such a file is held whole); sort the rows by run, and it is read a run at a time", MaxMeasurements)
	}
	return bad("more than %d measurements in one result file, the limit", MaxMeasurements)
}

// lineLimit passes on the text of r, a TextReader's (LF line ends), and
// fails with a SyntaxError at the first line longer than maxLine. It is
// for readers that would hold a line whole however long (encoding/csv
// reads a record so).
type lineLimit struct {
	r    io.Reader
	file string
	line int // the line being read, from 1
	n    int // its bytes so far
	err  error
}

func newLineLimit(r io.Reader, file string) io.Reader {
	if t, ok := r.(*TextReader); ok && t.isWhole {
		return r // a file read whole is shorter than a line may be
	}
	return &lineLimit{r: r, file: file, line: 1}
}

func (l *lineLimit) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	whole := 0 // p[:whole] ends with the last line end read
	for i := 0; i < n; {
		j := bytes.IndexByte(p[i:n], '\n')
		if j < 0 {
			l.n += n - i
			break
		}
		if l.n+j > maxLine {
			l.n += j
			break
		}
		l.line++
		l.n = 0
		i += j + 1
		whole = i
	}
	if l.n > maxLine {
		// The lines before the long one are passed on; then the error.
		l.err = lineTooLong(l.file, l.line)
		if whole > 0 {
			return whole, nil
		}
		return 0, l.err
	}
	return n, err
}

// jsonNumberBeyond returns the offset in the JSON text b of its
// (limit+1)-th number, or -1 when it has no more than limit numbers.
// (It counts every value that starts with a digit or a minus sign, in
// arrays and objects alike, and nothing inside strings.)
func jsonNumberBeyond(b []byte, limit int) int {
	n := 0
	var prev byte // the last byte outside strings and white space
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			// Skip the string, escapes and all.
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			prev = '"'
		case ' ', '\t', '\n', '\r':
		default:
			if (c == '-' || isDigit(c)) && (prev == '[' || prev == ',' || prev == ':' || prev == 0) {
				if n++; n > limit {
					return i
				}
			}
			prev = c
		}
	}
	return -1
}
