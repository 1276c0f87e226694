package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"
)

// TestFPRUpperEffIndependent: under the independent model the effective
// upper bound is FPRUpper bit for bit.
func TestFPRUpperEffIndependent(t *testing.T) {
	for _, f := range []float64{1.1, 1.2, 1.24} {
		if got, want := FPRUpperEff(0.25, 0.05, Independent(10), f, 0.95), FPRUpper(0.25, 0.05, 10, f, 0.95); got != want {
			t.Errorf("floor %v: %v, want %v", f, got, want)
		}
	}
}

// TestFPRUpperAR1MonteCarlo (issue 15): on AR(1) calibrations (ρ = 0.5,
// n = 30, σ of the stationary log score 0.10) the "95% upper bound" of the
// true rate of a floor, computed as if the runs were independent, is below
// the truth far more often than 5%; the effective model at ρ̂ one
// standard error above its bias-corrected value (AR1Upper, docs/STATS.md
// 5b) misses at most 7% of the time; on independent runs (ρ = 0) it too
// stays within 7%. The floor is the
// prediction bound at 1% with the allowance, the default method's shape.
func TestFPRUpperAR1MonteCarlo(t *testing.T) {
	testenv.SkipUnlessFullSize(t)
	const reps, n, sigma, p = 1000, 30, 0.10, 0.01
	for _, rho := range []float64{0.5, 0} {
		missEff, missIndep := upperMisses(reps, n, sigma, rho, p)
		eff, indep := float64(missEff)/reps, float64(missIndep)/reps
		t.Logf("AR(1) ρ = %.1f, n = %d, %d calibrations: the 95%% upper bound is below the true rate in %.1f%% treating runs as independent, %.1f%% with the allowance for ρ̂ (nominal 5%%)", rho, n, reps, 100*indep, 100*eff)
		if eff > 0.07 {
			t.Errorf("ρ = %v: with the allowance the upper bound misses %.1f%% of the time, want at most 7%%", rho, 100*eff)
		}
		if rho > 0 && indep < 0.09 {
			t.Errorf("treating runs as independent misses only %.1f%%: the test does not show the problem", 100*indep)
		}
	}
}

// upperMisses counts the calibrations of n AR(1) runs whose floor (the
// prediction bound at p with the allowance) has a 95% upper bound below
// its true rate: with the allowance (AR1Upper) and without.
func upperMisses(reps, n int, sigma, rho, p float64) (missEff, missIndep int) {
	rng := rand.New(rand.NewPCG(30, 5))
	x := make([]float64, n)
	for range reps {
		drawAR1(rng, x, rho, sigma)
		m, s := Mean(x), SD(x)
		r, se := Lag1Autocorrelation(x)
		e := AR1(n, ShrinkRho(r, se, n))
		f := PredictionBoundEff(m, s, e, p)
		truth := NormalCDF(math.Log(f) / sigma)
		if FPRUpperEff(m, s, AR1Upper(n, r, se), f, 0.95) < truth {
			missEff++
		}
		if FPRUpper(m, s, n, f, 0.95) < truth {
			missIndep++
		}
	}
	return missEff, missIndep
}

// TestDistributionFreeUpper checks the model-free upper bound against
// scipy.stats.beta.ppf (scipy 1.10.1, Debian bookworm: beta.ppf(0.95, 2, 9)
// and beta.ppf(0.95, 3, 28), which an exact rational bisection of the
// binomial tail P(Bin(n, x) ≥ j + 1) = 0.95 in Python's fractions agrees
// with to the last digit) and the closed form for a floor below every run,
// and its coverage by simulation: whatever the distribution (here
// uniform, where a floor's true rate is the floor itself), the bound is
// below the true rate at most 5% of the time.
func TestDistributionFreeUpper(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if got, want := DistributionFreeUpper(ten, 0.5, 0.95), 1-math.Pow(0.05, 0.1); math.Abs(got-want) > 1e-15 {
		t.Errorf("below every run: %v, want 1 − 0.05^(1/10) = %v", got, want)
	}
	if got, want := DistributionFreeUpper(ten, 1.5, 0.95), 0.39416330243650466; math.Abs(got-want) > 1e-12 {
		t.Errorf("one run below: %v, want scipy's beta.ppf(0.95, 2, 9) = %v", got, want)
	}
	thirty := make([]float64, 30)
	for i := range thirty {
		thirty[i] = float64(i)
	}
	if got, want := DistributionFreeUpper(thirty, 1.5, 0.95), 0.19532604365492595; math.Abs(got-want) > 1e-12 {
		t.Errorf("two of 30 below: %v, want scipy's beta.ppf(0.95, 3, 28) = %v", got, want)
	}
	if got := DistributionFreeUpper(ten, 11, 0.95); got != 1 {
		t.Errorf("above every run: %v, want 1", got)
	}
	// Coverage: for a floor at the lowest of n uniform scores (j = 0) or
	// at the second lowest (j = 1), the true rate is that order statistic,
	// and the bound is exact: it misses 5% of the time.
	rng := rand.New(rand.NewPCG(2, 2))
	const reps = 20000
	for _, j := range []int{0, 1} {
		miss := 0
		u := make([]float64, 10)
		for range reps {
			for i := range u {
				u[i] = rng.Float64()
			}
			slices.Sort(u)
			// A floor at u[j] has j scores strictly below it and its true
			// rate, for uniform scores, is u[j] itself.
			if DistributionFreeUpper(u, u[j], 0.95) < u[j] {
				miss++
			}
		}
		rate, se := float64(miss)/reps, math.Sqrt(0.05*0.95/reps)
		t.Logf("uniform scores, n = 10, floor at order statistic %d: the bound misses the true rate in %.2f%% of %d draws (nominal 5%%)", j+1, 100*rate, reps)
		if math.Abs(rate-0.05) > 4*se {
			t.Errorf("order statistic %d: misses %.2f%%, want 5%% ± %.2f%%", j+1, 100*rate, 400*se)
		}
	}
}

