// Package mermaid draws the charts of package chartdata as Mermaid
// diagrams, for Markdown that GitHub renders in a step summary, a
// pull-request comment or an issue (```mermaid blocks; the xychart-beta
// diagram), where a local image link shows nothing. It is the second
// renderer of chartdata, beside package plots (SVG and PNG): it computes
// nothing, and draws what the data say.
//
// xychart-beta draws bars and lines over named categories, and has no
// legend, no error bars and only linear axes. So that a reviewer reads
// the charts right:
//   - every chart comes with its key (Chart.Key): a line for the Markdown
//     under the chart that names each series drawn with its colour, which
//     the diagram fixes (themeVariables' plotColorPalette, one colour per
//     series in the order drawn), so that the key is true;
//   - benchmarks are rows of a horizontal chart, whose labels stand one
//     above the other and cannot overlap; a long name is cut (…) and the
//     table under the chart, in the same order, gives it in full; runs are
//     columns while their labels fit side by side, numbered as in their
//     table when only the numbers fit, and rows beyond that;
//   - bars start at a meaningful origin, 0, or 1 (parity) for ratios that
//     are all at least 1; when the values would be too close together to
//     tell apart from there, the axis is cut and the title says where;
//   - a series of bars that only some categories have (the runs below the
//     floor, the runs gated after the calibration, the benchmarks where a
//     run is below its band) is drawn as bars of its own colour, the others
//     at the origin, where a bar has no length;
//   - what Mermaid cannot draw legibly, each benchmark's range of ratios
//     with its band and a run's ratio, is a text strip (Strips) for a
//     table, one line of characters per benchmark on a common log scale.
//
// Every piece of text from inputs (run ids, benchmark names, variant
// names) is reduced to a safe alphabet (safe): a quote, a line break,
// "%%", "#", a backtick or markup cannot end the string, the block or the
// fence, nor inject HTML.
package mermaid

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/qoscal/qoscal/chartdata"
)

// Chart is one Mermaid chart and its key.
type Chart struct {
	// Diagram is the text inside the ```mermaid fence; "" for a chart
	// left out.
	Diagram string
	// Series name what the diagram draws, one per bar or line statement,
	// in the order drawn (the order of the palette's colours).
	Series []Series
	// Notes say how to read the axes: where the bars start, what the
	// labels are.
	Notes []string
}

// Series is one bar or line statement of a diagram, as its key names it.
type Series struct {
	// Bars is true for a series of bars, false for a line.
	Bars bool
	// Colour is the series' colour.
	Colour Colour
	// Label says what the series shows: "below the floor".
	Label string
}

// Colour is a colour of the charts' palette: its value in the diagram,
// its name, and the coloured square that shows it in a key.
type Colour struct {
	Hex, Name, Swatch string
}

// The palette. Each colour is near the emoji square that names it in a
// key, so that the square, the word and the drawing agree.
var (
	Blue   = Colour{"#3b76d6", "blue", "🟦"}
	Red    = Colour{"#d9342b", "red", "🟥"}
	Purple = Colour{"#8a43b8", "purple", "🟪"}
	Orange = Colour{"#f08a00", "orange", "🟧"}
	Green  = Colour{"#2f9e44", "green", "🟩"}
	Yellow = Colour{"#e3b505", "yellow", "🟨"}
	Black  = Colour{"#333333", "black", "⬛"}
	Grey   = Colour{"#a0a4aa", "grey", "🔘"}
	// white draws the masks that make a bar float (plot.mask): the
	// chart's background, which the diagram fixes to it.
	white = Colour{"#ffffff", "white", "⬜"}
)

// Entry is the series' entry in a key: "🟥 red bars: below the floor".
func (s Series) Entry() string {
	kind := "line"
	if s.Bars {
		kind = "bars"
	}
	return fmt.Sprintf("%s %s %s: %s", s.Colour.Swatch, s.Colour.Name, kind, s.Label)
}

