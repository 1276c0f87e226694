package data

import (
	"bytes"
	"fmt"
	"io"
)

// The pytest-benchmark format is pytest-benchmark's --benchmark-json. Each
// entry of "benchmarks" is a benchmark named by its "name"; the raw
// timings in stats.data (or "data") are its samples, in seconds (unit sec,
// lower is better); without them, stats.median is its one sample, with a
// note. The scalar fields of machine_info and commit_info become labels
// (machine_info.node, machine_info.python_version, commit_info.id, ...).
var pytestFormat = &Format{
	Name:   "pytest-benchmark",
	Doc:    `pytest-benchmark --benchmark-json ({"machine_info": ..., "benchmarks": [...]})`,
	Detect: detectPytest,
	New:    newPytestParser,
}

func init() { Register(pytestFormat) }

func detectPytest(head []byte) bool {
	return bytes.Contains(head, []byte(`"machine_info"`)) || (bytes.Contains(head, []byte(`"benchmarks"`)) && bytes.Contains(head, []byte(`"fullname"`)))
}

type pytestFile struct {
	MachineInfo map[string]any `json:"machine_info"`
	CommitInfo  map[string]any `json:"commit_info"`
	Benchmarks  *[]struct {
		Name     string     `json:"name"`
		Fullname string     `json:"fullname"`
		Data     *[]float64 `json:"data"`
		Stats    *struct {
			Data   *[]float64 `json:"data"`
			Median *float64   `json:"median"`
		} `json:"stats"`
	} `json:"benchmarks"`
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
	seen := map[string]bool{}
	for i, b := range *f.Benchmarks {
		path := fmt.Sprintf("benchmarks[%d]", i)
		name := b.Name
		if name == "" {
			name = b.Fullname
		}
		if name == "" {
			return bad("%s.name: empty", path)
		}
		if seen[name] && b.Fullname != "" {
			name = b.Fullname
		}
		if seen[name] {
			return bad("%s.name: %q appears twice", path, name)
		}
		if err := CheckName("benchmark name", name); err != nil {
			return bad("%s.name: %v", path, err)
		}
		seen[name] = true
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
		p.add(series{name: name, unit: "sec", values: data, scale: 1, labels: labels})
	}
	return p
}
