package data

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The ops format is what allocator benchmark suites print, one result line
// per benchmark:
//
//	larson: threads=4 ops=400000 time=0.072 sec (5514093 ops/sec)
//
// The benchmark name is what precedes the first colon; the value is the
// number before "ops/sec)", in unit ops/sec (higher is better). Every other
// line (headers such as "--- larson ---", "=== Hoard allocator ===", crash
// messages, benchmarks that print no ops/sec figure) is ignored.
//
// A name that appears more than once in one file is measured more than
// once: every occurrence is a sample, numbered in file order. (CI jobs that
// repeat the suite under a watchdog print the suite several times; the
// variant's value for that benchmark is then the median of its samples.)
//
// A header line "=== ... started=2006-01-02T15:04:05Z07:00 ... ===" gives
// the run's time.
var opsFormat = &Format{
	Name:   "ops",
	Doc:    "allocator benchmark text, lines like `larson: threads=4 ... (5514093 ops/sec)`",
	Detect: detectOps,
	New: func(r io.Reader, file string) Parser {
		return &opsParser{ls: newLineScanner(r), file: file, samples: map[string]int{}}
	},
}

func init() { Register(opsFormat) }

// OpsUnit is the unit of every ops-format value.
const OpsUnit = "ops/sec"

var (
	opsLine    = regexp.MustCompile(`^([^:]*):(.*)\(\s*([^()\s]*)\s+ops/sec\s*\)\s*$`)
	opsStart   = regexp.MustCompile(`^\s*[^\s:=()-][^:]*:\s+\w+=`)
	opsStarted = regexp.MustCompile(`^===.*\bstarted=(\S+)`)
)

func detectOps(head []byte) bool {
	for _, line := range strings.Split(string(head), "\n") {
		if opsLine.MatchString(strings.TrimSuffix(line, "\r")) {
			return true
		}
	}
	return false
}

type opsParser struct {
	ls      *lineScanner
	file    string
	samples map[string]int
	started time.Time
	done    bool
}

func (p *opsParser) Next() (Record, error) {
	for p.ls.Scan() {
		line := p.ls.Text()
		if m := opsStarted.FindStringSubmatch(line); m != nil && p.started.IsZero() {
			if t, err := time.Parse(time.RFC3339, strings.TrimSuffix(m[1], "===")); err == nil {
				p.started = t
			}
		}
		if !strings.Contains(line, OpsUnit) {
			if p.ls.unclosed && opsStart.MatchString(line) {
				return Record{}, p.errorf("truncated last line %q: expected it to end with `(VALUE ops/sec)`", clip(line))
			}
			continue
		}
		m := opsLine.FindStringSubmatch(line)
		if m == nil {
			return Record{}, p.errorf("malformed result line %q: expected `NAME: ... (VALUE ops/sec)`", clip(line))
		}
		name := strings.TrimSpace(m[1])
		if name == "" {
			return Record{}, p.errorf("result line %q has no benchmark name before the colon", clip(line))
		}
		v, err := parseValue(m[3])
		if err != nil {
			return Record{}, p.errorf("benchmark %s: %v", name, err)
		}
		s := p.samples[name]
		p.samples[name]++
		return Record{
			Measurement: Measurement{Benchmark: name, Sample: s, Value: v, Unit: OpsUnit},
			Line:        p.ls.line,
			Time:        p.started,
		}, nil
	}
	if err := p.ls.Err(p.file); err != nil && !p.done {
		p.done = true // the scanner stops for good after an error
		return Record{}, err
	}
	return Record{}, io.EOF
}

func (p *opsParser) errorf(format string, args ...any) error {
	return &SyntaxError{File: p.file, Line: p.ls.line, Msg: fmt.Sprintf(format, args...)}
}

// parseValue parses a measured value: a finite number greater than zero.
// Ratios and geometric means need positive values, so zero, negatives, NaN
// and infinities are refused here rather than clamped later.
func parseValue(s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("missing value")
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !isRangeErr(err):
		return 0, fmt.Errorf("value %q is not a number", clip(s))
	case math.IsNaN(v):
		return 0, fmt.Errorf("value %q is not a number (NaN)", s)
	case err != nil:
		return 0, fmt.Errorf("value %q is out of range", clip(s))
	case math.IsInf(v, 0):
		return 0, fmt.Errorf("value %q is not finite", clip(s))
	case v <= 0:
		return 0, fmt.Errorf("value %s is not positive: measurements must be > 0", s)
	}
	return v, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// clip shortens s for an error message.
func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
