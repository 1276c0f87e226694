package formats

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data"
)

// The ops format is what allocator benchmark suites print, one result line
// per benchmark:
//
//	larson: threads=4 ops=400000 time=0.072 sec (5514093 ops/sec)
//
// The benchmark name is what precedes the first colon; the value is the
// number before "ops/sec)", in unit ops/sec (higher is better). Every other
// line (headers such as "--- larson ---", "=== Hoard allocator ===", crash
// messages, progress meters) is ignored; a benchmark-like line that prints
// no ops/sec figure ("xmalloc-test: threads=4 ... time=0.626 sec": a name,
// a colon, then key=value) is skipped too, and a note names it, so that a
// benchmark does not leave the suite unseen.
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
	New: func(r io.Reader, file string, opt ParseOptions) Parser {
		return &opsParser{ls: newLineScanner(r), file: file, names: opt.Names, expected: opt.ExpectedSkips}
	},
}

func init() { Register(opsFormat) }

// OpsUnit is the unit of every ops-format value.
const OpsUnit = "ops/sec"

var (
	opsStart   = regexp.MustCompile(`^\s*[^\s:=()-][^:]*:\s+\w+=`)
	opsStarted = regexp.MustCompile(`^===.*\bstarted=(\S+)`)
)

// matchOpsLine matches a result line, `NAME: ... (VALUE ops/sec)`: it
// returns what precedes the first colon and the value's text. It is the
// regular expression
//
//	^([^:]*):(.*)\(\s*([^()\s]*)\s+ops/sec\s*\)\s*$
//
// (groups 1 and 3; \s is [\t\n\f\r ], . any character but a newline)
// written out by hand: the expression took a third of the time of an
// ingest of run folders (issue 19). FuzzMatchOpsLine checks the two agree.
//
// The part in parentheses holds no other parenthesis, so it starts at the
// line's last "(", which must follow the first colon with no newline
// between them.
func matchOpsLine(line string) (name, value string, ok bool) {
	colon := strings.IndexByte(line, ':')
	open := strings.LastIndexByte(line, '(')
	if colon < 0 || open < colon || strings.IndexByte(line[colon:open], '\n') >= 0 {
		return "", "", false
	}
	rest := line[open+1:]
	i := skipSpace(rest, 0)
	j := i
	for j < len(rest) && !isSpace(rest[j]) && rest[j] != '(' && rest[j] != ')' {
		j++
	}
	// The value is the run of other bytes after the spaces, followed by
	// \s+ and the unit; failing that (as in "( ops/sec)"), it is empty,
	// and the spaces before it are the \s+.
	if k := skipSpace(rest, j); k > j && unitTail(rest[k:]) {
		return line[:colon], rest[i:j], true
	}
	if i > 0 && unitTail(rest[i:]) {
		return line[:colon], "", true
	}
	return "", "", false
}

// unitTail reports whether s is `ops/sec\s*\)\s*` and nothing more.
func unitTail(s string) bool {
	if !strings.HasPrefix(s, OpsUnit) {
		return false
	}
	k := skipSpace(s, len(OpsUnit))
	return k < len(s) && s[k] == ')' && skipSpace(s, k+1) == len(s)
}

// isSpace reports whether c is in \s of Go's regular expressions.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// skipSpace returns the index of the first byte of s at or after i that
// is not a space (isSpace), or len(s).
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// detectOps looks for a result line. Only a line that holds "ops/sec" can
// be one, so matchOpsLine runs on those lines alone.
func detectOps(head []byte) bool {
	found := false
	headLines(head, func(line []byte) bool {
		if bytes.Contains(line, opsUnit) {
			_, _, found = matchOpsLine(string(line))
		}
		return !found
	})
	return found
}

var opsUnit = []byte(OpsUnit)

type opsParser struct {
	ls   *lineScanner
	file string
	// seen are the benchmarks seen, in order, each name held once with
	// its samples so far; index finds them once they are too many for a
	// look through seen (a suite has ten or twenty: two maps a file were
	// a tenth of the time of reading it).
	seen    []opsSeen
	index   map[string]int
	names   Names // see ParseOptions.Names
	started time.Time
	done    bool
	// skipped counts benchmark-like lines without an ops/sec figure,
	// but those expected (ParseOptions.ExpectedSkips); skippedAt names
	// the first few; skipNames are the names of all, expected or not.
	skipped   int
	skippedAt []string
	skipNames map[string]bool
	expected  map[string]bool
}

