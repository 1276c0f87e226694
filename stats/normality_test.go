package stats

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// testdata/normality_vectors.json is made by testdata/make_normality.py
// (Debian's python3-scipy 1.10.1 and r-base-core 4.2.2). scipy 1.10.1
// runs AS R94 in single precision (Fortran REAL), so its W and p are
// checked only as far as float32 allows; R's shapiro.test computes in
// double precision and is checked tightly.

type swRef struct {
	W    float64 `json:"w"`
	P    float64 `json:"p"`
	Acf1 float64 `json:"acf1"`
}

type normalityCase struct {
	Name    string    `json:"name"`
	N       int       `json:"n"`
	X       []float64 `json:"x"`
	Scipy   swRef     `json:"scipy"`
	R       *swRef    `json:"r"`
	R1Numpy float64   `json:"r1_numpy"`
	R1Exact float64   `json:"r1_exact"`
	SE      float64   `json:"se_bartlett"`
}

type normalityVectors struct {
	ScipyVersion string          `json:"scipy_version"`
	RVersion     string          `json:"r_version"`
	Cases        []normalityCase `json:"cases"`
}

func loadNormality(t *testing.T) normalityVectors {
	t.Helper()
	b, err := os.ReadFile("testdata/normality_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v normalityVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Cases) < 20 {
		t.Fatalf("only %d normality cases", len(v.Cases))
	}
	return v
}

// Tolerances: W absolute; p absolute, except below 1e-3 where pDiff is
// relative (times 1e-3), so that the tiny p of skewed samples (6e-44 at
// n = 2000) are compared digit for digit too.
const (
	tolDouble   = 1e-10 // W and p against the double-precision reference (R)
	tolScipyW32 = 1e-6  // W against scipy 1.10.1 (float32: worst seen 6.5e-7)
	tolScipyP32 = 1e-4  // p against scipy 1.10.1 (its float32 W error amplified: worst seen 7.5e-5, n = 200)
	tolR1       = 1e-12
)

// pDiff is |got − want|·max(1, 1e-3/want): absolute for p ≥ 1e-3 (and
// for p ≤ 0: scipy 1.10.1 can return a negative p, scipy issue 18322),
// relative (scaled by 1e-3) for 0 < p < 1e-3.
func pDiff(got, want float64) float64 {
	d := math.Abs(got - want)
	if want <= 0 {
		return d
	}
	return d * math.Max(1, 1e-3/want)
}

func TestShapiroWilkVectors(t *testing.T) {
	v := loadNormality(t)
	var worstWR, worstPR, worstW32, worstP32 float64
	for _, c := range v.Cases {
		if len(c.X) != c.N {
			t.Fatalf("%s: %d values, n = %d", c.Name, len(c.X), c.N)
		}
		in := append([]float64(nil), c.X...)
		w, p, err := ShapiroWilk(in)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		for i := range in {
			if in[i] != c.X[i] {
				t.Fatalf("%s: ShapiroWilk modified its input", c.Name)
			}
		}
		if c.R == nil {
			t.Errorf("%s: no R reference in the vectors", c.Name)
		} else {
			dw, dp := math.Abs(w-c.R.W), pDiff(p, c.R.P)
			worstWR, worstPR = math.Max(worstWR, dw), math.Max(worstPR, dp)
			if dw > tolDouble || dp > tolDouble {
				t.Errorf("%s: W, p = %.17g, %.17g; R %.17g, %.17g", c.Name, w, p, c.R.W, c.R.P)
			}
		}
		dw, dp := math.Abs(w-c.Scipy.W), pDiff(p, c.Scipy.P)
		worstW32, worstP32 = math.Max(worstW32, dw), math.Max(worstP32, dp)
		if dw > tolScipyW32 || dp > tolScipyP32 {
			t.Errorf("%s: W, p = %.17g, %.17g; scipy %s (float32) %.17g, %.17g", c.Name, w, p, v.ScipyVersion, c.Scipy.W, c.Scipy.P)
		}
	}
	t.Logf("worst |ΔW|, Δp: %s %.1e, %.1e; scipy %s (float32) %.1e, %.1e",
		v.RVersion, worstWR, worstPR, v.ScipyVersion, worstW32, worstP32)
}

func TestShapiroWilkBundledRuns(t *testing.T) {
	// The figures for the bundled twelve (W = 0.798, p = 0.009),
	// to the digits quoted.
	v := loadNormality(t)
	for _, c := range v.Cases {
		if c.Name != "linux-healthy-12" {
			continue
		}
		w, p, err := ShapiroWilk(c.X)
		if err != nil || math.Abs(w-0.798) > 5e-4 || math.Abs(p-0.009) > 5e-4 {
			t.Errorf("bundled twelve: W, p = %v, %v, %v; want 0.798, 0.009", w, p, err)
		}
		return
	}
	t.Fatal("no linux-healthy-12 case")
}

