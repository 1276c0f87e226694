package stats

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// ErrConstant is returned by ShapiroWilk when every value is the same: W is
// 0/0 there and the test says nothing.
var ErrConstant = errors.New("stats: all values are identical")

// Polynomial coefficients of Royston (1992) and algorithm AS R94 (Royston
// 1995), lowest power first.
var (
	// a_n and a_{n−1} as c_i + poly(u), u = 1/√n (the constant terms are 0).
	swAn  = [...]float64{0, 0.221157, -0.147981, -2.071190, 4.434685, -2.706056}
	swAn1 = [...]float64{0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633}
	// 4 ≤ n ≤ 11: γ(n), and the mean and log SD of −ln(γ − ln(1 − W)) in n.
	swGamma = [...]float64{-2.273, 0.459}
	swMuS   = [...]float64{0.5440, -0.39978, 0.025054, -0.0006714}
	swSigS  = [...]float64{1.3822, -0.77857, 0.062767, -0.0020322}
	// n ≥ 12: the mean and log SD of ln(1 − W) in ln n.
	swMuL  = [...]float64{-1.5861, -0.31082, -0.083751, 0.0038915}
	swSigL = [...]float64{-0.4803, -0.082676, 0.0030302}
)

// poly returns c[0] + c[1]x + c[2]x² + … (Horner).
func poly(c []float64, x float64) float64 {
	v := 0.0
	for i := len(c) - 1; i >= 0; i-- {
		v = v*x + c[i]
	}
	return v
}

// ShapiroWilkCoefficients returns the upper half a_n, a_{n−1}, …,
// a_{n−⌊n/2⌋+1} of Royston's approximation to the Shapiro–Wilk
// coefficients (a_{n+1−i} = −a_i, and the middle one is 0 for odd n);
// see ShapiroWilk. Domain: 3 ≤ n ≤ 5000; nil otherwise.
func ShapiroWilkCoefficients(n int) []float64 {
	if n < 3 || n > 5000 {
		return nil
	}
	h := n / 2
	a := make([]float64, h)
	if n == 3 {
		a[0] = math.Sqrt(0.5)
		return a
	}
	// m[j] = m_{n−j} = −m_{j+1} = Φ⁻¹((n−j − 3/8)/(n + 1/4)), j = 0..h−1.
	m := make([]float64, h)
	var mm float64 // m'm = 2 Σ_{j<h} m[j]² (the middle m is 0 for odd n)
	for j := range m {
		m[j] = -NormalQuantile((float64(j+1) - 0.375) / (float64(n) + 0.25))
		mm += 2 * m[j] * m[j]
	}
	u := 1 / math.Sqrt(float64(n))
	sm := math.Sqrt(mm)
	a[0] = m[0]/sm + poly(swAn[:], u)
	var phi float64
	first := 1
	if n > 5 {
		a[1] = m[1]/sm + poly(swAn1[:], u)
		phi = (mm - 2*m[0]*m[0] - 2*m[1]*m[1]) / (1 - 2*a[0]*a[0] - 2*a[1]*a[1])
		first = 2
	} else {
		phi = (mm - 2*m[0]*m[0]) / (1 - 2*a[0]*a[0])
	}
	sp := math.Sqrt(phi)
	for j := first; j < h; j++ {
		a[j] = m[j] / sp
	}
	return a
}

