package data

import "slices"

// NameSet is the set of names.
func NameSet(names []string) map[string]bool {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return set
}

// WithoutBenchmarks returns ms without the measurements of the benchmarks
// in drop (ms itself, when it has none), and notes in seen those it had
// (what --ignore left out).
func WithoutBenchmarks(ms []Measurement, drop, seen map[string]bool) []Measurement {
	i := slices.IndexFunc(ms, func(m Measurement) bool { return drop[m.Benchmark] })
	if i < 0 {
		return ms
	}
	kept := append(make([]Measurement, 0, len(ms)), ms[:i]...)
	for _, m := range ms[i:] {
		if drop[m.Benchmark] {
			seen[m.Benchmark] = true
			continue
		}
		kept = append(kept, m)
	}
	return kept
}
