package calibrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"qoscal/data"
	"qoscal/internal/testenv"
	"qoscal/stats"
)

// mixtureCalibration analyses n one-benchmark runs whose log score is
// N(0, σ²), except that each run, with probability eps, comes from a
// degraded runner and scores shift× lower.
func mixtureCalibration(t testing.TB, rng *rand.Rand, n int, eps, shift, sigma float64) *Analysis {
	runs := make([]data.Run, n)
	for i := range runs {
		l := sigma * rng.NormFloat64()
		if rng.Float64() < eps {
			l += math.Log(shift)
		}
		runs[i] = data.Run{ID: fmt.Sprint(i), Baseline: "b", Candidate: "c", Measurements: []data.Measurement{
			{Benchmark: "x", Variant: "b", Value: 1000, Unit: "ops/sec"},
			{Benchmark: "x", Variant: "c", Value: 1000 * math.Exp(l), Unit: "ops/sec"},
		}}
	}
	a, err := Analyze(runs, Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestClaimsOnMixtures is the Monte Carlo acceptance of issue 15 for
// real CI noise that is a mixture: 10% of runs from a runner degraded to
// 0.9× (σ 2% for both). For each calibration the default rule (target 1 in
// 1,000, capped at the lowest run when the log scores are not normal)
// picks the floor; its true rate is
// (1 − ε)·Φ(ln F/σ) + ε·Φ((ln F − ln 0.9)/σ). On the mixture the model's
// predictive rate is far below the truth on average; the claimed rate
// (the model's while the scores look normal, else no less than the
// model-free bound) is not. On clean log-normal runs (ε = 0) the model
// stays as honest as it was, and the claim departs from it only in the
// ~5% of calibrations where Shapiro–Wilk rejects by chance.
func TestClaimsOnMixtures(t *testing.T) {
	testenv.SkipUnlessFullSize(t)
	const reps, sigma, shift = 300, 0.02, 0.9
	t.Logf("%-8s %3s  %-9s %-9s %-9s %-9s %-8s %-8s", "runs", "n", "true", "model", "claimed", "true/clm", "not norm", "upper miss")
	for _, eps := range []float64{0, 0.1} {
		for _, n := range []int{10, 30} {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(eps*100)+15))
			var truth, model, claimed, diff, diff2 float64
			notNormal, miss := 0, 0
			for range reps {
				a := mixtureCalibration(t, rng, n, eps, shift, sigma)
				_, floor, _, err := a.Floor(DefaultRecommendOptions)
				if err != nil {
					t.Fatal(err)
				}
				c := a.Cost(floor, 100)
				lf := math.Log(floor)
				tr := (1-eps)*stats.NormalCDF(lf/sigma) + eps*stats.NormalCDF((lf-math.Log(shift))/sigma)
				truth += tr
				model += c.Predictive
				claimed += c.Claimed
				d := tr - c.Claimed
				diff += d
				diff2 += d * d
				if c.Claimed != c.Predictive {
					notNormal++
				}
				if c.ClaimedUpper95 < tr {
					miss++
				}
			}
			truth, model, claimed, diff = truth/reps, model/reps, claimed/reps, diff/reps
			se := math.Sqrt((diff2/reps - diff*diff) / reps)
			what := "clean"
			if eps > 0 {
				what = "10% slow"
			}
			t.Logf("%-8s %3d  %-9.3g %-9.3g %-9.3g %-9.2f %-8.2f %-8.2f", what, n, truth, model, claimed, truth/claimed, float64(notNormal)/reps, float64(miss)/reps)
			if diff > 3*se {
				t.Errorf("%s, n = %d: the claimed rate %.3g is below the true rate %.3g on average (by %.3g, more than 3 SE)", what, n, claimed, truth, diff)
			}
			if eps > 0 && truth < 3*model {
				t.Errorf("%s, n = %d: the model's rate %.3g is not far below the truth %.3g: the test does not show the problem", what, n, model, truth)
			}
			if eps == 0 && (truth > 1.25*model || float64(notNormal)/reps > 0.1) {
				t.Errorf("clean, n = %d: model %.3g against true %.3g, claim departed in %d of %d", n, model, truth, notNormal, reps)
			}
		}
	}
}