// ShapiroWilk returns the Shapiro–Wilk statistic W of x and its p-value
// (the upper-tail probability of non-normality) by Royston's
// approximation, algorithm AS R94 (the one scipy.stats.shapiro and R's
// shapiro.test implement). Small p means "not normal".
//
// With x sorted into x_(1) ≤ … ≤ x_(n):
//
//	W = (Σ_i a_i x_(i))² / Σ_i (x_i − x̄)²
//
// The coefficients a_i (antisymmetric, Σ a_i² = 1):
//   - m_i = Φ⁻¹((i − 3/8)/(n + 1/4)) (Blom's approximation to the expected
//     normal order statistics), c_i = m_i/√(m'm), u = 1/√n;
//   - a_n = c_n + 0.221157u − 0.147981u² − 2.071190u³ + 4.434685u⁴ − 2.706056u⁵;
//   - for n > 5 also a_{n−1} = c_{n−1} + 0.042981u − 0.293762u² − 1.752461u³
//   - 5.682633u⁴ − 3.582633u⁵;
//   - the others a_i = m_i/√φ, with φ = (m'm − 2m_n² − 2m_{n−1}²)/(1 − 2a_n² − 2a_{n−1}²)
//     for n > 5 and φ = (m'm − 2m_n²)/(1 − 2a_n²) for n = 4, 5;
//   - n = 3 is exact: a = (−√½, 0, √½), and W has the exact null
//     distribution p = (6/π)(arcsin √W − arcsin √(3/4)), W ≥ 3/4.
//
// The p-value for n ≥ 4 treats a transformation of 1 − W as normal and
// returns p = 1 − Φ((y − μ)/σ):
//   - 4 ≤ n ≤ 11: γ = −2.273 + 0.459n, y = −ln(γ − ln(1 − W)),
//     μ = 0.5440 − 0.39978n + 0.025054n² − 0.0006714n³,
//     σ = exp(1.3822 − 0.77857n + 0.062767n² − 0.0020322n³);
//     should ln(1 − W) ≥ γ (not reachable by any sample of these sizes)
//     p is 0;
//   - n ≥ 12: y = ln(1 − W), with v = ln n,
//     μ = −1.5861 − 0.31082v − 0.083751v² + 0.0038915v³,
//     σ = exp(−0.4803 − 0.082676v + 0.0030302v²).
//
// Domain: 3 ≤ n ≤ 5000 finite values (a *DomainError for a NaN or an
// infinity, an error for other n). Constant input returns NaN, NaN and
// ErrConstant. x is not modified. Everything is computed in double
// precision and agrees with R's shapiro.test to about 1e-14; scipy 1.10.1
// (Debian 12) runs AS R94 in single precision, so its W agrees only to
// about 1e-6 and its p to about 1e-4 (docs/STATS.md, "Model checks").
//
// References: Royston, P. (1992), Approximating the Shapiro–Wilk W-test
// for non-normality, Statistics and Computing 2(3), 117–119; Royston, P.
// (1995), Remark AS R94: A remark on algorithm AS 181: the W-test for
// normality, Applied Statistics 44(4), 547–551; Shapiro, S. S. and Wilk,
// M. B. (1965), An analysis of variance test for normality (complete
// samples), Biometrika 52(3/4), 591–611.
func ShapiroWilk(x []float64) (w, p float64, err error) {
	n := len(x)
	if n < 3 || n > 5000 {
		return math.NaN(), math.NaN(), fmt.Errorf("stats: ShapiroWilk needs 3 to 5000 values, got %d", n)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return math.NaN(), math.NaN(), &DomainError{Func: "ShapiroWilk", Index: i, Value: v, Want: "a finite value"}
		}
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	if s[0] == s[n-1] {
		return math.NaN(), math.NaN(), ErrConstant
	}
	// Centre and scale by the range: W is invariant, and this keeps the
	// sums away from overflow and from cancellation against a large mean.
	mean, rng := Mean(s), s[n-1]-s[0]
	var ss float64
	for i := range s {
		s[i] = (s[i] - mean) / rng
		ss += s[i] * s[i]
	}
	a := ShapiroWilkCoefficients(n)
	var b float64
	for j, aj := range a {
		b += aj * (s[n-1-j] - s[j])
	}
	w = math.Min(b*b/ss, 1)

	if n == 3 {
		p = 6 / math.Pi * (math.Asin(math.Sqrt(w)) - math.Asin(math.Sqrt(0.75)))
		return w, math.Max(p, 0), nil
	}
	nf := float64(n)
	y := math.Log1p(-w)
	var mu, sigma float64
	if n <= 11 {
		g := poly(swGamma[:], nf)
		if y >= g {
			return w, 0, nil
		}
		y = -math.Log(g - y)
		mu, sigma = poly(swMuS[:], nf), math.Exp(poly(swSigS[:], nf))
	} else {
		v := math.Log(nf)
		mu, sigma = poly(swMuL[:], v), math.Exp(poly(swSigL[:], v))
	}
	return w, NormalCDF(-(y - mu) / sigma), nil
}

// Lag1Autocorrelation returns the lag-1 sample autocorrelation of the
// sequence x (in its order)
//
//	r₁ = Σ_{t=1}^{n−1} (x_t − x̄)(x_{t+1} − x̄) / Σ_{t=1}^{n} (x_t − x̄)²
//
// (the estimator of R's acf and of Box and Jenkins) and its standard error under the null of no
// autocorrelation, Bartlett's 1/√n: for white noise r₁ is approximately
// N(0, 1/n) (Bartlett, M. S. (1946), On the theoretical specification and
// sampling properties of autocorrelated time-series, Supplement to the
// Journal of the Royal Statistical Society 8(1), 27–41), the SE behind
// the ±1.96/√n bands of R's acf plot. Under the null r₁ is biased by about
// −1/n, which the SE does not include (docs/STATS.md, "Model checks").
// NaN, NaN for n < 3 or constant (or non-finite) x. x is not modified.
func Lag1Autocorrelation(x []float64) (rho, se float64) {
	n := len(x)
	if n < 3 {
		return math.NaN(), math.NaN()
	}
	m := Mean(x)
	var num, den float64
	for t, v := range x {
		d := v - m
		den += d * d
		if t+1 < n {
			num += d * (x[t+1] - m)
		}
	}
	if !(den > 0) || math.IsInf(den, 0) {
		return math.NaN(), math.NaN()
	}
	return num / den, 1 / math.Sqrt(float64(n))
}
