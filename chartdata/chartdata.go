// Package chartdata computes what qoscal's six variance charts show: for
// each chart, a value holding its title, axes (label, scale, range shown),
// named series of points, reference lines with their legend labels, boxes,
// bars, histogram bins and the fitted density sampled at points, or the
// reason the chart cannot be drawn.
//
// Every number a chart shows is computed here, once, from the analysis
// (spread.Analysis), the recommendation (calfloor.Recommendation) and
// the floor shown; renderers (package plots with gonum/plot, and later a
// Mermaid renderer) draw from these values and compute nothing of their
// own. The package sits between calibrate and the renderers: it imports
// calibrate and no renderer, and a view (package present) or a renderer
// may import it without a cycle.
package chartdata

import (
	"fmt"
	"math"
	"strings"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// Floor is the floor a chart marks. Label says where it came from, in the
// caller's words ("recommended", "calibration"), and is shown in the
// legend ("floor 1.25 (recommended)"). A Value of 0 marks no floor.
type Floor struct {
	Value float64
	Label string
}

// Scale is how an axis maps values.
type Scale int

const (
	Linear Scale = iota
	Log
)

// Axis is one axis of a chart. Min and Max are the range shown: the data
// and the reference lines with a margin so that marks at the ends are not
// clipped. An axis of named rows (the benchmarks of the ratio spread and
// the noise bars) has no range: its rows are the chart's.
type Axis struct {
	Label    string
	Scale    Scale
	Min, Max float64
}

// RefKind says what a reference line marks.
type RefKind int

const (
	RefParity     RefKind = iota // a ratio or score of 1.0
	RefMedian                    // the median score
	RefFloor                     // the floor shown
	RefLowest                    // the lowest observed score
	RefPrediction                // the lower prediction bound
	RefZero                      // zero on a bar axis
	RefTarget                    // the target false-positive rate
)

// Ref is a reference line across the chart at At on one axis (which one
// each chart says). Label is its legend entry; "" for none.
type Ref struct {
	Kind  RefKind
	At    float64
	Label string
}

// Point is one point; Label names it (a run id, "r50 0.805") or is "".
type Point struct {
	X, Y  float64
	Label string
}

// Series is a named series of points. Label is its legend entry; "" for
// none.
type Series struct {
	Label  string
	Points []Point
}

// Box is a spread summary: the range and the type 7 quartiles.
type Box struct {
	Min, Q1, Median, Q3, Max float64
}

// Bars is one series of bars, a value per row of the chart, with its
// legend entry.
type Bars struct {
	Label  string
	Values []float64
}

// Interval is a range of values, Lo to Hi.
type Interval struct {
	Lo, Hi float64
}

// Bin is one histogram bin: the values in [Min, Max) (the last bin also
// holds its Max) and how many there are.
type Bin struct {
	Min, Max float64
	Count    int
}

// Head is what every chart has.
type Head struct {
	// Name names the chart, as the command line names its file:
	// "ratio-spread".
	Name string
	// Caption is the chart's short title in a report: "Ratio spread per
	// benchmark".
	Caption string
	Title   string
	X, Y    Axis
	// LeftOut says why the chart cannot be drawn (the data hold nothing
	// it could show); "" when it can.
	LeftOut string
}

// Header returns the chart's head; every chart type has it.
func (h *Head) Header() *Head { return h }

// Chart is one of the six charts: *RatioSpread, *ScoreSequence,
// *ScoreDistribution, *Noise, *FloorTradeoff or *History.
type Chart interface {
	Header() *Head
}

// All computes the six charts of an analysis, in the order the command
// line writes them and the report shows them. The score distribution
// marks the prediction bound at the recommendation's α. A floor not
// recommended (floor's Label) is the floor of every chart, the trade-off's
// line included.
//
// runs is the analysis of every run given, whose score sequence (with its
// regimes) the sequence chart shows; nil means a, when the floor was
// calibrated on all of them.
func All(a, runs *spread.Analysis, rec *calfloor.Recommendation, floor Floor) []Chart {
	from := "these runs"
	if runs == nil {
		runs = a
	} else if w := rec.Window; w.N > 0 && w.N < len(runs.Runs) {
		// The bands come from the calibration window, which is not every
		// run the history shows: say which runs.
		from = fmt.Sprintf("from %s..%s", w.First, w.Last)
		if w.First == w.Last {
			from = "from " + w.First
		}
	}
	tradeoff := NewFloorTradeoff(a, rec)
	if floor.Value > 0 && floor.Label != "recommended" {
		tradeoff.MarkFloor(floor)
	}
	return []Chart{
		NewRatioSpread(a),
		NewScoreSequence(runs, floor),
		NewScoreDistribution(a, floor, rec.PredictionBound, rec.Options.Alpha),
		NewNoise(a),
		tradeoff,
		NewHistory(runs, rec.Bands, from),
	}
}

// Num formats a number a chart shows with at most two decimals and no
// trailing zeros: 1.25, 1.2, 2.
func Num(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// runsNote is "12 runs".
func runsNote(a *spread.Analysis) string {
	return fmt.Sprintf("%d runs", a.Score.N)
}

func metric(a *spread.Analysis) string { return a.Candidate + "/" + a.Baseline }

func floorLabel(f Floor) string {
	return fmt.Sprintf("floor %s (%s)", Num(f.Value), f.Label)
}

func lowestLabel(a *spread.Analysis) string {
	return fmt.Sprintf("lowest observed %.2f", a.Score.Min)
}

// pad widens [lo, hi] by a fraction on each side, so that marks at the
// extremes are not clipped.
func pad(lo, hi, frac float64) (float64, float64) {
	d := (hi - lo) * frac
	if d == 0 {
		d = math.Abs(hi) * frac
		if d == 0 {
			d = frac
		}
	}
	return lo - d, hi + d
}

// logPad widens a positive range in log space.
func logPad(lo, hi, frac float64) (float64, float64) {
	l, h := pad(math.Log(lo), math.Log(hi), frac)
	return math.Exp(l), math.Exp(h)
}

// sameScores explains, when every run has the same score, why a chart of
// the score's spread has nothing to show.
func sameScores(a *spread.Analysis) string {
	if a.Score.N > 0 && a.Score.Min == a.Score.Max {
		return fmt.Sprintf(" (all %d runs have the same score, %s: the fitted spread is zero)", a.Score.N, Num(a.Score.Min))
	}
	return ""
}
