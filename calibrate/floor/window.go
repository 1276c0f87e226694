package floor

import (
	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
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

// RecommendWindow recommends a floor on a, the analysis of the window w
// that all.Choose picked among every run given (all; a is all itself
// with WindowAll), with opt: Recommend, then what the window changed
// said in the recommendation's warnings (the latest regime left out as
// chance, WarnChanceRegime; fewer runs than given, WarnFewerRuns, with
// the floor every run would give), the window and regimes recorded in
// it, and the earlier regimes' runs checked against the floor
// (CheckWindow).
func RecommendWindow(a, all *spread.Analysis, w spread.Window, opt model.RecommendOptions) (*Recommendation, error) {
	rec, err := Recommend(a, opt)
	if err != nil {
		return nil, err
	}
	if w.Chance {
		latest := all.Regimes[len(all.Regimes)-1]
		rec.Warnings = append(rec.Warnings, calibrate.Warning{Kind: calibrate.WarnChanceRegime,
			Figures: calibrate.ChanceFigures{From: latest.First, Runs: latest.N, Given: w.Given, P: w.ScanP, Rho: w.Rho}})
	}
	if w.N < w.Given {
		// The rate on every run beside the window's: what choosing fewer
		// runs changed (issue 33 item 4).
		if allRec, err := Recommend(all, opt); err == nil {
			w.AllFloor, w.AllClaimed = allRec.Floor, allRec.Cost.Claimed
		}
		rec.Warnings = append(rec.Warnings, calibrate.Warning{Kind: calibrate.WarnFewerRuns,
			Figures: calibrate.FewerFigures{Used: w.N, Given: w.Given, From: w.First, AllFloor: w.AllFloor, AllClaimed: w.AllClaimed, Step: opt.Step, ScanP: w.ScanP}})
	}
	rec.Window, rec.Regimes = w, all.Regimes
	CheckWindow(all, w, rec)
	return rec, nil
}
