package stats

import "math"

// ShiftCheck is the drift check of one series of new log values against a
// calibration of N values (docs/STATS.md 5, "Drift"): the values are
// modelled as a stationary Gaussian AR(1) series; ρ is the calibration's
// (1 − Beta) upper confidence point (AR1Inverter), σ its AR1SD at that ρ;
// the new values, standardised by the calibration's mean and σ, are
// scanned for a shift lasting to the last value (ShiftScan), and the
// p-value is the share of simulated steady sequences (ShiftScanNull at the
// same ρ) whose scan, checked after each of PerRuns new values from the
// First-th on, reaches it at some check. Build it with NewShiftCheck; it
// caches the simulated laws and nulls, so one ShiftCheck serves every
// series of one calibration (the score and each benchmark). Not safe for
// concurrent use.
type ShiftCheck struct {
	N, PerRuns, First int
	// Clip bounds each standardised value; MinLen is the shortest window.
	Clip   float64
	MinLen int
	// Beta: ρ is allowed for at its (1 − Beta) upper confidence point.
	Beta float64
	Seed uint64

	inv   *AR1Inverter
	nulls map[[2]float64][]float64
}

// The check's constants (docs/STATS.md 5, "Drift").
const (
	// ShiftClip: a standardised value counts at most 6 SDs. The trimmed
	// window means keep a lone outlier from carrying a window, so the
	// clip need not be tight, and a real fall of 5–7 SDs (the held-out
	// thread-cache regression) keeps its size.
	ShiftClip = 6
	// ShiftMinLen: a window has at least two values.
	ShiftMinLen = 2
	// ShiftBeta: ρ at its 80% upper confidence point. A smaller share
	// (a higher point) states the rate more safely where ρ is high and
	// costs power where it is not: at n = 30, β 0.3 left 8.8% of steady
	// AR(1) ρ 0.8 sequences with a false drift in 20 checks, β 0.2 5.8%
	// (600–800 sequences a cell; docs/STATS.md has the table).
	ShiftBeta = 0.2
	// shiftLawDraws is the number of simulated series behind each grid
	// point's law of r₁ (its quantiles to about 0.01 at n = 10).
	shiftLawDraws = 4000
)

// NewShiftCheck is the check against calibrations of n values, checked
// after each of perRuns new values from the first-th on, seeded.
func NewShiftCheck(n, perRuns, first int, seed uint64) *ShiftCheck {
	return &ShiftCheck{N: n, PerRuns: perRuns, First: first, Clip: ShiftClip, MinLen: ShiftMinLen,
		Beta: ShiftBeta, Seed: seed, inv: NewAR1Inverter(n, shiftLawDraws, seed), nulls: map[[2]float64][]float64{}}
}

// ShiftResult is one series' check.
type ShiftResult struct {
	// Stat is the scan at the last value, Start the first index (among the
	// new values) of its window, Down whether the window's level is below
	// the calibration's; P its p-value.
	Stat, P float64
	Start   int
	Down    bool
	// R is the calibration's lag-1 autocorrelation r₁ (NaN for a
	// constant calibration), Rho the ρ allowed for (its upper point).
	R, Rho float64
}

// Rho is the ρ the check allows for on calibration cal: the (1 − Beta)
// upper confidence point of its r₁.
func (c *ShiftCheck) Rho(cal []float64) (r, rho float64) {
	r, _ = Lag1Autocorrelation(cal)
	return r, c.inv.Upper(r, c.Beta)
}

// Null is the sorted simulated null at rho with draws sequences, cached.
func (c *ShiftCheck) Null(rho float64, draws int) []float64 {
	key := [2]float64{rho, float64(draws)}
	if v, ok := c.nulls[key]; ok {
		return v
	}
	v := ShiftScanNull(c.N, c.PerRuns, c.First, rho, c.Clip, c.MinLen, draws, c.Seed+uint64(math.Round(rho*1000)))
	c.nulls[key] = v
	return v
}

// Check checks the new values x against the calibration's cal (len(cal)
// must be N), with the null simulated by draws sequences.
func (c *ShiftCheck) Check(cal, x []float64, draws int) ShiftResult {
	r, rho := c.Rho(cal)
	m, s := Mean(cal), AR1SD(cal, rho)
	z := make([]float64, len(x))
	for i, v := range x {
		switch {
		case s > 0:
			z[i] = (v - m) / s
		case v > m:
			z[i] = math.Inf(1)
		case v < m:
			z[i] = math.Inf(-1)
		}
	}
	st := ShiftScan(z, rho, AR1MeanVar(rho, len(cal)), c.Clip, c.MinLen)
	return ShiftResult{Stat: st.Stat, Start: st.Start, Down: st.Down, R: r, Rho: rho,
		P: UpperP(c.Null(rho, draws), st.Stat)}
}
