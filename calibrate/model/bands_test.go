package model_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/internal/testenv"
	"github.com/qoscal/qoscal/stats"
)

// corrRuns draws n runs of k benchmarks whose log ratios are correlated
// normal: x_ij = mu_j + sigma_j (sqrt(rho) z_i + sqrt(1-rho) e_ij), a
// runner-wide factor z_i shared by the benchmarks of a run.
func corrRuns(rng *rand.Rand, n int, mu, sigma []float64, rho float64, prefix string) []data.Run {
	runs := make([]data.Run, n)
	for i := range runs {
		z := rng.NormFloat64()
		r := data.Run{ID: fmt.Sprintf("%s%d", prefix, i), Baseline: "b", Candidate: "c"}
		for j := range mu {
			x := mu[j] + sigma[j]*(math.Sqrt(rho)*z+math.Sqrt(1-rho)*rng.NormFloat64())
			name := fmt.Sprintf("bench%02d", j)
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: name, Variant: "b", Value: 1, Unit: "ops/sec"},
				data.Measurement{Benchmark: name, Variant: "c", Value: math.Exp(x), Unit: "ops/sec"})
		}
		runs[i] = r
	}
	return runs
}

// TestCombinedRuleHonest is the Monte Carlo check of the combined rule's
// false-positive rate (docs/STATS.md 2.10): over many calibrations of
// correlated log-normal benchmarks (k = 10, rho = 0.5,
// n = 10 and 30), the realised false-positive rate of the bands alone
// (Holm's step-down at alpha = 0.01) and of the combined rule (the score
// below the margin floor, or a benchmark below its band) on fresh healthy
// runs is within Monte Carlo error of, or below, what recommend claims:
// alpha for the bands, and on average the claimed combined rate.
func TestCombinedRuleHonest(t *testing.T) {
	const k, rho, alpha = 10, 0.5, 0.01
	mu := make([]float64, k)
	sigma := make([]float64, k)
	for j := range k {
		mu[j] = 0.05 * float64(j-3)
		sigma[j] = 0.03 + 0.01*float64(j)
	}
	for _, n := range []int{10, 30} {
		rng := rand.New(rand.NewPCG(uint64(n), 2026))
		// 120 calibrations with QOSCAL_SLOW_TESTS=1, 10 in the quick run.
		calibrations := testenv.Size(120, 10)
		const fresh = 150
		var bandRates, combinedRates, claimed []float64
		for c := range calibrations {
			a, err := spread.Analyze(corrRuns(rng, n, mu, sigma, rho, "cal"), spread.Options{NoRegimes: true})
			if err != nil {
				t.Fatal(err)
			}
			opt := model.DefaultRecommendOptions
			opt.Bootstrap, opt.FamilyAlpha, opt.RerunBand = 0, alpha, 0
			rec, err := floor.Recommend(a, opt)
			if err != nil {
				t.Fatal(err)
			}
			claimed = append(claimed, rec.CombinedFPR)
			bandTrips, combinedTrips := 0, 0
			for _, r := range corrRuns(rng, fresh, mu, sigma, rho, fmt.Sprintf("new%d-", c)) {
				rr, err := calibrate.Ratios(&r, "b", "c", calibrate.Auto, "")
				if err != nil {
					t.Fatal(err)
				}
				logs := map[string]float64{}
				for name, br := range rr.Ratios {
					logs[name] = math.Log(br.Ratio)
				}
				below := len(model.JudgeBands(rec.Bands, logs, alpha).Below) > 0
				if below {
					bandTrips++
				}
				if below || rr.ScoreOver(a.Suite).Score < rec.Floor {
					combinedTrips++
				}
			}
			bandRates = append(bandRates, float64(bandTrips)/fresh)
			combinedRates = append(combinedRates, float64(combinedTrips)/fresh)
		}
		// The standard error of a mean of per-calibration rates, from their
		// own spread (the fresh runs of one calibration share its bands).
		se := func(x []float64) float64 { return stats.SD(x) / math.Sqrt(float64(len(x))) }
		band, comb, claim := stats.Mean(bandRates), stats.Mean(combinedRates), stats.Mean(claimed)
		t.Logf("n = %d: bands %.4f (claimed %.2f, SE %.4f); combined %.4f (claimed %.4f on average, SE %.4f)",
			n, band, alpha, se(bandRates), comb, claim, se(combinedRates))
		if band > alpha+3*se(bandRates) {
			t.Errorf("n = %d: the bands trip %.4f of healthy runs, above the claimed %.2f by more than 3 SE (%.4f)", n, band, alpha, se(bandRates))
		}
		if comb > claim+3*se(combinedRates) {
			t.Errorf("n = %d: the combined rule trips %.4f of healthy runs, above the claimed %.4f by more than 3 SE (%.4f)", n, comb, claim, se(combinedRates))
		}
	}
}

