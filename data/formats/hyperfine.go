package formats

import (
	"bytes"
	"fmt"
	"io"

	"github.com/qoscal/qoscal/data"
)

// The hyperfine format is hyperfine's --export-json. Each entry of
// "results" is a benchmark named by its "command" (the --command-name, when
// given); its "times" are its samples, in seconds (unit sec, lower is
// better). An entry without "times" gives its "median" (else "mean") as its
// one sample, with a note.
//
// hyperfine is often run as an A/B test, with baseline and candidate as two
// commands of one file. Name them as the variants:
// --baseline old=ab.json --candidate new=ab.json picks command "old" and
// command "new" of ab.json as one benchmark named after the file ("ab").
var hyperfineFormat = &Format{
	Name:           "hyperfine",
	Doc:            `hyperfine --export-json ({"results": [{"command": ..., "times": [...]}]})`,
	Detect:         detectHyperfine,
	New:            newHyperfineParser,
	VariantsInside: true,
}

func init() { Register(hyperfineFormat) }

func detectHyperfine(head []byte) bool {
	// "results" is hyperfine's top-level key; the other JSON formats use
	// "benchmarks".
	return bytes.Contains(head, []byte(`"results"`)) && !bytes.Contains(head, []byte(`"benchmarks"`))
}

type hyperfineFile struct {
	Results *[]struct {
		Command string     `json:"command"`
		Times   *[]float64 `json:"times"`
		Median  *float64   `json:"median"`
		Mean    *float64   `json:"mean"`
	} `json:"results"`
}

func newHyperfineParser(r io.Reader, file string, opt ParseOptions) Parser {
	var f hyperfineFile
	p := decodeList(r, file, opt, &f)
	if p.err != nil {
		return p
	}
	bad := p.fail
	if f.Results == nil {
		return bad(`no "results" array: not hyperfine JSON`)
	}
	if len(*f.Results) == 0 {
		return bad(`the "results" array is empty`)
	}
	seen := map[string]bool{}
	for i, res := range *f.Results {
		path := fmt.Sprintf("results[%d]", i)
		if res.Command == "" {
			return bad("%s.command: empty", path)
		}
		if err := data.CheckName("benchmark name", res.Command); err != nil {
			return bad("%s.command: %v", path, err)
		}
		if seen[res.Command] {
			return bad("%s.command: %q appears twice: name the commands apart with hyperfine -n", path, res.Command)
		}
		seen[res.Command] = true
		var times []float64
		switch {
		case res.Times != nil && len(*res.Times) > 0:
			times = *res.Times
		case res.Median != nil:
			times = []float64{*res.Median}
			p.notes = append(p.notes, fmt.Sprintf("%s: %q has no times: its median is its one sample", file, res.Command))
		case res.Mean != nil:
			times = []float64{*res.Mean}
			p.notes = append(p.notes, fmt.Sprintf("%s: %q has no times: its mean is its one sample", file, res.Command))
		default:
			return bad("%s: %q has no times, median or mean", path, res.Command)
		}
		for j, t := range times {
			if err := checkSample(t); err != nil {
				return bad("%s.times[%d]: %v", path, j, err)
			}
		}
		p.add(series{name: res.Command, unit: "sec", values: times, scale: 1})
	}
	return p
}
