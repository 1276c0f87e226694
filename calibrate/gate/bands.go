package gate

import (
	"math"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
)

// capAbove sets CappedScore, the score with the benchmarks far above
// their bands at the bands' upper edges, over the same suite, as
// ScoreOver computes it; capped are those benchmarks.
func (res *GateResult) capAbove(rr calibrate.RunRatios, byName map[string]model.Band, above map[string]bool) (capped []string) {
	at := calibrate.RunRatios{ID: rr.ID, Ratios: make(map[string]calibrate.BenchmarkRatio, len(res.Suite))}
	for _, name := range res.Suite {
		br := rr.Ratios[name]
		if edge := upperEdge(byName[name]); above[name] && br.Ratio > edge {
			br.Ratio = edge
			capped = append(capped, name)
		}
		at.Ratios[name] = br
	}
	if len(capped) > 0 {
		res.CappedScore = at.ScoreOver(res.Suite).Score
	}
	return capped
}

// judgeBands sets each gated benchmark's usual ratio and, unless the mode
// is off, its band, by Holm's step-down over the gated benchmarks at the
// calibration's family-wise rate. Whatever the mode, it returns the
// benchmarks far above their bands (Holm's upper side) whose ratio is
// above their band's upper edge, and sets CappedScore to the score with
// each at that edge (docs/STATS.md 2.10a).
func (res *GateResult) judgeBands(cal *model.File, opt GateOptions, rr calibrate.RunRatios, warn func(calibrate.Warning)) (capped []string) {
	res.PerBenchmark = opt.PerBenchmark
	if res.PerBenchmark == "" {
		res.PerBenchmark = PerBenchmarkWarn
	}
	for i := range res.Benchmarks {
		res.Benchmarks[i].Usual, res.Benchmarks[i].VsUsual = math.NaN(), math.NaN()
		res.Benchmarks[i].BandLower, res.Benchmarks[i].BandUpper = math.NaN(), math.NaN()
	}
	if cal == nil {
		return nil
	}
	alpha := cal.RecommendOptions().FamilyAlpha
	bands := cal.Matrix.Bands(alpha)
	byName := map[string]model.Band{}
	for _, b := range bands {
		byName[b.Name] = b
	}
	logs := map[string]float64{}
	for i := range res.Benchmarks {
		gb := &res.Benchmarks[i]
		b, ok := byName[gb.Name]
		if !ok || !gb.InScore {
			continue
		}
		gb.Usual = b.Usual
		gb.VsUsual = gb.Ratio / b.Usual
		gb.BandLower, gb.BandUpper = b.Lower, b.Upper
		if res.BandWidth == nil {
			res.BandWidth = bandWidth(b, len(bands), alpha)
		}
		logs[gb.Name] = math.Log(gb.Ratio)
	}
	j := model.JudgeBands(bands, logs, alpha)
	// A benchmark that never varied has no band to test against, but it
	// must not escape the rule below: its band is the point [usual,
	// usual], and a ratio above it by more than rounding is above it.
	for name, x := range logs {
		if b := byName[name]; isPointBand(b) && x > math.Log(b.Usual)+PointBandTolerance {
			j.Above[name] = true
		}
	}
	capped = res.capAbove(rr, byName, j.Above)
	if res.PerBenchmark == PerBenchmarkOff {
		return capped
	}
	for i := range res.Benchmarks {
		gb := &res.Benchmarks[i]
		if _, judged := logs[gb.Name]; !judged {
			continue
		}
		switch {
		case j.Below[gb.Name]:
			gb.Band = BandBelow
			res.Below = append(res.Below, gb.Name)
		case j.Above[gb.Name]:
			gb.Band = BandAbove
			res.Above = append(res.Above, gb.Name)
		case math.IsNaN(j.P[gb.Name]):
			// No band: a benchmark that never varied, at or below its one
			// ratio (the lower side of a point band is not judged).
		default:
			gb.Band = BandWithin
			if j.Advisory[gb.Name] {
				gb.Advisory = true
				res.Advisory = append(res.Advisory, gb.Name)
			}
		}
	}
	if len(res.Below) > 0 {
		warn(calibrate.Warning{Kind: calibrate.WarnBelowBand, Benchmarks: res.Below, Figures: calibrate.BandFigures{Alpha: alpha}})
	}
	if len(res.Above) > 0 {
		warn(calibrate.Warning{Kind: calibrate.WarnAboveBand, Benchmarks: res.Above})
	}
	return capped
}

// PointBandTolerance is how far, in log ratio, a benchmark that never
// varied over the calibration runs may lie above its one ratio and still
// be at it: the rounding of a ratio of two float64 values is about 1e-16
// of it, so 1e-9 is far above rounding and far below any change a
// benchmark harness prints.
const PointBandTolerance = 1e-9

// isPointBand reports whether a band is a point: its benchmark never
// varied over the calibration runs (docs/STATS.md 2.10a).
func isPointBand(b model.Band) bool { return b.N >= 2 && !(b.SDLog > 0) && b.Usual > 0 }

// upperEdge is the upper edge of a benchmark's band as the wild-benchmark
// rule caps at it: the band's, or for a benchmark that never varied its
// one ratio.
func upperEdge(b model.Band) float64 {
	if isPointBand(b) {
		return b.Usual
	}
	return b.Upper
}
