package stats

import (
	"cmp"
	"math"
	"slices"
)

// Change-point detection with E-Divisive means (Matteson and James 2014,
// "A Nonparametric Approach for Multiple Change Point Analysis of
// Multivariate Data", JASA 109(505), 334–345), in the form MongoDB's
// performance CI and Apache Otava (Hunter) use: the divergence between the
// two sides of a split is the energy statistic with exponent 1, the end of
// a segment is fixed at its last value, segments are split recursively at
// their strongest change, and each split must pass a significance test.
// qoscal's test is the permutation test of the paper, seeded, so that the
// same input and seed give the same change points, with two additions
// (docs/STATS.md 5): on a segment of at least MinRunsAR values the null
// allows for AR(1) autocorrelation estimated from the values around the
// split (permuted runs are independent; CI runs are not, and a permutation
// test of autocorrelated runs finds changes that are not there), and a
// change must be large against the noise as well as significant: its
// shift in medians at least MinShift within-regime robust SDs.

// EnergyQ returns, for a sequence z of n values and a minimum segment
// length m, the statistic Q̂(τ) for τ = m … n−m (element τ−m of the
// result), where the first segment is z[0:τ] and the second z[τ:n]:
//
//	Ê(τ) = 2/(τ(n−τ)) Σ_{i<τ≤j} |z_i − z_j|
//	       − C(τ,2)⁻¹ Σ_{i<k<τ} |z_i − z_k| − C(n−τ,2)⁻¹ Σ_{τ≤j<k} |z_j − z_k|
//	Q̂(τ) = τ(n−τ)/n · Ê(τ).
//
// It takes O(n²) time: moving z_τ from the second segment to the first
// changes each sum by one row of distances. m must be at least 2 (a
// segment of one value has no within-distance); nil when n < 2m.
func EnergyQ(z []float64, m int) []float64 {
	n := len(z)
	if m < 2 || n < 2*m {
		return nil
	}
	// before[t] = Σ_{i<t} |z_i − z_t|, after[t] = Σ_{j>t} |z_t − z_j|.
	before := make([]float64, n)
	after := make([]float64, n)
	var total float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d := math.Abs(z[i] - z[j])
			after[i] += d
			before[j] += d
			total += d
		}
	}
	var withinL, between float64
	withinR := total
	q := make([]float64, 0, n-2*m+1)
	for t := 0; t < n-m; t++ {
		// Move z_t from the second segment to the first.
		withinL += before[t]
		withinR -= after[t]
		between += after[t] - before[t]
		tau := t + 1
		if tau < m {
			continue
		}
		l, r := float64(tau), float64(n-tau)
		e := 2*between/(l*r) - withinL/(l*(l-1)/2) - withinR/(r*(r-1)/2)
		q = append(q, l*r/float64(n)*e)
	}
	return q
}

// ChangePoint is a significant change in a sequence.
type ChangePoint struct {
	// Index is where the segment after the change starts (0-based).
	Index int
	// Q is the energy statistic of the split, within the segment that
	// was split; P its permutation p-value.
	Q, P float64
	// Rho is the lag-1 autocorrelation the test of the split allowed for
	// (0: the values were taken as exchangeable); Shift the split's shift
	// in medians in within-regime robust SDs (ShiftOf).
	Rho, Shift float64
}

// EDivisiveOptions are the parameters of EDivisive. The zero value of a
// field means its default.
type EDivisiveOptions struct {
	// MinSegment is the fewest values a segment may have (default 3).
	MinSegment int
	// Alpha is the significance level of each split (default 0.05).
	Alpha float64
	// Permutations is the number of permutations of the test (default
	// 199: with p = (1 + #{Q_perm ≥ Q})/(B + 1), the smallest p is 0.005).
	Permutations int
	// Seed seeds the permutations (default 1).
	Seed uint64
	// MinShift is the smallest shift in medians, in within-regime robust
	// SDs (ShiftOf), that a significant split must have to be a change
	// (default DefaultMinShift; negative: no minimum).
	MinShift float64
	// Exchangeable takes the values of a segment as exchangeable when
	// there is no change, as the permutation test of Matteson and James
	// does, instead of allowing for AR(1) autocorrelation on segments of
	// at least MinRunsAR values.
	Exchangeable bool
}

