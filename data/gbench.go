package data

import (
	"bytes"
	"fmt"
	"io"
)

// The gbench format is Google Benchmark's JSON (--benchmark_format=json or
// --benchmark_out). Each "iteration" row is a sample of its run_name; its
// real_time is recorded as unit sec/op and its cpu_time as cpu-sec/op
// (both converted from time_unit), and items_per_second and
// bytes_per_second, when present, as items/s and B/s. Aggregate rows
// (_mean, _median, _stddev, _cv) are not samples and are skipped; when a
// file holds only aggregates (--benchmark_report_aggregates_only), each
// benchmark's _median is its one sample, and a note says so. Rows with
// error_occurred are left out, with a note. The scalar fields of "context"
// (host_name, num_cpus, library_build_type, ...) become labels, except the
// date.
var gbenchFormat = &Format{
	Name:   "gbench",
	Doc:    `Google Benchmark JSON ({"context": ..., "benchmarks": [...]})`,
	Detect: detectGbench,
	New:    newGbenchParser,
}

func init() { Register(gbenchFormat) }

func detectGbench(head []byte) bool {
	return bytes.Contains(head, []byte(`"context"`)) && bytes.Contains(head, []byte(`"benchmarks"`)) &&
		(bytes.Contains(head, []byte(`"library_build_type"`)) || bytes.Contains(head, []byte(`"real_time"`)) || bytes.Contains(head, []byte(`"num_cpus"`)))
}

type gbenchRow struct {
	Name          string   `json:"name"`
	RunName       string   `json:"run_name"`
	RunType       string   `json:"run_type"`
	AggregateName string   `json:"aggregate_name"`
	RealTime      *float64 `json:"real_time"`
	CPUTime       *float64 `json:"cpu_time"`
	TimeUnit      string   `json:"time_unit"`
	ItemsPerSec   *float64 `json:"items_per_second"`
	BytesPerSec   *float64 `json:"bytes_per_second"`
	ErrorOccurred bool     `json:"error_occurred"`
	ErrorMessage  string   `json:"error_message"`
}

type gbenchFile struct {
	Context    map[string]any `json:"context"`
	Benchmarks *[]gbenchRow   `json:"benchmarks"`
}

func newGbenchParser(r io.Reader, file string, opt ParseOptions) Parser {
	var f gbenchFile
	p := decodeList(r, file, opt, &f)
	if p.err != nil {
		return p
	}
	bad := p.fail
	if f.Benchmarks == nil {
		return bad(`no "benchmarks" array: not Google Benchmark JSON`)
	}
	if len(*f.Benchmarks) == 0 {
		return bad(`the "benchmarks" array is empty`)
	}
	labels := map[string]string{}
	scalarLabels("", f.Context, map[string]bool{"date": true}, labels)
	if err := checkLabels(labels); err != nil {
		return bad("context: %v", err)
	}
	rows := *f.Benchmarks
	iterations := false
	for _, b := range rows {
		if b.RunType != "aggregate" {
			iterations = true
		}
	}
	samples := map[[2]string]int{}
	for i, b := range rows {
		path := fmt.Sprintf("benchmarks[%d]", i)
		name := b.RunName
		if name == "" {
			name = b.Name
		}
		if name == "" {
			return bad("%s: no name", path)
		}
		if err := CheckName("benchmark name", name); err != nil {
			return bad("%s: %v", path, err)
		}
		switch {
		case b.ErrorOccurred:
			p.notes = append(p.notes, fmt.Sprintf("%s: %s reported an error (%s): left out", file, name, b.ErrorMessage))
			continue
		case iterations && b.RunType == "aggregate":
			continue
		case !iterations && b.AggregateName != "median":
			continue
		}
		scale, ok := timeScale(b.TimeUnit)
		if !ok {
			return bad("%s.time_unit: %q, expected ns, us, ms or s", path, b.TimeUnit)
		}
		if b.RealTime == nil && b.CPUTime == nil {
			return bad("%s: %s has neither real_time nor cpu_time", path, name)
		}
		add := func(field string, v *float64, unit string, scale float64) error {
			if v == nil {
				return nil
			}
			err := checkSample(*v)
			if err == nil {
				err = checkSample(*v * scale)
			}
			if err != nil {
				return &SyntaxError{File: file, Msg: fmt.Sprintf("%s.%s: %v", path, field, err)}
			}
			k := [2]string{name, unit}
			p.add(series{name: name, unit: unit, values: []float64{*v}, scale: scale, sample0: samples[k], labels: labels})
			samples[k]++
			return nil
		}
		for _, m := range []struct {
			field string
			v     *float64
			unit  string
			scale float64
		}{
			{"real_time", b.RealTime, "sec/op", scale},
			{"cpu_time", b.CPUTime, "cpu-sec/op", scale},
			{"items_per_second", b.ItemsPerSec, "items/s", 1},
			{"bytes_per_second", b.BytesPerSec, "B/s", 1},
		} {
			if err := add(m.field, m.v, m.unit, m.scale); err != nil {
				p.err = err
				return p
			}
		}
	}
	if !iterations {
		p.notes = append(p.notes, fmt.Sprintf("%s holds only aggregates (--benchmark_report_aggregates_only): each benchmark's _median is its one sample", file))
	}
	return p
}
