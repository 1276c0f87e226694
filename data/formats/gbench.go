package formats

import (
	"bytes"
	"fmt"
	"io"

	"github.com/qoscal/qoscal/data"
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
//
// A benchmark is its run_name and, where the file says (Google Benchmark
// 1.6 and later), its family_index and per_family_instance_index: two
// families may be given one name (->Name("parse")), and one family the
// same arguments twice. Benchmarks that share a run_name in one file are
// named "NAME [family F]", or "NAME [family F instance I]" where two of
// them are of one family (see qualifier); a name that one benchmark has
// is kept as it is. The repetitions of a benchmark share its family and
// instance: they are its samples.
var gbenchFormat = &Format{
	Name:   "gbench",
	Doc:    `Google Benchmark JSON ({"context": ..., "benchmarks": [...]})`,
	Detect: detectGbench,
	New:    newGbenchParser,
	Scoped: true,
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
	FamilyIndex   *int     `json:"family_index"`
	InstanceIndex *int     `json:"per_family_instance_index"`
}

// gbenchID is a benchmark's family and instance, -1 where the file does
// not say.
type gbenchID struct{ family, instance int }

func (b *gbenchRow) id() gbenchID {
	id := gbenchID{-1, -1}
	if b.FamilyIndex != nil {
		id.family = *b.FamilyIndex
	}
	if b.InstanceIndex != nil {
		id.instance = *b.InstanceIndex
	}
	return id
}

// gbenchQualified returns the qualified name of each benchmark (names[i]
// of ids[i]) whose name another benchmark of the file has: "NAME [family
// F]" when those benchmarks' families differ, "NAME [family F instance
// I]" when two are of one family; "" for any other (and for one whose
// family the file does not say).
func gbenchQualified(names []string, ids []gbenchID) []string {
	type nameID struct {
		name string
		id   gbenchID
	}
	type nameFamily struct {
		name   string
		family int
	}
	seen := map[nameID]bool{}
	perName := map[string]int{}       // distinct benchmarks of a name
	perFamily := map[nameFamily]int{} // of a name and family
	for i, n := range names {
		if k := (nameID{n, ids[i]}); !seen[k] {
			seen[k] = true
			perName[n]++
			perFamily[nameFamily{n, ids[i].family}]++
		}
	}
	quals := make([]string, len(names))
	for i, n := range names {
		switch id := ids[i]; {
		case perName[n] < 2 || id.family < 0:
		case perFamily[nameFamily{n, id.family}] == 1:
			quals[i] = fmt.Sprintf("%s [family %d]", n, id.family)
		default:
			quals[i] = fmt.Sprintf("%s [family %d instance %d]", n, id.family, id.instance)
		}
	}
	return quals
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
	// The rows taken, their names and what they are, first: whether a
	// name is shared is known once every row is seen.
	var taken []int
	var names []string
	var ids []gbenchID
	for i, b := range rows {
		path := fmt.Sprintf("benchmarks[%d]", i)
		name := b.RunName
		if name == "" {
			name = b.Name
		}
		if name == "" {
			return bad("%s: no name", path)
		}
		if err := data.CheckName("benchmark name", name); err != nil {
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
		taken = append(taken, i)
		names = append(names, name)
		ids = append(ids, b.id())
	}
	quals := gbenchQualified(names, ids)
	type sampleKey struct {
		name string
		id   gbenchID
		unit string
	}
	samples := map[sampleKey]int{}
	for k, i := range taken {
		b, name, qual := &rows[i], names[k], quals[k]
		path := fmt.Sprintf("benchmarks[%d]", i)
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
			sk := sampleKey{name, ids[k], unit}
			p.add(series{name: name, qual: qual, unit: unit, values: []float64{*v}, scale: scale, sample0: samples[sk], labels: labels})
			samples[sk]++
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
