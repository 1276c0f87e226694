package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// Sequential is a group-sequential design for judging a job by the mean
// of its repetitions' log scores after each repetition, under the
// variance components of VarComp: X̄_k, the mean of the first k, is
//
//	X̄_k = μ + b + W̄_k,  b ~ N(0, σ_b²) the job's effect,  W̄_k the mean of k N(0, σ_w²),
//
// so that Cov(X̄_j, X̄_k) = σ_b² + σ_w²/max(j, k): the repetitions of a job
// are not independent looks, and b never averages out.
//
// After look k the design fails a job whose X̄_k − μ₀ < −Fail[k] and passes
// one whose X̄_k − μ₀ > −Slide + Pass[k] (μ₀ the healthy mean, Slide the
// log-score drop to catch); otherwise it takes another repetition, up to
// Looks; a job undecided then is undecided. The boundaries are set look by
// look so that a healthy job (μ = μ₀) fails by look k with probability
// α(t_k), and a slid one (μ = μ₀ − Slide) passes by look k with probability
// β(t_k), each counting the stops at the other boundary (binding
// boundaries: the rates are exact under the model), where t_k =
// I_k/I_Looks, I_k = 1/(σ_b² + σ_w²/k), and α(t), β(t) the Lan–DeMets
// spending functions of O'Brien–Fleming type,
//
//	α(t) = 2 − 2Φ(Φ⁻¹(1 − α/2)/√t)
//
// (Lan and DeMets, "Discrete sequential boundaries for clinical trials",
// Biometrika 70, 1983): little is spent at the first looks, so that a job
// stops early only on clear evidence, and the last look's boundary is near
// a fixed design's. The probabilities are computed by the recursive
// numerical integration of Armitage, McPherson and Rowe ("Repeated
// significance tests on accumulating data", JRSS A 132, 1969) on the sum
// of the within-job deviations, for each of hermiteNodes values of b
// (Gauss–Hermite quadrature), as Jennison and Turnbull, "Group Sequential
// Methods with Applications to Clinical Trials" (2000), chapter 19,
// describe.
type Sequential struct {
	Between, Within float64
	Alpha, Beta     float64
	Slide           float64
	// Looks is the most repetitions; Last the look at which the design
	// decides every job (Looks, or earlier when the boundaries meet).
	Looks, Last int
	// Fail[k−1] and Pass[k−1] are the boundaries of look k, as offsets in
	// log score (see above); at Last, Pass is set to meet Fail when the
	// boundaries met.
	Fail, Pass []float64
	// Info[k−1] is t_k.
	Info []float64
	// SpentAlpha and SpentBeta are the rates the design spends: Alpha and
	// Beta unless the boundaries met before Looks.
	SpentAlpha, SpentBeta float64
}

// hermiteNodes is the number of Gauss–Hermite nodes over the job effect
// b: 24 while the job effect is small beside the mean of the repetitions'
// noise (σ_b·√looks ≤ σ_w); more as it grows, since a look's chances
// then change steeply with b (9 per unit of σ_b·√looks/σ_w, which keeps
// the rates within 0.3% of simulated ones at σ_b = 3σ_w), at most 200.
func hermiteNodes(between, within float64, looks int) int {
	r := between * math.Sqrt(float64(looks)) / within
	return int(min(200, max(24, math.Ceil(9*r))))
}

// SpendOBF is the Lan–DeMets spending function of O'Brien–Fleming type
// for a one-sided rate a at information fraction t in (0, 1]:
// 2 − 2Φ(Φ⁻¹(1 − a/2)/√t).
func SpendOBF(a, t float64) float64 {
	if t <= 0 {
		return 0
	}
	if t >= 1 {
		return a
	}
	return 2 - 2*NormalCDF(NormalQuantile(1-a/2)/math.Sqrt(t))
}

// seqGrid is the number of grid intervals per σ_w of the sum of the
// within-job deviations, seqRange the half-width of its grid in SDs of
// that sum, and seqKernel how far, in σ_w, one step's normal kernel is
// followed.
const (
	seqGrid   = 6
	seqRange  = 7.5
	seqKernel = 8.5
)

// density is the sub-density of S_k, the sum of a job's first k
// within-job deviations, over the jobs not stopped by look k, on a
// uniform grid s (an odd number of points, for Simpson's rule).
type density struct{ s, f []float64 }

// MaxLooks is the most looks NewSequential designs for.
const MaxLooks = 1000