// TestTwoStagePowerMonteCarlo (issue 15): the claimed figures of the gate
// with a rerun band against the truth, averaged over calibrations: its
// false-positive rate (TwoStageFPR) and its power at the slide one run
// catches nine times in ten (TwoStagePower at the calibration's r90, what
// recommend reports as two_stage.power_at_r90); the truth is TwoStageGiven
// at the generating μ (+ ln r90) and σ. With the band a multiple of the
// calibration's s every event is pivotal and the claims are exact: the
// averages agree within Monte Carlo error. With a fixed-fraction band
// (what --rerun-band sets) the rate is not pivotal and its claim errs on
// the cautious side (0.00411 claimed against 0.00306 true at n = 10); the
// power at r90 still agrees within Monte Carlo error (0.8905 against
// 0.8902), and the test holds it to at most 4 SE above the truth.
func TestTwoStagePowerMonteCarlo(t *testing.T) {
	// 4,000 calibrations a cell with QOSCAL_SLOW_TESTS=1, 400 in the quick run.
	reps := testenv.Size(4000, 400)
	const draws, sigma = 40, 0.05
	for _, n := range []int{10, 30} {
		for _, pivotal := range []bool{true, false} {
			for _, power := range []bool{false, true} {
				rng := rand.New(rand.NewPCG(uint64(n), 2014))
				x := make([]float64, n)
				diff := make([]float64, reps)
				var claimed, truth float64
				for i := range reps {
					for j := range x {
						x[j] = sigma * rng.NormFloat64()
					}
					m, s := Mean(x), SD(x)
					f := PredictionBound(m, s, n, 0.01)
					band := 0.03
					if pivotal {
						band = -math.Expm1(-0.6 * s) // a = ln F − 0.6·s
					}
					r := 1.0
					if power {
						r = DetectPredictive(m, s, n, f, 0.9)
					}
					c := TwoStagePower(m, s, Independent(n), f, band, r, draws, uint64(i+1))
					tr, _ := TwoStageGiven(math.Log(r), sigma, math.Log(f*(1-band)), math.Log(f))
					claimed += c
					truth += tr
					diff[i] = tr - c
				}
				mc, mt := claimed/float64(reps), truth/float64(reps)
				se := SD(diff) / math.Sqrt(float64(reps))
				kind, what := "fixed 3% band", "false-positive rate"
				if pivotal {
					kind = "band 0.6·s"
				}
				if power {
					what = "power at r90"
				}
				t.Logf("n = %2d, %-13s, %-19s: claimed %.5f, true %.5f (true − claimed %+.5f, SE %.5f)", n, kind, what, mc, mt, mt-mc, se)
				switch {
				case pivotal && math.Abs(mt-mc) > 4*se:
					t.Errorf("n = %d, pivotal band, %s: claimed %.5f, true %.5f: more than 4 SE apart", n, what, mc, mt)
				case !pivotal && !power && mt-mc > 4*se:
					t.Errorf("n = %d, fixed band: the claimed rate %.5f is below the truth %.5f", n, mc, mt)
				case !pivotal && power && mc-mt > 4*se:
					t.Errorf("n = %d, fixed band: the claimed power %.5f is above the truth %.5f", n, mc, mt)
				}
			}
		}
	}
}

// TestDistributionFreeNeedsExchangeable: the no-model bound 1/(n+1) that
// the next healthy run falls below the lowest of n holds for exchangeable
// runs whatever their distribution, and not for autocorrelated ones: the
// next run of an AR(1) series at ρ = 0.5 follows the last, so it falls
// below the lowest of the 10 before it 0.110 of the time, not 1/11 =
// 0.091 (docs/STATS.md 2.2). 200,000 series at full size (SE 0.0008),
// 20,000 in the quick run.
func TestDistributionFreeNeedsExchangeable(t *testing.T) {
	reps := testenv.Size(200000, 20000)
	const n = 10
	for _, c := range []struct {
		rho      float64
		lo, high float64
	}{{0, 1.0/11 - 0.006, 1.0/11 + 0.006}, {0.5, 0.103, 0.117}} {
		rng := rand.New(rand.NewPCG(11, uint64(c.rho*10)))
		x := make([]float64, n+1)
		below := 0
		for range reps {
			drawAR1(rng, x, c.rho, 1)
			lo, _ := MinMax(x[:n])
			if x[n] < lo {
				below++
			}
		}
		got := float64(below) / float64(reps)
		t.Logf("AR(1) ρ = %v: the next run falls below the lowest of %d in %.4f of %d series (1/(n+1) = %.4f)", c.rho, n, got, reps, 1.0/(n+1))
		if got < c.lo || got > c.high {
			t.Errorf("ρ = %v: %.4f, want within %.3f–%.3f", c.rho, got, c.lo, c.high)
		}
	}
}
