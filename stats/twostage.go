package stats

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// TwoStageFPR is the predictive false-positive rate per healthy job of
// the gate with a rerun band (docs/STATS.md 2.14): a first run below
// F·(1 − band) fails; one in [F·(1 − band), F) is measured again, and the
// pair fails when the mean of the two log scores is below ln F. It also
// returns the predictive rate of a rerun, P(F·(1 − band) ≤ S₁ < F).
//
// The rates average over the posterior of (μ, σ) that gives the per-run
// predictive rate (σ² = s²·scale²·df/χ²_df, μ | σ ~ N(m, σ²/n_eff)); for
// each draw the conditional rates are exact (a normal integral done by
// Gauss–Legendre quadrature over the first run's score), so the draws only
// average over the parameters. draws posterior draws, seeded: the same
// inputs give the same figures.
func TwoStageFPR(m, s float64, e Effective, floor, band float64, draws int, seed uint64) (fpr, rerun float64) {
	fpr, rerun, _ = TwoStage(m, s, e, floor, band, 1, draws, seed)
	return fpr, rerun
}

// TwoStagePower is the predictive probability that the rule with a rerun
// band fails a job whose runs have all slid by the factor r (r < 1: a
// regression): TwoStageFPR with the posterior's centre moved by ln r,
// because a slid job is a healthy one whose log scores are lower by −ln r
// (docs/STATS.md 2.14). The same seed gives the same posterior draws as
// TwoStageFPR, so the two figures are computed on one sample.
func TwoStagePower(m, s float64, e Effective, floor, band, r float64, draws int, seed uint64) float64 {
	_, _, p := TwoStage(m, s, e, floor, band, r, draws, seed)
	return p
}

// TwoStage is TwoStageFPR and TwoStagePower in one pass over the
// posterior draws, which the two share: the false-positive and rerun
// rates of healthy jobs, and the rate at which a job slid by r fails
// (with r = 1 the slid job is a healthy one: the power is the false-
// positive rate).
func TwoStage(m, s float64, e Effective, floor, band, r float64, draws int, seed uint64) (fpr, rerun, power float64) {
	lnF := math.Log(floor)
	lnA := math.Log(floor * (1 - band))
	mSlid := m + math.Log(r)
	rng := rand.New(rand.NewPCG(seed, 2014))
	chi := distuv.Gamma{Alpha: e.DF / 2, Beta: 0.5, Src: rng} // χ²_df
	sd := s * e.SDScale
	for range draws {
		sigma := sd * math.Sqrt(e.DF/chi.Rand())
		z := rng.NormFloat64()
		f, rr := TwoStageGiven(m+sigma/math.Sqrt(e.N)*z, sigma, lnA, lnF)
		fpr += f
		rerun += rr
		if r != 1 {
			p, _ := TwoStageGiven(mSlid+sigma/math.Sqrt(e.N)*z, sigma, lnA, lnF)
			power += p
		}
	}
	if r == 1 {
		power = fpr
	}
	return fpr / float64(draws), rerun / float64(draws), power / float64(draws)
}

// TwoStageGiven is the two-stage rule's false-positive and rerun rates
// for known μ and σ of the log score: with a = ln(F·(1 − band)) and
// l = ln F, P(S₁ < a) + ∫_a^l φ_{μ,σ}(x)·Φ((2l − x − μ)/σ) dx, and
// P(a ≤ S₁ < l).
//
// The integral is a bivariate normal probability, computed in closed form
// through Φ₂ rather than by quadrature over the first run: with
// standardized scores Z₁, Z₂ and W = (Z₁ + Z₂)/√2 (corr(Z₁, W) = 1/√2),
// the pair's mean falls below l when W < √2·z_l, so
//
//	fpr = Φ(z_a) + Φ₂(z_l, √2·z_l; 1/√2) − Φ₂(z_a, √2·z_l; 1/√2),
//
// z = (x − μ)/σ. The first Φ₂ has a closed form: Z₁ and Z₂ are
// exchangeable, so of the pairs whose sum is below 2z_l those with one
// score above z_l split evenly between Z₁ and Z₂, and
// Φ₂(z_l, √2·z_l; 1/√2) = P(Z₁ < z_l, Z₂ < z_l) + ½·P(one above, sum
// below) = ½·(Φ(z_l)² + Φ(√2·z_l)) (Owen's T with a = 1 and 0 gives the
// same: T(h, 1) = ½·Φ(h)·Φ(−h)). The second is normal2CDFHalf. Both Φ₂
// terms are at most fpr, so the subtraction loses no relative accuracy.
// The quadrature this replaces is refTwoStageGiven in
// reference_slow_test.go, which the tests check it against.
func TwoStageGiven(mu, sigma, a, l float64) (fpr, rerun float64) {
	za, zl := (a-mu)/sigma, (l-mu)/sigma
	first, phiL := NormalCDF(za), NormalCDF(zl)
	rerun = phiL - first
	if rerun <= 0 {
		return first, 0
	}
	k := math.Sqrt2 * zl
	phiK := NormalCDF(k)
	return first + ((phiL*phiL+phiK)/2 - normal2CDFHalf(za, k, first, phiK)), rerun
}

// twoStageNodes are the nodes of the θ integral of normal2CDFHalf
// (θ from 0 to asin(1/√2) = π/4) by the 16-point Gauss–Legendre rule,
// computed once: for each node θ_k its weight times the length π/4,
// sin θ_k and 1/(2·cos² θ_k).
var twoStageNodes = func() (nodes [16]struct{ w, sin, inv2cos2 float64 }) {
	const top = math.Pi / 4
	glX, glW := legendreOn01(16)
	for i := range nodes {
		th := glX[i] * top
		s, c := math.Sincos(th)
		nodes[i].w = glW[i] * top
		nodes[i].sin = s
		nodes[i].inv2cos2 = 1 / (2 * c * c)
	}
	return nodes
}()

// normal2CDFHalf is Φ₂(h, k; 1/√2), the bivariate standard normal
// distribution function with correlation 1/√2, given phiH = Φ(h) and
// phiK = Φ(k) (the caller has them). It uses the derivative in ρ
// (Plackett 1954, "A reduction formula for normal multivariate
// integrals", Biometrika 41, 351–360:
// ∂Φ₂/∂ρ = φ₂) with ρ = sin θ, as Drezner and Wesolowsky (1990, "On the
// computation of the bivariate normal integral", J. Statist. Comput.
// Simul. 35, 101–107) and Genz (2004, "Numerical computation of rectangular
// bivariate and trivariate normal and t probabilities", Statistics and
// Computing 14, 251–260, routine BVND) do:
//
//	Φ₂(h, k; ρ) = Φ(h)·Φ(k) + 1/(2π) ∫_0^{asin ρ} exp(−(h² + k² − 2hk·sin θ)/(2 cos² θ)) dθ,
//
// integrated by 16-point Gauss–Legendre. Genz takes 12 points for
// 0.3 ≤ |ρ| < 0.75, enough for 1e−15 absolute; the rate of the gate is
// wanted to 1e−9 relative down to 1e−14, where 12 points give only 2e−8
// relative and 16 give 3e−13 (TestTwoStageGivenMatchesReference, against
// the adaptive quadrature over the first run).
func normal2CDFHalf(h, k, phiH, phiK float64) float64 {
	hk, hs := h*k, h*h+k*k
	var sum float64
	for _, nd := range &twoStageNodes {
		sum += nd.w * math.Exp((2*hk*nd.sin-hs)*nd.inv2cos2)
	}
	return phiH*phiK + sum/(2*math.Pi)
}
