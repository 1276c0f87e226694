package floor

import (
	"math"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// WarnClaimUnsure is Recommend's warning that the claimed rate does not
// hold per calibration on runs like these; calibrate.ClaimFigures.
const WarnClaimUnsure calibrate.WarningKind = "claim-unsure"

// ClaimMinRuns is the fewest runs on which the claimed rate holds per
// calibration under every kind of noise of docs/STATS.md 5g that the runs
// themselves can tell apart: on 10 runs a Student-t(5) or t(3) tail, a
// runner degraded one run in ten and AR(1) ρ 0.8 are told a rate more
// than 2x too low in 40–67% of calibrations.
const ClaimMinRuns = 20

// claimRho is the autocorrelation a claim must not leave out: the lag-1
// correlation of the real runs measured so far is 0.5–0.8, and under
// AR(1) at ρ 0.5 and 0.8 the calibrations told a rate more than 2x too
// low are those whose r₁ fell short of significance (docs/STATS.md 5g).
const claimRho = 0.5

// claimZ is the one-sided 95% normal quantile of the autocorrelation
// tests (stats.ShrinkRho's significance line).
const claimZ = 1.645

// ClaimCheck says whether the claimed rate of a floor calibrated on runs
// with these statistics holds per calibration (docs/STATS.md 5g), and
// why not: too few runs (ClaimMinRuns), or, on more, a lag-1
// autocorrelation too weak to allow for (below stats.ShrinkRho's
// significance line, so the claim treats the runs as independent) that
// does not rule out ρ 0.5 (its bias-corrected estimate plus 1.645
// standard errors reaches it). The
// figures say how many runs would remove every reason; nil when none
// applies, and when the model is in doubt or the scores never varied:
// the claim is then no lower than the model-free figure (Cost), which
// held in all but 2 of the 671 such calibrations of the Monte Carlo,
// whatever the noise.
func ClaimCheck(s spread.ScoreStats, claimed float64) *calibrate.ClaimFigures {
	if s.InDoubt() || !(s.SDLog > 0) {
		return nil
	}
	f := calibrate.ClaimFigures{Claimed: claimed, Runs: s.N, Lag1: s.Lag1}
	if s.N < ClaimMinRuns {
		f.FewRuns, f.RunsNeeded = true, ClaimMinRuns
	}
	if s.N >= ClaimMinRuns && correlationUndecided(s.Lag1, s.Lag1SE, s.N) {
		f.Undecided, f.RunsNeeded = true, runsToDecide()
	}
	if !f.FewRuns && !f.Undecided {
		return nil
	}
	return &f
}

// correlationUndecided: r is at most claimZ standard errors above 0 (not
// allowed for), and its bias-corrected value r + (1 + 4r)/n plus claimZ
// standard errors reaches claimRho (not ruled out).
func correlationUndecided(r, se float64, n int) bool {
	if math.IsNaN(r) || math.IsNaN(se) || n < 3 || r > claimZ*se {
		return false
	}
	return r+(1+4*r)/float64(n)+claimZ*se >= claimRho
}

// runsToDecide is the fewest runs on which no r is undecided: those on
// which an r just at the significance line already rules out claimRho
// the other way (51).
func runsToDecide() int {
	n := ClaimMinRuns
	for {
		se := 1 / math.Sqrt(float64(n))
		if !correlationUndecided(claimZ*se, se, n) {
			return n
		}
		n++
	}
}
