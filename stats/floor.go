package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// The functions below are the floor arithmetic of STATS.md section 2. y
// are log scores with mean m and n−1 SD s over n calibration runs; a floor
// F is compared in log space as ln F.

// FloorSteps returns ⌊x/step + 1e−9⌋: how many whole steps fit under x,
// with a relative guard against binary rounding (1.00·0.93/0.01 is
// 92.999… in float64 and must give 93, STATS.md 2.1). step must be > 0.
func FloorSteps(x, step float64) int64 {
	return int64(math.Floor(x/step + 1e-9))
}

// PredictionBound returns the lower log-normal prediction bound
//
//	F_pred(α) = exp( m − t_{n−1,1−α} · s · sqrt(1 + 1/n) ),
//
// below which a new run from the same log-normal distribution falls with
// probability exactly α, over calibration samples and the new run
// (STATS.md 2.3). Domain: n ≥ 2, s ≥ 0, 0 < α < 1.
func PredictionBound(m, s float64, n int, alpha float64) float64 {
	nf := float64(n)
	return math.Exp(m - TQuantile(1-alpha, nf-1)*s*math.Sqrt(1+1/nf))
}

// ToleranceConfidence returns γ(k), the confidence that the one-sided
// lower normal tolerance bound m − k·s (log space) lies below the
// (1−p)-quantile of the population, i.e. that at least a fraction p of
// healthy runs pass, with z_p = Φ⁻¹(p) and ν = n−1 (STATS.md 2.4):
//
//	γ(k) = ∫₀^∞ Φ( √n · (k·sqrt(v/ν) − z_p) ) · f_{χ²_ν}(v) dv.
//
// It is computed by adaptive Gauss–Legendre quadrature over w = sqrt(v/ν)
// (whose density is smooth even for ν = 1): each panel's 20-point rule is
// compared with the sum over its two halves and split until they agree to
// 1e−15 (absolute per panel; γ is in [0, 1]). A fixed grid missed the sharp turn of
// the integrand at w = z_p/k when k is large (n = 2: 2.3e−5 relative in
// k). It stays exact for large n, where gonum's NoncentralT switches to an
// approximation. Domain: n ≥ 2.
func ToleranceConfidence(k float64, n int, zp float64) float64 {
	return toleranceConfidence(k, float64(n), float64(n-1), zp)
}

// toleranceConfidence is γ(k) for a mean worth n runs and a variance
// with nu degrees of freedom, which the independent model ties as
// nu = n − 1 and the AR(1) model does not (docs/STATS.md 5b).
func toleranceConfidence(k, n, nu, zp float64) float64 {
	sn := math.Sqrt(n)
	d := newWDensity(nu)
	f := func(w float64) float64 { return NormalCDF(sn*(k*w-zp)) * d.at(w) }
	return integrateOverW(f, nu, 1e-15)
}

// wDensity is the density of w = sqrt(V/ν), V ~ χ²_ν:
//
//	f(w) = 2ν w f_χ²(νw²),  f_χ²(v) = v^{ν/2−1} e^{−v/2} / (2^{ν/2} Γ(ν/2)),
//
// written as ln f(w) = c + (ν−1)·ln w − ν(w² − 1)/2 with every term small
// where f has its mass (w near 1). The direct form sums terms of the size
// of ν·ln ν (2.7e5 at ν = 10⁵) to a result of a few units, and its
// rounding made the density noisy to 3e−11 relative at ν = 10⁵: more
// than the quadrature's tolerance, so the adaptive rule split panels a
// million times over chasing the noise (issue 19).
type wDensity struct{ nu, c float64 }

func newWDensity(nu float64) wDensity {
	var c float64
	if x := nu / 2; x >= 20 {
		// c = ln(2ν) − (ν/2)·ln 2 − lnΓ(ν/2) + (ν/2 − 1)·ln ν − ν/2, which with
		// Stirling's series lnΓ(x) = (x − ½)·ln x − x + ½·ln 2π + R(x) is
		// exactly ½·ln(ν/π) − R(ν/2); R's series, to x⁻⁹, is within 1e−17
		// of it for x ≥ 20 (the next term is 691/(360360·x¹¹)).
		x2 := 1 / (x * x)
		r := (1.0/12 - x2*(1.0/360-x2*(1.0/1260-x2*(1.0/1680-x2/1188)))) / x
		c = 0.5*math.Log(nu/math.Pi) - r
	} else {
		lg, _ := math.Lgamma(x)
		c = math.Log(2*nu) - x*math.Ln2 - lg + (x-1)*math.Log(nu) - x
	}
	return wDensity{nu: nu, c: c}
}

