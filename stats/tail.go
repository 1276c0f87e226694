package stats

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// The log-normal model of section 2 puts a normal tail under the log
// scores. Real CI noise often has a heavier one (a runner slowed by a
// neighbour now and then), and at the rates a gate is set for (1 in
// 1,000) the tail is all that matters: with Student-t(5) log scores the
// normal model's floor trips healthy runs six times as often as it
// claims. The tail model (docs/STATS.md 5d) keeps the normal model's
// floor and figures where the runs look normal, and measures what the
// floor costs under the heavier tails the runs show, or cannot rule out:
//
//   - the tail family is the Student-t with ν degrees of freedom scaled
//     to the log scores' SD, ν on the grid TailDF (3 … 50, and +Inf, the
//     normal);
//   - each ν is scored by the log-likelihood of the standardised scores
//     (y − m)/s under the t_ν of unit variance (a method-of-moments fit:
//     the same m and s as the normal model, so the only thing that
//     changes is the shape);
//   - the runs favour a heavier tail than the normal when the likelihood
//     ratio 2(ℓ_best − ℓ_normal) exceeds TailCrit: the normal is the
//     boundary ν = ∞ of the family, where the ratio's null distribution is
//     the even mixture of 0 and χ²₁ (Self and Liang 1987);
//   - the heaviest tail the runs do not rule out is the smallest ν whose
//     ratio against the best, 2(ℓ_best − ℓ_ν), is at most TailLowerCrit.

// TailDF is the grid of degrees of freedom the tail model considers,
// heaviest first; the last, +Inf, is the normal. t₃ is the heaviest tail
// with a variance (and so a scale the SD can set).
var TailDF = []float64{3, 4, 5, 6, 8, 10, 15, 20, 30, 50, math.Inf(1)}

// TailCrit is the likelihood ratio above which the runs favour a heavier
// tail than the normal: the best t must be e^1.5, about 4.5 times, as
// likely as the normal, a test at about 4% on the boundary (½·P(χ²₁ > 3)).
// On the grid, with the scale of the normal fit, normal scores are taken
// for heavy-tailed 0.7% of the time at n = 12, 1.6% at n = 30 and 1.9% at
// n = 100; Student-t(5) scores are recognised 5%, 22% and 61% of the
// time, t₃ scores 11%, 43% and 91% (stats/tail_test.go, 4,000 samples a
// cell). The level is
// where the predictive rate's two errors balance (docs/STATS.md 5d): on
// normal runs a tail seen by chance overstates the rate, on Student-t(5)
// runs a tail missed understates it.
const TailCrit = 3.0

// TailLowerCrit bounds the tails the runs do not rule out: a ν whose
// likelihood ratio against the best is at most χ²₁'s 0.80-quantile is in
// the set (a one-sided 90% bound on 1/ν), which the 95% upper bound of the
// rate takes together with the 95% bound of (μ, σ) under that tail.
const TailLowerCrit = 1.6423744151498117 // scipy.stats.chi2.ppf(0.80, 1)

// Tail is what the log scores say about their tail.
type Tail struct {
	// DF is the tail the runs favour: +Inf (the normal) unless the
	// likelihood ratio exceeds TailCrit, then the ν of the best fit.
	DF float64
	// DFLower is the heaviest tail the runs do not rule out.
	DFLower float64
	// LR is 2(ℓ_best − ℓ_normal) ≥ 0.
	LR float64
}

// Normal reports whether the runs favour the normal tail.
func (t Tail) Normal() bool { return math.IsInf(t.DF, 1) }

// NormalTail is the tail of scores that cannot be fitted (fewer than 3,
// or no spread): the normal, with nothing ruled in or out.
var NormalTail = Tail{DF: math.Inf(1), DFLower: math.Inf(1)}

// FitTail fits the tail model to log scores y (docs/STATS.md 5d). With
// fewer than 3 scores, or scores without spread, it returns NormalTail.
func FitTail(y []float64) Tail { return FitTailAt(y, TailCrit, TailLowerCrit) }

