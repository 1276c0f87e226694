package stats

// The implementations of the predictive integrals as they were before
// issue 19 made them fast (commit b26ff0a): gonum's quad.Fixed for every
// panel, the density of w from lnΓ(ν/2) directly, and bisection to the
// resolution of float64. They are kept here as the reference the fast
// versions are checked against (speed_test.go); they are slow at large n.

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

func refToleranceConfidence(k, n, nu, zp float64) float64 {
	sn := math.Sqrt(n)
	// ln of the density of w = sqrt(V/ν), V ~ χ²_ν:
	// f(w) = 2ν w f_χ²(νw²), f_χ²(v) = v^{ν/2−1} e^{−v/2} / (2^{ν/2} Γ(ν/2)).
	lg, _ := math.Lgamma(nu / 2)
	logc := math.Log(2*nu) - nu/2*math.Ln2 - lg
	density := func(w float64) float64 {
		if w <= 0 {
			return 0
		}
		v := nu * w * w
		return math.Exp(logc + math.Log(w) + (nu/2-1)*math.Log(v) - v/2)
	}
	f := func(w float64) float64 { return NormalCDF(sn*(k*w-zp)) * density(w) }
	return refIntegrateOverW(f, nu, 1e-15)
}

func refIntegrateOverW(f func(float64) float64, nu, tol float64) float64 {
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
		sum += refAdaptiveGL(f, a, a+width, tol, 0)
	}
	return sum
}

func refAdaptiveGL(f func(float64) float64, a, b, tol float64, depth int) float64 {
	const nodes = 20
	whole := quad.Fixed(f, a, b, nodes, quad.Legendre{}, 0)
	m := a + (b-a)/2
	left := quad.Fixed(f, a, m, nodes, quad.Legendre{}, 0)
	right := quad.Fixed(f, m, b, nodes, quad.Legendre{}, 0)
	if d := math.Abs(left + right - whole); d <= tol || depth >= 30 || math.IsNaN(d) {
		// A NaN integrand (an undefined k) is returned as NaN at once,
		// never split down to the depth limit.
		return left + right
	}
	return refAdaptiveGL(f, a, m, tol, depth+1) + refAdaptiveGL(f, m, b, tol, depth+1)
}

func refFPRUpperEff(m, s float64, e Effective, floor, c float64) float64 {
	k := KObs(m, s, floor)
	if e.SDScale == 1 && e.DF == e.N-1 && e.N == math.Round(e.N) {
		return refFPRUpper(m, s, int(e.N), floor, c)
	}
	ks := k / e.SDScale
	return refUpperFromK(k, func(z float64) float64 { return c - refToleranceConfidence(ks, e.N, e.DF, z) })
}

func refUpperFromK(k float64, g func(float64) float64) float64 {
	if math.IsInf(k, 1) {
		return 0
	}
	if math.IsNaN(k) {
		return math.NaN()
	}
	lo, hi := -40.0, 40.0
	if g(lo) > 0 {
		return 1
	}
	if g(hi) < 0 {
		return 0
	}
	return NormalCDF(-refBisect(g, lo, hi))
}

func refFalseAlarmHorizonEff(m, s float64, e Effective, floor float64, runs int) float64 {
	u := (math.Log(floor) - m) / (s * e.SDScale)
	nu := e.DF
	sn := math.Sqrt(e.N)
	mf := float64(runs)
	lg, _ := math.Lgamma(nu / 2)
	logc := math.Log(2*nu) - nu/2*math.Ln2 - lg
	f := func(w float64) float64 {
		if w <= 0 {
			return 0
		}
		v := nu * w * w
		dens := math.Exp(logc + math.Log(w) + (nu/2-1)*math.Log(v) - v/2)
		// E_Z[(1 − p)^runs], p = Φ(u·w − Z/√n); 1 − p = Φ(Z/√n − u·w).
		var e float64
		for i, z := range hermiteX {
			e += hermiteW[i] * math.Exp(mf*math.Log(NormalCDF(z/sn-u*w)))
		}
		return e * dens
	}
	none := refIntegrateOverW(f, nu, 1e-12)
	return math.Max(0, math.Min(1, 1-none))
}

