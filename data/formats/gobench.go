package formats

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"unicode"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/qoscal/qoscal/data"
)

// The gobench format is `go test -bench` output, read with
// golang.org/x/perf/benchfmt (the reader benchstat uses). Every metric on a
// result line is a measurement, with benchfmt's tidied unit: ns/op becomes
// sec/op, MB/s becomes B/s; B/op, allocs/op and custom metrics stay. Each
// line of a benchmark (go test -count N) is a sample. Benchmark names are
// kept as printed, "BenchmarkJoin/parts=16-8", GOMAXPROCS suffix included
// (load.Options.StripProcs drops it). Configuration lines (goos:, goarch:,
// pkg:, cpu:, and any other key: value) become labels of the run.
//
// A benchmark is its package and its name: `go test -bench . ./...` prints
// the results of each package after its pkg: line, and two packages may
// both have a BenchmarkParse. Each record's Qualified name is
// "PKG.NAME" (example.com/a.BenchmarkParse-8), which the loader uses
// where a name is printed under two packages of one file (see
// qualifier); a name printed under one package only keeps its
// short name.
//
// A metric whose value is 0 (0 B/op, 0 allocs/op) is left out: a ratio of
// zeros has no meaning. A time of 0 (0 ns/op, or one too small to hold as
// sec/op) is no measurement: it is an error naming the line, not a
// benchmark that silently leaves the suite.
//
// What benchfmt does not check is checked on the way to it (gobenchLines):
// every value is a plain decimal number (see plainDecimal; benchfmt's
// ParseFloat also reads 0x1p40 and 1_000), a result line is whole (a file
// cut in the middle of its last line is refused, not read as a shorter
// value or a unit such as "ns/o"), and a line is no longer than benchfmt
// reads (it stopped the whole file with "bufio.Scanner: token too long").
var gobenchFormat = &Format{
	Name:   "gobench",
	Doc:    "go test -bench output, lines like `BenchmarkX-8  1000  1234 ns/op`",
	Detect: detectGobench,
	Scoped: true,
	New: func(r io.Reader, file string, _ ParseOptions) Parser {
		in := &gobenchLines{ls: newLineScanner(r), file: file}
		return &gobenchParser{r: benchfmt.NewReader(in, file), in: in, file: file, samples: map[gobenchKey]int{}}
	},
}

func init() { Register(gobenchFormat) }

var gobenchLine = regexp.MustCompile(`(?m)^Benchmark\S*\s+\d+\s+\S+\s+\S+`)

// detectGobench looks for a result line; a head without "Benchmark" in it
// has none, and is passed over without running the regular expression.
func detectGobench(head []byte) bool {
	return bytes.Contains(head, benchmarkWord) && gobenchLine.Match(head)
}

var benchmarkWord = []byte("Benchmark")

type gobenchParser struct {
	r       *benchfmt.Reader
	in      *gobenchLines
	file    string
	queue   []Record
	samples map[gobenchKey]int
	done    bool
	// the last benchmark's package, name and qualified name: a
	// benchmark's lines (-count N) follow each other.
	lastPkg, lastName, lastQual string
}

// gobenchKey names a benchmark's samples of one unit.
type gobenchKey struct{ pkg, name, unit string }

func (p *gobenchParser) Next() (Record, error) {
	for len(p.queue) == 0 {
		if p.done {
			// What gobenchLines found after benchfmt's last line: a line
			// too long to read on, or bad text.
			if e := p.in.pop(); e != nil {
				return Record{}, e
			}
			return Record{}, io.EOF
		}
		if !p.r.Scan() {
			p.done = true // an error of the text below ends the stream, once
			if err := p.r.Err(); err != nil {
				return Record{}, err
			}
			continue
		}
		switch rec := p.r.Result().(type) {
		case *benchfmt.SyntaxError:
			file, line := rec.Pos()
			if e := p.in.take(line); e != nil {
				// The line gobenchLines stood in for: its own error.
				return Record{}, e
			}
			return Record{}, &SyntaxError{File: file, Line: line, Msg: rec.Msg}
		case *benchfmt.Result:
			if err := p.result(rec); err != nil {
				return Record{}, err
			}
		}
	}
	r := p.queue[0]
	p.queue = p.queue[1:]
	return r, nil
}