func TestShapiroWilkN3(t *testing.T) {
	// (1, 2, 4): x̄ = 7/3, Σ(x − x̄)² = 14/3, b = √½·(4 − 1), W = 4.5/(14/3) = 27/28,
	// and the exact null distribution gives p = (6/π)(asin √W − π/3).
	w, p, err := ShapiroWilk([]float64{4, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "W(1,2,4)", w, 27.0/28, 1e-15)
	check(t, "p(1,2,4)", p, 6/math.Pi*(math.Asin(math.Sqrt(27.0/28))-math.Pi/3), 1e-14)
	// The smallest W for n = 3 is 3/4 (two equal values), with p = 0
	// up to rounding (scipy 1.10.1 returns −9e−7 here, cf. scipy issue 18322).
	w, p, err = ShapiroWilk([]float64{0, 1, 0})
	if err != nil || math.Abs(w-0.75) > 1e-15 || !(p >= 0 && p < 1e-14) {
		t.Errorf("W, p (0, 0, 1) = %v, %v, %v; want 0.75, 0", w, p, err)
	}
	// Symmetric equally spaced: W = 1, p = 1.
	w, p, _ = ShapiroWilk([]float64{-1, 0, 1})
	if math.Abs(w-1) > 1e-15 || math.Abs(p-1) > 1e-14 {
		t.Errorf("W, p (−1, 0, 1) = %v, %v; want 1, 1", w, p)
	}
}

func TestShapiroWilkDomain(t *testing.T) {
	for _, x := range [][]float64{nil, {1}, {1, 2}, make([]float64, 5001)} {
		if w, p, err := ShapiroWilk(x); err == nil || !math.IsNaN(w) || !math.IsNaN(p) {
			t.Errorf("n = %d: %v, %v, %v; want NaN, NaN and an error", len(x), w, p, err)
		}
	}
	for _, x := range [][]float64{{2, 2, 2}, {1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5}} {
		if w, p, err := ShapiroWilk(x); !errors.Is(err, ErrConstant) || !math.IsNaN(w) || !math.IsNaN(p) {
			t.Errorf("constant n = %d: %v, %v, %v; want NaN, NaN, ErrConstant", len(x), w, p, err)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		var de *DomainError
		if _, _, err := ShapiroWilk([]float64{1, 2, bad, 4}); !errors.As(err, &de) || de.Index != 2 {
			t.Errorf("value %v: err %v, want a *DomainError at index 2", bad, err)
		}
	}
	// n = 5000 is in the domain.
	x := make([]float64, 5000)
	r := rand.New(rand.NewPCG(5, 5000))
	for i := range x {
		x[i] = r.NormFloat64()
	}
	if _, p, err := ShapiroWilk(x); err != nil || !(p > 0 && p <= 1) {
		t.Errorf("n = 5000: p %v, err %v", p, err)
	}
}

func TestShapiroWilkInvariance(t *testing.T) {
	// W and p do not depend on location and scale, even a location that
	// dwarfs the spread (the ratio of run scores to a large baseline).
	x := []float64{0.31, -0.12, 0.05, 0.44, -0.27, 0.02, 0.19, -0.05, 0.6, 0.11, -0.33, 0.08, 0.27}
	w0, p0, _ := ShapiroWilk(x)
	for _, ab := range [][2]float64{{5, 1}, {-3, 1e-6}, {1e6, 1}, {0, 1e9}} {
		y := make([]float64, len(x))
		for i, v := range x {
			y[i] = ab[0] + ab[1]*v
		}
		w, p, _ := ShapiroWilk(y)
		check(t, fmt.Sprintf("W(%v + %v·x)", ab[0], ab[1]), w, w0, 1e-9)
		check(t, fmt.Sprintf("p(%v + %v·x)", ab[0], ab[1]), p, p0, 1e-8)
	}
	// Reversing the sign leaves W unchanged (a is antisymmetric).
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = -v
	}
	w, _, _ := ShapiroWilk(y)
	check(t, "W(−x)", w, w0, 1e-13)
}

func TestShapiroWilkCoefficients(t *testing.T) {
	// Σ a_i² = 1 for every n, a_n > a_{n−1} > … ≥ 0 (upper half decreasing).
	for _, n := range []int{3, 4, 5, 6, 7, 11, 12, 20, 50, 200, 1000, 5000} {
		a := ShapiroWilkCoefficients(n)
		if len(a) != n/2 {
			t.Fatalf("n = %d: %d coefficients", n, len(a))
		}
		var ss float64
		for j, v := range a {
			ss += 2 * v * v
			if v < 0 || (j > 0 && v > a[j-1]) {
				t.Errorf("n = %d: a = %v not decreasing and positive", n, a)
				break
			}
		}
		check(t, fmt.Sprintf("Σa² (n = %d)", n), ss, 1, 1e-13)
	}
	if ShapiroWilkCoefficients(2) != nil || ShapiroWilkCoefficients(5001) != nil {
		t.Error("coefficients outside 3 ≤ n ≤ 5000")
	}
}

func TestShapiroWilkMonteCarlo(t *testing.T) {
	// Normal samples: the rejection rate at 5% is 5% within 3 binomial SE
	// (Royston fitted the p-value to simulation, so it is approximate for
	// n ≥ 4; for n = 3 it is exact).
	const reps, alpha = 20000, 0.05
	se := math.Sqrt(alpha * (1 - alpha) / reps)
	r := rand.New(rand.NewPCG(15, 2026))
	for _, n := range []int{3, 10, 30} {
		x := make([]float64, n)
		rej := 0
		for range reps {
			for i := range x {
				x[i] = r.NormFloat64()
			}
			_, p, err := ShapiroWilk(x)
			if err != nil {
				t.Fatal(err)
			}
			if p < alpha {
				rej++
			}
		}
		rate := float64(rej) / reps
		t.Logf("n = %d: rejection rate at 5%% %.4f (%d of %d; 3 SE = %.4f)", n, rate, rej, reps, 3*se)
		if math.Abs(rate-alpha) > 3*se {
			t.Errorf("n = %d: rejection rate %.4f, want %.2f ± %.4f", n, rate, alpha, 3*se)
		}
	}
	// And it has power: exponential samples of 30 are rejected most of the time.
	rej := 0
	x := make([]float64, 30)
	for range 2000 {
		for i := range x {
			x[i] = r.ExpFloat64()
		}
		if _, p, _ := ShapiroWilk(x); p < alpha {
			rej++
		}
	}
	if rej < 1700 {
		t.Errorf("exponential n = 30: rejected %d of 2000, want most", rej)
	}
}

func TestLag1AutocorrelationVectors(t *testing.T) {
	v := loadNormality(t)
	var worst float64
	for _, c := range v.Cases {
		in := append([]float64(nil), c.X...)
		rho, se := Lag1Autocorrelation(in)
		for i := range in {
			if in[i] != c.X[i] {
				t.Fatalf("%s: Lag1Autocorrelation modified its input", c.Name)
			}
		}
		d := math.Max(math.Abs(rho-c.R1Exact), math.Abs(rho-c.R1Numpy))
		if c.R != nil {
			d = math.Max(d, math.Abs(rho-c.R.Acf1))
		}
		worst = math.Max(worst, d)
		if d > tolR1 {
			t.Errorf("%s: r1 = %.17g; exact %.17g, numpy %.17g", c.Name, rho, c.R1Exact, c.R1Numpy)
		}
		check(t, c.Name+" se", se, c.SE, 1e-15)
	}
	t.Logf("worst |Δr1| against exact, numpy and R: %.1e", worst)
}

func TestLag1Autocorrelation(t *testing.T) {
	// 1, 2, 3, 4: deviations ±1.5, ±0.5; Σ d_t d_{t+1} = 0.75 − 0.25 + 0.75 = 1.25,
	// Σ d² = 5, so r1 = 0.25; SE = 1/√4.
	rho, se := Lag1Autocorrelation([]float64{1, 2, 3, 4})
	check(t, "r1(1,2,3,4)", rho, 0.25, 1e-15)
	check(t, "se(1,2,3,4)", se, 0.5, 1e-15)
	// Alternating: 1, −1, 1, −1, 1, −1: x̄ = 0, r1 = −5/6.
	rho, _ = Lag1Autocorrelation([]float64{1, -1, 1, -1, 1, -1})
	check(t, "r1(alternating)", rho, -5.0/6, 1e-15)
	for _, x := range [][]float64{nil, {1}, {1, 2}, {3, 3, 3, 3}, {1, math.NaN(), 2}, {1, math.Inf(1), 2}} {
		if rho, se := Lag1Autocorrelation(x); !math.IsNaN(rho) || !math.IsNaN(se) {
			t.Errorf("Lag1Autocorrelation(%v) = %v, %v; want NaN, NaN", x, rho, se)
		}
	}
	// AR(1) with ρ = 0.5: r1 near 0.5 for a long series (SE about
	// sqrt((1 − ρ²)/n) = 0.0087 at n = 10000).
	r := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 10000)
	for i := 1; i < len(x); i++ {
		x[i] = 0.5*x[i-1] + r.NormFloat64()
	}
	if rho, _ := Lag1Autocorrelation(x); math.Abs(rho-0.5) > 0.03 {
		t.Errorf("AR(1) ρ = 0.5: r1 = %v", rho)
	}
}