// KeyLine is the chart's key, one line for the Markdown right under the
// chart: each series with its colour, then the notes.
func (c Chart) KeyLine() string {
	if c.Diagram == "" {
		return ""
	}
	e := make([]string, len(c.Series))
	for i, s := range c.Series {
		e[i] = s.Entry()
	}
	line := "Key: " + strings.Join(e, "; ") + "."
	for _, n := range c.Notes {
		line += " " + n + "."
	}
	return line
}

// The layout: the chart's size in pixels (GitHub's step summary gives a
// chart 880 to 1000; a narrower column scales the whole chart down), the
// font sizes, and what a label or a row needs.
const (
	width = 860
	// height is a vertical chart's height.
	height = 420
	// rowHeight is the height of a row of a horizontal chart, for labels
	// of 14 px; frame is what its title and value axis take above them.
	rowHeight = 24
	frame     = 140
	// titleRunes is the longest title drawn; titles from inputs are cut.
	titleRunes = 90
	// labelRunes is the longest category label: 32 characters of 14 px
	// take at most about 300 px, within the 40% of the width Mermaid
	// leaves a horizontal chart's labels (it hides them all when they do
	// not fit).
	labelRunes = 32
	// plotWidth is what a vertical chart leaves its columns after its
	// value axis; labelPx and labelPad what a label takes per character
	// and around it: Mermaid's fonts are Trebuchet MS, then Verdana, then
	// Arial, whose letters and digits average 7 to 8 px at 14 px
	// (scripts/mermaid-check.sh measures the labels drawn).
	plotWidth = width - 100
	labelPx   = 8.5
	labelPad  = 10
	// maxRows is the most rows a horizontal chart of runs has: more runs
	// show the latest maxRows.
	maxRows = 60
)

// plot is one bar or line statement.
type plot struct {
	Series
	values []float64
	// mask is bars in the background's colour over the bars before it,
	// which then float from the mask's value up (Mermaid starts every bar
	// at the axis' low end): lowest to highest, parity to ratio. No key.
	mask bool
}

// diagram is one xychart-beta diagram.
type diagram struct {
	title      string
	horizontal bool
	catTitle   string
	cats       []string // safe and distinct
	valTitle   string
	axis       valueAxis
	plots      []plot
}

// String is the diagram: the configuration (size, fonts, palette) as an
// init directive, then the chart.
func (d *diagram) String() string {
	h := height
	if d.horizontal {
		h = frame + rowHeight*len(d.cats)
	}
	pal := make([]string, len(d.plots))
	for i, p := range d.plots {
		pal[i] = p.Colour.Hex
	}
	q := make([]string, len(d.cats))
	for i, l := range d.cats {
		q[i] = `"` + l + `"`
	}
	var w strings.Builder
	fmt.Fprintf(&w, `%%%%{init: {"xyChart": {"width": %d, "height": %d, "titleFontSize": 16, "xAxis": {"labelFontSize": 14}, "yAxis": {"labelFontSize": 14}}, "themeVariables": {"xyChart": {"backgroundColor": "#ffffff", "plotColorPalette": "%s"}}}}%%%%`+"\n",
		width, h, strings.Join(pal, ", "))
	if d.horizontal {
		fmt.Fprintln(&w, "xychart-beta horizontal")
	} else {
		fmt.Fprintln(&w, "xychart-beta")
	}
	// The title from inputs is cut to fit; the axis' cut is always said.
	suffix := ""
	if d.axis.cut {
		suffix = ", axis cut at " + d.axis.text(d.axis.lo)
	}
	fmt.Fprintf(&w, "    title \"%s%s\"\n", cut(safe(d.title), titleRunes-utf8.RuneCountInString(suffix)), suffix)
	fmt.Fprintf(&w, "    x-axis \"%s\" [%s]\n", safe(d.catTitle), strings.Join(q, ", "))
	fmt.Fprintf(&w, "    y-axis \"%s\" %s --> %s\n", safe(d.valTitle), d.axis.text(d.axis.lo), d.axis.text(d.axis.hi))
	if d.masked() {
		fmt.Fprintf(&w, "    %%%% a bar at %s is below the axis and not drawn: another series has it\n", num(d.axis.none()))
	}
	for _, p := range d.plots {
		kind := "line"
		if p.Bars {
			kind = "bar"
		}
		fmt.Fprintf(&w, "    %s [%s]\n", kind, nums(p.values))
	}
	return w.String()
}

