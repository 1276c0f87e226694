package floor_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	calmodel "github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/internal/testenv"
	"github.com/qoscal/qoscal/stats"
)

// TestClaimsOnMixtures is the Monte Carlo check of the claimed rates
// (docs/STATS.md 5a) for real CI noise that is a mixture: 10% of runs from a runner degraded to
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
				a := calibtest.MixtureCalibration(t, rng, n, eps, shift, sigma)
				_, floor, _, err := calfloor.Floor(a, calmodel.DefaultRecommendOptions)
				if err != nil {
					t.Fatal(err)
				}
				c := calfloor.Cost(a, floor, 100)
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

// tailCalibration analyses n one-benchmark runs whose log scores are
// drawn by draw.
func tailCalibration(t testing.TB, y []float64) *spread.Analysis {
	runs := make([]data.Run, len(y))
	for i, l := range y {
		runs[i] = data.Run{ID: fmt.Sprintf("r%03d", i), Baseline: "b", Candidate: "c", Measurements: []data.Measurement{
			{Benchmark: "x", Variant: "b", Value: 1000, Unit: "ops/sec"},
			{Benchmark: "x", Variant: "c", Value: 1000 * math.Exp(l), Unit: "ops/sec"},
		}}
	}
	a, err := spread.Analyze(runs, spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestTailClaimsPrecise pins the default rule's figures on the noise of
// docs/STATS.md 5d precisely, with the rule itself (Analysis.Floor and
// Cost) rather than through the command, which
// cmd/qoscal/claims_mc_test.go does at a tenth of the calibrations: 30
// runs, a log score centred on ln 1.3 with SD 0.02 (the bundled runs'
// noise), independent normal, Student-t(5) and AR(1) at ρ = 0.5; 10,000
// calibrations each at full size (the quick run: 100, loose bounds).
// The ratio of the mean true rate to the mean predictive rate is within
// 0.8–1.25 on normal runs and at most 2.5 on the others, and the 95%
// upper bound is below the truth in at most 5% of normal calibrations
// and 10% of the others.
func TestTailClaimsPrecise(t *testing.T) {
	reps := testenv.Size(10000, 100)
	const n, sigma, mu = 30, 0.02, 0.26236426446749106
	tScale := sigma * math.Sqrt(3.0/5)
	for _, c := range []struct {
		name    string
		draw    func(rng *rand.Rand, y []float64)
		truth   func(lnF float64) float64
		lo, hi  float64 // bounds of true/predictive
		maxMiss float64
	}{
		{"normal", func(rng *rand.Rand, y []float64) {
			for i := range y {
				y[i] = mu + sigma*rng.NormFloat64()
			}
		}, func(l float64) float64 { return stats.NormalCDF((l - mu) / sigma) }, 0.8, 1.25, 0.05},
		{"t5", func(rng *rand.Rand, y []float64) {
			for i := range y {
				var c float64
				for range 5 {
					g := rng.NormFloat64()
					c += g * g
				}
				y[i] = mu + tScale*rng.NormFloat64()/math.Sqrt(c/5)
			}
		}, func(l float64) float64 { return stats.TCDF((l-mu)/tScale, 5) }, 0, 2.5, 0.10},
		{"ar1", func(rng *rand.Rand, y []float64) {
			prev := rng.NormFloat64()
			for i := range y {
				if i > 0 {
					prev = 0.5*prev + math.Sqrt(0.75)*rng.NormFloat64()
				}
				y[i] = mu + sigma*prev
			}
		}, func(l float64) float64 { return stats.NormalCDF((l - mu) / sigma) }, 0, 2.5, 0.10},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(5, uint64(len(c.name))))
			y := make([]float64, n)
			var truth, pred, upper float64
			var tp []float64 // truth − ratio·pred, for the ratio's standard error
			truths, preds := make([]float64, 0, reps), make([]float64, 0, reps)
			miss := 0
			for range reps {
				c.draw(rng, y)
				a := tailCalibration(t, y)
				_, floor, _, err := calfloor.Floor(a, calmodel.DefaultRecommendOptions)
				if err != nil {
					t.Fatal(err)
				}
				cost := calfloor.Cost(a, floor, 1)
				tr := c.truth(math.Log(floor))
				truth += tr
				pred += cost.Predictive
				upper += cost.Upper95
				truths, preds = append(truths, tr), append(preds, cost.Predictive)
				if cost.Upper95 < tr {
					miss++
				}
			}
			ratio := truth / pred
			for i := range truths {
				tp = append(tp, truths[i]-ratio*preds[i])
			}
			se := stats.SD(tp) / math.Sqrt(float64(reps)) / (pred / float64(reps))
			missRate := float64(miss) / float64(reps)
			t.Logf("%s, %d calibrations: mean true rate / mean predictive %.3f (SE %.3f); mean upper95 / mean predictive %.1f; upper95 below the truth in %.1f%% (SE %.1f%%)",
				c.name, reps, ratio, se, upper/pred, 100*missRate, 100*math.Sqrt(missRate*(1-missRate)/float64(reps)))
			slack := 0.0
			if !testenv.FullSize() {
				slack = 4 * se // a few hundred calibrations: only a gross departure fails
			}
			if ratio < c.lo-slack || ratio > c.hi+slack {
				t.Errorf("%s: mean true / mean predictive %.3f, want within %v–%v", c.name, ratio, c.lo, c.hi)
			}
			if missRate > c.maxMiss+slack/10 {
				t.Errorf("%s: the 95%% upper bound misses %.1f%%, want at most %.0f%%", c.name, 100*missRate, 100*c.maxMiss)
			}
		})
	}
}
