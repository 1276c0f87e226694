package floor

import (
	"math"
	"slices"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/stats"
)

// At is the recommendation's figures at another floor, on the same runs
// (a, the analysis the recommendation was made on) with the same options:
// the floor a calibration file sets, or one given, which a report or a
// chart is then about instead of the recommended one. Floor and Cost are
// that floor's, Candidates hold its row among theirs (in floor order),
// and the combined rule's rate and the bootstrap diagnostic are that
// floor's. What only the recommending method has is left out: Raw (NaN),
// ToleranceK and WithoutOutliers (0), the two-stage figures (NaN) and
// Repetitions (nil). Its warnings are those of the analysis the
// recommendation warned of, with the ones about the recommended floor
// (below 1, above the lowest run, capped by the normality check) made for
// this one instead; CheckWindow adds the earlier runs below it. Decimals
// is at least dec, so that the floor prints whole. r is not changed.
func (r *Recommendation) At(a *spread.Analysis, floor float64, dec int) *Recommendation {
	out := *r
	out.Floor, out.Raw, out.ToleranceK, out.WithoutOutliers = floor, math.NaN(), 0, 0
	out.Decimals = max(r.Decimals, dec)
	out.Cost = Cost(a, floor, r.Options.Horizon)
	if r.Options.Method == model.MethodMargin && floor == r.Floor {
		// The margin rule's floor keeps the rule's own rate as its claim.
		out.Cost.setRule(a, r.Options)
	}
	out.CombinedFPR = math.Min(1, out.Cost.Predictive+r.Options.FamilyAlpha)
	out.TwoStageFPR, out.TwoStageRerun, out.TwoStagePower = math.NaN(), math.NaN(), math.NaN()
	out.Repetitions = nil
	out.Bootstrap = stats.BootstrapFPR{}
	if r.Options.Bootstrap > 0 {
		logs := make([]float64, len(a.Runs))
		for i, run := range a.Runs {
			logs[i] = run.LogScore
		}
		out.Bootstrap = stats.BootstrapFloorFPR(logs, floor, r.Options.Bootstrap, r.Options.Seed)
	}
	out.Candidates = slices.Clone(r.Candidates)
	at := len(out.Candidates)
	for i, c := range out.Candidates {
		if c.Floor >= floor {
			at = i
			break
		}
	}
	if at == len(out.Candidates) || out.Candidates[at].Floor != floor {
		out.Candidates = slices.Insert(out.Candidates, at, out.Cost)
	}
	out.Warnings = nil
	for _, w := range r.Warnings {
		switch w.Kind {
		case calibrate.WarnNotNormal, calibrate.WarnFloorBelowOne, calibrate.WarnFloorAboveMin, calibrate.WarnEarlierBelow:
			continue
		case calibrate.WarnAutocorrelated:
			if f, ok := w.Figures.(calibrate.EffectiveFigures); ok {
				// A floor that is given is not moved by the correlation:
				// only its figures allow for it.
				f.Independent, f.Floor = floor, floor
				w.Figures = f
			}
		}
		out.Warnings = append(out.Warnings, w)
	}
	if floor < 1 {
		out.warn(calibrate.Warning{Kind: calibrate.WarnFloorBelowOne, Figures: calibrate.FloorFigures{Floor: floor, Step: math.Pow10(-out.Decimals), Min: a.Score.Min}})
	}
	if floor > a.Score.Min {
		out.warn(calibrate.Warning{Kind: calibrate.WarnFloorAboveMin, Figures: calibrate.FloorFigures{Floor: floor, Step: math.Pow10(-out.Decimals), Min: a.Score.Min}})
	}
	return &out
}

// AtText is the recommendation at a floor not recommended (given, or a
// calibration file's) as written (text): At with the decimals the text
// shows (at most 6), and the earlier regimes' runs
// of all below it named (CheckWindow; all is a when nil). It is what
// plot and report show of such a floor.
func (r *Recommendation) AtText(a, all *spread.Analysis, floor float64, text string) *Recommendation {
	dec := 0
	if i := strings.IndexByte(text, '.'); i >= 0 {
		dec = min(len(text)-i-1, 6)
	}
	shown := r.At(a, floor, dec)
	if all == nil {
		all = a
	}
	CheckWindow(all, r.Window, shown)
	return shown
}
