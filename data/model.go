// Package data is qoscal's run model: a Run of Measurements, with its
// labels, the names checks every input passes (CheckName), and the order
// runs and names are kept in. It imports only the standard library. The
// packages under it do the jobs around the model:
//
//   - formats reads result files: text decoding, and one parser per
//     format behind a registry with detection;
//   - load reads runs from run folders, folders of runs, CSV files and
//     zip artifacts, with their qoscal.json;
//   - store keeps runs (the Store interface and its conformance suite,
//     storetest), with one package per backend: store/sqlite and
//     store/postgres;
//   - source is where a command's runs come from: PATHs or a store,
//     opened by its location (the one package above both backends);
//   - samples holds the real runs shipped with qoscal.
//
// A result file is what one variant's benchmark suite printed in one CI job.
// A run is one job: every variant measured on the same machine, with an id,
// labels (k=v), a source and, where the input says so, a time. Parsers turn
// result files into records; the loaders turn records into Runs; the store
// keeps Runs. Nothing here computes statistics or prints reports.
package data

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Role names the part a variant plays in a run's comparison.
const (
	RoleBaseline  = "baseline"
	RoleCandidate = "candidate"
)

// Measurement is one sample: the value of one benchmark for one variant.
// Sample numbers the repetitions of a benchmark within one variant's result
// file, from 0, in the order they were printed.
//
// Repetition, from 1, is the repetition of the whole suite inside the job
// that the sample came from, when the run was measured so ('qoscal
// measure', or a CSV file's repetition column); 0 when the input does not
// say. Samples are numbered across a run's repetitions, so that Sample
// alone tells a run's samples of a benchmark apart; the store keeps each
// sample's repetition with it (schema version 5). A variant's value in a
// run is the median of all its samples, whatever their repetition; a
// benchmark's ratio in a run of several repetitions is the geometric mean
// of its repetitions' ratios (calibrate.Ratios), and the variance
// components score each repetition on its own.
type Measurement struct {
	Benchmark  string
	Variant    string
	Sample     int
	Value      float64
	Unit       string
	Repetition int
}

// Run is one CI job (or local session) in which the variants were measured
// on the same machine.
type Run struct {
	ID     string
	Labels map[string]string
	// Source says where the run was read from (a folder, a CSV file).
	Source string
	// Time is when the run was measured, if the input said; zero otherwise.
	Time time.Time
	// Baseline and Candidate are the variant names playing those roles,
	// empty when the input did not name them.
	Baseline, Candidate string
	Measurements        []Measurement
}

// Variants returns the run's variant names, sorted.
func (r *Run) Variants() []string {
	seen := map[string]bool{}
	for _, m := range r.Measurements {
		seen[m.Variant] = true
	}
	return sortedKeys(seen)
}

// BenchmarkCount returns, for each variant, the number of distinct
// benchmarks that have at least one value.
func (r *Run) BenchmarkCount() map[string]int {
	type key struct{ v, b string }
	seen := map[key]bool{}
	n := map[string]int{}
	for _, m := range r.Measurements {
		k := key{m.Variant, m.Benchmark}
		if !seen[k] {
			seen[k] = true
			n[m.Variant]++
		}
	}
	return n
}

// Sort puts the run's measurements in a canonical order: variant,
// benchmark, unit, sample (a stable sort: measurements equal in all four
// keep their order).
func (r *Run) Sort() {
	slices.SortStableFunc(r.Measurements, CompareMeasurements)
}

// CompareMeasurements orders measurements by variant, benchmark, unit and
// sample: the canonical order of Run.Sort, in which a store keeps them.
func CompareMeasurements(a, b Measurement) int {
	return cmp.Or(strings.Compare(a.Variant, b.Variant), strings.Compare(a.Benchmark, b.Benchmark),
		strings.Compare(a.Unit, b.Unit), cmp.Compare(a.Sample, b.Sample))
}

// HasLabels reports whether the run carries every label in want.
func (r *Run) HasLabels(want map[string]string) bool {
	for k, v := range want {
		if got, ok := r.Labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// ParseLabel splits "k=v" into its key and value. The key must be
// non-empty; the value may be empty.
func ParseLabel(s string) (key, value string, err error) {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok {
		return "", "", fmt.Errorf("label %q has no '=': expected KEY=VALUE", s)
	}
	if k == "" {
		return "", "", fmt.Errorf("label %q has an empty key: expected KEY=VALUE", s)
	}
	if err := CheckName("label key", k); err != nil {
		return "", "", err
	}
	if err := CheckName("label "+k+" value", v); err != nil {
		return "", "", err
	}
	return k, v, nil
}

// ParseLabels parses a list of "k=v" strings into a map. A key given twice
// with different values is an error.
func ParseLabels(list []string) (map[string]string, error) {
	m := map[string]string{}
	for _, s := range list {
		k, v, err := ParseLabel(s)
		if err != nil {
			return nil, err
		}
		if old, ok := m[k]; ok && old != v {
			return nil, fmt.Errorf("label %q given twice (%s=%s and %s=%s)", k, k, old, k, v)
		}
		m[k] = v
	}
	return m, nil
}

// FormatLabels renders labels as "k=v,k=v" in key order.
func FormatLabels(labels map[string]string) string {
	keys := sortedKeys(labels)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + labels[k]
	}
	return strings.Join(parts, ",")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