// NewSequential designs the boundaries for looks repetitions at most,
// failing a healthy job with probability alpha and passing a job slid by
// slide (in log score) with probability beta, under the variance
// components between and within (SDs), b integrated over by
// Gauss–Hermite quadrature (hermiteNodes). It needs within > 0, slide > 0,
// alpha and beta in (0, 0.5), and 1 to 1,000 looks.
func NewSequential(between, within, slide, alpha, beta float64, looks int) (*Sequential, error) {
	switch {
	case !(within > 0) || math.IsInf(within, 0) || !(between >= 0) || math.IsInf(between, 0):
		return nil, fmt.Errorf("stats: sequential design: within %v, between %v: expected SDs, within > 0", within, between)
	case !(slide > 0) || math.IsInf(slide, 0):
		return nil, fmt.Errorf("stats: sequential design: slide %v: expected > 0", slide)
	case !(alpha > 0 && alpha < 0.5) || !(beta > 0 && beta < 0.5):
		return nil, fmt.Errorf("stats: sequential design: alpha %v, beta %v: expected each in (0, 0.5)", alpha, beta)
	case looks < 1 || looks > MaxLooks:
		return nil, fmt.Errorf("stats: sequential design: %d looks: expected 1 to %d", looks, MaxLooks)
	}
	s := &Sequential{Between: between, Within: within, Alpha: alpha, Beta: beta, Slide: slide, Looks: looks}
	vb, vw := between*between, within*within
	iM := 1 / (vb + vw/float64(looks))
	for k := 1; k <= looks; k++ {
		s.Info = append(s.Info, (1/(vb+vw/float64(k)))/iM)
	}
	// The job effect b at Gauss–Hermite nodes (one node when σ_b = 0).
	bs, ws := []float64{0}, []float64{1}
	if between > 0 {
		bs, ws = hermite(hermiteNodes(between, within, looks))
		for i := range bs {
			bs[i] *= math.Sqrt2 * between
			ws[i] /= math.SqrtPi
		}
	}
	// Per node, the density of S_k over the jobs still going, under the
	// healthy mean (h0) and the slid one (h1); nil before the first look.
	h0 := make([]density, len(bs))
	h1 := make([]density, len(bs))
	// In S_k, at node b, a job fails at look k when
	// S_k < k(−c − b) + shift and passes when S_k > k(−slide + e − b) + shift,
	// shift = 0 under h0 and k·slide under h1.
	mass := func(d []density, k int, x func(b float64) float64, below bool) float64 {
		var p float64
		for g, b := range bs {
			if k == 1 {
				z := x(b) / within
				if !below {
					z = -z
				}
				p += ws[g] * NormalCDF(z)
				continue
			}
			p += ws[g] * stepMass(d[g], within, x(b), below)
		}
		return p
	}
	var spentA, spentB float64
	for k := 1; k <= looks; k++ {
		fk := float64(k)
		failAt := func(d []density, shift, c float64) float64 {
			return mass(d, k, func(b float64) float64 { return fk*(-c-b) + shift }, true)
		}
		passAt := func(d []density, shift, e float64) float64 {
			return mass(d, k, func(b float64) float64 { return fk*(-slide+e-b) + shift }, false)
		}
		da := SpendOBF(alpha, s.Info[k-1]) - spentA
		db := SpendOBF(beta, s.Info[k-1]) - spentB
		if k == looks {
			da, db = alpha-spentA, beta-spentB
		}
		c := solveFalling(func(c float64) float64 { return failAt(h0, 0, c) }, da)
		e := solveFalling(func(e float64) float64 { return passAt(h1, fk*slide, e) }, db)
		failAll, passAll := c <= -solveBound+1e-9, e <= -solveBound+1e-9
		if -slide+e <= -c || failAll || passAll {
			// The boundaries meet: the slide is large for this many
			// looks, and this look decides every job, against one
			// threshold. It is the pass boundary, so that the slid jobs
			// pass at the rate spent and the healthy ones fail less often
			// than the rate allows (the rest of it is not spent); but when
			// the rate to spend is more than the jobs left (a boundary
			// that would stop them all), the other boundary, or with both
			// so, halfway between the healthy mean and the slid one.
			switch {
			case failAll && passAll:
				c, e = slide/2, slide/2
			case passAll:
				e = slide - c
			default:
				c = slide - e
			}
			s.Fail, s.Pass, s.Last = append(s.Fail, c), append(s.Pass, e), k
			s.SpentAlpha = spentA + failAt(h0, 0, c)
			s.SpentBeta = spentB + passAt(h1, fk*slide, e)
			return s, nil
		}
		s.Fail, s.Pass = append(s.Fail, c), append(s.Pass, e)
		spentA += failAt(h0, 0, c)
		spentB += passAt(h1, fk*slide, e)
		if k == looks {
			break
		}
		for g, b := range bs {
			lo, hi := fk*(-c-b), fk*(-slide+e-b)
			h0[g] = advance(h0[g], k, within, lo, hi)
			h1[g] = advance(h1[g], k, within, lo+fk*slide, hi+fk*slide)
		}
	}
	s.Last = looks
	s.SpentAlpha, s.SpentBeta = spentA, spentB
	return s, nil
}

// solveBound bounds a boundary's offset, in log score: e^10 is 22,000x.
const solveBound = 10.0

