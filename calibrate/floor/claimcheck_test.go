package floor_test

import (
	"math"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/spread"
	qstats "github.com/qoscal/qoscal/stats"
)

// TestClaimCheck: the reasons a claim does not hold per calibration, at
// the edges of each (docs/STATS.md 5g). The correlation is undecided when
// r ≤ 1.645/√n (not allowed for) and r + (1 + 4r)/n + 1.645/√n ≥ 0.5 (ρ
// 0.5 not ruled out): at n = 30, 1.645/√30 = 0.3003, and the second holds
// from r = (0.5 − 0.3003 − 1/30)/(1 + 4/30) = 0.1471.
func TestClaimCheck(t *testing.T) {
	stats := func(n int, r float64) spread.ScoreStats {
		return spread.ScoreStats{N: n, Lag1: r, Lag1SE: 1 / math.Sqrt(float64(n)), SDLog: 0.02, ShapiroP: 0.5, Tail: qstats.NormalTail}
	}
	few := &calibrate.ClaimFigures{FewRuns: true, RunsNeeded: 20}
	undecided := &calibrate.ClaimFigures{Undecided: true, RunsNeeded: 51}
	for _, c := range []struct {
		n    int
		r    float64
		want *calibrate.ClaimFigures
	}{
		{30, 0.14, nil},
		{30, 0.15, undecided},
		{30, 0.30, undecided},
		{30, 0.31, nil}, // significant: allowed for
		{30, -0.2, nil},
		{19, -0.2, few},
		{19, 0.2, few},
		{20, math.NaN(), nil},
		// From 51 runs no r is undecided: just above the significance
		// line it is allowed for, just below it rules out 0.5.
		{51, 1.645 / math.Sqrt(51), nil},
		{50, 1.645 / math.Sqrt(50), undecided},
	} {
		got := floor.ClaimCheck(stats(c.n, c.r), 0.001)
		if c.want == nil {
			if got != nil {
				t.Errorf("n %d, r %v: %+v, want the claim to hold", c.n, c.r, got)
			}
			continue
		}
		want := *c.want
		want.Runs, want.Lag1, want.Claimed = c.n, c.r, 0.001
		if got == nil || *got != want {
			t.Errorf("n %d, r %v: %+v, want %+v", c.n, c.r, got, want)
		}
	}
	// In doubt (not normal, a heavier tail favoured) or without spread,
	// the claim is no lower than the model-free figure, and stands.
	for _, mod := range []func(*spread.ScoreStats){
		func(s *spread.ScoreStats) { s.ShapiroP = 0.01 },
		func(s *spread.ScoreStats) { s.Tail.DF = 5 },
		func(s *spread.ScoreStats) { s.SDLog = 0 },
	} {
		s := stats(10, 0.2)
		mod(&s)
		if got := floor.ClaimCheck(s, 0.001); got != nil {
			t.Errorf("%+v: %+v, want the claim to stand", s, got)
		}
	}
}
