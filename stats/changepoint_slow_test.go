package stats

import (
	"math/rand/v2"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"
)

// TestChangePointClaims is the Monte Carlo behind docs/STATS.md 5 (1,000
// series a cell, seeded): false change points on stationary AR(1) series
// of n runs for ρ = 0, 0.25, 0.5 (the default test, and the exchangeable
// permutation test with no minimum shift, as E-Divisive was before),
// power against a 10% shift after 3 of 12 independent runs, and the
// minimum shift's effect on both. It asserts the acceptance figures: at
// most 10% false change points at ρ = 0.5, n = 20; at most the 5% level
// plus 3 SE on independent series of 10, 20 and 50 runs; at most 1.5% on
// independent series of 30 (a chance regime; 4% without the minimum
// shift); and the shift found at run 4 at least 80% of the time at sd 0.025.
func TestChangePointClaims(t *testing.T) {
	testenv.SkipUnlessFullSize(t)
	const reps = 1000
	old := EDivisiveOptions{Exchangeable: true, MinShift: -1}
	for _, rho := range []float64{0, 0.25, 0.5} {
		for _, n := range []int{10, 20, 30, 50} {
			draw := func(r *rand.Rand, z []float64) { arSeries(r, z, rho, 0.025) }
			rate, se := changeRate(rand.New(rand.NewPCG(uint64(n), uint64(100*rho))), reps, n, draw, EDivisiveOptions{}, -1)
			was, wse := changeRate(rand.New(rand.NewPCG(uint64(n), uint64(100*rho))), reps, n, draw, old, -1)
			t.Logf("ρ = %.2f, n = %2d: false change points %.3f (SE %.3f); exchangeable test, no minimum shift: %.3f (SE %.3f)", rho, n, rate, se, was, wse)
			switch {
			case rho == 0.5 && n == 20 && rate > 0.10:
				t.Errorf("ρ = 0.5, n = 20: false change points in %.3f of series, want at most 0.10", rate)
			case rho == 0 && n != 30 && rate > 0.05+3*0.0069:
				t.Errorf("independent, n = %d: false change points in %.3f of series, above 0.05 + 3 SE", n, rate)
			case rho == 0 && n == 30 && rate > 0.015:
				t.Errorf("independent, n = 30: a chance regime in %.3f of series, want at most 0.015", rate)
			}
		}
	}
	for _, sd := range []float64{0.025, 0.03} {
		draw := func(r *rand.Rand, z []float64) { shiftSeries(r, z, 3, 0.10, sd) }
		power, se := changeRate(rand.New(rand.NewPCG(12, uint64(1000*sd))), reps, 12, draw, EDivisiveOptions{}, 3)
		was, wse := changeRate(rand.New(rand.NewPCG(12, uint64(1000*sd))), reps, 12, draw, old, 3)
		t.Logf("10%% shift after 3 of 12 runs, sd %.3f: found at run 4 in %.3f (SE %.3f); exchangeable test, no minimum shift: %.3f (SE %.3f)", sd, power, se, was, wse)
		if sd == 0.025 && power < 0.80 {
			t.Errorf("sd %.3f: power %.3f, want at least 0.80", sd, power)
		}
	}
	// What allowing for autocorrelation costs where it applies: a 10%
	// shift after 5 of 20 independent runs.
	draw := func(r *rand.Rand, z []float64) { shiftSeries(r, z, 5, 0.10, 0.025) }
	power, se := changeRate(rand.New(rand.NewPCG(20, 5)), reps, 20, draw, EDivisiveOptions{}, 5)
	was, wse := changeRate(rand.New(rand.NewPCG(20, 5)), reps, 20, draw, old, 5)
	exch, ese := changeRate(rand.New(rand.NewPCG(20, 5)), reps, 20, draw, EDivisiveOptions{Exchangeable: true}, 5)
	t.Logf("10%% shift after 5 of 20 runs, sd 0.025: found at run 6 in %.3f (SE %.3f); exchangeable test with the minimum shift %.3f (SE %.3f); neither %.3f (SE %.3f)", power, se, exch, ese, was, wse)
	// The minimum shift, c robust SDs: what it removes of the chance
	// changes of independent series of 30 runs and of AR(1) ρ = 0.5 series
	// of 20, and what it costs against the 10% shift at sd 0.025.
	for _, c := range []float64{-1, 2, 2.5, 3} {
		opt := EDivisiveOptions{MinShift: c}
		iid, _ := changeRate(rand.New(rand.NewPCG(30, 7)), reps, 30, func(r *rand.Rand, z []float64) { arSeries(r, z, 0, 0.025) }, opt, -1)
		ar, _ := changeRate(rand.New(rand.NewPCG(20, 7)), reps, 20, func(r *rand.Rand, z []float64) { arSeries(r, z, 0.5, 0.025) }, opt, -1)
		power, _ := changeRate(rand.New(rand.NewPCG(12, 7)), reps, 12, func(r *rand.Rand, z []float64) { shiftSeries(r, z, 3, 0.10, 0.025) }, opt, 3)
		t.Logf("minimum shift %4.1f: independent n = 30 %.3f, AR(1) ρ = 0.5 n = 20 %.3f, 10%% shift after 3 of 12 found %.3f", c, iid, ar, power)
	}
}
