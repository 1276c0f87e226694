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
// same input and seed give the same change points (docs/STATS.md 5).

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
}

func (o EDivisiveOptions) withDefaults() EDivisiveOptions {
	if o.MinSegment == 0 {
		o.MinSegment = 3
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
// Each round splits the segment whose best split has the largest Q̂, if
// the permutation test of that segment rejects "no change" at Alpha: the
// segment's values are shuffled Permutations times (Fisher–Yates with a
// SplitMix64 generator seeded from Seed and the segment's bounds, so the
// result does not depend on the order of the rounds) and
// p = (1 + #{max Q̂_perm ≥ Q̂})/(B + 1). It stops at the first split that is
// not significant. z is not modified.
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
		p := permutationP(z[s.lo:s.hi], m, bestQ, opt.Permutations, opt.Seed^(uint64(s.lo)<<32|uint64(s.hi)), opt.Alpha)
		if p > opt.Alpha {
			break
		}
		found = append(found, ChangePoint{Index: s.lo + bestTau, Q: bestQ, P: p})
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
// levels, which the refinement resolves. Q and P of a change are those of
// the binned search. Cost: O(n log b) for the medians, E-Divisive on
// maxPoints values, and O((b + maxPoints)²) per change; maxPoints must be ≥ 2·MinSegment.
func EDivisiveLong(z []float64, opt EDivisiveOptions, maxPoints int) []ChangePoint {
	n := len(z)
	if n <= maxPoints {
		return EDivisive(z, opt)
	}
	m := opt.withDefaults().MinSegment
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
		out[i] = ChangePoint{Index: at, Q: c.Q, P: c.P}
	}
	return out
}
