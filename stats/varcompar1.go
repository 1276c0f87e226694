package stats

import (
	"math"
)

// RhoMax is the most within-job autocorrelation VarianceComponentsAR1
// estimates: nearer 1 the repetitions of a job are a random walk, whose
// marginal variance, and so the model, is not defined.
const RhoMax = 0.95

// VarianceComponentsAR1 is VarianceComponents for repetitions that may
// drift inside a job: the model
//
//	y_ij = μ + a_i + e_ij,   a_i ~ N(0, σ_b²),   e_i· a stationary AR(1) in j, SD σ_w, lag-1 correlation ρ ≥ 0,
//
// of which the ANOVA's is the case ρ = 0. Under drift the ANOVA is wrong
// twice: the repetitions of a job lie closer to their job's mean than
// their SD says (E[MSW] = σ_w²·(n − g_n)/(n − 1), g_n = n·AR1MeanVar(ρ, n)),
// and their mean varies more than σ_w²/n, which the ANOVA books to the
// job effect. The between-job SD came out about twice the truth at ρ 0.7
// (issue 33), and the sequential gate, told that more repetitions buy
// nothing, stopped after one.
//
// Estimators (method of moments). A pattern that every job repeats (the
// same warm-up curve) makes neighbouring repetitions alike too, but it is
// no drift: when all jobs have the same number of repetitions (3 or more)
// each value is first taken from its position's mean over the jobs, which
// scales every within-job expectation below by (a − 1)/a and leaves the
// ratio Q's. Over the jobs of 3 repetitions or more, SSD = Σ_i Σ_j (y_i,j+1 − y_ij)² is the sum of squared successive
// differences (von Neumann, "Distribution of the ratio of the mean square
// successive difference to the variance", Ann. Math. Stat. 12, 1941),
// with E[SSD] = 2σ_w²(1 − ρ)·Σ(n_i − 1), which a slow drift hardly
// raises, and SSW3 = Σ_i Σ_j (y_ij − ȳ_i)², with E[SSW3] = σ_w²·Σ(n_i −
// g_{n_i}). Their ratio Q = SSD/SSW3 is 2 for independent repetitions and
// falls as ρ grows; ρ̂ solves
//
//	Q = 2(1 − ρ)·Σ(n_i − 1) / Σ(n_i − g_{n_i}(ρ))
//
// by bisection on [0, RhoMax] (its right side falls from 2 at ρ = 0
// towards 6/(n + 1) as ρ → 1 for jobs of n). The estimate is taken only
// when the data show drift: under independent normal repetitions Q has
// mean 2 and variance 4·Σ(n_i − 2)/(D(D + 2)), D = Σ(n_i − 1) (von
// Neumann 1941 for one job; Q is independent of SSW3, whence the sum), and
// ρ̂ is used when RhoZ = (2 − Q)/SD(Q) > 1.645 (one-sided 5%); otherwise ρ
// is 0 and the result is the ANOVA's exactly, as ShrinkRho does for runs.
// Then, with all jobs,
//
//	σ̂_w² = SSW / Σ(n_i − g_{n_i}(ρ̂)),   σ̂_b² = max(0, (MSB − σ̂_w²·G)/n₀),   G = Σ g_{n_i}(1 − n_i/N)/(a − 1),
//
// from E[MSB] = n₀σ_b² + σ_w²·G (G = 1 when ρ = 0). Within is then the
// repetitions' marginal SD, and SDOfMean uses AR1MeanVar. When σ̂_w²·G >
// MSB (the job means vary less than the drift alone would make them),
// σ_b is 0 (Truncated) and ρ̂ is lowered to the value at which σ̂_w²(ρ)·G(ρ)
// = MSB, both growing with ρ, or to 0 when even MSW ≥ MSB (the ANOVA's
// truncation): ρ̂, the noisiest of the three moments, gives way, rather
// than the job means' spread, which the gate's floor for a mean of the
// calibration's number of repetitions rests on (keeping ρ̂ there overstated
// that variance by 24% on average at ρ 0.7, 12 jobs of 10). The moment
// equations are biased for few jobs as the ANOVA's are; docs/STATS.md 2.17
// gives the Monte Carlo. The groups are not modified.
func VarianceComponentsAR1(groups [][]float64) (VarComp, error) {
	v, err := VarianceComponents(groups)
	if err != nil {
		return v, err
	}
	// A pattern every job repeats (the same warm-up curve) is no drift:
	// when the jobs are balanced, each repetition is first taken from
	// the mean of its position over the jobs (work), which scales every
	// within-job expectation by f = (a − 1)/a.
	work, f := groups, 1.0
	a, n0 := len(groups), len(groups[0])
	balanced := n0 >= 3
	for _, g := range groups {
		balanced = balanced && len(g) == n0
	}
	if balanced {
		pos := make([]float64, n0)
		for _, g := range groups {
			for j, y := range g {
				pos[j] += y / float64(a)
			}
		}
		work = make([][]float64, a)
		for i, g := range groups {
			work[i] = make([]float64, n0)
			for j, y := range g {
				work[i][j] = y - pos[j]
			}
		}
		f = float64(a-1) / float64(a)
	}
	var ssd, ssw3, ssw float64
	var d, extra float64 // Σ(n_i − 1) and Σ(n_i − 2) over jobs of 3 or more, times f
	for _, g := range work {
		m := Mean(g)
		var s float64
		for _, y := range g {
			s += (y - m) * (y - m)
		}
		ssw += s
		if len(g) < 3 {
			continue
		}
		ssw3 += s
		for j := 1; j < len(g); j++ {
			ssd += (g[j] - g[j-1]) * (g[j] - g[j-1])
		}
		d += f * float64(len(g)-1)
		extra += f * float64(len(g)-2)
	}
	if d == 0 || !(ssw3 > 1e-12*v.MSW*float64(v.N-v.Groups)) {
		// No jobs to tell drift by, or deviations that are rounding
		// errors once a pattern all jobs share is taken out.
		return v, nil
	}
	q := ssd / ssw3
	v.RhoZ = (2 - q) / math.Sqrt(4*extra/(d*(d+2)))
	if !(v.RhoZ > 1.645) {
		return v, nil
	}
	// The moment equation's right side, Q(ρ), falls from 2 at ρ = 0.
	sumNG := func(rho float64, use func(n int) bool) float64 {
		var s float64
		for _, g := range groups {
			if use(len(g)) {
				s += f * float64(len(g)) * (1 - AR1MeanVar(rho, len(g)))
			}
		}
		return s
	}
	three := func(n int) bool { return n >= 3 }
	qOf := func(rho float64) float64 { return 2 * (1 - rho) * d / sumNG(rho, three) }
	lo, hi := 0.0, RhoMax
	if q <= qOf(hi) {
		lo = hi
	}
	for hi-lo > 1e-12 {
		mid := (lo + hi) / 2
		if qOf(mid) > q {
			lo = mid
		} else {
			hi = mid
		}
	}
	all := func(int) bool { return true }
	n := float64(v.N)
	// within² at ρ, and the within part of E[MSB] it implies, σ_w²·G.
	vwAt := func(rho float64) float64 { return ssw / sumNG(rho, all) }
	partOfMSB := func(rho float64) float64 {
		var G float64
		for _, g := range groups {
			ni := float64(len(g))
			G += ni * AR1MeanVar(rho, len(g)) * (1 - ni/n)
		}
		return vwAt(rho) * G / float64(v.Groups-1)
	}
	rho := lo
	if partOfMSB(rho) > v.MSB {
		// The job means vary less than the repetitions' drift alone
		// would make them: σ_b is 0, and ρ is lowered to the value at
		// which the drift accounts for their spread exactly (the
		// within part grows with ρ), or to 0 when even independent
		// repetitions vary more (the ANOVA's truncation). Keeping ρ̂,
		// the noisiest of the three moments, would put the job means'
		// variance above what the jobs showed.
		v.Truncated = true
		lo, hi := 0.0, rho
		if partOfMSB(0) >= v.MSB {
			hi = 0
		}
		for hi-lo > 1e-12 {
			mid := (lo + hi) / 2
			if partOfMSB(mid) < v.MSB {
				lo = mid
			} else {
				hi = mid
			}
		}
		rho = lo
	}
	vb := (v.MSB - partOfMSB(rho)) / v.N0
	if v.Truncated {
		vb = 0
	}
	v.Rho, v.Within, v.Between = rho, math.Sqrt(vwAt(rho)), math.Sqrt(max(0, vb))
	return v, nil
}
