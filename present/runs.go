package present

import (
	"strconv"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/render"
)

// Runs is the view of stored runs (qoscal runs).
type Runs struct {
	Runs []store.StoredRun
}

type storedRow = *store.StoredRun

func runColumns() []render.Column[storedRow] {
	return []render.Column[storedRow]{
		{Head: "id", Cell: func(r storedRow) string { return r.ID }, Key: "id", JSON: func(r storedRow) any { return r.ID }},
		{Head: "labels", Cell: func(r storedRow) string { return data.FormatLabels(r.Labels) },
			Key: "labels", JSON: func(r storedRow) any {
				if r.Labels == nil {
					return map[string]string{}
				}
				return r.Labels
			}},
		{Key: "source", JSON: func(r storedRow) any { return r.Source }},
		{Key: "time", JSON: func(r storedRow) any {
			if r.Time.IsZero() {
				return nil
			}
			return r.Time.UTC().Format(time.RFC3339)
		}},
		{Head: "baseline", Cell: func(r storedRow) string { return dash(r.Baseline) }, Key: "baseline", JSON: func(r storedRow) any { return optional(r.Baseline) }},
		{Head: "candidate", Cell: func(r storedRow) string { return dash(r.Candidate) }, Key: "candidate", JSON: func(r storedRow) any { return optional(r.Candidate) }},
		{Head: "variants", Align: render.Right, Cell: func(r storedRow) string { return strconv.Itoa(len(r.Variants())) },
			Key: "variants", JSON: func(r storedRow) any { return r.BenchmarkCount() }},
		{Head: "benchmarks", Align: render.Right, Cell: func(r storedRow) string { return strconv.Itoa(benchmarkCount(&r.Run)) },
			Key: "benchmarks", JSON: func(r storedRow) any { return benchmarkCount(&r.Run) }},
		{Key: "measurements", JSON: func(r storedRow) any { return len(r.Measurements) }},
		{Key: "repetitions", JSON: func(r storedRow) any { return repetitionCount(&r.Run) }},
		{Head: "ingested", Cell: func(r storedRow) string { return r.Ingested.UTC().Format(time.RFC3339) },
			Key: "ingested", JSON: func(r storedRow) any { return r.Ingested.UTC().Format(time.RFC3339) }},
	}
}

func (v *Runs) rows() []storedRow {
	rows := make([]storedRow, len(v.Runs))
	for i := range v.Runs {
		rows[i] = &v.Runs[i]
	}
	return rows
}

// Doc is the table of runs.
func (v *Runs) Doc() *render.Doc {
	return &render.Doc{Blocks: []render.Block{render.NewTable(runColumns(), v.rows())}}
}

// JSON is the array of runs (docs/json.md).
func (v *Runs) JSON() []render.Object { return render.Objects(runColumns(), v.rows()) }

// benchmarkCount counts the distinct benchmarks of a run over all variants.
func benchmarkCount(r *data.Run) int {
	seen := map[string]bool{}
	for _, m := range r.Measurements {
		seen[m.Benchmark] = true
	}
	return len(seen)
}

// repetitionCount counts the distinct repetitions of the suite a run's
// samples came from: 0 when the input did not say (or a qoscal before
// the store kept repetitions stored it).
func repetitionCount(r *data.Run) int {
	seen := map[int]bool{}
	for _, m := range r.Measurements {
		if m.Repetition > 0 {
			seen[m.Repetition] = true
		}
	}
	return len(seen)
}

// optional is a name in JSON: null when empty.
func optional(s string) any {
	if s == "" {
		return nil
	}
	return s
}
