package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// A two-sided tabular CUSUM (Page 1954, "Continuous inspection schemes",
// Biometrika 41(1/2), 100–115; the tabular form of Montgomery,
// "Introduction to Statistical Quality Control", §9.1) of standardised
// values z_t, each first clipped to [−clip, clip]:
//
//	S⁺_t = max(0, S⁺_{t−1} + z_t − k),  S⁻_t = max(0, S⁻_{t−1} − z_t − k),
//
// from S⁺_0 = S⁻_0 = 0. A shift of the level by δ SDs adds δ − k a value
// to one side, so the side grows past a decision interval h in about
// h/(δ − k) values; k = δ/2 detects a shift of δ fastest. The clip (a
// Huber-type CUSUM, Lucas and Crosier 1982, "Robust CUSUM", Communications
// in Statistics A 11(23), 2669–2687) keeps one outlying value from moving a
// side by more than clip − k.

// CUSUMState is where a two-sided CUSUM stands after the values given.
type CUSUMState struct {
	// Up and Down are S⁺ and S⁻ after the last value; UpStart and
	// DownStart the index of the first value of each side's current
	// excursion (the value after the side was last 0), len(z) when it is 0.
	Up, Down           float64
	UpStart, DownStart int
}

// CUSUM runs the two-sided CUSUM with reference value k and clip over z.
// A NaN value counts as 0 (no evidence either way). z is not modified.
func CUSUM(z []float64, k, clip float64) CUSUMState {
	var s CUSUMState
	for t, v := range z {
		v = clipValue(v, clip)
		s.Up = math.Max(0, s.Up+v-k)
		s.Down = math.Max(0, s.Down-v-k)
		if s.Up == 0 {
			s.UpStart = t + 1
		}
		if s.Down == 0 {
			s.DownStart = t + 1
		}
	}
	return s
}

func clipValue(v, clip float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return math.Max(-clip, math.Min(clip, v))
}

// CUSUMNull is the null distribution of a repeated two-sided CUSUM check
// of steady runs against a calibration, by simulation: each of b draws is
// a calibration of n values and runs new values, two independent
// stationary Gaussian AR(1) series with lag-1 autocorrelation rho (0:
// independent values) and the same mean and SD; the new values are
// standardised by the calibration's mean and n−1 SD (so the estimates'
// error is in the draws, as it is in the check), and the CUSUM (k, clip)
// is checked after every new value from the first-th (1-based) on. The
// result holds, sorted, the largest max(S⁺, S⁻) of each draw over those
// checks: the chance that steady runs raise an alarm at some check with
// decision interval h is the share of the result at or above h. Seeded:
// the same arguments give the same result. The standardised values do not
// depend on the mean and SD of the runs, so this is exact for Gaussian
// AR(1) runs whatever their level and spread.
func CUSUMNull(n, runs, first int, rho, k, clip float64, b int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x5CC))
	cal := make([]float64, n)
	out := make([]float64, b)
	c := math.Sqrt(1 - rho*rho)
	draw := func(x []float64) {
		x[0] = rng.NormFloat64()
		for i := 1; i < len(x); i++ {
			x[i] = rho*x[i-1] + c*rng.NormFloat64()
		}
	}
	x := make([]float64, runs)
	for i := range out {
		draw(cal)
		draw(x)
		m, s := Mean(cal), SD(cal)
		var up, down, most float64
		for t, v := range x {
			v = clipValue((v-m)/s, clip)
			up = math.Max(0, up+v-k)
			down = math.Max(0, down-v-k)
			if t+1 >= first {
				most = math.Max(most, math.Max(up, down))
			}
		}
		out[i] = most
	}
	slices.Sort(out)
	return out
}

// UpperP is the share of the sorted sample null at or above x, as a
// Monte Carlo p-value: (1 + #{null ≥ x})/(len(null) + 1).
func UpperP(null []float64, x float64) float64 {
	i, _ := slices.BinarySearch(null, x) // the first ≥ x
	return float64(1+len(null)-i) / float64(len(null)+1)
}

// UpperCritical is the smallest value h of the sorted sample null with
// UpperP(null, h) ≤ alpha: the decision interval of a test at level alpha
// (+Inf when no value of the sample is that rare).
func UpperCritical(null []float64, alpha float64) float64 {
	// UpperP(null, null[i]) ≤ (1 + len − i)/(len + 1) with equality when
	// null[i] is the first of its ties.
	b := len(null)
	i := int(math.Ceil(float64(b+1) - alpha*float64(b+1) - 1e-9))
	if i >= b || i < 0 {
		return math.Inf(1)
	}
	h := null[i]
	for UpperP(null, h) > alpha && i+1 < b { // ties
		i++
		h = null[i]
	}
	if UpperP(null, h) > alpha {
		return math.Inf(1)
	}
	return h
}

// CUSUMChanges marks the values of z that a two-sided CUSUM (k, clip, as
// CUSUM runs it) dates to a change of level with decision interval h. An
// excursion of a side is a stretch of values over which that side stays
// above 0: it starts at the value that took the side above 0 (the CUSUM's
// estimate of where a change began) and ends before the value that takes
// it back to 0. When the side reaches h within an excursion, the values
// from the excursion's start to its peak (the last value at which the side
// was at its largest: the last value that pushed it further) are marked;
// the values after the peak, which brought the side back down, are at the
// reference level again and are not. An excursion still open at the end
// is judged on the values so far. A NaN value counts as 0, as in CUSUM;
// z is not modified.
func CUSUMChanges(z []float64, k, clip, h float64) []bool {
	changed := make([]bool, len(z))
	for _, sign := range []float64{1, -1} {
		s, start, peak, top := 0.0, -1, -1, 0.0
		close := func() {
			if start >= 0 && top >= h {
				for i := start; i <= peak; i++ {
					changed[i] = true
				}
			}
			start, peak, top = -1, -1, 0
		}
		for t, v := range z {
			s = math.Max(0, s+sign*clipValue(v, clip)-k)
			if s == 0 {
				close()
				continue
			}
			if start < 0 {
				start = t
			}
			if s >= top {
				top, peak = s, t
			}
		}
		close()
	}
	return changed
}
