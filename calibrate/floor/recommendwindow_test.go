package floor_test

import (
	"math/rand/v2"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/spread"
)

func TestRecommendWindow(t *testing.T) {
	// 30 runs, then 30 whose candidate is 20% slower: two regimes.
	rng := rand.New(rand.NewPCG(3, 4))
	logs := make([]float64, 60)
	for i := range logs {
		logs[i] = 0.01 * rng.NormFloat64()
		if i >= 30 {
			logs[i] -= 0.2
		}
	}
	all, err := spread.Analyze(calibtest.OneBenchmarkRuns(logs), spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := calibtest.WorkedOptions()
	kinds := func(ws []calibrate.Warning) map[calibrate.WarningKind]bool {
		m := map[calibrate.WarningKind]bool{}
		for _, w := range ws {
			m[w.Kind] = true
		}
		return m
	}

	w, err := all.Choose(spread.WindowAll, spread.DefaultMinRuns)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := floor.RecommendWindow(all, all, w, opt)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := floor.Recommend(all, opt)
	if rec.Floor != want.Floor || rec.Window.N != 60 || kinds(rec.Warnings)[calibrate.WarnFewerRuns] || len(rec.Regimes) != len(all.Regimes) {
		t.Errorf("every run: floor %v (want %v), window of %d, warnings %v", rec.Floor, want.Floor, rec.Window.N, rec.Warnings)
	}

	w, err = all.Choose(spread.WindowLatest, spread.DefaultMinRuns)
	if err != nil {
		t.Fatal(err)
	}
	if w.N >= w.Given {
		t.Fatalf("the latest regime holds %d of %d runs: the fixture has no regimes", w.N, w.Given)
	}
	ids := w.IDs(all)
	var runs = calibtest.OneBenchmarkRuns(logs)[w.Start : w.Start+w.N]
	sub, err := spread.Analyze(runs, spread.Options{})
	if err != nil || len(ids) != w.N {
		t.Fatal(err, len(ids))
	}
	rec, err = floor.RecommendWindow(sub, all, w, opt)
	if err != nil {
		t.Fatal(err)
	}
	want, _ = floor.Recommend(sub, opt)
	if rec.Floor != want.Floor || !kinds(rec.Warnings)[calibrate.WarnFewerRuns] {
		t.Errorf("latest regime: floor %v (want %v), warnings %v, want one of fewer runs", rec.Floor, want.Floor, rec.Warnings)
	}
	allRec, _ := floor.Recommend(all, opt)
	if rec.Window.AllFloor != allRec.Floor || rec.Window.AllClaimed != allRec.Cost.Claimed {
		t.Errorf("the window's floor on every run %v (%v), want %v (%v)", rec.Window.AllFloor, rec.Window.AllClaimed, allRec.Floor, allRec.Cost.Claimed)
	}
}
