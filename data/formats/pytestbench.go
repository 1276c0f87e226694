package formats

import (
	"bytes"
	"fmt"
	"io"

	"github.com/qoscal/qoscal/data"
)

// The pytest-benchmark format is pytest-benchmark's --benchmark-json. Each
// entry of "benchmarks" is a benchmark named by its "name"; the raw
// timings in stats.data (or "data") are its samples, in seconds (unit sec,
// lower is better); without them, stats.median is its one sample, with a
// note. The scalar fields of machine_info and commit_info become labels
// (machine_info.node, machine_info.python_version, commit_info.id, ...).
//
// A benchmark is its name, its fullname (MODULE::NAME) and its group:
// tests of two modules may have one name. Benchmarks that share a name in
// one file are named by their fullname, or "FULLNAME [group G]" where two
// of them have one fullname (see qualifier); a name that one benchmark
// has is kept as it is. One test twice (the same name, fullname and
// group) is an error.
var pytestFormat = &Format{
	Name:   "pytest-benchmark",
	Doc:    `pytest-benchmark --benchmark-json ({"machine_info": ..., "benchmarks": [...]})`,
	Detect: detectPytest,
	New:    newPytestParser,
	Scoped: true,
}

func init() { Register(pytestFormat) }

func detectPytest(head []byte) bool {
	return bytes.Contains(head, []byte(`"machine_info"`)) || (bytes.Contains(head, []byte(`"benchmarks"`)) && bytes.Contains(head, []byte(`"fullname"`)))
}

type pytestFile struct {
	MachineInfo map[string]any `json:"machine_info"`
	CommitInfo  map[string]any `json:"commit_info"`
	Benchmarks  *[]pytestEntry `json:"benchmarks"`
}

type pytestEntry struct {
	Name     string     `json:"name"`
	Fullname string     `json:"fullname"`
	Group    *string    `json:"group"`
	Data     *[]float64 `json:"data"`
	Stats    *struct {
		Data   *[]float64 `json:"data"`
		Median *float64   `json:"median"`
	} `json:"stats"`
}

func newPytestParser(r io.Reader, file string, opt ParseOptions) Parser {
	var f pytestFile
	p := decodeList(r, file, opt, &f)
	if p.err != nil {
		return p
	}
	bad := p.fail
	if f.Benchmarks == nil {
		return bad(`no "benchmarks" array: not pytest-benchmark JSON`)
	}
	if len(*f.Benchmarks) == 0 {
		return bad(`the "benchmarks" array is empty`)
	}
	labels := map[string]string{}
	scalarLabels("machine_info", f.MachineInfo, nil, labels)
	scalarLabels("commit_info", f.CommitInfo, map[string]bool{"time": true, "author_time": true}, labels)
	if err := checkLabels(labels); err != nil {
		return bad("%v", err)
	}
	entries := *f.Benchmarks
	names := make([]string, len(entries))
	for i, b := range entries {
		path := fmt.Sprintf("benchmarks[%d]", i)
		name := b.Name
		if name == "" {
			name = b.Fullname
		}
		if name == "" {
			return bad("%s.name: empty", path)
		}
		if err := data.CheckName("benchmark name", name); err != nil {
			return bad("%s.name: %v", path, err)
		}
		names[i] = name
	}
	quals, twice := pytestQualified(names, entries)
	if twice >= 0 {
		b := entries[twice]
		what := names[twice]
		switch {
		case b.Fullname != "" && b.Group != nil && *b.Group != "":
			what += fmt.Sprintf(" (%s, group %s)", b.Fullname, *b.Group)
		case b.Fullname != "" && b.Fullname != what:
			what += fmt.Sprintf(" (%s)", b.Fullname)
		}
		return bad("benchmarks[%d]: %s appears twice", twice, what)
	}
	for i, b := range entries {
		path := fmt.Sprintf("benchmarks[%d]", i)
		name := names[i]
		var data []float64
		switch {
		case b.Stats != nil && b.Stats.Data != nil && len(*b.Stats.Data) > 0:
			data = *b.Stats.Data
		case b.Data != nil && len(*b.Data) > 0:
			data = *b.Data
		case b.Stats != nil && b.Stats.Median != nil:
			data = []float64{*b.Stats.Median}
			p.notes = append(p.notes, fmt.Sprintf("%s: %s has no raw timings: its median is its one sample", file, name))
		default:
			return bad("%s: %s has no stats.data and no stats.median", path, name)
		}
		for j, t := range data {
			if err := checkSample(t); err != nil {
				return bad("%s.stats.data[%d]: %v", path, j, err)
			}
		}
		p.add(series{name: name, qual: quals[i], unit: "sec", values: data, scale: 1, labels: labels})
	}
	return p
}

// pytestQualified returns the qualified name of each entry whose name
// (names[i]) another entry has: its fullname, or "FULLNAME [group G]"
// when another entry of that name has its fullname too; "" for any
// other. It returns, as twice, the first entry that is an entry before
// it again (the same name, fullname and group), or -1.
func pytestQualified(names []string, entries []pytestEntry) (quals []string, twice int) {
	type key struct{ name, full, group string }
	group := func(i int) string {
		if g := entries[i].Group; g != nil {
			return *g
		}
		return ""
	}
	full := func(i int) string {
		if f := entries[i].Fullname; f != "" {
			return f
		}
		return names[i]
	}
	seen := map[key]bool{}
	perName := map[string]int{}
	perFull := map[[2]string]int{}
	for i, n := range names {
		k := key{n, full(i), group(i)}
		if seen[k] {
			return nil, i
		}
		seen[k] = true
		perName[n]++
		perFull[[2]string{n, k.full}]++
	}
	quals = make([]string, len(names))
	for i, n := range names {
		switch {
		case perName[n] < 2:
		case perFull[[2]string{n, full(i)}] == 1 || group(i) == "":
			quals[i] = full(i)
		default:
			quals[i] = fmt.Sprintf("%s [group %s]", full(i), group(i))
		}
	}
	return quals, -1
}
