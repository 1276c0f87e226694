package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestTailCDF: the closed forms of TailCDF agree with gonum's Student-t
// distribution function (regularised incomplete beta, an independent
// computation) for every grid ν, in the centre and far into both tails:
// to 1e-12 relative where the lower tail is above 1e-300.
func TestTailCDF(t *testing.T) {
	for _, nu := range TailDF[:len(TailDF)-1] {
		ref := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}
		for x := -200.0; x <= 200; x += 0.37 {
			got, want := TailCDF(x, nu), ref.CDF(x)
			lo := math.Min(want, 1-want)
			tol := 1e-12 * math.Max(lo, 1e-300)
			if x < 0 && math.Abs(got-want) > tol {
				t.Errorf("ν %v, x %v: %v, want %v (rel %.1e)", nu, x, got, want, (got-want)/want)
			}
			if x >= 0 && math.Abs(got-want) > 1e-14 {
				t.Errorf("ν %v, x %v: %v, want %v", nu, x, got, want)
			}
		}
	}
	if TailCDF(-1.5, math.Inf(1)) != NormalCDF(-1.5) {
		t.Error("the normal")
	}
}

func BenchmarkTailPredictive(b *testing.B) {
	e := AR1(30, 0)
	for b.Loop() {
		TailPredictive(0.26, 0.02, e, 1.2, 5)
	}
}

// TestTailExpectAccuracy: the fixed rules of tailExpect agree with the
// adaptive quadrature (64 Hermite nodes, panels split to 1e−13) to 3e−6
// relative, from 10 runs on, with and without autocorrelation (a sample
// of the cases in the quick run).
func TestTailExpectAccuracy(t *testing.T) {
	ns, step := testenv.Size([]int{10, 30, 100, 1000}, []int{10, 100}), testenv.Size(0.5, 3.0)
	for _, n := range ns {
		for _, rho := range []float64{0, 0.5} {
			e := AR1(n, rho)
			for _, nu := range TailDF[:len(TailDF)-1] {
				for u := -12.0; u <= 0; u += step {
					a := tailExpectReference(u, e, nu)
					b := tailExpect(u, e, nu)
					if r := math.Abs(a-b) / a; r > 3e-6 {
						t.Errorf("n %d ρ %v ν %v u %v: %v, want %v (rel %.2e)", n, rho, nu, u, b, a, r)
					}
				}
			}
		}
	}
}

func BenchmarkTailExpect(b *testing.B) {
	e := AR1(30, 0)
	for b.Loop() {
		tailExpect(-3.5, e, 5)
	}
}

// tailExpectReference is tailExpect by adaptive quadrature.
func tailExpectReference(u float64, e Effective, nu float64) float64 {
	c := tailScale(nu)
	sn := math.Sqrt(e.N)
	d := newWDensity(e.DF)
	f := func(w float64) float64 {
		dens := d.at(w)
		if dens < 1e-20 {
			return 0 // a rate is at most 1: see FalseAlarmHorizonEff
		}
		var p float64
		for i, z := range hermiteX {
			p += hermiteW[i] * TailCDF(c*(u*w-z/sn), nu)
		}
		return p * dens
	}
	return math.Max(0, math.Min(1, integrateOverW(f, e.DF, 1e-13)))
}

// TestTailSelectionRates reproduces the rates TailCrit's comment and
// docs/STATS.md 5d quote: how often FitTail favours a heavier tail than
// the normal on normal scores (the test's level) and on Student-t(5) and
// t3 scores (its power), at 12, 30 and 100 runs; 4,000 samples a cell at
// full size (Monte Carlo SE at most 0.8 points), 300 in the quick run,
// where only gross departures fail.
func TestTailSelectionRates(t *testing.T) {
	reps := testenv.Size(4000, 300)
	want := map[string][3]float64{ // at n = 12, 30, 100
		"normal": {0.007, 0.016, 0.019},
		"t5":     {0.054, 0.221, 0.608},
		"t3":     {0.113, 0.430, 0.910},
	}
	for _, name := range []string{"normal", "t5", "t3"} {
		for i, n := range []int{12, 30, 100} {
			rng := rand.New(rand.NewPCG(uint64(n), 5))
			y := make([]float64, n)
			heavy := 0
			for range reps {
				for k := range y {
					switch name {
					case "normal":
						y[k] = rng.NormFloat64()
					default:
						nu := 5
						if name == "t3" {
							nu = 3
						}
						var c float64
						for range nu {
							g := rng.NormFloat64()
							c += g * g
						}
						y[k] = rng.NormFloat64() / math.Sqrt(c/float64(nu))
					}
				}
				if !FitTail(y).Normal() {
					heavy++
				}
			}
			got := float64(heavy) / float64(reps)
			se := math.Sqrt(want[name][i] * (1 - want[name][i]) / float64(reps))
			t.Logf("%s scores, n = %d: a heavier tail favoured in %.1f%% of %d samples (quoted %.1f%%)", name, n, 100*got, reps, 100*want[name][i])
			if math.Abs(got-want[name][i]) > 4*se+0.005 {
				t.Errorf("%s, n = %d: %.3f, the documentation says %.3f (4 SE = %.3f)", name, n, got, want[name][i], 4*se)
			}
		}
	}
}

// TestTailBound: the bound is where the predictive chance is p, for
// several tails and numbers of runs; the normal's is the prediction bound.
func TestTailBound(t *testing.T) {
	for _, n := range []int{5, 10, 30, 100} {
		for _, nu := range []float64{3, 5, 10, 50} {
			for _, p := range []float64{0.0025, 0.01, 0.1} {
				b := TailBound(0.2, 0.05, n, p, nu)
				if got := TailP(0.2, 0.05, n, b, nu); math.Abs(got-p) > 1e-9*p {
					t.Errorf("n %d ν %v p %v: the chance below the bound %v is %v", n, nu, p, b, got)
				}
			}
		}
		if got, want := TailBound(0.2, 0.05, n, 0.01, math.Inf(1)), math.Log(PredictionBound(0.2, 0.05, n, 0.01)); math.Abs(got-want) > 1e-12 {
			t.Errorf("normal, n %d: %v, want %v", n, got, want)
		}
	}
}

func BenchmarkTailBound(b *testing.B) {
	for b.Loop() {
		TailBound(0, 1, 30, 0.0025, 4)
	}
}