// at returns f(w): with d = w − 1, (ν−1)·ln w − ν(w² − 1)/2 is
// ν·(ln(1+d) − d − d²/2) − ln(1+d), whose first part log1pMinus keeps
// free of cancellation.
func (p wDensity) at(w float64) float64 {
	if w <= 0 {
		return 0
	}
	d := w - 1
	return math.Exp(p.c + p.nu*(log1pMinus(d)-d*d/2) - math.Log1p(d))
}

// log1pMinus returns ln(1 + d) − d without the cancellation of the two
// for small d: with t = d/(2 + d), ln(1 + d) = 2·atanh t and d = 2t/(1 − t),
// so ln(1 + d) − d = −t·d + 2t³·(1/3 + t²/5 + t⁴/7 + …); for |d| ≤ ½,
// |t| ≤ ⅓ and 16 terms of the series reach 1e−17 of the result.
func log1pMinus(d float64) float64 {
	if math.Abs(d) > 0.5 {
		return math.Log1p(d) - d
	}
	t := d / (2 + d)
	t2 := t * t
	var s float64
	for j := 33; j >= 3; j -= 2 {
		s = s*t2 + 1/float64(j)
	}
	return -t*d + 2*t*t2*s
}

// integrateOverW integrates f over the range of w = sqrt(χ²_ν/ν) that
// carries its mass (1 ± 16 of its SD, about 1/sqrt(2ν), and up to 12 for
// small ν, whose tail is long), in 16 panels of adaptive Gauss–Legendre
// quadrature to the tolerance tol each.
func integrateOverW(f func(float64) float64, nu, tol float64) float64 {
	spread := 1 / math.Sqrt(2*nu) // the SD of w, nearly
	lo := math.Max(0, 1-16*spread)
	hi := 1 + 16*spread
	if nu < 8 {
		hi = math.Max(hi, 12)
	}
	const panels = 16
	width := (hi - lo) / panels
	var sum float64
	for i := 0; i < panels; i++ {
		a := lo + float64(i)*width
		sum += adaptiveGL(f, a, a+width, tol, 0)
	}
	return sum
}

// gl20X and gl20W are gonum's 20-point Gauss–Legendre rule mapped to
// [0, 1] ((x + 1)/2 and w/2: both exact), computed once: gl20 over [a, b]
// is then quad.Fixed(f, a, b, 20, quad.Legendre{}, 0) bit for bit, without
// recomputing the nodes on every call.
var gl20X, gl20W = legendreOn01(20)

func legendreOn01(n int) (x, w []float64) {
	x, w = make([]float64, n), make([]float64, n)
	for k := range n {
		x[k], w[k] = quad.Legendre{}.FixedLocationSingle(n, k, 0, 1)
	}
	return x, w
}

// gl20 integrates f over [a, b] (a < b) by the 20-point Gauss–Legendre rule.
func gl20(f func(float64) float64, a, b float64) float64 {
	return glFixed(gl20X, gl20W, f, a, b)
}

// glFixed integrates f over [a, b] by the rule with nodes x and weights w
// on [0, 1].
func glFixed(x, w []float64, f func(float64) float64, a, b float64) float64 {
	d := b - a
	var sum float64
	for k, xk := range x {
		sum += w[k] * d * f(xk*d+a)
	}
	return sum
}

// adaptiveGL integrates f over [a, b] by 20-point Gauss–Legendre, halving
// the interval until the whole-panel rule and the sum over the halves
// agree to tol (absolute, for every panel: the halves' sum is far more
// accurate than the estimate says), and returns the halves' sum.
func adaptiveGL(f func(float64) float64, a, b, tol float64, depth int) float64 {
	whole := gl20(f, a, b)
	m := a + (b-a)/2
	left := gl20(f, a, m)
	right := gl20(f, m, b)
	if d := math.Abs(left + right - whole); d <= tol || depth >= 30 || math.IsNaN(d) {
		// A NaN integrand (an undefined k) is returned as NaN at once,
		// never split down to the depth limit.
		return left + right
	}
	return adaptiveGL(f, a, m, tol, depth+1) + adaptiveGL(f, m, b, tol, depth+1)
}