func (p *gobenchParser) result(res *benchfmt.Result) error {
	_, line := res.Pos()
	name := "Benchmark" + string(res.Name.Full())
	labels := map[string]string{}
	for _, c := range res.Config {
		if c.File {
			labels[c.Key] = string(bytes.TrimSpace(c.Value))
		}
	}
	if err := data.CheckName("benchmark name", name); err != nil {
		return &SyntaxError{File: p.file, Line: line, Msg: err.Error()}
	}
	if err := checkLabels(labels); err != nil {
		return &SyntaxError{File: p.file, Line: line, Msg: err.Error()}
	}
	pkg := labels["pkg"]
	if pkg != p.lastPkg || name != p.lastName {
		p.lastPkg, p.lastName, p.lastQual = pkg, name, ""
		if pkg != "" {
			p.lastQual = pkg + "." + name
		}
	}
	for _, v := range res.Values {
		if v.Value == 0 && v.Unit != "sec/op" && v.Unit != "ns/op" { // benchfmt leaves a 0 in ns/op
			continue // 0 B/op, 0 allocs/op: a ratio of zeros has no meaning
		}
		if err := data.CheckName("unit", v.Unit); err != nil {
			return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("benchmark %s: %v", name, err)}
		}
		if _, err := parseValue(fmt.Sprint(v.Value)); err != nil {
			return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("benchmark %s: %s: %v", name, v.Unit, err)}
		}
		k := gobenchKey{pkg, name, v.Unit}
		p.queue = append(p.queue, Record{
			Measurement: data.Measurement{Benchmark: name, Sample: p.samples[k], Value: v.Value, Unit: v.Unit},
			Line:        line,
			Labels:      labels,
			Qualified:   p.lastQual,
		})
		p.samples[k]++
	}
	return nil
}

// gobenchMaxLine is the longest line benchfmt reads: its bufio.Scanner
// holds at most 64 KiB, the line end included. A longer line stopped it,
// and with it the rest of the file.
const gobenchMaxLine = 64<<10 - 1

// gobenchLines is the text benchfmt reads, passed on a line at a time and
// checked on the way for what benchfmt does not check (see gobenchFormat).
// A line found wrong is passed on as gobenchStandIn, which benchfmt
// reports as an error at that line, and gobenchParser reports this
// line's own error in its place: the errors come at their lines, in
// order, with the records around them, and benchfmt never reads far
// ahead of what it reports (so few errors wait here).
type gobenchLines struct {
	ls   *lineScanner
	file string
	buf  []byte // the text to pass on
	off  int    // buf[off:] is not passed on yet
	// errs are the errors of lines passed on as stand-ins, and at the
	// end an error of the text that ends the reading, in line order.
	errs  []*SyntaxError
	end   bool
	errIO error // an error reading the text, which benchfmt reports
}

// gobenchStandIn is what benchfmt reads in place of a line found wrong:
// a result line without an iteration count, which it reports at once.
const gobenchStandIn = "Benchmark ?\n"

func (g *gobenchLines) Read(b []byte) (int, error) {
	for g.off == len(g.buf) {
		switch {
		case g.errIO != nil:
			return 0, g.errIO
		case g.end:
			return 0, io.EOF
		}
		g.next()
	}
	n := copy(b, g.buf[g.off:])
	g.off += n
	return n, nil
}