// TestBandsWorked: one benchmark's band from its column under the normal
// tail, against the prediction bound computed by hand; and Bands takes
// the tail its pool of deleted residuals favours. Five log ratios 0.1, 0.2, 0.3, 0.4,
// 0.5 have mean 0.3 and SD sqrt(0.025) = 0.158114; with k = 2 benchmarks at
// alpha 0.01 the level is 0.005, t_{4, 0.995} = 4.604094871 (the
// lognormal_prediction_bound vector), so the lower bound is
// exp(0.3 - 4.604094871 * 0.158114 * sqrt(1.2)) = exp(-0.497453) = 0.608078.
func TestBandsWorked(t *testing.T) {
	m := &model.Matrix{Runs: []string{"1", "2", "3", "4", "5"}, Benchmarks: []string{"a", "b"},
		LogRatio: [][]float64{{0.1, 0}, {0.2, 0}, {0.3, 0}, {0.4, 0}, {0.5, 0}}}
	bands := m.BandsWith(0.01, math.Inf(1))
	want := math.Exp(0.3 - 4.604094871*math.Sqrt(0.025)*math.Sqrt(1.2))
	if b := bands[0]; math.Abs(b.Lower-want) > 1e-8 || math.Abs(b.Usual-math.Exp(0.3)) > 1e-15 ||
		math.Abs(b.Upper-math.Exp(0.6)/want) > 1e-8 || math.Abs(b.R50-want/math.Exp(0.3)) > 1e-8 {
		t.Errorf("band of a: %+v, want lower %v", b, want)
	}
	if math.Abs(want-0.608078) > 1e-6 {
		t.Errorf("hand value %v", want)
	}
	// Bands takes the tail its pool of deleted residuals favours: five
	// evenly spaced values favour the normal, and the band is the one
	// above (one benchmark varied: no prior to shrink toward).
	if tail := m.BandTail(); !math.IsInf(tail.DF, 1) {
		t.Errorf("five evenly spaced values favour a heavy tail: %+v", tail)
	} else if b := m.Bands(0.01)[0]; b.DF != tail.DF || math.Abs(b.Lower-want) > 1e-8 || b.PriorDF != 0 || math.Abs(math.Log(b.Upper)+math.Log(b.Lower)-0.6) > 1e-12 {
		t.Errorf("band of a under the tail %v: %+v, want DF %v and the lower edge %v", tail.DF, b, tail.DF, want)
	}
	// b never varied: no band, never judged.
	if b := bands[1]; !math.IsNaN(b.Lower) || !math.IsNaN(b.R50) {
		t.Errorf("band of a constant benchmark: %+v", b)
	}
	j := model.JudgeBands(bands, map[string]float64{"a": math.Log(0.5), "b": -5}, 0.01)
	if !j.Below["a"] || j.Below["b"] || len(j.Above) != 0 {
		t.Errorf("judgement %+v: want a below (0.5 < 0.608), b unjudged", j)
	}
}

// TestTargetFPRHonest is the Monte Carlo check of the target-fpr method
// (docs/STATS.md 2.11): over many calibrations of n log-normal runs (n = 10 and 30), the floor
// FloorOf gives for a target P is one whose true false-positive rate,
// Φ((ln F − μ)/σ) for the generating μ and σ, is on average at most P
// within Monte Carlo error. The true rate of each floor is computed
// exactly, so a target as small as 1 in 1,000 is checked in seconds.
func TestTargetFPRHonest(t *testing.T) {
	const mu, sigma = 0.23, 0.03
	// 20,000 calibrations a cell with QOSCAL_SLOW_TESTS=1, 2,000 in the quick run.
	reps := testenv.Size(20000, 2000)
	for _, n := range []int{10, 30} {
		for _, target := range []float64{0.001, 0.01} {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(target*1e6)))
			opt := model.DefaultRecommendOptions
			opt.Method, opt.TargetFPR = model.MethodTargetFPR, target
			rates := make([]float64, reps)
			scores := make([]float64, n)
			for r := range rates {
				for i := range scores {
					scores[i] = math.Exp(mu + sigma*rng.NormFloat64())
				}
				_, floor, _, err := model.FloorOf(scores, opt)
				if err != nil {
					t.Fatal(err)
				}
				rates[r] = stats.NormalCDF((math.Log(floor) - mu) / sigma)
			}
			mean, se := stats.Mean(rates), stats.SD(rates)/math.Sqrt(float64(reps))
			t.Logf("n = %d, target %v: true rate %.5f on average (SE %.5f)", n, target, mean, se)
			if mean > target+3*se {
				t.Errorf("n = %d: the target-%v floor's true rate is %.5f on average, above the target by more than 3 SE (%.5f)", n, target, mean, se)
			}
		}
	}
}