// solveFalling finds x with mass(x) = target for a mass that falls as x
// rises (a boundary's offset: the further out, the fewer jobs cross it),
// by bisection on [−10, 10] (log score); 10 when target ≤ 0.
func solveFalling(mass func(float64) float64, target float64) float64 {
	lo, hi := -solveBound, solveBound
	if target <= 0 {
		return hi
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mass(mid) > target {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-12 {
			break
		}
	}
	return (lo + hi) / 2
}

// stepMass is the mass of the jobs going on at the previous look whose
// S_k, one N(0, σ_w²) step on, is below x (below) or above it:
// ∫ f(u) Φ(±(x − u)/σ_w) du.
func stepMass(d density, within, x float64, below bool) float64 {
	g := make([]float64, len(d.s))
	for i, u := range d.s {
		z := (x - u) / within
		if !below {
			z = -z
		}
		g[i] = d.f[i] * NormalCDF(z)
	}
	return simpson(d.s, g)
}

// advance returns the density of S_k on (lo, hi), the jobs going on after
// look k, from d, that of S_{k−1} (k ≥ 2), or from the N(0, σ_w²) of S_1:
// f_k(x) = ∫ f_{k−1}(u) φ((x − u)/σ_w)/σ_w du, on a grid of seqGrid
// intervals per σ_w whose ends are the region's (the density jumps to 0
// there), the kernel followed seqKernel σ_w either way.
func advance(d density, k int, within, lo, hi float64) density {
	sd := within * math.Sqrt(float64(k))
	lo = math.Max(lo, -seqRange*sd)
	hi = math.Min(hi, seqRange*sd)
	if !(hi > lo) {
		return density{s: []float64{0, 0}, f: []float64{0, 0}} // nothing goes on
	}
	n := int(math.Ceil((hi-lo)/within*seqGrid)) + 1
	if n%2 == 0 {
		n++
	}
	out := density{s: make([]float64, n), f: make([]float64, n)}
	h := (hi - lo) / float64(n-1)
	for i := range out.s {
		out.s[i] = lo + float64(i)*h
	}
	norm := 1 / (within * math.Sqrt(2*math.Pi))
	if k == 1 {
		for i, x := range out.s {
			z := x / within
			out.f[i] = math.Exp(-z*z/2) * norm
		}
		return out
	}
	// Simpson's weights of d's grid, and the kernel's reach in points.
	m := len(d.s)
	if m < 3 {
		return density{s: []float64{lo, hi}, f: []float64{0, 0}}
	}
	hd := (d.s[m-1] - d.s[0]) / float64(m-1)
	w := make([]float64, m)
	for j := range w {
		switch {
		case j == 0 || j == m-1:
			w[j] = hd / 3
		case j%2 == 1:
			w[j] = 4 * hd / 3
		default:
			w[j] = 2 * hd / 3
		}
		w[j] *= d.f[j]
	}
	reach := seqKernel * within
	for i, x := range out.s {
		j0 := max(0, int(math.Floor((x-reach-d.s[0])/hd)))
		j1 := min(m-1, int(math.Ceil((x+reach-d.s[0])/hd)))
		var sum float64
		for j := j0; j <= j1; j++ {
			z := (x - d.s[j]) / within
			sum += w[j] * math.Exp(-z*z/2)
		}
		out.f[i] = sum * norm
	}
	return out
}

// simpson is Simpson's rule over a uniform grid of an odd number of
// points (the trapezoid rule for two).
func simpson(x, y []float64) float64 {
	n := len(x)
	if n < 2 {
		return 0
	}
	h := (x[n-1] - x[0]) / float64(n-1)
	if n == 2 {
		return h * (y[0] + y[1]) / 2
	}
	sum := y[0] + y[n-1]
	for i := 1; i < n-1; i++ {
		if i%2 == 1 {
			sum += 4 * y[i]
		} else {
			sum += 2 * y[i]
		}
	}
	return sum * h / 3
}

// hermite returns the n Gauss–Hermite nodes and weights for
// ∫ e^{−x²} f(x) dx.
func hermite(n int) (xs, ws []float64) {
	xs, ws = make([]float64, n), make([]float64, n)
	quad.Hermite{}.FixedLocations(xs, ws, math.Inf(-1), math.Inf(1))
	return xs, ws
}

// What a look decides (Sequential.Decide).
const (
	SeqContinue = "continue" // take another repetition
	SeqFail     = "fail"
	SeqPass     = "pass"
	SeqOpen     = "undecided" // the last look, between the boundaries
)

// Decide is what look k (from 1) decides for x, the mean of the first k
// repetitions' log scores less the healthy mean μ₀: fail below −Fail[k],
// pass above −Slide + Pass[k], else another repetition, or undecided at
// the last look.
func (s *Sequential) Decide(k int, x float64) string {
	switch {
	case x < -s.Fail[k-1]:
		return SeqFail
	case x > -s.Slide+s.Pass[k-1]:
		return SeqPass
	case k >= s.Last:
		return SeqOpen
	}
	return SeqContinue
}
