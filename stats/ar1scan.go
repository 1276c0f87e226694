package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// A model of autocorrelated runs for the drift check (docs/STATS.md 5,
// "Drift"): the log scores are a stationary Gaussian AR(1) series,
// x_t − μ = ρ(x_{t−1} − μ) + e_t, with marginal SD σ. The check asks
// whether the mean of the latest runs has moved from the calibration's,
// with ρ and σ taken from the calibration: σ from its innovations (the
// Prais–Winsten transform), ρ as an upper confidence point found by
// inverting the simulated law of the lag-1 estimate r₁ (so the estimate's
// uncertainty is priced in at a stated confidence, not at the worst case).

// AR1MeanVar is the variance of the mean of L consecutive values of a
// stationary AR(1) series with lag-1 autocorrelation rho, in units of its
// marginal variance σ²: (1/L)·[1 + 2 Σ_{k=1}^{L−1} (1 − k/L) ρ^k] (Box,
// Jenkins and Reinsel, Time Series Analysis, §2.1; 1ᵀΣ1/L² with
// Σ_ij = ρ^|i−j|). 1 for L = 1, 1/L for rho = 0; NaN for L < 1.
func AR1MeanVar(rho float64, L int) float64 {
	if L < 1 {
		return math.NaN()
	}
	s, p := 1.0, 1.0
	for k := 1; k < L; k++ {
		p *= rho
		if 2*math.Abs(p) < s*1e-17 {
			// This term and every later one (|ρ|^k falls, 1 − k/L
			// too) is below half an ulp of s and leaves it as it is:
			// the sum is done, bit for bit, in O(log ε/log |ρ|) terms
			// rather than L (a file's repetitions may say 2^62).
			break
		}
		s += 2 * (1 - float64(k)/float64(L)) * p
	}
	return s / float64(L)
}

// Prewhiten is the Prais–Winsten transform of x about the level m under
// AR(1) rho: u_0 = (x_0 − m)·sqrt(1 − ρ²), u_t = (x_t − m) − ρ(x_{t−1} − m).
// For a stationary AR(1) series with mean m the u_t are independent with
// variance σ²(1 − ρ²) (Prais and Winsten 1954). |rho| < 1; x is not
// modified.
func Prewhiten(x []float64, m, rho float64) []float64 {
	u := make([]float64, len(x))
	for t, v := range x {
		if t == 0 {
			u[t] = (v - m) * math.Sqrt(1-rho*rho)
		} else {
			u[t] = (v - m) - rho*(x[t-1]-m)
		}
	}
	return u
}

// AR1SD estimates the marginal SD σ of x under AR(1) rho from its
// innovations about its mean: sqrt(Σu²/(n − 1) / (1 − ρ²)) with u
// Prewhiten(x, mean(x), rho). With rho = 0 it is SD(x). Where the series
// moved once (two regimes), the innovations hold the move once, where the
// n−1 SD holds it in every value: the estimate is not inflated by a level
// shift the way s is. NaN for fewer than 2 values.
func AR1SD(x []float64, rho float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	var ss float64
	for _, u := range Prewhiten(x, Mean(x), rho) {
		ss += u * u
	}
	return math.Sqrt(ss / float64(len(x)-1) / (1 - rho*rho))
}

// AR1Grid is the grid of lag-1 autocorrelations AR1Inverter chooses from:
// 0, 0.05, …, AR1GridMax.
const (
	AR1GridStep = 0.05
	AR1GridMax  = 0.9
)

// AR1Inverter holds, for series of n values, the simulated law of the
// lag-1 estimate r₁ (Lag1Autocorrelation) at each ρ of the grid 0, 0.05,
// …, 0.9, so that a confidence bound for ρ can be read off by inverting
// it (a test-inversion bound: exact for Gaussian AR(1) up to the
// simulation's error and the grid, whatever the bias of r₁, which at
// n = 10 is −(1 + 4ρ)/n and more).
type AR1Inverter struct {
	n   int
	law [][]float64 // law[g]: sorted r₁ at ρ = g·AR1GridStep
}