// FitTailAt is FitTail with other thresholds: the normal is rejected when
// the likelihood ratio exceeds crit, and DFLower is the heaviest ν within
// lowerCrit of the best.
func FitTailAt(y []float64, crit, lowerCrit float64) Tail {
	n := len(y)
	if n < 3 {
		return NormalTail
	}
	m, s := Mean(y), SD(y)
	if !(s > 0) || math.IsInf(s, 0) || math.IsNaN(m) {
		return NormalTail
	}
	ll := make([]float64, len(TailDF))
	best := len(TailDF) - 1
	for g, nu := range TailDF {
		c := tailScale(nu)
		norm := tLogNorm(nu) + math.Log(c)
		var l float64
		for _, v := range y {
			l += tLogKernel(c*(v-m)/s, nu)
		}
		ll[g] = l + float64(n)*norm
	}
	for g := range ll {
		if ll[g] > ll[best] {
			best = g
		}
	}
	t := Tail{DF: math.Inf(1), DFLower: math.Inf(1), LR: math.Max(0, 2*(ll[best]-ll[len(ll)-1]))}
	if t.LR > crit {
		t.DF = TailDF[best]
	}
	for g, nu := range TailDF {
		if 2*(ll[best]-ll[g]) <= lowerCrit {
			t.DFLower = nu
			break
		}
	}
	return t
}

// tailScale is c_ν = sqrt(ν/(ν − 2)): a t_ν variable divided by c_ν has
// unit variance, so a score z SDs from the mean is c_ν·z on t_ν's own
// scale. 1 for the normal.
func tailScale(nu float64) float64 {
	if math.IsInf(nu, 1) {
		return 1
	}
	return math.Sqrt(nu / (nu - 2))
}

// tLogNorm is the log of the normalising constant of t_ν's density,
// Γ((ν+1)/2)/(Γ(ν/2)·sqrt(νπ)), or of the normal's, 1/sqrt(2π).
func tLogNorm(nu float64) float64 {
	if math.IsInf(nu, 1) {
		return -0.5 * math.Log(2*math.Pi)
	}
	a, _ := math.Lgamma((nu + 1) / 2)
	b, _ := math.Lgamma(nu / 2)
	return a - b - 0.5*math.Log(nu*math.Pi)
}

// tLogKernel is the log of t_ν's density at x without its constant:
// −((ν+1)/2)·ln(1 + x²/ν), or −x²/2 for the normal.
func tLogKernel(x, nu float64) float64 {
	if math.IsInf(nu, 1) {
		return -x * x / 2
	}
	return -(nu + 1) / 2 * math.Log1p(x*x/nu)
}

// TailCDF is the distribution function of the Student-t with nu degrees
// of freedom (Φ for +Inf). nu must be a whole number (the grid's are), for
// which the closed forms of Abramowitz and Stegun 26.7.3 and 26.7.4 hold:
// with θ = atan(x/√ν),
//
//	ν odd:  P(|T| < x) = (2/π)·(θ + sin θ·Σ_{j<(ν−1)/2} b_j cos^{2j+1} θ),  b_j = (2j)!!/(2j+1)!!
//	ν even: P(|T| < x) = sin θ·Σ_{j<ν/2} a_j cos^{2j} θ,                    a_j = (2j−1)!!/(2j)!!
//
// The full series sum to arcsin(cos θ)/sin θ and 1/sin θ, so the lower
// tail P(T < −x), x > 0, is the rest of the series, a sum of positive
// terms: (1/π)·sin θ·Σ_{j≥(ν−1)/2} b_j cos^{2j+1} θ, or ½·sin θ·Σ_{j≥ν/2}
// a_j cos^{2j} θ. Where cos²θ = ν/(ν + x²) ≤ 0.8 the rest converges as
// 0.8^j and is summed to full precision, so a tail of 1e−12 keeps its
// digits; nearer the centre the finite sums are used. Checked against
// gonum's incomplete beta (distuv.StudentsT) in stats/tail_test.go.
func TailCDF(x, nu float64) float64 {
	if math.IsInf(nu, 1) {
		return NormalCDF(x)
	}
	if math.IsNaN(x) {
		return math.NaN()
	}
	if math.IsInf(x, 0) {
		if x > 0 {
			return 1
		}
		return 0
	}
	if x > 0 {
		return 1 - tTail(x, nu)
	}
	return tTail(-x, nu)
}

