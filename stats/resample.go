package stats

import (
	"math"
	"math/bits"
	"runtime"
	"sync"
)

// SplitMix64 is the small portable generator behind every resampled figure
// (STATS.md 4.3): its output is specified in a few lines, so results can be
// reproduced bit for bit in any language, which a seeded math/rand stream
// cannot promise. Steele, Lea and Flood (2014), Fast splittable
// pseudorandom number generators, OOPSLA.
type SplitMix64 struct{ state uint64 }

// NewSplitMix64 returns a generator with the given seed.
func NewSplitMix64(seed uint64) *SplitMix64 { return &SplitMix64{state: seed} }

// splitMixGamma is the generator's increment: its state after k outputs
// is seed + k·splitMixGamma (mod 2⁶⁴), so any stretch of the stream can be
// drawn without drawing what comes before it.
const splitMixGamma = 0x9E3779B97F4A7C15

// Next returns the next 64 random bits.
func (r *SplitMix64) Next() uint64 {
	r.state += splitMixGamma
	return splitMix(r.state)
}

// splitMix is the output function: the bits Next returns for a state.
func splitMix(z uint64) uint64 {
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
// two thirds of the time (issue 19). Resamples are drawn four at a time
// from their own stretches of the stream, with the same draws and sums,
// and with many draws, on every core.
func BootstrapFloorFPR(y []float64, floor float64, b int, seed uint64) BootstrapFPR {
	n := len(y)
	lf := math.Log(floor)
	vals := make([]float64, b)
	c := Mean(y)
	d := make([]float64, n)
	for i, v := range y {
		d[i] = v - c
	}
	out := BootstrapFPR{B: b, Seed: seed}
	// Resample i draws outputs i·n+1 … (i+1)·n of the generator, so
	// stretches of resamples can be drawn apart: on several cores, each
	// draws its own (in blocks of four, see drawResamples), with the
	// figures of one drawing them all in turn, bit for bit.
	parts := 1
	if p := runtime.GOMAXPROCS(0); p > 1 && b*n >= parallelDraws {
		parts = min(p, maxBootstrapParts, (b+3)/4)
	}
	// Part k draws resamples bounds[k] … bounds[k+1]−1; every part but
	// the last a multiple of four.
	bounds := make([]int, parts+1)
	for k := 1; k < parts; k++ {
		bounds[k] = (b * k / parts) &^ 3
	}
	bounds[parts] = b
	degenerate := make([]int, parts)
	var wg sync.WaitGroup
	for k := range parts {
		lo, hi := bounds[k], bounds[k+1]
		draw := func() {
			start := SplitMix64{seed + uint64(lo)*uint64(n)*splitMixGamma}
			degenerate[k] = drawResamples(y, d, c, lf, vals[lo:hi], start)
		}
		if k == parts-1 {
			draw()
			continue
		}
		wg.Go(draw)
	}
	wg.Wait()
	for _, dg := range degenerate {
		out.DegenerateSample += dg
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

// parallelDraws is the number of draws (resamples × scores) from which the
// bootstrap is shared among the cores: below it, starting goroutines
// costs about what they save. maxBootstrapParts caps the parts.
const (
	parallelDraws     = 1 << 18
	maxBootstrapParts = 8
)

// drawResamples draws len(vals) resamples of the n log scores y, d = y − c
// their deviations from their mean c, the first from the generator in
// state rng, and sets vals[i] to resample i's plug-in rate of the floor
// whose log is lf. It returns how many resamples were degenerate (s* = 0).
func drawResamples(y, d []float64, c, lf float64, vals []float64, rng SplitMix64) (degenerate int) {
	n := len(y)
	nf := float64(n)
	b := len(vals)
	// plugIn turns resample i's sums (drawn from the generator in state
	// start) into its plug-in rate.
	plugIn := func(i int, s1, s2 float64, start SplitMix64) {
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
			degenerate++
		case s == 0:
			degenerate++
		default:
			vals[i] = NormalCDF((lf - m) / s)
		}
	}
	// Four resamples are drawn side by side, each from its own stretch of
	// the stream (the generator's state is a counter) and each summed in
	// its own order, so every sum is the one a resample drawn alone would
	// give, bit for bit; the four dependency chains of additions overlap
	// instead of waiting on each other.
	un := uint64(n)
	step := un * splitMixGamma // the state's advance over one resample
	i := 0
	for ; i+4 <= b; i += 4 {
		st0 := rng.state
		st1, st2, st3 := st0+step, st0+2*step, st0+3*step
		start := [4]SplitMix64{{st0}, {st1}, {st2}, {st3}}
		var a1, a2, b1, b2, c1, c2, e1, e2 float64
		for range n {
			st0 += splitMixGamma
			st1 += splitMixGamma
			st2 += splitMixGamma
			st3 += splitMixGamma
			h0, _ := bits.Mul64(splitMix(st0), un)
			h1, _ := bits.Mul64(splitMix(st1), un)
			h2, _ := bits.Mul64(splitMix(st2), un)
			h3, _ := bits.Mul64(splitMix(st3), un)
			v0, v1, v2, v3 := d[h0], d[h1], d[h2], d[h3]
			a1 += v0
			a2 += v0 * v0
			b1 += v1
			b2 += v1 * v1
			c1 += v2
			c2 += v2 * v2
			e1 += v3
			e2 += v3 * v3
		}
		rng.state = st3
		plugIn(i, a1, a2, start[0])
		plugIn(i+1, b1, b2, start[1])
		plugIn(i+2, c1, c2, start[2])
		plugIn(i+3, e1, e2, start[3])
	}
	for ; i < b; i++ {
		start := rng
		var s1, s2 float64
		for range n {
			v := d[rng.Below(un)]
			s1 += v
			s2 += v * v
		}
		plugIn(i, s1, s2, start)
	}
	return degenerate
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