// NewAR1Inverter simulates the law of r₁ for n values with b draws a grid
// point, seeded: the same arguments give the same inverter.
func NewAR1Inverter(n, b int, seed uint64) *AR1Inverter {
	g := int(math.Round(AR1GridMax/AR1GridStep)) + 1
	inv := &AR1Inverter{n: n, law: make([][]float64, g)}
	for i := range inv.law {
		inv.law[i] = Lag1Law(n, float64(i)*AR1GridStep, b, seed+uint64(i))
	}
	return inv
}

// Lag1Law is the sorted lag-1 autocorrelation r₁ (Lag1Autocorrelation) of
// b simulated stationary Gaussian AR(1) series of n values with lag-1
// autocorrelation rho; seeded. A constant series (impossible for n ≥ 3
// but for rounding) counts as r₁ = 0.
func Lag1Law(n int, rho float64, b int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0xA21))
	x := make([]float64, n)
	out := make([]float64, b)
	for i := range out {
		drawUnitAR1(rng, x, rho)
		r, _ := Lag1Autocorrelation(x)
		if math.IsNaN(r) {
			r = 0
		}
		out[i] = r
	}
	slices.Sort(out)
	return out
}

// drawUnitAR1 fills x with a stationary AR(1) series with unit marginal
// variance.
func drawUnitAR1(rng *rand.Rand, x []float64, rho float64) {
	c := math.Sqrt(1 - rho*rho)
	for i := range x {
		if i == 0 {
			x[i] = rng.NormFloat64()
		} else {
			x[i] = rho*x[i-1] + c*rng.NormFloat64()
		}
	}
}

// Below is the simulated P(r₁ ≤ r) at grid point g (ρ = g·AR1GridStep).
func (a *AR1Inverter) Below(g int, r float64) float64 {
	law := a.law[g]
	i, found := slices.BinarySearch(law, r)
	for found && i < len(law) && law[i] == r {
		i++
	}
	return float64(i) / float64(len(law))
}

// Upper is the (1 − beta) upper confidence point of ρ from the lag-1
// estimate r of n values: the largest grid ρ at which an r₁ as low as r
// is not rarer than beta, P_ρ(r₁ ≤ r) ≥ beta (0 when none is: r is
// below what even independent values give in a share beta). With
// beta = 0.5 it is the median-unbiased estimate, on the grid. Over
// calibrations of Gaussian AR(1) runs it is at or above the true ρ (of the
// grid) with probability about 1 − beta. NaN r (constant values) gives 0.
func (a *AR1Inverter) Upper(r, beta float64) float64 {
	if math.IsNaN(r) {
		return 0
	}
	u := 0.0
	for g := range a.law {
		if a.Below(g, r) >= beta {
			u = float64(g) * AR1GridStep
		}
	}
	return u
}

// ScanState is the drift scan at the latest value: the largest
// standardised shift over the windows that end there, the first index of
// that window, and its direction.
type ScanState struct {
	Stat  float64
	Start int
	Down  bool
}

// ShiftScan scans the standardised values z = (x − m)/σ̂ (x the new runs'
// log scores, m the calibration's mean, σ̂ its AR1SD) for a shift of level
// that lasts to the last value: each z is clipped to ±clip (NaN counts as
// 0), and for every window z[τ..] ending at the last value with at least
// minLen values (minLen ≥ 2), the window's trimmed mean, its sum less its
// most extreme value in the sum's direction, over L − 1, is divided by its
// SD under AR(1) rho were it the mean of the window's L values,
// sqrt(AR1MeanVar(rho, L) + vCal) (vCal: AR1MeanVar(rho, n), the
// calibration mean's share). The result is the largest absolute value and
// its window. Trimming the most extreme value keeps one outlying run (a
// degraded runner, the gate's business) from carrying a window: a window
// of two needs both values off. Zero with fewer than minLen values.
func ShiftScan(z []float64, rho, vCal, clip float64, minLen int) ScanState {
	sd := scanSDs(rho, vCal, len(z))
	zc := make([]float64, len(z))
	for i, v := range z {
		zc[i] = clipValue(v, clip)
	}
	return scanEnd(zc, sd, minLen)
}