func refTwoStageFPR(m, s float64, e Effective, floor, band float64, draws int, seed uint64) (fpr, rerun float64) {
	lnF := math.Log(floor)
	lnA := math.Log(floor * (1 - band))
	rng := rand.New(rand.NewPCG(seed, 2014))
	chi := distuv.Gamma{Alpha: e.DF / 2, Beta: 0.5, Src: rng} // χ²_df
	sd := s * e.SDScale
	for range draws {
		sigma := sd * math.Sqrt(e.DF/chi.Rand())
		mu := m + sigma/math.Sqrt(e.N)*rng.NormFloat64()
		f, r := refTwoStageGiven(mu, sigma, lnA, lnF)
		fpr += f
		rerun += r
	}
	return fpr / float64(draws), rerun / float64(draws)
}

// refTwoStage is TwoStage as it was before the closed form: one pass
// over the same posterior draws, refTwoStageGiven for each.
func refTwoStage(m, s float64, e Effective, floor, band, r float64, draws int, seed uint64) (fpr, rerun, power float64) {
	lnF := math.Log(floor)
	lnA := math.Log(floor * (1 - band))
	mSlid := m + math.Log(r)
	rng := rand.New(rand.NewPCG(seed, 2014))
	chi := distuv.Gamma{Alpha: e.DF / 2, Beta: 0.5, Src: rng} // χ²_df
	sd := s * e.SDScale
	for range draws {
		sigma := sd * math.Sqrt(e.DF/chi.Rand())
		z := rng.NormFloat64()
		f, rr := refTwoStageGiven(m+sigma/math.Sqrt(e.N)*z, sigma, lnA, lnF)
		fpr += f
		rerun += rr
		if r != 1 {
			p, _ := refTwoStageGiven(mSlid+sigma/math.Sqrt(e.N)*z, sigma, lnA, lnF)
			power += p
		}
	}
	if r == 1 {
		power = fpr
	}
	return fpr / float64(draws), rerun / float64(draws), power / float64(draws)
}

func refTwoStageGiven(mu, sigma, a, l float64) (fpr, rerun float64) {
	za, zl := (a-mu)/sigma, (l-mu)/sigma
	first := NormalCDF(za)
	rerun = NormalCDF(zl) - first
	if rerun <= 0 {
		return first, 0
	}
	// ∫ over z in [za, zl] of φ(z)·Φ(2·zl − z): the second run's score must
	// fall below 2l − x for the mean to fall below l.
	f := func(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) * NormalCDF(2*zl-z) }
	return first + refAdaptiveGL(f, za, zl, 1e-14, 0), rerun
}

func refFPRUpper(m, s float64, n int, floor, c float64) float64 {
	k := KObs(m, s, floor)
	return refUpperFromK(k, func(z float64) float64 { return c - refToleranceConfidence(k, float64(n), float64(n-1), z) })
}