// masked says whether a series of bars leaves some categories out.
func (d *diagram) masked() bool {
	none := d.axis.none()
	for _, p := range d.plots {
		for _, v := range p.values {
			if p.Bars && v == none {
				return true
			}
		}
	}
	return false
}

// chart is the diagram with its key.
func (d *diagram) chart(notes ...string) Chart {
	c := Chart{Diagram: d.String()}
	masked := false
	for _, p := range d.plots {
		if p.mask {
			masked = true
			continue
		}
		c.Series = append(c.Series, p.Series)
	}
	if d.axis.cut {
		notes = append([]string{"The axis is cut at " + d.axis.text(d.axis.lo) + ": bars start there, not at " + d.axis.text(d.axis.origin)}, notes...)
	} else if d.axis.lo == 1 && len(d.plots) > 0 && d.plots[0].Bars && !masked {
		notes = append([]string{"Bars start at 1, parity: their length is the candidate's advantage"}, notes...)
	}
	c.Notes = notes
	return c
}

// valueAxis is the range of the axis bars stand on.
type valueAxis struct {
	lo, hi float64
	// origin is where bars would start uncut: 0, or 1 for ratios that
	// are all at least 1; cut is true when lo is above it.
	origin float64
	cut    bool
	// step is the axis' tick step, which sets the decimals shown.
	step float64
}

// cutBelow is how close together values may be, as a fraction of the
// axis from the origin, before the axis is cut: below a twentieth (some
// 30 px of a bar's length), bars from the origin look all alike.
const cutBelow = 0.05

// newValueAxis chooses the axis for vals (the bars and the reference
// lines): from 0, or from 1 when ratio is set and every value is at least
// 1 (a ratio's bar then shows its advantage over parity), to a round value
// above the highest. When the values span less than cutBelow of that
// axis, it starts instead at a round value below the lowest, and says so
// (cut).
func newValueAxis(vals []float64, ratio bool) valueAxis {
	mn, mx := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if finite(v) {
			mn, mx = math.Min(mn, v), math.Max(mx, v)
		}
	}
	if mn > mx {
		mn, mx = 0, 1
	}
	a := valueAxis{}
	switch {
	case ratio && mn >= 1:
		a.origin = 1
	case mn < 0:
		a.origin = mn
	}
	top := mx + 0.05*(mx-a.origin)
	if top <= a.origin {
		top = a.origin + 1
	}
	a.step = niceStep((top - a.origin) / 8)
	a.lo, a.hi = a.origin, math.Ceil(top/a.step-1e-9)*a.step
	// Values all alike have nothing to compare: no cut for them.
	if span := mx - mn; mn > a.origin && span > 0 && span < cutBelow*(a.hi-a.origin) {
		lo := mn - span/2
		top = mx + 0.05*span
		a.step = niceStep((top - lo) / 8)
		if lo = math.Floor(lo/a.step+1e-9) * a.step; lo > a.origin {
			a.lo, a.hi, a.cut = lo, math.Ceil(top/a.step-1e-9)*a.step, true
		}
	}
	return a
}