// tTail is P(T < −x) for x ≥ 0 and whole ν ≥ 1.
func tTail(x, nu float64) float64 {
	r := x*x + nu
	c2 := nu / r            // cos²θ
	sin := x / math.Sqrt(r) // sin θ
	cos := math.Sqrt(c2)    // cos θ
	odd := int(nu)%2 == 1
	if c2 <= 0.8 {
		// The rest of the series, from its first term on.
		var term float64
		var j int
		if odd {
			// b_J·cos^{2J+1} with J = (ν−1)/2: b_J = (2J)!!/(2J+1)!!.
			j = (int(nu) - 1) / 2
			term = cos
			for i := 1; i <= j; i++ {
				term *= c2 * float64(2*i) / float64(2*i+1)
			}
		} else {
			j = int(nu) / 2
			term = 1
			for i := 1; i <= j; i++ {
				term *= c2 * float64(2*i-1) / float64(2*i)
			}
		}
		var sum float64
		for k := j; ; k++ {
			sum += term
			if term <= sum*1e-17 {
				break
			}
			if odd {
				term *= c2 * float64(2*k+2) / float64(2*k+3)
			} else {
				term *= c2 * float64(2*k+1) / float64(2*k+2)
			}
		}
		if odd {
			return sin * sum / math.Pi
		}
		return sin * sum / 2
	}
	// Near the centre: 1 − P(|T| < x), halved.
	var a float64
	if odd {
		var s float64
		term := cos
		for j := 0; j < (int(nu)-1)/2; j++ {
			s += term
			term *= c2 * float64(2*j+2) / float64(2*j+3)
		}
		a = 2 / math.Pi * (math.Atan2(x, math.Sqrt(nu)) + sin*s)
	} else {
		var s float64
		term := 1.0
		for j := 0; j < int(nu)/2; j++ {
			s += term
			term *= c2 * float64(2*j+1) / float64(2*j+2)
		}
		a = sin * s
	}
	return (1 - a) / 2
}

// TailPredictive is the predictive false-positive rate of floor F under
// the tail with nu degrees of freedom (docs/STATS.md 5d): the rate
// T_ν(c_ν·(ln F − μ)/σ) of a healthy run whose log score is μ + σ·T/c_ν,
// averaged over the same posterior of (μ, σ) as the normal model's
// predictive rate (σ² = s²·scale²·df/χ²_df, μ | σ ~ N(m, σ²/n_eff):
// docs/STATS.md 2.5 and 5b). With W = sqrt(χ²_df/df) and Z ~ N(0, 1),
// (ln F − μ)/σ = u·W − Z/√n_eff, u = (ln F − m)/(s·scale): the
// expectation over Z is the 64-point Gauss–Hermite sum and the one over W
// the adaptive quadrature of ToleranceConfidence. For the normal it is
// FPRPredictiveEff, in closed form. Domain: s > 0.
func TailPredictive(m, s float64, e Effective, floor, nu float64) float64 {
	if math.IsInf(nu, 1) {
		return FPRPredictiveEff(m, s, e, floor)
	}
	u := (math.Log(floor) - m) / (s * e.SDScale)
	return tailExpect(u, e.Tail(nu), nu)
}