// DefaultMinShift is the default MinShift. A significant split of
// stationary runs is rarely 2.5 robust SDs wide once there are 20 runs or
// more, and a real 10% shift at the bundled runs' noise nearly always is
// (TestChangePointClaims, docs/STATS.md 5: of independent normal series of
// 30 runs, 0.3% keep a change at 2.5 against 3.0% with no minimum, and of
// AR(1) series with ρ = 0.5 and 20 runs 7.9% against 13.7%; a 10% shift
// after 3 of 12 runs at sd 0.025 is found 89% of the time against 93%).
const DefaultMinShift = 2.5

// MinRunsAR is the fewest values of a segment for which the test allows
// for autocorrelation. With fewer, the lag-1 autocorrelation around a
// split is too uncertain to tell autocorrelated runs from a shift (its
// bias-corrected standard error exceeds 0.5), and allowing for it anyway
// costs most of the power to find a real shift in 12 runs; the test then
// takes the runs as independent (docs/STATS.md 5 gives what that costs).
const MinRunsAR = 16

func (o EDivisiveOptions) withDefaults() EDivisiveOptions {
	if o.MinSegment == 0 {
		o.MinSegment = 3
	}
	if o.MinShift == 0 {
		o.MinShift = DefaultMinShift
	}
	if o.Alpha == 0 {
		o.Alpha = 0.05
	}
	if o.Permutations == 0 {
		o.Permutations = 199
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// bestSplit returns the split of z with the largest Q̂ (the first on
// ties): its τ and Q̂; τ is 0 when z is too short to split.
func bestSplit(z []float64, m int) (int, float64) {
	q := EnergyQ(z, m)
	best, at := math.Inf(-1), 0
	for i, v := range q {
		if v > best {
			best, at = v, i+m
		}
	}
	return at, best
}

// EDivisive finds the significant change points of z, in index order.
// Each round takes the segment whose best split has the largest Q̂ and
// accepts the split if the test of that segment rejects "no change" at
// Alpha and the split's shift is at least MinShift (ShiftOf). The test
// (permutationP, or arNullP when the segment's values are autocorrelated,
// SplitRho) draws Permutations samples of the segment under "no change"
// (Fisher–Yates with a SplitMix64 generator seeded from Seed and the
// segment's bounds, so the result does not depend on the order of the
// rounds) and p = (1 + #{sample's statistic ≥ the segment's})/(B + 1). It
// stops at the first split that is not accepted. z is not modified.
func EDivisive(z []float64, opt EDivisiveOptions) []ChangePoint {
	opt = opt.withDefaults()
	m := opt.MinSegment
	type segment struct{ lo, hi int }
	segs := []segment{{0, len(z)}}
	var found []ChangePoint
	for {
		bestSeg, bestTau, bestQ := -1, 0, math.Inf(-1)
		for i, s := range segs {
			if s.hi-s.lo < 2*m {
				continue
			}
			tau, q := bestSplit(z[s.lo:s.hi], m)
			if q > bestQ {
				bestSeg, bestTau, bestQ = i, tau, q
			}
		}
		if bestSeg < 0 || !(bestQ > 0) {
			break
		}
		s := segs[bestSeg]
		seg := z[s.lo:s.hi]
		seed := opt.Seed ^ (uint64(s.lo)<<32 | uint64(s.hi))
		var rho, p float64
		if !opt.Exchangeable {
			rho = SplitRho(seg, bestTau)
		}
		if rho > 0 {
			p = arNullP(seg, bestTau, m, rho, opt.Permutations, seed, opt.Alpha)
		} else {
			p = permutationP(seg, m, bestQ, opt.Permutations, seed, opt.Alpha)
		}
		if p > opt.Alpha {
			break
		}
		shift := ShiftOf(seg, bestTau)
		if opt.MinShift > 0 && !(shift >= opt.MinShift) {
			break
		}
		found = append(found, ChangePoint{Index: s.lo + bestTau, Q: bestQ, P: p, Rho: rho, Shift: shift})
		segs = append(segs[:bestSeg], append([]segment{{s.lo, s.lo + bestTau}, {s.lo + bestTau, s.hi}}, segs[bestSeg+1:]...)...)
	}
	// In index order.
	for i := 1; i < len(found); i++ {
		for j := i; j > 0 && found[j].Index < found[j-1].Index; j-- {
			found[j], found[j-1] = found[j-1], found[j]
		}
	}
	return found
}

// ShiftOf is the size of the split of z before index tau against the
// noise: the difference of the medians of z[:tau] and z[tau:], over the
// within-regime robust SD, MADScale times the median absolute residual of
// every value from its own side's median. +Inf when the residuals are all
// 0 and the medians differ; NaN when neither differs, or a side is empty.
func ShiftOf(z []float64, tau int) float64 {
	if tau <= 0 || tau >= len(z) {
		return math.NaN()
	}
	a, b := Median(z[:tau]), Median(z[tau:])
	res := make([]float64, len(z))
	for i, v := range z {
		c := a
		if i >= tau {
			c = b
		}
		res[i] = math.Abs(v - c)
	}
	return math.Abs(b-a) / (MADScale * Median(res))
}

// SplitRho is the lag-1 autocorrelation a test of the split of z before
// tau allows for: 0 for fewer than MinRunsAR values; otherwise the lag-1
// autocorrelation r of the residuals of z from the means of its two sides
// (Σ e_t·e_{t+1} / Σ e_t²), corrected for its bias, clamped to [0, 0.9].
// The residuals are taken around the split, not around one mean, so that
// a shift does not pass for autocorrelation (one mean would leave the
// shift in the residuals, and a 10% shift at the bundled runs' noise would
// read as ρ ≈ 0.6); but two fitted means, one of them at the split that
// fits best, bias r down by about twice Kendall's −(1 + 4ρ)/n for one
// mean: E[r] ≈ ρ − 2(1 + 4ρ)/n (Monte Carlo: E[r] 0.166 at ρ = 0.5,
// n = 20, against 0.2 by the formula; −0.151 at ρ = 0 against −0.1), so
// ρ̂ = (r + 2/n)/(1 − 8/n). docs/STATS.md 5 says what this buys and costs.
func SplitRho(z []float64, tau int) float64 {
	n := len(z)
	if n < MinRunsAR || tau <= 0 || tau >= n {
		return 0
	}
	e := splitResiduals(z, tau, make([]float64, n))
	var num, den float64
	for t, v := range e {
		den += v * v
		if t+1 < n {
			num += v * e[t+1]
		}
	}
	r := num / den
	nf := float64(n)
	rho := (r + 2/nf) / (1 - 8/nf)
	if !(rho > 0) { // also NaN, for constant sides
		return 0
	}
	return math.Min(rho, 0.9)
}

// splitResiduals writes into e the residuals of z from the means of z[:tau]
// and z[tau:], and returns e.
func splitResiduals(z []float64, tau int, e []float64) []float64 {
	a, b := Mean(z[:tau]), Mean(z[tau:])
	for i, v := range z {
		if i < tau {
			e[i] = v - a
		} else {
			e[i] = v - b
		}
	}
	return e
}

// arNullP is the p-value of the best split of z (before tau) under the
// null of no change in AR(1) noise with lag-1 autocorrelation rho, by a
// residual bootstrap of permuted innovations: the residuals e of z from
// its two sides' means give the innovations u_0 = e_0·sqrt(1 − ρ²) and
// u_t = e_t − ρ·e_{t−1} (the Prais–Winsten transform, which makes them
// exchangeable under the model), and each sample permutes them
// (Fisher–Yates, as permutationP shuffles) and rebuilds x_0 =
// u_0/sqrt(1 − ρ²), x_t = ρ·x_{t−1} + u_t. The statistic is the largest Q̂
// over the mean distance between two values, D̄ = Σ_{i<j}|z_i − z_j|/C(n,2):
// scale-free, since the rebuilt series' scale is not the data's (for a
// permutation of z itself D̄ does not change, and the statistic orders the
// permutations as Q̂ does). Residuals around the split are the noise
// whatever the split, so a real shift does not inflate the samples. It
// stops early as permutationP does.
func arNullP(z []float64, tau, m int, rho float64, b int, seed uint64, alpha float64) float64 {
	n := len(z)
	rng := NewSplitMix64(seed)
	u := splitResiduals(z, tau, make([]float64, n))
	c := math.Sqrt(1 - rho*rho)
	for t := n - 1; t > 0; t-- {
		u[t] -= rho * u[t-1]
	}
	u[0] *= c
	t0 := scaledMaxQ(z, m)
	x := make([]float64, n)
	exceed := 0
	for k := range b {
		if float64(1+exceed) > alpha*float64(b+1) {
			return float64(1+exceed+(b-k)) / float64(b+1) // an upper bound, above alpha
		}
		for i := n - 1; i > 0; i-- {
			j := int(rng.Below(uint64(i + 1)))
			u[i], u[j] = u[j], u[i]
		}
		x[0] = u[0] / c
		for t := 1; t < n; t++ {
			x[t] = rho*x[t-1] + u[t]
		}
		if scaledMaxQ(x, m) >= t0 {
			exceed++
		}
	}
	return float64(1+exceed) / float64(b+1)
}

// scaledMaxQ is the largest Q̂ of z (EnergyQ) over the mean distance
// between two of its values, in O(n log n) (permutedQ); NaN when the values
// are all equal.
func scaledMaxQ(z []float64, m int) float64 {
	p := newPermutedQ(z, m)
	n := float64(len(z))
	return p.maxQ() / (p.total / (n * (n - 1) / 2))
}

// permutationP is the permutation p-value of the largest Q̂ of z being q.
// It stops as soon as the p-value must exceed alpha (most permutations of
// a series without a change beat its best split, so the test of a
// stationary series ends after about alpha·B exceedances instead of B
// permutations); the value returned is then above alpha but not exact.
//
// Each permutation only asks whether its largest Q̂ reaches q, which
// permutedQ answers in O(n log n) instead of EnergyQ's O(n²) whenever the
// answer is certain, and by EnergyQ on the permuted values otherwise: the
// count of exceedances, and so p, is the same as EnergyQ's for every
// permutation. The shuffles draw the same random stream as before.
func permutationP(z []float64, m int, q float64, b int, seed uint64, alpha float64) float64 {
	rng := NewSplitMix64(seed)
	pq := newPermutedQ(z, m)
	exceed := 0
	for k := range b {
		if float64(1+exceed) > alpha*float64(b+1) {
			return float64(1+exceed+(b-k)) / float64(b+1) // an upper bound, above alpha
		}
		// Fisher–Yates on the positions of the values (the same swaps as
		// on the values themselves).
		idx := pq.idx
		for i := len(idx) - 1; i > 0; i-- {
			j := int(rng.Below(uint64(i + 1)))
			idx[i], idx[j] = idx[j], idx[i]
		}
		if pq.reaches(q) {
			exceed++
		}
	}
	return float64(1+exceed) / float64(b+1)
}

// permutedQ computes the largest Q̂ (EnergyQ) of permutations of one
// sequence in O(n log n) each, from what does not change between them:
// with the values centred at c (v = z − c) and sorted,
//
//	before(t) = Σ_{i<t} |v_i − v_t| = L·v_t − S_L + (S_t − S_L) − (t − L)·v_t,
//
// where L and S_L count and sum the earlier values not above v_t (a
// Fenwick tree over the values' ranks) and S_t sums all earlier values;
// after(t) = A(v_t) − before(t) with A(v) = Σ_j |v_j − v| from the sorted
// prefix sums; and the total of all distances is Σ_t A(v_t)/2. EnergyQ's
// recurrence over τ then gives Q̂.
//
// Its rounding differs from EnergyQ's, so reaches answers from it only
// when the answer is certain: both computations add at most n² terms,
// each partial sum at most n·S (S = Σ|v_i|, since |v_i − v_j| ≤ |v_i| +
// |v_j|), so each of the sums in Q̂ is within n³·u·S of the exact value
// (u = 2⁻⁵³, first order, Higham 2002, "Accuracy and Stability of
// Numerical Algorithms", §4.2), and Q̂ = 2·between/n −
// 2r·withinL/(n(l−1)) − 2l·withinR/(n(r−1)) weighs them by at most 1, 2
// and 2; so each Q̂ is within 5·n³·u·S of the exact one, and the two
// within 10·n³·u·S of each other. reaches takes a margin of 32·n³·u·S,
// and computes EnergyQ itself inside it (and for any value that is not
// finite).
type permutedQ struct {
	z    []float64 // the sequence as given
	m    int       // the minimum segment length
	idx  []int     // the current permutation: position i holds z[idx[i]]
	v    []float64 // the centred values, v[i] = z[i] − c
	rank []int     // rank[i]: 1-based position of v[i] in sorted order
	a    []float64 // a[i] = Σ_j |v_j − v[i]|
	// total is Σ_{i<j} |v_i − v_j|; margin the bound above.
	total, margin float64
	// Fenwick trees (1-based) of counts and sums over ranks, and the
	// buffers of EnergyQ when it must decide.
	cnt  []int
	sum  []float64
	perm []float64
}

func newPermutedQ(z []float64, m int) *permutedQ {
	n := len(z)
	p := &permutedQ{z: z, m: m, idx: make([]int, n), v: make([]float64, n), rank: make([]int, n),
		a: make([]float64, n), cnt: make([]int, n+1), sum: make([]float64, n+1)}
	order := make([]int, n)
	for i := range order {
		order[i] = i
		p.idx[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(z[i], z[j]) })
	c := z[order[n/2]]
	var s float64
	for i, x := range z {
		p.v[i] = x - c
		s += math.Abs(p.v[i])
	}
	// A(v) for each value from the sorted order: below it r values summing
	// to lo, above it the rest.
	var lo, all float64
	for _, i := range order {
		all += p.v[i]
	}
	for r, i := range order {
		p.rank[i] = r + 1
		x := p.v[i]
		hi := all - lo - x
		p.a[i] = (float64(r)*x - lo) + (hi - float64(n-1-r)*x)
		lo += x
		p.total += p.a[i]
	}
	p.total /= 2
	nf := float64(n)
	p.margin = 32 * nf * nf * nf * 0x1p-53 * s
	return p
}

// reaches reports whether the largest Q̂ of the current permutation is at
// least q, exactly as max(EnergyQ(permuted, m)) ≥ q would.
func (p *permutedQ) reaches(q float64) bool {
	approx := p.maxQ()
	switch {
	case approx+p.margin < q:
		return false
	case approx-p.margin >= q:
		return true
	}
	// Too close to call, or not finite: EnergyQ decides.
	if p.perm == nil {
		p.perm = make([]float64, len(p.z))
	}
	for i, j := range p.idx {
		p.perm[i] = p.z[j]
	}
	_, qp := bestSplit(p.perm, p.m)
	return qp >= q
}

// maxQ is the largest Q̂ of the current permutation, in O(n log n).
func (p *permutedQ) maxQ() float64 {
	n := len(p.idx)
	clear(p.cnt)
	clear(p.sum)
	var withinL, between, prefix float64
	withinR := p.total
	best := math.Inf(-1)
	for t, j := range p.idx {
		x, r := p.v[j], p.rank[j]
		// Count and sum of the earlier values of lower rank.
		var below int
		var sBelow float64
		for k := r; k > 0; k &= k - 1 {
			below += p.cnt[k]
			sBelow += p.sum[k]
		}
		before := (float64(below)*x - sBelow) + ((prefix - sBelow) - float64(t-below)*x)
		after := p.a[j] - before
		for k := r; k <= n; k += k & -k {
			p.cnt[k]++
			p.sum[k] += x
		}
		prefix += x
		// Move the value from the second segment to the first.
		withinL += before
		withinR -= after
		between += after - before
		tau := t + 1
		if tau < p.m {
			continue
		}
		if tau > n-p.m {
			break
		}
		l, rr := float64(tau), float64(n-tau)
		e := 2*between/(l*rr) - withinL/(l*(l-1)/2) - withinR/(rr*(rr-1)/2)
		if qv := l * rr / float64(n) * e; qv > best || math.IsNaN(qv) {
			best = qv
			if math.IsNaN(qv) {
				return qv
			}
		}
	}
	return best
}

// EDivisiveLong is EDivisive for series of any length, at a cost that
// does not grow with the square of it: a series of at most maxPoints
// values is searched as it is (EDivisive, bit for bit); a longer one is
// cut into b = ⌈n/maxPoints⌉-value bins of consecutive values, E-Divisive
// (with its permutation test) searches the series of bin medians, and each
// change it finds between bins j−1 and j is then placed at full
// resolution: at the best split (largest Q̂) of the values within
// max(2b, maxPoints/2) of the bin boundary, and no more than halfway to
// the neighbouring changes. The medians keep a single odd run
// from moving a bin; a change within a bin shows as a bin between the two
// levels, which the refinement resolves. Q, P and Rho of a change are
// those of the binned search. The shift a change needs (MinShift) is
// judged at full resolution, once the changes are placed (bin medians are
// less noisy than runs, so the same shift is more robust SDs of them):
// while a change's shift between its neighbours (ShiftOf) is below it, the
// smallest is dropped. Cost: O(n log b) for the medians, E-Divisive on
// maxPoints values, and O((b + maxPoints)²) per change; maxPoints must be ≥ 2·MinSegment.
func EDivisiveLong(z []float64, opt EDivisiveOptions, maxPoints int) []ChangePoint {
	n := len(z)
	if n <= maxPoints {
		return EDivisive(z, opt)
	}
	opt = opt.withDefaults()
	m := opt.MinSegment
	minShift := opt.MinShift
	opt.MinShift = -1
	b := (n + maxPoints - 1) / maxPoints
	nb := (n + b - 1) / b
	medians := make([]float64, nb)
	buf := make([]float64, 0, b)
	for j := range medians {
		buf = append(buf[:0], z[j*b:min(n, (j+1)*b)]...)
		medians[j] = Median(buf)
	}
	coarse := EDivisive(medians, opt)
	out := make([]ChangePoint, len(coarse))
	// A noisy bin median can put the coarse change a bin or two off, so
	// the refinement looks at least two bins, and at least maxPoints/2
	// values, either side, but not past halfway to the next change.
	half := max(2*b, maxPoints/2)
	for i, c := range coarse {
		at := c.Index * b
		lo, hi := max(0, at-half), min(n, at+half)
		if i > 0 {
			lo = max(lo, (coarse[i-1].Index*b+at)/2)
		}
		if i+1 < len(coarse) {
			hi = min(hi, (coarse[i+1].Index*b+at)/2)
		}
		if hi-lo >= 2*m {
			if tau, _ := bestSplit(z[lo:hi], m); tau > 0 {
				at = lo + tau
			}
		}
		out[i] = ChangePoint{Index: at, Q: c.Q, P: c.P, Rho: c.Rho}
	}
	for len(out) > 0 {
		weakest, least := -1, math.Inf(1)
		for i := range out {
			lo, hi := 0, n
			if i > 0 {
				lo = out[i-1].Index
			}
			if i+1 < len(out) {
				hi = out[i+1].Index
			}
			out[i].Shift = ShiftOf(z[lo:hi], out[i].Index-lo)
			if minShift > 0 && !(out[i].Shift >= minShift) && (weakest < 0 || out[i].Shift < least) {
				weakest, least = i, out[i].Shift
			}
		}
		if weakest < 0 {
			break
		}
		out = append(out[:weakest], out[weakest+1:]...)
	}
	return out
}
