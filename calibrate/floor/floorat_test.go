package floor_test

import (
	"math"
	"slices"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
)

// TestRecommendationAt: the worked example's recommendation (1.25) at the
// floors 1.32 and 1.50 (the latter above the lowest run, 1.44): the
// floor and its cost are that floor's, computed as Cost computes any, its
// row is among the candidates in floor order, the method's own figures
// are gone, the warnings speak of that floor, and the recommendation is
// unchanged.
func TestRecommendationAt(t *testing.T) {
	a, rec := calibtest.WorkedRecommendation(t)
	before := *rec
	for _, tc := range []struct {
		floor    float64
		aboveMin bool
	}{{1.32, false}, {1.50, true}} {
		at := rec.At(a, tc.floor, 2)
		want := floor.Cost(a, tc.floor, rec.Options.Horizon)
		if at.Floor != tc.floor || at.Cost.Predictive != want.Predictive || at.Cost.R50 != want.R50 || at.Cost.CalibrationBelow != want.CalibrationBelow {
			t.Errorf("At(%v): floor %v, cost %+v; want the floor's cost %+v", tc.floor, at.Floor, at.Cost, want)
		}
		if want := math.Min(1, want.Predictive+rec.Options.FamilyAlpha); at.CombinedFPR != want {
			t.Errorf("At(%v): combined rate %v, want %v", tc.floor, at.CombinedFPR, want)
		}
		floors := make([]float64, len(at.Candidates))
		for i, c := range at.Candidates {
			floors[i] = c.Floor
		}
		if !slices.Contains(floors, tc.floor) || !slices.IsSorted(floors) || len(floors) != len(rec.Candidates)+1 {
			t.Errorf("At(%v): candidate floors %v; want the recommendation's %d with %v among them, in order", tc.floor, floors, len(rec.Candidates), tc.floor)
		}
		if !math.IsNaN(at.Raw) || at.WithoutOutliers != 0 || at.Repetitions != nil || !math.IsNaN(at.TwoStageFPR) {
			t.Errorf("At(%v): the method's figures remain: raw %v, without outliers %v, repetitions %v, two-stage %v", tc.floor, at.Raw, at.WithoutOutliers, at.Repetitions, at.TwoStageFPR)
		}
		above := false
		for _, w := range at.Warnings {
			if f, ok := w.Figures.(calibrate.FloorFigures); ok && f.Floor != tc.floor {
				t.Errorf("At(%v): a warning about the floor %v", tc.floor, f.Floor)
			}
			above = above || w.Kind == calibrate.WarnFloorAboveMin
		}
		if above != tc.aboveMin {
			t.Errorf("At(%v): warned of a floor above the lowest run: %v, want %v", tc.floor, above, tc.aboveMin)
		}
	}
	if rec.Floor != before.Floor || len(rec.Candidates) != len(before.Candidates) || len(rec.Warnings) != len(before.Warnings) {
		t.Errorf("At changed the recommendation: %+v", rec)
	}
	// A floor among the candidates already is not listed twice.
	if at := rec.At(a, rec.Floor, 2); len(at.Candidates) != len(rec.Candidates) {
		t.Errorf("At the recommended floor: %d candidates, want %d", len(at.Candidates), len(rec.Candidates))
	}
}

// TestRecommendationAtText: the floor as written sets the decimals (at
// least the recommendation's, at most 6), and nil all is the analysis.
func TestRecommendationAtText(t *testing.T) {
	a, rec := calibtest.WorkedRecommendation(t)
	for _, tc := range []struct {
		text string
		dec  int
	}{{"1.3", max(rec.Decimals, 1)}, {"1.3250", max(rec.Decimals, 4)}, {"1.123456789", 6}, {"1", rec.Decimals}} {
		got := rec.AtText(a, nil, 1.3, tc.text)
		want := rec.At(a, 1.3, tc.dec)
		if got.Decimals != tc.dec || got.Floor != 1.3 || got.Cost.Predictive != want.Cost.Predictive || len(got.Warnings) != len(want.Warnings) {
			t.Errorf("AtText(%q): decimals %d, floor %v, want %d as At gives", tc.text, got.Decimals, got.Floor, tc.dec)
		}
	}
}
