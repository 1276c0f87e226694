package main

import (
	"math"

	"github.com/qoscal/qoscal/calibrate/drift"
)

// checkFloor is the one check of a --floor value, shared by every command
// that takes one (plot, report, gate). A floor is a score, the geometric
// mean of ratios, so it is a finite number > 0: NaN, ±Inf, 0 and negative
// values are usage errors that name the flag. A floor outside
// [MinFloor, MaxFloor] is refused too: 1e-320 would pass every run and
// 1e308 fail every one, and no geomean of ratios of real measurements is
// that far from 1.
func checkFloor(v float64) error {
	if !(v > 0) || math.IsInf(v, 1) { // NaN > 0 is false
		return usagef("--floor must be a finite number > 0, got %v", v)
	}
	if v < MinFloor || v > MaxFloor {
		return usagef("--floor must be in [%g, %g], got %v: a score is a geomean of ratios, never that far from 1", MinFloor, MaxFloor, v)
	}
	return nil
}

// The range of a --floor.
const (
	MinFloor = 1e-6
	MaxFloor = 1e6
)

// The ranges of the count flags that the commands check (those of a
// recommendation, --bootstrap and --step among them, are
// model.RecommendOptions.Validate's), before any work: each bounds
// what a mistyped number could make the command do.
const (
	// maxMinRuns bounds --min-runs: more runs than any store holds.
	maxMinRuns = 1000000
	// maxMinSuite bounds the gate's --min-suite: more benchmarks than
	// any suite holds.
	maxMinSuite = 100000
	// maxDriftWindow bounds the gate's --drift-window.
	maxDriftWindow = drift.MaxDriftRuns
)