// ToleranceK returns the exact one-sided normal tolerance factor
// k(n, p, γ) = t'_{n−1,γ}(z_p·√n)/√n: with confidence γ at least a fraction
// p of the population lies above m − k·s (STATS.md 2.4). It solves
// ToleranceConfidence(k) = γ by bisection (γ(k) increases with k).
// Checked against Montgomery & Runger Table XII and scipy's nct.ppf in the
// tests, for n from 2 to 1000. Domain: n ≥ 2, 0 < p < 1, 0 < γ < 1.
func ToleranceK(n int, p, gamma float64) (float64, error) {
	if n < 2 || !(p > 0 && p < 1) || !(gamma > 0 && gamma < 1) {
		return 0, fmt.Errorf("stats: ToleranceK(n=%d, p=%v, γ=%v): want n ≥ 2 and p, γ in (0, 1)", n, p, gamma)
	}
	zp := NormalQuantile(p)
	g := func(k float64) float64 { return ToleranceConfidence(k, n, zp) - gamma }
	lo, hi := zp-1, zp+1
	for g(lo) > 0 {
		lo -= 2 * (hi - lo)
	}
	for g(hi) < 0 {
		hi += 2 * (hi - lo)
		if hi > 1e6 {
			return 0, errors.New("stats: ToleranceK: no bracket")
		}
	}
	return bisect(g, lo, hi), nil
}