// next reads the next line into buf, or a stand-in for it.
func (g *gobenchLines) next() {
	g.buf, g.off = g.buf[:0], 0
	if !g.ls.Scan() {
		g.end = true
		if err := g.ls.Err(g.file); err != nil {
			if se, ok := asSyntax(err); ok {
				// A line too long to read on, or text that is not text:
				// the end of the reading, reported after benchfmt's.
				g.errs = append(g.errs, se)
			} else {
				g.errIO = err
			}
		}
		return
	}
	g.buf = g.ls.appendText(g.buf)
	line := g.ls.line
	if msg := g.check(g.buf); msg != "" {
		g.errs = append(g.errs, &SyntaxError{File: g.file, Line: line, Msg: msg})
		g.buf = append(g.buf[:0], gobenchStandIn...)
		return
	}
	if len(g.buf) > gobenchMaxLine {
		// A line that is neither a result nor a configuration line
		// (a test's log output) is passed over, as benchfmt passes
		// over such lines, but it cannot go to benchfmt whole.
		g.buf = g.buf[:0]
	}
	g.buf = append(g.buf, '\n')
}

// check returns what is wrong with line, the current line, or "".
func (g *gobenchLines) check(line []byte) string {
	result := bytes.HasPrefix(line, benchmarkWord)
	if len(line) > gobenchMaxLine {
		if result || isConfigLine(line) || bytes.HasPrefix(line, []byte("Unit")) {
			return fmt.Sprintf("line of %d bytes: a Go benchmark result or configuration line may be at most %d bytes (golang.org/x/perf/benchfmt's limit)", len(line), gobenchMaxLine)
		}
		return ""
	}
	if !result {
		return ""
	}
	if g.ls.unclosed {
		// go test ends every line with a newline: a result line without
		// one was cut, and may read as a shorter value or a wrong unit.
		return fmt.Sprintf("truncated last line %q: expected a whole result line, \"BenchmarkNAME ITERATIONS VALUE UNIT...\", ending with a newline as go test prints every line: the file was cut while it was written", data.Clip(string(line)))
	}
	// NAME ITERATIONS VALUE UNIT VALUE UNIT ..., split as benchfmt splits.
	name, rest := splitField(line)
	_, rest = splitField(rest)
	for len(rest) > 0 {
		var value, unit []byte
		value, rest = splitField(rest)
		unit, rest = splitField(rest)
		if !plainDecimal(value) {
			where := ""
			if len(unit) > 0 {
				where = data.Clip(string(unit)) + ": "
			}
			return fmt.Sprintf("benchmark %s: %s%v", data.Clip(string(name)), where, notPlainError(string(value)))
		}
	}
	return ""
}

// pop returns the next error waiting, or nil.
func (g *gobenchLines) pop() *SyntaxError {
	if len(g.errs) == 0 {
		return nil
	}
	e := g.errs[0]
	g.errs = g.errs[1:]
	return e
}

// take returns the error of the given line, if it is the next waiting.
func (g *gobenchLines) take(line int) *SyntaxError {
	if len(g.errs) > 0 && g.errs[0].Line == line {
		return g.pop()
	}
	return nil
}

// splitField returns the first field of b (a run of bytes that are not
// white space, as unicode.IsSpace says) and the rest after the white
// space that follows it, as benchfmt splits a result line.
func splitField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) {
		r, n := rune(b[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(b[i:])
		}
		if unicode.IsSpace(r) {
			break
		}
		i += n
	}
	field, rest = b[:i], b[i:]
	for len(rest) > 0 {
		r, n := rune(rest[0]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(rest)
		}
		if !unicode.IsSpace(r) {
			break
		}
		rest = rest[n:]
	}
	return field, rest
}

// isConfigLine reports whether benchfmt reads line as a configuration
// line, "key: value": a key that starts with a lower-case letter and
// holds no space or upper-case letter, then a colon.
func isConfigLine(line []byte) bool {
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		switch {
		case i == 0 && !unicode.IsLower(r), unicode.IsSpace(r), unicode.IsUpper(r):
			return false
		case i > 0 && r == ':':
			return true
		}
		i += n
	}
	return false
}