// text is an axis value, rounded to the decimals of its step: 0, 1.5,
// 1.55.
func (a valueAxis) text(v float64) string {
	dec := 0
	if a.step > 0 && a.step < 1 {
		dec = int(math.Ceil(-math.Log10(a.step) - 1e-9))
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', dec, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// niceStep is the round step (1, 2 or 5 times a power of ten) at or above
// x.
func niceStep(x float64) float64 {
	if !(x > 0) || !finite(x) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	switch f := x / p; {
	case f <= 1:
		return p
	case f <= 2:
		return 2 * p
	case f <= 5:
		return 5 * p
	}
	return 10 * p
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// only is a series of bars that some categories have: at has the value
// of category i, or false. The others get the axis' none, a value below
// the axis, whose bar would reach backwards: a browser draws no rectangle
// of negative size. (A bar at the axis' low end is not empty: Mermaid
// starts bars a few pixels before it, at the plot's edge.)
func only(n int, a valueAxis, at func(i int) (float64, bool)) ([]float64, bool) {
	out := make([]float64, n)
	any := false
	for i := range out {
		v, ok := at(i)
		if ok {
			out[i], any = v, true
		} else {
			out[i] = a.none()
		}
	}
	return out, any
}

// none is the value of a bar not drawn: as far below the axis as the
// axis is long, far more than the few pixels Mermaid starts bars before
// its low end.
func (a valueAxis) none() float64 { return a.lo - (a.hi - a.lo) }

func flat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// ScoreSequence draws the score sequence: a bar per run in run order, blue
// at or above the floor and yellow below it, and for the runs gated after
// the calibration purple at or above the floor and red below it; the
// floor, the lowest score and (when the scores are near it) parity as
// flat lines. Runs are columns labelled with their ids when
// the ids fit side by side, with their numbers (the table's n) when only
// those fit, and rows beyond that, the latest maxRows of them. It returns
// the chart; no diagram for a chart left out.
func ScoreSequence(c *chartdata.ScoreSequence) Chart {
	pts := c.Scores.Points
	if c.LeftOut != "" || len(pts) == 0 {
		return Chart{}
	}
	var notes []string
	total := len(pts)
	title := c.Title
	if len(pts) > maxRows && !fitsSideBySide(len(pts), digits(len(pts))) {
		pts = pts[len(pts)-maxRows:]
		title += fmt.Sprintf(", the latest %d", maxRows)
		notes = append(notes, fmt.Sprintf("The chart shows the latest %d of the %d runs; the table below has them all", maxRows, total))
	}
	n := len(pts)
	d := &diagram{title: title, catTitle: "run", valTitle: "score"}
	ids := make([]string, n)
	longest := 0
	for i, p := range pts {
		ids[i] = p.Label
		longest = max(longest, utf8.RuneCountInString(safe(p.Label)))
	}
	switch {
	case longest <= labelRunes && fitsSideBySide(n, longest):
		d.cats = distinctLabels(ids, labelRunes)
	case fitsSideBySide(n, digits(total)):
		d.cats = make([]string, n)
		for i, p := range pts {
			d.cats[i] = strconv.FormatFloat(p.X, 'f', 0, 64)
		}
		d.catTitle = "run (n, as in the table below)"
		notes = append(notes, "Runs are numbered as in the table below")
	default:
		d.horizontal = true
		var more []string
		d.cats, more = shortLabels(ids, "run ids")
		notes = append(notes, more...)
	}

	vals := make([]float64, 0, n+3)
	for _, p := range pts {
		vals = append(vals, p.Y)
	}
	var floor, lowest, parity *chartdata.Ref
	for i, r := range c.Refs {
		switch r.Kind {
		case chartdata.RefFloor:
			floor = &c.Refs[i]
		case chartdata.RefLowest:
			lowest = &c.Refs[i]
		case chartdata.RefParity:
			parity = &c.Refs[i]
		}
		if r.Kind == chartdata.RefFloor || r.Kind == chartdata.RefLowest {
			vals = append(vals, r.At)
		}
	}
	d.axis = newValueAxis(vals, true)

	// The bars: a series per kind of run, each at its runs only.
	at := map[float64]int{}
	for i, p := range pts {
		at[p.X] = i
	}
	above := "run score"
	if floor != nil {
		above = "run score, at or above the floor"
	}
	// The runs gated after the calibration split at the floor too: a
	// gated run below it is the one a reviewer looks for, in red; a run
	// of the calibration below it is a false alarm the floor would have
	// raised, in yellow.
	var gatedAbove, gatedBelow []chartdata.Point
	for _, p := range c.Gated.Points {
		if floor != nil && p.Y < floor.At {
			gatedBelow = append(gatedBelow, p)
		} else {
			gatedAbove = append(gatedAbove, p)
		}
	}
	gated := c.Gated.Label
	if floor != nil {
		gated += ", at or above the floor"
	}
	// The runs of an earlier regime, which the calibration left out (as
	// the PNG shades them), are a series of their own, whatever their score.
	earlier := map[float64]bool{}
	var left []chartdata.Point
	if len(c.Regimes) > 1 {
		for _, p := range pts {
			for _, r := range c.Regimes {
				if !r.Calibrated && p.X >= r.From && p.X <= r.To {
					earlier[p.X] = true
					left = append(left, p)
					break
				}
			}
		}
	}
	var below []chartdata.Point
	for _, p := range c.Below.Points {
		if !earlier[p.X] {
			below = append(below, p)
		}
	}
	// The other runs are the calibration's, at or above the floor (as
	// c.Above holds them).
	others := map[float64]bool{}
	for _, p := range append(append([]chartdata.Point(nil), c.Below.Points...), c.Gated.Points...) {
		others[p.X] = true
	}
	var rest []chartdata.Point
	for _, p := range pts {
		if !others[p.X] && !earlier[p.X] {
			rest = append(rest, p)
		}
	}
	for _, s := range []struct {
		pts    []chartdata.Point
		colour Colour
		label  string
	}{
		{left, Grey, "run of an earlier regime, left out of the calibration"},
		{rest, Blue, above},
		{below, Yellow, c.Below.Label},
		{gatedAbove, Purple, gated},
		{gatedBelow, Red, c.Gated.Label + ", below the floor"},
	} {
		y := map[int]float64{}
		for _, p := range s.pts {
			if i, ok := at[p.X]; ok {
				y[i] = p.Y
			}
		}
		if v, ok := only(n, d.axis, func(i int) (float64, bool) { v, ok := y[i]; return v, ok }); ok {
			d.plots = append(d.plots, plot{Series: Series{true, s.colour, s.label}, values: v})
		}
	}
	if floor != nil {
		d.plots = append(d.plots, plot{Series: Series{false, Orange, floor.Label}, values: flat(floor.At, n)})
	}
	if lowest != nil {
		d.plots = append(d.plots, plot{Series: Series{false, Black, lowest.Label}, values: flat(lowest.At, n)})
	}
	if parity != nil && d.axis.lo < parity.At && parity.At < d.axis.hi {
		d.plots = append(d.plots, plot{Series: Series{false, Green, parity.Label}, values: flat(parity.At, n)})
	}
	return d.chart(notes...)
}

// fitsSideBySide says whether n column labels of up to runes characters
// fit side by side under a vertical chart.
func fitsSideBySide(n, runes int) bool {
	return float64(n)*(float64(runes)*labelPx+labelPad) <= plotWidth
}

func digits(n int) int { return len(strconv.Itoa(n)) }

// RatioSpread draws the per-benchmark spread as a horizontal chart, a row
// per benchmark (noisiest first, at the top): a bar at the benchmark's
// median ratio or, when a run is marked, at that run's ratio, coloured by
// where it falls in the benchmark's band (blue within, red below, green
// above); parity and the median score as lines. The range of each
// benchmark's ratios and its band are not drawn here, where they would be
// lines across unrelated benchmarks: Strips draws them. It returns the
// chart; no diagram for a chart left out.
func RatioSpread(c *chartdata.RatioSpread) Chart {
	if c.LeftOut != "" || len(c.Rows) == 0 {
		return Chart{}
	}
	n := len(c.Rows)
	names := make([]string, n)
	for i, r := range c.Rows {
		names[i] = r.Benchmark
	}
	cats, notes := shortLabels(names, "names")
	d := &diagram{title: c.Title, horizontal: true, catTitle: "benchmark", valTitle: "ratio", cats: cats}
	marked := c.ThisLegend != ""
	bar := func(r chartdata.RatioRow) float64 {
		if marked {
			return r.This
		}
		return r.Box.Median
	}
	vals := []float64{1}
	for _, r := range c.Rows {
		vals = append(vals, bar(r))
		if !marked {
			vals = append(vals, r.Box.Min, r.Box.Max)
		}
	}
	var parity, median *chartdata.Ref
	for i, r := range c.Refs {
		switch r.Kind {
		case chartdata.RefParity:
			parity = &c.Refs[i]
		case chartdata.RefMedian:
			median = &c.Refs[i]
			vals = append(vals, r.At)
		}
	}
	d.axis = newValueAxis(vals, true)

	var notes2 []string
	if !marked {
		// A bar from the benchmark's lowest ratio to its highest: the
		// spread, which a bar from 0 to the median hid (a ratio of 0.68
		// looked like any other bar).
		v, _ := only(n, d.axis, func(i int) (float64, bool) { return c.Rows[i].Box.Max, true })
		d.plots = append(d.plots, plot{Series: Series{true, Blue, "each benchmark's lowest to highest ratio over the runs"}, values: v})
		m, _ := only(n, d.axis, func(i int) (float64, bool) { return c.Rows[i].Box.Min, true })
		d.plots = append(d.plots, plot{Series: Series{true, white, ""}, values: m, mask: true})
		notes2 = append(notes2, "Each bar spans the benchmark's lowest to highest ratio; the table under the chart has the median and the band")
	} else {
		// Where the run's ratio falls: within the benchmark's band (or no
		// band), below it, above it.
		where := func(r chartdata.RatioRow) int {
			switch {
			case r.Band == nil:
				return 0
			case r.This < r.Band.Lo:
				return 1
			case r.This > r.Band.Hi:
				return 2
			}
			return 0
		}
		for k, s := range []struct {
			colour Colour
			label  string
		}{
			{Blue, c.ThisLegend + "'s ratio, within the benchmark's band"},
			{Red, c.ThisLegend + "'s ratio, below the band"},
			{Green, c.ThisLegend + "'s ratio, above the band"},
		} {
			if v, ok := only(n, d.axis, func(i int) (float64, bool) { return math.Max(c.Rows[i].This, 1), where(c.Rows[i]) == k }); ok {
				d.plots = append(d.plots, plot{Series: Series{true, s.colour, s.label}, values: v})
			}
		}
		// Each bar from parity to the run's ratio: leftwards for a ratio
		// below 1.
		m, _ := only(n, d.axis, func(i int) (float64, bool) { return math.Min(c.Rows[i].This, 1), true })
		d.plots = append(d.plots, plot{Series: Series{true, white, ""}, values: m, mask: true})
		notes2 = append(notes2, "Bars run from parity (1.0) to the run's ratio: left of it, the candidate is slower")
	}
	if parity != nil && d.axis.lo < parity.At && parity.At < d.axis.hi {
		d.plots = append(d.plots, plot{Series: Series{false, Black, parity.Label}, values: flat(parity.At, n)})
	}
	if median != nil {
		d.plots = append(d.plots, plot{Series: Series{false, Orange, median.Label}, values: flat(median.At, n)})
	}
	return d.chart(append(notes2, notes...)...)
}

// shortLabels are the labels of names (what they are: "names", "run
// ids") as categories: in the safe
// alphabet, distinct, at most labelRunes characters. When some are longer,
// the start every name shares up to a separator (a folder, "suite/") is
// left out, and a name still too long keeps its start and its end, which
// tell names of one suite apart, around "…". The notes say what was done.
func shortLabels(names []string, what string) ([]string, []string) {
	s := make([]string, len(names))
	long := false
	for i, n := range names {
		s[i] = safe(n)
		long = long || utf8.RuneCountInString(s[i]) > labelRunes
	}
	if !long {
		return distinctLabels(s, labelRunes), nil
	}
	var notes []string
	if p := sharedStart(s); p != "" {
		for i := range s {
			s[i] = strings.TrimPrefix(s[i], p)
		}
		notes = append(notes, fmt.Sprintf("The labels leave out %s, the start all %s share", p, what))
	}
	for i := range s {
		if r := []rune(s[i]); len(r) > labelRunes {
			head := (labelRunes - 1) * 2 / 5
			s[i] = string(r[:head]) + "…" + string(r[len(r)-(labelRunes-1-head):])
		}
	}
	notes = append(notes, fmt.Sprintf("Long %s are cut in the middle (…); the table below gives them in full, in the same order", what))
	return distinctLabels(s, labelRunes), notes
}

// sharedStart is the start all of names share, up to and with its last
// slash (the suite or group they are in: "allocator-suite/"), when it
// leaves each name at least four characters; "" otherwise.
func sharedStart(names []string) string {
	if len(names) < 2 {
		return ""
	}
	p := []rune(names[0])
	for _, n := range names[1:] {
		r := []rune(n)
		k := 0
		for k < len(p) && k < len(r) && p[k] == r[k] {
			k++
		}
		p = p[:k]
	}
	k := len(p)
	for k > 0 && p[k-1] != '/' {
		k--
	}
	if k == 0 {
		return ""
	}
	for _, n := range names {
		if utf8.RuneCountInString(n)-k < 4 {
			return ""
		}
	}
	return string(p[:k])
}

// cut shortens s to at most n characters, the last of them "…" when it
// was longer.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// distinctLabels reduces the categories to the safe alphabet, cut to n
// characters, and keeps them distinct: Mermaid's band axis has one band
// per distinct label, so two names the alphabet or the cut makes equal
// ("a<b", "a>b"; two long names alike in their first characters) would
// have their bars drawn on top of each other. A label seen before gets
// " (2)", " (3)", ..., a number no other label holds, within the n
// characters.
func distinctLabels(cats []string, n int) []string {
	labels := make([]string, len(cats))
	used := map[string]bool{}
	for i, c := range cats {
		labels[i] = cut(safe(c), n)
		used[labels[i]] = true
	}
	first := map[string]bool{}
	for i, l := range labels {
		if !first[l] {
			first[l] = true
			continue
		}
		for k := 2; ; k++ {
			suffix := fmt.Sprintf(" (%d)", k)
			base := []rune(l)
			if len(base)+len(suffix) > n {
				base = base[:n-len(suffix)]
			}
			if cand := strings.TrimRight(string(base), " ") + suffix; !used[cand] {
				labels[i] = cand
				used[cand] = true
				break
			}
		}
	}
	return labels
}

func nums(vs []float64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = num(v)
	}
	return strings.Join(s, ", ")
}

// num prints a value with four decimals, enough for ratios and
// scores, and short enough for a long run sequence. A value that is not
// finite (which a chart never holds) is 0 rather than a word Mermaid
// cannot parse.
func num(v float64) string {
	if v != v || v > 1e300 || v < -1e300 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// safe reduces text from inputs to letters, digits, blanks and
// - _ . , / + = ( ) ; anything else becomes '_' (no quote, backtick, hash,
// percent, colon, bracket or angle bracket survives), runs of blanks are
// one space, and the result is cut to 120 characters.
func safe(s string) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		if n >= 120 {
			break
		}
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if space || b.Len() == 0 {
				continue
			}
			space = true
			b.WriteByte(' ')
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("-_.,/+=()", r):
			space = false
			b.WriteRune(r)
		case r > 0x7f && (r >= 0xa0 && r != 0x2028 && r != 0x2029 && r != 0xfeff) && isLetterLike(r):
			space = false
			b.WriteRune(r)
		default:
			space = false
			b.WriteByte('_')
		}
		n++
	}
	return strings.TrimRight(b.String(), " ")
}

// isLetterLike keeps the letters of other scripts and typographic
// dashes and signs of the charts' own labels (–, ×, ≥, … of a cut
// label), which Mermaid shows as they are.
func isLetterLike(r rune) bool {
	switch r {
	case '–', '—', '×', '≥', '≤', '±', 'α', 'ρ', 'σ', 'μ', '…':
		return true
	}
	return (r >= 0xc0 && r <= 0x24f) || (r >= 0x370 && r <= 0x3ff) || (r >= 0x400 && r <= 0x4ff)
}
