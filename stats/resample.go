package stats

import (
	"math"
	"math/bits"
)

// SplitMix64 is the small portable generator behind every resampled figure
// (STATS.md 4.3): its output is specified in a few lines, so results can be
// reproduced bit for bit in any language, which a seeded math/rand stream
// cannot promise. Steele, Lea and Flood (2014), Fast splittable
// pseudorandom number generators, OOPSLA.
type SplitMix64 struct{ state uint64 }

// NewSplitMix64 returns a generator with the given seed.
func NewSplitMix64(seed uint64) *SplitMix64 { return &SplitMix64{state: seed} }

// Next returns the next 64 random bits.
func (r *SplitMix64) Next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Below returns a number in [0, n): the high 64 bits of Next()·n
// (multiply-shift; its bias is below n/2⁶⁴).
func (r *SplitMix64) Below(n uint64) uint64 {
	hi, _ := bits.Mul64(r.Next(), n)
	return hi
}

// BootstrapFPR is the non-parametric bootstrap of the plug-in false-
// positive rate of a floor (STATS.md 2.5): B resamples of the n log scores
// (n indices drawn with Below per resample), the plug-in rate
// Φ((ln F − m*)/s*) of each (1 if ln F > m* and 0 otherwise when s* = 0),
// and their mean and type 7 quantiles. With few runs the resamples cannot
// leave the observed range and understate the tail: a diagnostic, not the
// headline rate.
type BootstrapFPR struct {
	B                int
	Seed             uint64
	Mean             float64
	Q05, Q50, Q95    float64
	DegenerateSample int // resamples with s* = 0
}

// BootstrapFloorFPR computes the bootstrap of the plug-in FPR of floor for
// log scores y. Each resample's mean and SD come from one pass over its
// draws, of their deviations from the mean c of y: m* = c + Σd/n and
// s*² = (Σd² − (Σd)²/n)/(n − 1), d = y − c. Since m* is close to c the
// subtraction loses nothing that matters (the figures match the
// reference's two-pass sums to about 1e−13 relative), and the resample is
// never stored: at 100,000 runs the two passes over a stored resample were
// two thirds of the time (issue 19).
func BootstrapFloorFPR(y []float64, floor float64, b int, seed uint64) BootstrapFPR {
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

// replayMeanSD draws the resample of y that the generator in state
// start draws, and returns its mean and n−1 SD with left-to-right sums in
// two passes (the reference's arithmetic), drawing it twice rather than
// storing it.
func replayMeanSD(y []float64, start SplitMix64) (m, s float64) {
	n := uint64(len(y))
	rng := start
	for range n {
		m += y[rng.Below(n)]
	}
	m /= float64(n)
	rng = start
	for range n {
		v := y[rng.Below(n)]
		s += (v - m) * (v - m)
	}
	return m, math.Sqrt(s / float64(n-1))
}
