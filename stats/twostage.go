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
func TwoStageGiven(mu, sigma, a, l float64) (fpr, rerun float64) {
	za, zl := (a-mu)/sigma, (l-mu)/sigma
	first := NormalCDF(za)
	rerun = NormalCDF(zl) - first
	if rerun <= 0 {
		return first, 0
	}
	// ∫ over z in [za, zl] of φ(z)·Φ(2·zl − z): the second run's score must
	// fall below 2l − x for the mean to fall below l.
	f := func(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) * NormalCDF(2*zl-z) }
	return first + adaptiveGL(f, za, zl, 1e-14, 0), rerun
}