func refBisect(g func(float64) float64, lo, hi float64) float64 {
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

func refTwoStagePower(m, s float64, e Effective, floor, band, r float64, draws int, seed uint64) float64 {
	p, _ := refTwoStageFPR(m+math.Log(r), s, e, floor, band, draws, seed)
	return p
}

func refBootstrapFloorFPR(y []float64, floor float64, b int, seed uint64) BootstrapFPR {
	rng := NewSplitMix64(seed)
	n := len(y)
	lf := math.Log(floor)
	vals := make([]float64, b)
	samp := make([]float64, n)
	out := BootstrapFPR{B: b, Seed: seed}
	for i := range vals {
		for j := range samp {
			samp[j] = y[rng.Below(uint64(n))]
		}
		m, s := refSeqMeanSD(samp)
		switch {
		case s == 0 && lf > m:
			vals[i] = 1
			out.DegenerateSample++
		case s == 0:
			out.DegenerateSample++
		default:
			vals[i] = NormalCDF((lf - m) / s)
		}
	}
	var sum float64
	for _, v := range vals {
		sum += v
	}
	out.Mean = sum / float64(b)
	s := sorted(vals)
	out.Q05, out.Q50, out.Q95 = quantileSorted(s, 0.05), quantileSorted(s, 0.5), quantileSorted(s, 0.95)
	return out
}

func refSeqMeanSD(x []float64) (m, s float64) {
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return m, math.Sqrt(s / float64(len(x)-1))
}

// refPermutationP is permutationP as it was before issue 19: EnergyQ on
// every shuffled copy of the values.
func refPermutationP(z []float64, m int, q float64, b int, seed uint64, alpha float64) float64 {
	rng := NewSplitMix64(seed)
	perm := append([]float64(nil), z...)
	exceed := 0
	for k := range b {
		if float64(1+exceed) > alpha*float64(b+1) {
			return float64(1+exceed+(b-k)) / float64(b+1) // an upper bound, above alpha
		}
		for i := len(perm) - 1; i > 0; i-- {
			j := int(rng.Below(uint64(i + 1)))
			perm[i], perm[j] = perm[j], perm[i]
		}
		if _, qp := bestSplit(perm, m); qp >= q {
			exceed++
		}
	}
	return float64(1+exceed) / float64(b+1)
}

// refQuantile, refIQR and refRawMAD are the order statistics as they were
// before issue 19 made them select instead of sort: each on a sorted copy.
func refQuantile(x []float64, p float64) float64 {
	if len(x) == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	return quantileSorted(sorted(x), p)
}

func refIQR(x []float64) float64 {
	s := sorted(x)
	return quantileSorted(s, 0.75) - quantileSorted(s, 0.25)
}

func refRawMAD(x []float64) float64 {
	m := refQuantile(x, 0.5)
	d := make([]float64, len(x))
	for i, v := range x {
		d[i] = math.Abs(v - m)
	}
	return quantileSorted(sorted(d), 0.5)
}

// refBootstrapOnePass is BootstrapFloorFPR as it was before it drew four
// resamples side by side: one resample after another from one generator.
func refBootstrapOnePass(y []float64, floor float64, b int, seed uint64) BootstrapFPR {
	rng := NewSplitMix64(seed)
	n := len(y)
	nf := float64(n)
	lf := math.Log(floor)
	vals := make([]float64, b)
	c := Mean(y)
	d := make([]float64, n)
	for i, v := range y {
		d[i] = v - c
	}
	out := BootstrapFPR{B: b, Seed: seed}
	for i := range vals {
		start := *rng
		var s1, s2 float64
		for range n {
			v := d[rng.Below(uint64(n))]
			s1 += v
			s2 += v * v
		}
		m := c + s1/nf
		ss := s2 - s1*s1/nf
		var s float64
		if ss > 1e-9*s2 {
			s = math.Sqrt(ss / (nf - 1))
		} else {
			// Nearly no spread (with few runs, a resample that drew one
			// score n times): the one-pass sum cannot tell none from
			// little, so the resample is drawn again from the saved
			// generator and summed in two passes, as the reference does,
			// and counts as degenerate exactly when it did there.
			m, s = replayMeanSD(y, start)
		}
		switch {
		case s == 0 && lf > m:
			vals[i] = 1
			out.DegenerateSample++
		case s == 0:
			out.DegenerateSample++
		default:
			vals[i] = NormalCDF((lf - m) / s)
		}
	}
	var sum float64
	for _, v := range vals {
		sum += v
	}
	out.Mean = sum / float64(b)
	s := sorted(vals)
	out.Q05, out.Q50, out.Q95 = quantileSorted(s, 0.05), quantileSorted(s, 0.5), quantileSorted(s, 0.95)
	return out
}

// refMinMax is MinMax as it was: math.Min and math.Max folded over x.
func refMinMax(x []float64) (lo, hi float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	lo, hi = x[0], x[0]
	for _, v := range x[1:] {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}