// bisect finds a root of an increasing function g in [lo, hi] to the
// resolution of float64.
func bisect(g func(float64) float64, lo, hi float64) float64 {
	for i := 0; i < 200; i++ {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			break
		}
		if g(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// KObs returns (m − ln F)/s: how many log-space SDs the floor F lies below
// the mean log score. +Inf when s = 0 and F is below exp(m).
func KObs(m, s, floor float64) float64 { return (m - math.Log(floor)) / s }

// FPRPlugin returns the plug-in false-positive rate Φ(−k_obs), which takes
// m and s as the truth; far too optimistic for small n (STATS.md 2.5).
func FPRPlugin(m, s float64, floor float64) float64 {
	return NormalCDF(-KObs(m, s, floor))
}

// FPRPredictive returns the predictive false-positive rate of floor F,
//
//	T_{n−1}( −k_obs / sqrt(1 + 1/n) ),
//
// the posterior-predictive probability that a new healthy run scores below
// F under the standard noninformative prior for a log-normal model
// (STATS.md 2.5). Domain: n ≥ 2.
func FPRPredictive(m, s float64, n int, floor float64) float64 {
	nf := float64(n)
	return TCDF(-KObs(m, s, floor)/math.Sqrt(1+1/nf), nf-1)
}

// FPRUpper returns an upper confidence bound at level c on the false-
// positive rate of floor F given the calibration (STATS.md 2.5): the
// largest 1−p for which the (p, c) tolerance bound is still at or above F,
// i.e. 1 − p where ToleranceK(n, p, c) = k_obs. Domain: n ≥ 2, 0 < c < 1.
func FPRUpper(m, s float64, n int, floor, c float64) float64 {
	k := KObs(m, s, floor)
	return upperFromK(k, func(z float64) float64 { return c - ToleranceConfidence(k, n, z) })
}

// FPRUpperEff is FPRUpper under the effective model of the runs
// (docs/STATS.md 5b): the mean worth e.N runs, the variance e.DF degrees
// of freedom, and s·e.SDScale the estimate of σ, so that the confidence
// is γ(k/SDScale) with √N and DF in place of √n and n − 1. For
// independent runs (N = n, DF = n − 1, SDScale 1) that is FPRUpper's
// computation, bit for bit.
func FPRUpperEff(m, s float64, e Effective, floor, c float64) float64 {
	k := KObs(m, s, floor)
	ks := k / e.SDScale
	return upperFromK(k, func(z float64) float64 { return c - toleranceConfidence(ks, e.N, e.DF, z) })
}

// upperFromK solves g(z) = 0 for the z where the confidence reaches its
// level (g increases with z: the confidence falls as z grows) and returns
// the rate Φ(−z); k = ∞ (no spread) is rate 0, NaN is NaN.
func upperFromK(k float64, g func(float64) float64) float64 {
	if math.IsInf(k, 1) {
		return 0
	}
	if math.IsNaN(k) {
		return math.NaN()
	}
	lo, hi := -40.0, 40.0
	glo, ghi := g(lo), g(hi)
	if glo > 0 {
		return 1
	}
	if ghi < 0 {
		return 0
	}
	return NormalCDF(-brent(g, lo, hi, glo, ghi))
}

// brent finds a root of g in [a, b], where g(a) = ga and g(b) = gb have
// opposite signs (or one is 0), by Brent's method (Brent 1973, Algorithms
// for Minimization without Derivatives, ch. 4): inverse quadratic or
// secant steps, and bisection whenever they would not shrink the bracket
// fast enough, to within 1e−14 relative (1e−14 absolute near 0). It takes
// about 15 evaluations of g where bisection to the resolution of float64
// took 60 or more: each is a quadrature (issue 19); z is then exact far
// beyond the digits a rate Φ(−z) is printed with (relative error of the
// rate about z·1e−14).
func brent(g func(float64) float64, a, b, ga, gb float64) float64 {
	if ga == 0 {
		return a
	}
	if gb == 0 {
		return b
	}
	if math.Abs(ga) < math.Abs(gb) {
		a, b, ga, gb = b, a, gb, ga
	}
	c, gc := a, ga
	d := c
	bisected := true
	for range 200 {
		tol := 1e-14 * math.Max(1, math.Abs(b))
		if gb == 0 || math.Abs(b-a) < tol {
			return b
		}
		var s float64
		if ga != gc && gb != gc {
			s = a*gb*gc/((ga-gb)*(ga-gc)) + b*ga*gc/((gb-ga)*(gb-gc)) + c*ga*gb/((gc-ga)*(gc-gb))
		} else {
			s = b - gb*(b-a)/(gb-ga)
		}
		lo, hi := (3*a+b)/4, b
		if lo > hi {
			lo, hi = hi, lo
		}
		if !(s > lo && s < hi) ||
			(bisected && math.Abs(s-b) >= math.Abs(b-c)/2) ||
			(!bisected && math.Abs(s-b) >= math.Abs(c-d)/2) ||
			(bisected && math.Abs(b-c) < tol) ||
			(!bisected && math.Abs(c-d) < tol) {
			s = a + (b-a)/2
			bisected = true
		} else {
			bisected = false
		}
		gs := g(s)
		d, c, gc = c, b, gb
		if (ga < 0) != (gs < 0) {
			b, gb = s, gs
		} else {
			a, ga = s, gs
		}
		if math.Abs(ga) < math.Abs(gb) {
			a, b, ga, gb = b, a, gb, ga
		}
	}
	return b
}

// PowerPredictive returns the predictive probability that a run regressed
// uniformly by factor r (every ratio × r, r < 1) scores below floor F:
// T_{n−1}( (ln F − m − ln r) / (s·sqrt(1+1/n)) ) (STATS.md 2.6).
func PowerPredictive(m, s float64, n int, floor, r float64) float64 {
	nf := float64(n)
	return TCDF((math.Log(floor)-m-math.Log(r))/(s*math.Sqrt(1+1/nf)), nf-1)
}

// DetectPredictive returns r_π, the mildest uniform regression factor that
// a floor F catches with predictive probability π:
// exp( ln F − m − s·sqrt(1+1/n)·t_{n−1,π} ). At π = 0.5 it is F/exp(m)
// (STATS.md 2.6).
func DetectPredictive(m, s float64, n int, floor, pi float64) float64 {
	nf := float64(n)
	return math.Exp(math.Log(floor) - m - s*math.Sqrt(1+1/nf)*TQuantile(pi, nf-1))
}

// DetectPlugin returns the plug-in r_π = exp(ln F − m − s·z_π).
func DetectPlugin(m, s float64, floor, pi float64) float64 {
	return math.Exp(math.Log(floor) - m - s*NormalQuantile(pi))
}

// DistributionFreeFPR returns the bound on the false-positive rate of a
// floor F that holds for any continuous distribution of i.i.d. healthy
// scores (STATS.md 2.2): with j of the n calibration scores below F, the
// next healthy score falls below F with probability at most (j+1)/(n+1);
// for F at or below the minimum, 1/(n+1).
func DistributionFreeFPR(scores []float64, floor float64) float64 {
	return float64(below(scores, floor)+1) / float64(len(scores)+1)
}

// below counts the scores under floor.
func below(scores []float64, floor float64) int {
	j := 0
	for _, s := range scores {
		if s < floor {
			j++
		}
	}
	return j
}

// DistributionFreeUpper is an upper confidence bound at level c on the
// false-positive rate of floor F that needs no model, only that healthy
// runs are independent draws of one continuous distribution (docs/STATS.md
// 2.2): with j of the n calibration scores below F, F is at most the
// (j+1)-th lowest score, whose true rate U_(j+1) is Beta(j+1, n−j); so the
// rate is at most the c-quantile of that Beta with confidence c. For a
// floor below every score (j = 0) it is 1 − (1 − c)^(1/n): the confidence
// 1 − (1 − p)^n that the minimum of n runs covers p, solved for p.
func DistributionFreeUpper(scores []float64, floor, c float64) float64 {
	n, j := len(scores), below(scores, floor)
	if j >= n {
		return 1
	}
	if j == 0 {
		return -math.Expm1(math.Log1p(-c) / float64(n))
	}
	return distuv.Beta{Alpha: float64(j + 1), Beta: float64(n - j)}.Quantile(c)
}

// AtLeastOne returns 1 − (1−p)^m, the chance of at least one event in m
// independent trials of probability p, computed without cancellation.
func AtLeastOne(p float64, m int) float64 {
	return -math.Expm1(float64(m) * math.Log1p(-p))
}

// hermite holds the 64-point Gauss–Hermite rule, rescaled to expectations
// over Z ~ N(0, 1): E[f(Z)] ≈ Σ hermiteW[i]·f(hermiteX[i]).
var hermiteX, hermiteW = func() ([]float64, []float64) {
	const n = 64
	x, w := make([]float64, n), make([]float64, n)
	quad.Hermite{}.FixedLocations(x, w, math.Inf(-1), math.Inf(1))
	for i := range x {
		x[i] *= math.Sqrt2
		w[i] /= math.SqrtPi
	}
	return x, w
}()

// FalseAlarmHorizon returns the predictive chance of at least one false
// alarm of floor F in the next runs healthy runs (STATS.md 2.5): the
// chance 1 − (1 − Φ((ln F − μ)/σ))^runs averaged over the posterior of
// (μ, σ) under the noninformative prior that gives FPRPredictive (σ² =
// s²ν/χ²_ν, μ | σ ~ N(m, σ²/n), ν = n−1). With W = sqrt(χ²_ν/ν) and
// Z ~ N(0, 1) the per-run rate is Φ(u·W − Z/√n), u = (ln F − m)/s; the
// expectation over Z is a 64-point Gauss–Hermite sum and the one over W
// the adaptive Gauss–Legendre quadrature of ToleranceConfidence. At
// runs = 1 it is FPRPredictive. It is below 1 − (1 − p)^runs at the
// predictive p (Jensen: the runs share one unknown rate), and that
// plug-in figure took the estimated rate as the truth. Domain: n ≥ 2,
// s > 0, runs ≥ 1.
func FalseAlarmHorizon(m, s float64, n int, floor float64, runs int) float64 {
	return FalseAlarmHorizonEff(m, s, Independent(n), floor, runs)
}

// FalseAlarmHorizonEff is FalseAlarmHorizon under an effective model
// (docs/STATS.md 5b): the mean counts n_eff runs, the variance df_eff
// degrees of freedom, and s is scaled for its bias.
func FalseAlarmHorizonEff(m, s float64, e Effective, floor float64, runs int) float64 {
	u := (math.Log(floor) - m) / (s * e.SDScale)
	nu := e.DF
	sn := math.Sqrt(e.N)
	mf := float64(runs)
	d := newWDensity(nu)
	f := func(w float64) float64 {
		dens := d.at(w)
		if dens < 1e-20 {
			// The chance of an alarm is at most 1, so where w has no
			// density to speak of (beyond about 10 of its SDs) the
			// integrand is below 1e−20, and the 64-node sum is skipped:
			// over a range of w narrower than 12 it changes the horizon
			// by less than 1e−18, far inside the 1e−15 tolerance.
			return 0
		}
		// E_Z[1 − (1 − p)^runs], p = Φ(u·w − Z/√n); 1 − p = Φ(Z/√n − u·w).
		// The chance of an alarm is integrated, not the chance of none
		// subtracted from 1 at the end, which lost the small horizons'
		// digits to cancellation (1e−11 absolute at 1e−12 tolerance).
		var e float64
		for i, z := range hermiteX {
			e += hermiteW[i] * -math.Expm1(mf*logNormalCDF(z/sn-u*w))
		}
		return e * dens
	}
	return math.Max(0, math.Min(1, integrateOverW(f, nu, 1e-15)))
}

// logNormalCDF returns ln Φ(x), through log1p(−Φ(−x)) where Φ(x) is near
// 1 (the log of a rounded Φ(x) would keep none of 1 − Φ(x)'s digits).
func logNormalCDF(x float64) float64 {
	if x > 0 {
		return math.Log1p(-NormalCDF(-x))
	}
	return math.Log(NormalCDF(x))
}
