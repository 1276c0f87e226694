package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"
)

// TestAR1Independent: with ρ = 0 the effective figures are the
// independent ones, bit for bit.
func TestAR1Independent(t *testing.T) {
	m, s := 0.25, 0.05
	e := AR1(10, 0)
	for _, f := range []float64{1.1, 1.2, 1.25} {
		if FPRPredictiveEff(m, s, e, f) != FPRPredictive(m, s, 10, f) || DetectPredictiveEff(m, s, e, f, 0.5) != DetectPredictive(m, s, 10, f, 0.5) {
			t.Errorf("floor %v: effective figures differ from the independent ones", f)
		}
	}
	if PredictionBoundEff(m, s, e, 0.01) != PredictionBound(m, s, 10, 0.01) {
		t.Error("prediction bounds differ")
	}
	// The bundled twelve: r = 0.70 (SE 0.29) is significant, and
	// corrected to 0.70 + 3.8/12 = 0.9 at most; the settled nine's 0.30
	// (SE 0.33) is not.
	if ShrinkRho(0.3, 0.33, 9) != 0 || ShrinkRho(0.5, 0.2, 30) != 0.5+3.0/30 || ShrinkRho(0.7, 0.29, 12) != 0.9 || ShrinkRho(math.NaN(), 0.3, 9) != 0 {
		t.Error("ShrinkRho")
	}
	// Worked example (docs/STATS.md 5b): n = 30, ρ = 0.5: n_eff = 10,
	// df = 30·0.75/1.25 − 1 = 17, E[s²]/σ² = (30 − 3)/29.
	e = AR1(30, 0.5)
	if math.Abs(e.N-10) > 1e-12 || math.Abs(e.DF-17) > 1e-12 || math.Abs(e.SDScale-math.Sqrt(29.0/27)) > 1e-12 {
		t.Errorf("AR1(30, 0.5) = %+v", e)
	}
}

// drawAR1 fills x with a stationary AR(1) series of lag-1
// autocorrelation rho and marginal SD sigma, started from its stationary
// distribution.
func drawAR1(rng *rand.Rand, x []float64, rho, sigma float64) {
	innov := sigma * math.Sqrt(1-rho*rho)
	prev := sigma * rng.NormFloat64()
	for i := range x {
		prev = rho*prev + innov*rng.NormFloat64()
		x[i] = prev
	}
}

// TestAR1MonteCarlo (issue 15): on AR(1) calibrations (ρ = 0.5, σ of the
// stationary log score 0.10, n = 30), a floor at the predictive rate p
// (the prediction bound at p) has a true marginal rate
// Φ((ln F − μ)/σ) whose average over calibrations, divided by the claimed
// p, is within 0.8–1.25 when the claim allows for the estimated ρ
// (shrunk), and well above 1.25 when it treats the runs as independent;
// on independent runs the allowance changes little.
func TestAR1MonteCarlo(t *testing.T) {
	const reps, n, sigma, p = 4000, 30, 0.10, 0.01
	run := func(rho float64, allow bool, seed uint64) float64 {
		rng := rand.New(rand.NewPCG(seed, 15))
		var sum float64
		x := make([]float64, n)
		for range reps {
			drawAR1(rng, x, rho, sigma)
			m, s := Mean(x), SD(x)
			e := Independent(n)
			if allow {
				r, se := Lag1Autocorrelation(x)
				e = AR1(n, ShrinkRho(r, se, n))
			}
			f := PredictionBoundEff(m, s, e, p)
			sum += NormalCDF(math.Log(f) / sigma)
		}
		return sum / reps / p
	}
	indep := run(0.5, false, 1)
	allowed := run(0.5, true, 1)
	clean := run(0, true, 2)
	cleanIndep := run(0, false, 2)
	t.Logf("AR(1) ρ = 0.5, n = %d: true rate / claimed %.2f treating runs as independent, %.2f allowing for ρ̂", n, indep, allowed)
	t.Logf("independent runs: true / claimed %.2f with the allowance, %.2f without", clean, cleanIndep)
	if allowed < 0.8 || allowed > 1.25 {
		t.Errorf("with the allowance the ratio is %.2f, want 0.8–1.25", allowed)
	}
	if indep < 1.25 {
		t.Errorf("treating AR(1) runs as independent gives %.2f: the test does not show the problem", indep)
	}
	if clean < 0.8 || clean > 1.25 {
		t.Errorf("on independent runs the allowance moves the ratio to %.2f", clean)
	}
}

// TestHorizonEffective: under an effective model the horizon of one run
// is the predictive rate of that model, as it is for independent runs.
func TestHorizonEffective(t *testing.T) {
	m, s := 0.25, 0.05
	e := AR1(30, 0.5)
	for _, f := range []float64{1.12, 1.18, 1.22} {
		h, p := FalseAlarmHorizonEff(m, s, e, f, 1), FPRPredictiveEff(m, s, e, f)
		if math.Abs(h-p) > 1e-8*math.Max(p, 1e-12) && math.Abs(h-p) > 1e-12 {
			t.Errorf("floor %v: horizon of one run %v, predictive rate %v", f, h, p)
		}
		if h100 := FalseAlarmHorizonEff(m, s, e, f, 100); !(h100 >= p && h100 <= 1-math.Pow(1-p, 100)+1e-12) {
			t.Errorf("floor %v: horizon of 100 runs %v outside [p, 1-(1-p)^100] = [%v, %v]", f, h100, p, 1-math.Pow(1-p, 100))
		}
	}
}

// TestPairMonteCarlo: the mean-of-two-runs rule's claims (issue 15): over
// calibrations of n = 10 and 30 independent log-normal runs, a floor judged
// on the mean of two new healthy runs trips at the claimed predictive rate
// on average (true rate Φ((ln F − μ)/(σ/√2)), computed exactly), and the
// claimed r90 for the pair is caught about 90% of the time.
func TestPairMonteCarlo(t *testing.T) {
	// 20,000 calibrations a cell with QOSCAL_SLOW_TESTS=1, 4,000 in the quick run.
	reps := testenv.Size(20000, 4000)
	const sigma = 0.05
	for _, n := range []int{10, 30} {
		rng := rand.New(rand.NewPCG(uint64(n), 13))
		x := make([]float64, n)
		var trueFPR, claimed, power float64
		for range reps {
			for i := range x {
				x[i] = sigma * rng.NormFloat64()
			}
			m, s := Mean(x), SD(x)
			e := Independent(n)
			f := PredictionBound(m, s, n, 0.01) // a floor somewhere in the tail
			claimed += FPRPredictiveMean(m, s, e, f, 2)
			trueFPR += NormalCDF(math.Log(f) / (sigma / math.Sqrt2))
			r90 := DetectPredictiveMean(m, s, e, f, 0.9, 2)
			power += NormalCDF((math.Log(f) - math.Log(r90)) / (sigma / math.Sqrt2))
		}
		ratio, pw := trueFPR/claimed, power/float64(reps)
		t.Logf("n = %d: pair rule true/claimed rate %.3f; power at the claimed r90 %.3f", n, ratio, pw)
		if ratio < 0.9 || ratio > 1.1 {
			t.Errorf("n = %d: the pair rule's true rate is %.3f of the claim", n, ratio)
		}
		if math.Abs(pw-0.9) > 0.02 {
			t.Errorf("n = %d: power at r90 %.3f, want 0.90 ± 0.02", n, pw)
		}
	}
}
