package spread

import (
	"fmt"
	"math"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/stats"
)

// MaxChangeRuns is how many values the change-point search examines at
// full resolution (E-Divisive's permutation test costs O(n²) per
// permutation): a longer sequence is searched on the medians of at most
// this many bins of consecutive runs, and each change found placed
// exactly among the runs near it (stats.EDivisiveLong), so every run is
// searched at a cost that does not grow with the square of their number.
const MaxChangeRuns = 300

// regimesOf splits values (one per run of a.Runs, in order) into regimes
// at their significant change points, found on their logs.
func (a *Analysis) regimesOf(values []float64, seed uint64) []calibrate.Regime {
	n := len(values)
	logs := make([]float64, n)
	for i, v := range values {
		logs[i] = math.Log(v)
	}
	var cuts []int
	for _, c := range stats.EDivisiveLong(logs, stats.EDivisiveOptions{Seed: seed}, MaxChangeRuns) {
		cuts = append(cuts, c.Index)
	}
	cuts = append(cuts, n)
	var out []calibrate.Regime
	start := 0
	for _, end := range cuts {
		out = append(out, calibrate.Regime{First: a.Runs[start].ID, Last: a.Runs[end-1].ID, Start: start, N: end - start,
			Median: stats.Median(values[start:end])})
		start = end
	}
	return out
}

// findRegimes sets the regimes of the score sequence and of each
// benchmark's ratio, and warns when the score changed regime.
func (a *Analysis) findRegimes(seed uint64) {
	scores := make([]float64, len(a.Runs))
	for i, r := range a.Runs {
		scores[i] = r.Score
	}
	a.Regimes = a.regimesOf(scores, seed)
	var perRun map[string]bool
	name := func(rs []calibrate.Regime) {
		if len(rs) < 2 {
			return
		}
		if perRun == nil {
			perRun = perRunLabels(a.Runs)
		}
		for i, c := range boundaryChanges(a.Runs, rs, perRun) {
			rs[i].Changes = c
		}
	}
	name(a.Regimes)
	for i := range a.Benchmarks {
		b := &a.Benchmarks[i]
		j := a.suiteIndex(b.Name)
		ratios := make([]float64, len(a.Runs))
		for r, run := range a.Runs {
			ratios[r] = run.Ratios[j]
		}
		b.Regimes = a.regimesOf(ratios, seed)
		name(b.Regimes)
	}
	if len(a.Regimes) > 1 {
		a.warn(calibrate.Warning{Kind: calibrate.WarnRegimes, Figures: calibrate.RegimeFigures{Regimes: a.Regimes}})
	}
}

// suiteIndex is the position of a benchmark in the suite.
func (a *Analysis) suiteIndex(name string) int {
	for j, b := range a.Suite {
		if b == name {
			return j
		}
	}
	return -1
}

// Calibration windows: which runs a floor is calibrated on.
const (
	WindowAuto   = "auto"   // the latest regime when it is long enough, else all
	WindowAll    = "all"    // every run
	WindowLatest = "latest" // the latest regime, however short (at least 2 runs)
)

// DefaultMinRuns is the fewest runs the latest regime needs for the auto
// window to calibrate on it alone.
const DefaultMinRuns = 8

// Window is the runs a floor is calibrated on.
type Window struct {
	// Rule is WindowLatest or WindowAll: what was used.
	Rule        string
	First, Last string
	N           int
	// Start is the index of the first run in the analysis' runs.
	Start int
	// Earlier are the regimes left out (with WindowLatest).
	Earlier []calibrate.Regime
	// Short is set when the latest regime was too short for the auto
	// rule, which then calibrated on every run; NeedMore says how many more
	// runs of it would do.
	Short    bool
	NeedMore int
	// Given is how many runs the calibration was given (every run of the
	// analysis Choose was called on).
	Given int
	// ScanP is RegimeScanP of the latest regime's cut, with Rho the
	// autocorrelation it allowed for (NaN without regimes, or a side too
	// short to test); Chance is set when the auto rule left the latest
	// regime out for it (ScanP above RegimeAlpha) and calibrated on every
	// run.
	ScanP, Rho float64
	Chance     bool
	// AllFloor and AllClaimed are the floor and its claimed rate the same
	// method gives on every run given, set by the caller when the window
	// holds fewer (for the warning that says so); NaN otherwise.
	AllFloor, AllClaimed float64
}

// Choose picks the calibration window: rule is WindowAuto, WindowAll or
// WindowLatest; minRuns the auto rule's minimum.
//
// The auto rule takes the latest regime only when its change survives
// RegimeScanP at RegimeAlpha: a change the permutation test found but
// autocorrelated noise, with the cut chosen by the search, gives often
// enough is chance, and every run is calibrated on (Chance set). An
// explicit latest is taken as asked, with ScanP set for the warning.
func (a *Analysis) Choose(rule string, minRuns int) (Window, error) {
	nan := math.NaN()
	all := Window{Rule: WindowAll, First: a.Runs[0].ID, Last: a.Runs[len(a.Runs)-1].ID, N: len(a.Runs), Given: len(a.Runs),
		ScanP: nan, Rho: nan, AllFloor: nan, AllClaimed: nan}
	if len(a.Regimes) < 2 {
		return all, nil
	}
	latest := a.Regimes[len(a.Regimes)-1]
	w := Window{Rule: WindowLatest, First: latest.First, Last: latest.Last, N: latest.N, Start: latest.Start,
		Earlier: append([]calibrate.Regime(nil), a.Regimes[:len(a.Regimes)-1]...), Given: len(a.Runs), AllFloor: nan, AllClaimed: nan}
	if rule == WindowAuto || rule == "" || rule == WindowLatest {
		logs := make([]float64, len(a.Runs))
		for i, r := range a.Runs {
			logs[i] = r.LogScore
		}
		w.ScanP, w.Rho = RegimeScanP(logs, latest.Start, 1)
		all.ScanP, all.Rho = w.ScanP, w.Rho
	}
	switch rule {
	case WindowAll:
		return all, nil
	case WindowLatest:
		if latest.N < 2 {
			return Window{}, fmt.Errorf("the latest regime (%s) has %d run: a floor needs at least 2", latest.Span(), latest.N)
		}
		return w, nil
	case WindowAuto, "":
		if latest.N >= minRuns && !(w.ScanP > RegimeAlpha) {
			return w, nil
		}
		if latest.N >= minRuns {
			all.Chance = true
			return all, nil
		}
		all.Short, all.NeedMore = true, minRuns-latest.N
		return all, nil
	}
	return Window{}, fmt.Errorf("unknown window %q: expected auto, all or latest", rule)
}

// IDs returns the ids of the window's runs.
func (w Window) IDs(a *Analysis) map[string]bool {
	ids := map[string]bool{}
	for _, r := range a.Runs[w.Start : w.Start+w.N] {
		ids[r.ID] = true
	}
	return ids
}