func (p *opsParser) Next() (Record, error) {
	for p.ls.Scan() {
		line := p.ls.Text()
		if !strings.HasPrefix(line, "===") || !p.started.IsZero() || !strings.Contains(line, "started=") {
			// opsStarted matches only lines that start "===" and hold
			// "started=", and only the first such time counts.
		} else if m := opsStarted.FindStringSubmatch(line); m != nil {
			if t, err := time.Parse(time.RFC3339, strings.TrimSuffix(m[1], "===")); err == nil {
				p.started = t
			}
		}
		if !strings.Contains(line, OpsUnit) {
			// opsStart matches only lines that hold a colon and an
			// equals sign ("--- larson ---" holds neither).
			if strings.IndexByte(line, ':') >= 0 && strings.IndexByte(line, '=') >= 0 && opsStart.MatchString(line) {
				if p.ls.unclosed {
					return Record{}, p.errorf("truncated last line %q: expected it to end with `(VALUE ops/sec)`", data.Clip(line))
				}
				p.skip(line)
			}
			continue
		}
		head, value, ok := matchOpsLine(line)
		if !ok {
			return Record{}, p.errorf("malformed result line %q: expected `NAME: ... (VALUE ops/sec)`", data.Clip(line))
		}
		name := strings.TrimSpace(head)
		if name == "" {
			return Record{}, p.errorf("result line %q has no benchmark name before the colon", data.Clip(line))
		}
		if err := data.CheckName("benchmark name", name); err != nil {
			return Record{}, p.errorf("%v", err)
		}
		v, err := parseValue(value)
		if err != nil {
			return Record{}, p.errorf("benchmark %s: %v", name, err)
		}
		b := p.benchmark(name)
		s := b.samples
		b.samples++
		return Record{
			Measurement: data.Measurement{Benchmark: b.name, Sample: s, Value: v, Unit: OpsUnit},
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

// opsSeen is a benchmark an ops file measured, and how many times so far.
type opsSeen struct {
	name    string
	samples int
}

// opsIndexAt is how many benchmarks opsParser looks through one by one
// before it indexes them.
const opsIndexAt = 16

// benchmark returns the benchmark of that name, new or seen before.
func (p *opsParser) benchmark(name string) *opsSeen {
	if p.index != nil {
		if i, ok := p.index[name]; ok {
			return &p.seen[i]
		}
	} else {
		for i := range p.seen {
			if p.seen[i].name == name {
				return &p.seen[i]
			}
		}
	}
	if p.seen == nil {
		p.seen = make([]opsSeen, 0, opsIndexAt)
	}
	p.seen = append(p.seen, opsSeen{name: p.names.Intern(name)})
	switch n := len(p.seen); {
	case p.index != nil:
		p.index[p.seen[n-1].name] = n - 1
	case n > opsIndexAt:
		p.index = make(map[string]int, 2*n)
		for i, b := range p.seen {
			p.index[b.name] = i
		}
	}
	return &p.seen[len(p.seen)-1]
}

// maxSkipListed bounds how many skipped lines the note names.
const maxSkipListed = 5

// skip remembers a benchmark-like line without an ops/sec figure: its
// name, and, unless it is expected, its place for the note.
func (p *opsParser) skip(line string) {
	head, _, _ := strings.Cut(line, ":")
	name := strings.TrimSpace(head)
	if data.CheckName("benchmark name", name) == nil && (p.skipNames[name] || len(p.skipNames) < MaxSkipNames) {
		if p.skipNames == nil {
			p.skipNames = map[string]bool{}
		}
		p.skipNames[name] = true
		if p.expected[name] {
			return
		}
	}
	p.skipped++
	if len(p.skippedAt) < maxSkipListed {
		p.skippedAt = append(p.skippedAt, fmt.Sprintf("line %d %s", p.ls.line, strings.TrimSpace(data.Clip(head))))
	}
}

// Skipped implements Skipper.
func (p *opsParser) Skipped() []string {
	if len(p.skipNames) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(p.skipNames))
}

// Notes implements Noter: one note naming the benchmark-like lines that
// were skipped for want of an ops/sec figure.
func (p *opsParser) Notes() []string {
	if p.skipped == 0 {
		return nil
	}
	list := strings.Join(p.skippedAt, ", ")
	if more := p.skipped - len(p.skippedAt); more > 0 {
		list += fmt.Sprintf(", and %d more", more)
	}
	what := "1 benchmark-like line"
	if p.skipped > 1 {
		what = fmt.Sprintf("%d benchmark-like lines", p.skipped)
	}
	return []string{fmt.Sprintf("%s: skipped %s without an ops/sec figure: %s", p.file, what, list)}
}

func (p *opsParser) errorf(format string, args ...any) error {
	return &SyntaxError{File: p.file, Line: p.ls.line, Msg: fmt.Sprintf(format, args...)}
}