// scanSDs is sqrt(AR1MeanVar(rho, L) + vCal) for L = 0..runs (index L).
func scanSDs(rho, vCal float64, runs int) []float64 {
	sd := make([]float64, runs+1)
	for L := 1; L <= runs; L++ {
		sd[L] = math.Sqrt(AR1MeanVar(rho, L) + vCal)
	}
	return sd
}

// scanEnd is ShiftScan's statistic over the clipped values zc, for the
// windows ending at the last one.
func scanEnd(zc, sd []float64, minLen int) ScanState {
	var st ScanState
	st.Start = len(zc)
	var sum float64
	hi, lo := math.Inf(-1), math.Inf(1)
	for L := 1; L <= len(zc); L++ {
		v := zc[len(zc)-L] // clipped: never NaN, so plain comparisons do
		sum += v
		if v > hi {
			hi = v
		}
		if v < lo {
			lo = v
		}
		if L < minLen {
			continue
		}
		var d float64
		if sum > 0 {
			d = (sum - hi) / float64(L-1)
		} else {
			d = (sum - lo) / float64(L-1)
		}
		if a := math.Abs(d) / sd[L]; a > st.Stat {
			st = ScanState{Stat: a, Start: len(zc) - L, Down: d < 0}
		}
	}
	return st
}

// ShiftScanNull is the null distribution of a repeated ShiftScan check of
// steady runs against a calibration, by simulation: each of b draws is a
// calibration of n values and runs new values, two independent stationary
// Gaussian AR(1) series with lag-1 autocorrelation rho; the new values are
// standardised by the calibration's mean and AR1SD at rho, and the scan
// (rho, vCal = AR1MeanVar(rho, n), clip, minLen) is checked after every new
// value from the first-th (1-based) on. The result holds, sorted, the
// largest statistic of each draw over those checks. Seeded. The
// standardised values do not depend on the runs' level and spread, so this
// is exact for Gaussian AR(1) runs with this rho.
func ShiftScanNull(n, runs, first int, rho, clip float64, minLen, b int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x5CA))
	cal, x, zc := make([]float64, n), make([]float64, runs), make([]float64, runs)
	sd := scanSDs(rho, AR1MeanVar(rho, n), runs)
	// inv[L] is 1/((L−1)·sd[L]): a window's statistic to within a few
	// ulps by one multiplication, where scanEnd divides twice.
	inv := make([]float64, runs+1)
	for L := 2; L <= runs; L++ {
		inv[L] = 1 / (float64(L-1) * sd[L])
	}
	out := make([]float64, b)
	for i := range out {
		drawUnitAR1(rng, cal, rho)
		drawUnitAR1(rng, x, rho)
		m, s := Mean(cal), AR1SD(cal, rho)
		var most float64
		for t, v := range x {
			zc[t] = clipValue((v-m)/s, clip)
			if t+1 >= first {
				most = scanEndAbove(zc[:t+1], sd, inv, minLen, most)
			}
		}
		out[i] = most
	}
	slices.Sort(out)
	return out
}

// scanEndAbove is max(most, scanEnd(zc, sd, minLen).Stat), bit for bit,
// at less cost: a window whose statistic, estimated by one
// multiplication (inv), is clearly not above most is passed over, and
// only the others are computed as scanEnd computes them. The estimate
// is within 1e-15 of the statistic relative to it (three roundings), so
// the margin of 1e-12 never passes over a window above most.
// (TestShiftScanNullExact checks it against scanEnd.)
func scanEndAbove(zc, sd, inv []float64, minLen int, most float64) float64 {
	limit := most * (1 - 1e-12)
	var sum float64
	hi, lo := math.Inf(-1), math.Inf(1)
	for L := 1; L <= len(zc); L++ {
		v := zc[len(zc)-L]
		sum += v
		if v > hi {
			hi = v
		}
		if v < lo {
			lo = v
		}
		if L < minLen {
			continue
		}
		e := sum - lo
		if sum > 0 {
			e = sum - hi
		}
		if math.Abs(e)*inv[L] <= limit {
			continue
		}
		if a := math.Abs(e/float64(L-1)) / sd[L]; a > most {
			most = a
			limit = most * (1 - 1e-12)
		}
	}
	return most
}