// TailUpper is the 95% (or c) upper bound of a floor's true rate under
// the tail with nu degrees of freedom, from the normal model's bound
// upperNormal (FPRUpperEff): the bound is a quantile of the standardised
// distance z = (ln F − μ)/σ, Φ(z_c) for the normal, and the true rate
// T_ν(c_ν·z) is increasing in z, so its bound is T_ν(c_ν·Φ⁻¹(upperNormal)).
func TailUpper(upperNormal, nu float64) float64 {
	if math.IsInf(nu, 1) || math.IsNaN(upperNormal) {
		return upperNormal
	}
	if upperNormal <= 0 {
		return 0
	}
	if upperNormal >= 1 {
		return 1
	}
	return TailCDF(tailScale(nu)*NormalQuantile(upperNormal), nu)
}

// hermite16X and hermite16W are the 16-point Gauss–Hermite rule as
// expectations over Z ~ N(0, 1), as hermiteX and hermiteW.
var hermite16X, hermite16W = func() ([]float64, []float64) {
	const n = 16
	x, w := make([]float64, n), make([]float64, n)
	quad.Hermite{}.FixedLocations(x, w, math.Inf(-1), math.Inf(1))
	for i := range x {
		x[i] *= math.Sqrt2
		w[i] /= math.SqrtPi
	}
	return x, w
}()

// tailExpect is E_{W,Z}[T_ν(c_ν·(u·W − Z/√n_eff))]: the expectation
// over Z by the 16-point Gauss–Hermite rule (the integrand is smooth in Z:
// 32 nodes change it by less than 1e−7 relative, 8 do not when few runs
// count: 6e−5 at n_eff 3) and over W by the
// 20-point Gauss–Legendre rule on 8 panels of its range (±12 of its SDs,
// and up to 12 for few degrees of freedom). Against the adaptive
// quadrature to 1e−13 with 64 Hermite nodes it agrees to 3e−6 relative
// from 10 runs on, and to 5e−5 at 5 runs (stats/tail_test.go): a rate is
// shown to three digits. It costs 2,560 evaluations of TailCDF (0.35 ms).
func tailExpect(u float64, e Effective, nu float64) float64 {
	c := tailScale(nu)
	sn := math.Sqrt(e.N)
	d := newWDensity(e.DF)
	f := func(w float64) float64 {
		dens := d.at(w)
		if dens < 1e-20 {
			return 0
		}
		var p float64
		for i, z := range hermite16X {
			p += hermite16W[i] * TailCDF(c*(u*w-z/sn), nu)
		}
		return p * dens
	}
	spread := 1 / math.Sqrt(2*e.DF)
	lo := math.Max(0, 1-12*spread)
	hi := 1 + 12*spread
	if e.DF < 8 {
		hi = math.Max(hi, 12)
	}
	const panels = 8
	width := (hi - lo) / panels
	var sum float64
	for i := 0; i < panels; i++ {
		a := lo + float64(i)*width
		sum += gl20(f, a, a+width)
	}
	return math.Max(0, math.Min(1, sum))
}

// TailP is the predictive chance that a new value falls below x, for
// values of mean m and n−1 SD s over n independent runs, under the tail
// with nu degrees of freedom: tailExpect at u = (x − m)/s. For the normal
// it is PredictiveP, the Student-t predictive. NaN when s is not > 0 or
// n < 2.
func TailP(m, s float64, n int, x, nu float64) float64 {
	if math.IsInf(nu, 1) {
		return PredictiveP(m, s, n, x)
	}
	if !(s > 0) || n < 2 {
		return math.NaN()
	}
	return tailExpect((x-m)/s, Independent(n).Tail(nu), nu)
}

// TailBound is the value below which a new value falls with predictive
// chance p (0 < p < ½), for values of mean m and n−1 SD s over n
// independent runs, under the tail with nu degrees of freedom: the lower
// prediction bound m − t_{n−1,1−p}·s·sqrt(1 + 1/n) for the normal, and
// otherwise m + u·s with u solving ln tailExpect(u) = ln p by Brent's
// method, bracketed from the tail's own quantile (the parameters' spread
// only moves the bound further out): about ten evaluations of tailExpect.
func TailBound(m, s float64, n int, p, nu float64) float64 {
	return TailBoundEff(m, s, Independent(n).Tail(nu), p, nu)
}
