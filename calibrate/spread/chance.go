package spread

import (
	"math"
	"math/rand/v2"
)

// RegimeAlpha is the level at which the auto window takes the latest
// regime: its change must be beyond what autocorrelated noise gives with
// the search's choice of where to cut priced in (RegimeScanP ≤ RegimeAlpha).
const RegimeAlpha = 0.05

// regimeScanDraws is how many null series RegimeScanP simulates: its p
// has a Monte Carlo SE of at most about 0.01 near RegimeAlpha.
const regimeScanDraws = 500

// regimeMinSegment is the fewest runs on either side of a cut the scan
// considers, as the change-point search does (stats.EDivisiveOptions).
const regimeMinSegment = 3

// RegimeScanP prices the choice of the latest regime (docs/STATS.md 5,
// "a regime chosen with its cost"; issue 33 item 4). E-Divisive's
// permutation test takes runs as exchangeable, so on steady AR(1) runs it
// finds a change in 6–12% of series, and the auto window then calibrated
// on that chance "regime". This is a second test of the cut the search
// made, at runs cut (the first run of the latest regime) of the log
// scores logs: the two-sample t statistic of the means either side of
// it, against the largest such statistic over every cut (at least
// regimeMinSegment runs a side) of series drawn from the stationary
// Gaussian AR(1) fitted to the runs as if there were no change (ρ their
// lag-1 autocorrelation, corrected for its bias of about −(1 + 4ρ)/n,
// clamped to [0, 0.9]; a real change raises it, which is the price of
// not mistaking wander for a change): the scan's own distribution,
// so the search's choice of the cut is counted, and the autocorrelation
// with it. p = (1 + #{max ≥ observed})/(B + 1), seeded. NaN when a side
// has fewer than regimeMinSegment runs or the runs have no spread.
func RegimeScanP(logs []float64, cut int, seed uint64) (p, rho float64) {
	n := len(logs)
	if cut < regimeMinSegment || n-cut < regimeMinSegment {
		return math.NaN(), math.NaN()
	}
	obs := scanT(logs, cut)
	if math.IsNaN(obs) {
		return math.NaN(), math.NaN()
	}
	// The null is no change: its AR(1) is fitted to the whole series, as
	// the null model of a parametric bootstrap is (deviations from the
	// two segments' means would let the cut absorb the slow wander of
	// autocorrelated runs, and allow for too little of it).
	m := mean(logs)
	res := make([]float64, n)
	for i, x := range logs {
		res[i] = x - m
	}
	var num, den float64
	for i, d := range res {
		den += d * d
		if i+1 < n {
			num += d * res[i+1]
		}
	}
	r1 := 0.0
	if den > 0 {
		r1 = num / den
	}
	rho = math.Min(0.9, math.Max(0, r1+(1+4*math.Max(r1, 0))/float64(n)))
	rng := rand.New(rand.NewPCG(seed, 0x7265676d)) // "regm"
	y := make([]float64, n)
	innov := math.Sqrt(1 - rho*rho)
	exceed := 0
	for range regimeScanDraws {
		x := rng.NormFloat64()
		y[0] = x
		for i := 1; i < n; i++ {
			x = rho*x + innov*rng.NormFloat64()
			y[i] = x
		}
		if maxScanT(y) >= obs {
			exceed++
		}
	}
	return float64(1+exceed) / float64(regimeScanDraws+1), rho
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// scanT is |t| of the difference of the means of x[:k] and x[k:], with
// the pooled within-segment SD.
func scanT(x []float64, k int) float64 {
	n := len(x)
	m1, m2 := mean(x[:k]), mean(x[k:])
	var ss float64
	for i, v := range x {
		d := v - m2
		if i < k {
			d = v - m1
		}
		ss += d * d
	}
	s := math.Sqrt(ss / float64(n-2))
	if !(s > 0) {
		return math.NaN()
	}
	return math.Abs(m2-m1) / (s * math.Sqrt(1/float64(k)+1/float64(n-k)))
}

// maxScanT is the largest scanT over every cut with regimeMinSegment
// values a side, by prefix sums.
func maxScanT(x []float64) float64 {
	n := len(x)
	var tot, tot2 float64
	for _, v := range x {
		tot += v
		tot2 += v * v
	}
	best := 0.0
	var s, s2 float64
	for k := 1; k < n; k++ {
		s += x[k-1]
		s2 += x[k-1] * x[k-1]
		if k < regimeMinSegment || n-k < regimeMinSegment {
			continue
		}
		a, b := float64(k), float64(n-k)
		m1, m2 := s/a, (tot-s)/b
		ss := (s2 - a*m1*m1) + (tot2 - s2 - b*m2*m2)
		if !(ss > 0) {
			continue
		}
		t := math.Abs(m2-m1) / (math.Sqrt(ss/float64(n-2)) * math.Sqrt(1/a+1/b))
		best = math.Max(best, t)
	}
	return best
}
