package spread

import (
	"maps"
	"slices"

	"github.com/qoscal/qoscal/calibrate"
)

// boundaryChanges returns, for each regime of rs after the first, the
// labels of runs that changed at its first run (nil for the first regime;
// an empty, non-nil list for a boundary where none did). A label K is
// named at the boundary between regimes P and R when
//
//   - the last run of P and the first run of R both carry K, with
//     different non-empty values From and To;
//   - From is the value of K on a strict majority of P's runs, and To on
//     a strict majority of R's runs: the label stood still on each side
//     and moved at the step, not just on the two runs around it;
//   - K does not take a value of its own on every run that carries it
//     (commit, github_run: labels that identify a run, and so differ at
//     every boundary and say nothing about it).
//
// Keys are in sorted order. perRun are the run-identifying keys
// (perRunLabels(runs)), computed once for every sequence of the runs.
func boundaryChanges(runs []RunScore, rs []calibrate.Regime, perRun map[string]bool) [][]calibrate.LabelChange {
	out := make([][]calibrate.LabelChange, len(rs))
	for i := 1; i < len(rs); i++ {
		p, r := rs[i-1], rs[i]
		before, at := runs[r.Start-1].Labels, runs[r.Start].Labels
		changes := []calibrate.LabelChange{}
		for _, k := range slices.Sorted(maps.Keys(at)) {
			from, to := before[k], at[k]
			if perRun[k] || from == "" || to == "" || from == to {
				continue
			}
			if !majority(runs[p.Start:p.Start+p.N], k, from) || !majority(runs[r.Start:r.Start+r.N], k, to) {
				continue
			}
			changes = append(changes, calibrate.LabelChange{Label: k, From: from, To: to})
		}
		out[i] = changes
	}
	return out
}

// majority reports whether more than half of runs carry label k = v.
func majority(runs []RunScore, k, v string) bool {
	n := 0
	for _, r := range runs {
		if r.Labels[k] == v {
			n++
		}
	}
	return 2*n > len(runs)
}

// perRunLabels are the label keys carried by two runs or more that take a
// different value on every run that carries them: run identifiers.
func perRunLabels(runs []RunScore) map[string]bool {
	seen := map[string]map[string]bool{}
	carried := map[string]int{}
	for _, r := range runs {
		for k, v := range r.Labels {
			if seen[k] == nil {
				seen[k] = map[string]bool{}
			}
			seen[k][v] = true
			carried[k]++
		}
	}
	out := map[string]bool{}
	for k, n := range carried {
		if n >= 2 && len(seen[k]) == n {
			out[k] = true
		}
	}
	return out
}
