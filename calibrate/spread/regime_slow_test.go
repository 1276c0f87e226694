package spread_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/internal/testenv"
)

// TestRegimeWindowClaims: how often the auto window (recommend --regime
// auto, at least 8 runs in the latest regime) calibrates on fewer runs
// than it was given when no regime changed: stationary AR(1) log scores
// (ρ = 0.5, and independent ones) of 20 and 30 runs, 500 calibrations each,
// sd 0.025, analysed as recommend does (Analyze, then Choose). The
// exchangeable permutation test did so in 17–33% of AR(1) calibrations
// (the audit behind docs/STATS.md 5); at most 10% now, and at most 2% of
// independent ones (a chance latest regime, 4% before).
func TestRegimeWindowClaims(t *testing.T) {
	testenv.SkipUnlessFullSize(t)
	const reps, sd = 500, 0.025
	for _, rho := range []float64{0, 0.5} {
		for _, n := range []int{20, 30} {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(10*rho)+26))
			logs := make([]float64, n)
			shorter := 0
			for r := range reps {
				logs[0] = sd * rng.NormFloat64()
				for i := 1; i < n; i++ {
					logs[i] = rho*logs[i-1] + sd*math.Sqrt(1-rho*rho)*rng.NormFloat64()
				}
				a, err := spread.Analyze(calibtest.OneBenchmarkRuns(logs), spread.Options{Seed: uint64(r + 1)})
				if err != nil {
					t.Fatal(err)
				}
				w, err := a.Choose(spread.WindowAuto, spread.DefaultMinRuns)
				if err != nil {
					t.Fatal(err)
				}
				if w.N < n {
					shorter++
				}
			}
			rate := float64(shorter) / reps
			se := math.Sqrt(rate * (1 - rate) / reps)
			t.Logf("ρ = %.1f, n = %d: the auto window is shorter than every run in %.3f of %d calibrations (SE %.3f)", rho, n, rate, reps, se)
			if limit := map[bool]float64{true: 0.10, false: 0.02}[rho > 0]; rate > limit {
				t.Errorf("ρ = %.1f, n = %d: a shorter window in %.3f of calibrations, want at most %.2f", rho, n, rate, limit)
			}
		}
	}
}
