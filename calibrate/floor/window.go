package floor

import (
	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// CheckWindow checks the floor of a recommendation made on the latest
// regime (w, a window of a's runs) against every run before it: a split
// that was chance, not a change, would make a floor those runs refute, so
// the runs of the earlier regimes that score below the floor are named in
// a warning (added to rec's), and their number returned.
func CheckWindow(a *spread.Analysis, w spread.Window, rec *Recommendation) int {
	if w.Rule != spread.WindowLatest {
		return 0
	}
	var below []string
	for i, r := range a.Runs {
		if (i < w.Start || i >= w.Start+w.N) && r.Score < rec.Floor {
			below = append(below, r.ID)
		}
	}
	if len(below) == 0 {
		return 0
	}
	rec.Warnings = append(rec.Warnings, calibrate.Warning{Kind: calibrate.WarnEarlierBelow, Runs: below,
		Figures: calibrate.EarlierFigures{Floor: rec.Floor, Step: rec.Options.Step, Before: len(a.Runs) - w.N, From: w.First}})
	return len(below)
}
