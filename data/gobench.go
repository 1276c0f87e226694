package data

import (
	"bytes"
	"fmt"
	"io"
	"regexp"

	"golang.org/x/perf/benchfmt"
)

// The gobench format is `go test -bench` output, read with
// golang.org/x/perf/benchfmt (the reader benchstat uses). Every metric on a
// result line is a measurement, with benchfmt's tidied unit: ns/op becomes
// sec/op, MB/s becomes B/s; B/op, allocs/op and custom metrics stay. Each
// line of a benchmark (go test -count N) is a sample. Benchmark names are
// kept as printed, "BenchmarkJoin/parts=16-8", GOMAXPROCS suffix included
// (LoadOptions.StripProcs drops it). Configuration lines (goos:, goarch:,
// pkg:, cpu:, and any other key: value) become labels of the run.
//
// A metric whose value is 0 (0 B/op, 0 allocs/op) is left out: a ratio of
// zeros has no meaning. A time of 0 (0 ns/op, or one too small to hold as
// sec/op) is no measurement: it is an error naming the line, not a
// benchmark that silently leaves the suite.
var gobenchFormat = &Format{
	Name:   "gobench",
	Doc:    "go test -bench output, lines like `BenchmarkX-8  1000  1234 ns/op`",
	Detect: detectGobench,
	New: func(r io.Reader, file string, _ ParseOptions) Parser {
		return &gobenchParser{r: benchfmt.NewReader(r, file), file: file, samples: map[[2]string]int{}}
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
	file    string
	queue   []Record
	samples map[[2]string]int
	done    bool
}

func (p *gobenchParser) Next() (Record, error) {
	for len(p.queue) == 0 {
		if p.done {
			return Record{}, io.EOF
		}
		if !p.r.Scan() {
			p.done = true // an error of the text below ends the stream, once
			if err := p.r.Err(); err != nil {
				return Record{}, err
			}
			return Record{}, io.EOF
		}
		switch rec := p.r.Result().(type) {
		case *benchfmt.SyntaxError:
			file, line := rec.Pos()
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
	if err := CheckName("benchmark name", name); err != nil {
		return &SyntaxError{File: p.file, Line: line, Msg: err.Error()}
	}
	if err := checkLabels(labels); err != nil {
		return &SyntaxError{File: p.file, Line: line, Msg: err.Error()}
	}
	for _, v := range res.Values {
		if v.Value == 0 && v.Unit != "sec/op" && v.Unit != "ns/op" { // benchfmt leaves a 0 in ns/op
			continue // 0 B/op, 0 allocs/op: a ratio of zeros has no meaning
		}
		if err := CheckName("unit", v.Unit); err != nil {
			return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("benchmark %s: %v", name, err)}
		}
		if _, err := parseValue(fmt.Sprint(v.Value)); err != nil {
			return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("benchmark %s: %s: %v", name, v.Unit, err)}
		}
		k := [2]string{name, v.Unit}
		p.queue = append(p.queue, Record{
			Measurement: Measurement{Benchmark: name, Sample: p.samples[k], Value: v.Value, Unit: v.Unit},
			Line:        line,
			Labels:      labels,
		})
		p.samples[k]++
	}
	return nil
}
