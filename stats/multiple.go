package stats

import (
	"math"
	"sort"
)

// PredictiveP returns the predictive lower-tail probability of a new
// observation x under the calibration's log-normal model: with mean m and
// n−1 SD s of n calibration log values,
//
//	P(X_new ≤ x) = T_{n−1}( (x − m) / (s·sqrt(1 + 1/n)) ),
//
// the probability, over calibration samples and the new run, that a
// healthy run is at least as low (STATS.md 2.3; the prediction bound at α
// is the x where this equals α). NaN when s is not positive or n < 2.
func PredictiveP(m, s float64, n int, x float64) float64 {
	if !(s > 0) || n < 2 {
		return math.NaN()
	}
	nf := float64(n)
	return TCDF((x-m)/(s*math.Sqrt(1+1/nf)), nf-1)
}

// Holm returns which of the hypotheses with p-values p Holm's step-down
// procedure rejects at family-wise error rate alpha (Holm 1979, "A simple
// sequentially rejective multiple test procedure", Scand. J. Statist. 6,
// 65–70): order the k p-values p_(1) ≤ … ≤ p_(k); reject H_(1), …, H_(i)
// for the largest i with p_(j) ≤ alpha/(k − j + 1) for every j ≤ i, and
// nothing when p_(1) > alpha/k. The family-wise error rate is at most
// alpha whatever the dependence between the tests. NaN p-values (no test)
// are never rejected and do not count in k. p is not modified.
func Holm(p []float64, alpha float64) []bool {
	reject := make([]bool, len(p))
	var idx []int
	for i, v := range p {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	k := len(idx)
	for j, i := range idx {
		if p[i] > alpha/float64(k-j) {
			break
		}
		reject[i] = true
	}
	return reject
}
