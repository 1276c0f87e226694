package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// Trigamma is ψ₁(x), the derivative of the digamma function, for x > 0:
// the recurrence ψ₁(x) = ψ₁(x+1) + 1/x² up to x ≥ 12, then the asymptotic
// series 1/x + 1/(2x²) + Σ B_{2k}/x^{2k+1} (Abramowitz and Stegun 6.4.12),
// whose first omitted term is below 1e−16 relative there. NaN for x ≤ 0.
func Trigamma(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 1) {
		if math.IsInf(x, 1) {
			return 0
		}
		return math.NaN()
	}
	var acc float64
	for x < 12 {
		acc += 1 / (x * x)
		x++
	}
	x2 := 1 / (x * x)
	// B2 = 1/6, B4 = −1/30, B6 = 1/42, B8 = −1/30, B10 = 5/66, B12 = −691/2730
	s := 1/x + x2/2 + x2/x*(1.0/6+x2*(-1.0/30+x2*(1.0/42+x2*(-1.0/30+x2*(5.0/66+x2*(-691.0/2730))))))
	return acc + s
}

// tetragamma is ψ₂(x) for x > 0, by the recurrence ψ₂(x) = ψ₂(x+1) − 2/x³
// and the derivative of Trigamma's series.
func tetragamma(x float64) float64 {
	var acc float64
	for x < 12 {
		acc -= 2 / (x * x * x)
		x++
	}
	x2 := 1 / (x * x)
	s := -x2 - x2/x - x2*x2*(1.0/2+x2*(-1.0/6+x2*(1.0/6+x2*(-3.0/10+x2*(5.0/6+x2*(-691.0/210))))))
	return acc + s
}

// TrigammaInverse is the x > 0 with ψ₁(x) = y, for y > 0, by the Newton
// iteration of Smyth (2004, section 6.2; limma's trigammaInverse), which
// converges from x = ½ + 1/y monotonically because 1/ψ₁ is nearly
// linear: x ← x + ψ₁(x)(1 − ψ₁(x)/y)/ψ₂(x). Large and small y use the
// limits ψ₁(x) ≈ 1/x² (x small) and ≈ 1/x (x large). NaN for y ≤ 0.
func TrigammaInverse(y float64) float64 {
	switch {
	case !(y > 0):
		return math.NaN()
	case y > 1e7:
		return 1 / math.Sqrt(y)
	case y < 1e-6:
		return 1 / y
	}
	x := 0.5 + 1/y
	for i := 0; i < 50; i++ {
		tri := Trigamma(x)
		dif := tri * (1 - tri/y) / tetragamma(x)
		x += dif
		if -dif/x < 1e-8 {
			break
		}
	}
	return x
}

// VariancePrior is the scaled inverse-χ² prior of the true variances of
// a family of estimates: σ_j² ~ s0²·d0/χ²_{d0} (Smyth 2004, "Linear models
// and empirical Bayes methods for assessing differential expression in
// microarray experiments", Stat. Appl. Genet. Mol. Biol. 3(1), art. 3,
// section 6.2). D0 is +Inf when the estimates spread no more than their
// own sampling error says: every σ_j is then the pooled S02.
type VariancePrior struct {
	D0, S02 float64
}

// FitVariancePrior fits the prior to sample variances s2 on d degrees of
// freedom each, by the method of moments on their logs (Smyth 2004,
// section 6.2): with e_j = ln s_j² − ψ(d/2) + ln(d/2), the mean of e
// estimates ln s0² − ψ(d0/2) + ln(d0/2) and the variance of e, less
// ψ₁(d/2), estimates ψ₁(d0/2). Variances that are not > 0 and finite are
// left out; with fewer than two left there is no prior (D0 0, S02 NaN).
// d may be fractional (an effective number of degrees of freedom).
func FitVariancePrior(s2 []float64, d float64) VariancePrior {
	var e []float64
	for _, v := range s2 {
		if v > 0 && !math.IsInf(v, 0) {
			e = append(e, math.Log(v)-mathext.Digamma(d/2)+math.Log(d/2))
		}
	}
	if len(e) < 2 || !(d > 0) {
		return VariancePrior{D0: 0, S02: math.NaN()}
	}
	m := Mean(e)
	sd := SD(e)
	excess := sd*sd - Trigamma(d/2)
	if excess <= 0 {
		return VariancePrior{D0: math.Inf(1), S02: math.Exp(m)}
	}
	d0 := 2 * TrigammaInverse(excess)
	return VariancePrior{D0: d0, S02: math.Exp(m + mathext.Digamma(d0/2) - math.Log(d0/2))}
}

// Moderate is the posterior variance of an estimate s2 on d degrees of
// freedom under the prior (Smyth 2004, eq. 5): (d0·s0² + d·s²)/(d0 + d),
// on d0 + d degrees of freedom; s0² itself on +Inf when D0 is +Inf, and
// s2 on d when there is no prior (D0 0).
func (p VariancePrior) Moderate(s2, d float64) (post, df float64) {
	switch {
	case math.IsInf(p.D0, 1):
		return p.S02, math.Inf(1)
	case !(p.D0 > 0):
		return s2, d
	}
	return (p.D0*p.S02 + d*s2) / (p.D0 + d), p.D0 + d
}

// PredictivePEff is the predictive chance that a new value falls below x,
// for values of mean m over e.N independent runs whose scale s is an
// estimate on e.DF degrees of freedom (a moderated one: Moderate), under
// the tail with nu degrees of freedom: the Student-t predictive
// T_{DF}((x − m)/(s·sqrt(1 + 1/N))) for the normal, and otherwise the
// tail's expectation over the scale's and the mean's uncertainty (as
// TailP, which is this with e = Independent(n).Tail(nu)). e.DF must
// already carry the tail's allowance (Effective.Tail). NaN when s is not
// > 0.
func PredictivePEff(m, s float64, e Effective, x, nu float64) float64 {
	if !(s > 0) || !(e.N >= 2) || !(e.DF > 0) {
		return math.NaN()
	}
	if math.IsInf(nu, 1) {
		return TCDF((x-m)/(s*math.Sqrt(1+1/e.N)), e.DF)
	}
	return tailExpect((x-m)/s, e, nu)
}

// TailBoundEff is the value below which a new value falls with
// predictive chance p (0 < p < ½) under PredictivePEff's model: m −
// t_{DF,1−p}·s·sqrt(1 + 1/N) for the normal, and otherwise m + u·s with u
// solving ln PredictivePEff = ln p by Brent's method, as TailBound.
func TailBoundEff(m, s float64, e Effective, p, nu float64) float64 {
	if math.IsInf(nu, 1) {
		return m - TQuantile(1-p, e.DF)*s*math.Sqrt(1+1/e.N)
	}
	lp := math.Log(p)
	g := func(u float64) float64 { return math.Log(tailExpect(u, e, nu)) - lp }
	hi := TQuantile(p, nu) / tailScale(nu)
	ghi := g(hi)
	lo, glo := hi, ghi
	for glo > 0 && lo > -1e6 {
		hi, ghi = lo, glo
		lo *= 2
		glo = g(lo)
	}
	if ghi < 0 {
		return m + hi*s
	}
	return m + brent(g, lo, hi, glo, ghi)*s
}
