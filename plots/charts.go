package plots

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/qoscal/qoscal/chartdata"
)

// rowsHeight is the height of a chart with a row per benchmark.
func rowsHeight(k int) vg.Length { return vg.Length(k)*0.36*vg.Inch + 1.3*vg.Inch }

// thinAbove is the number of runs above which a chart thins what it
// draws per run: one mark per occupied sliver of the axis instead of a
// mark per run, so that the marks neither hide the boxes nor make the
// file grow with the runs.
const thinAbove = 200

// slivers is how many slivers of the axis the thinned marks fall into.
const slivers = 300

// thin returns the values to mark, one per occupied sliver of [lo, hi]
// (on a log axis when log), in ascending order: vals itself when there
// are at most thinAbove of them.
func thin(vals []float64, lo, hi float64, log bool) []float64 {
	if len(vals) <= thinAbove {
		return vals
	}
	tr, back := func(v float64) float64 { return v }, func(v float64) float64 { return v }
	if log {
		tr, back = math.Log, math.Exp
	}
	l, h := tr(lo), tr(hi)
	seen := make([]bool, slivers+1)
	var out []float64
	for _, v := range vals {
		i := int(math.Round((tr(v) - l) / (h - l) * slivers))
		if i < 0 || i > slivers || seen[i] {
			continue
		}
		seen[i] = true
		out = append(out, back(l+(h-l)*float64(i)/slivers))
	}
	return out
}

// envelopeAbove is the number of points above which a line through
// points in X order is drawn through its envelope: in each of
// envelopeAbove/2 stretches of the points, the lowest and the highest in
// the order they come. At a few points per stretch of the width the line
// looks the same, and the file stays small however many runs there are.
const envelopeAbove = 1200

func envelope(pts plotter.XYs) plotter.XYs {
	n := len(pts)
	if n <= envelopeAbove {
		return pts
	}
	b := envelopeAbove / 2
	out := make(plotter.XYs, 0, envelopeAbove)
	for i := 0; i < b; i++ {
		lo, hi := i*n/b, (i+1)*n/b
		mn, mx := lo, lo
		for j := lo; j < hi; j++ {
			if pts[j].Y < pts[mn].Y {
				mn = j
			}
			if pts[j].Y > pts[mx].Y {
				mx = j
			}
		}
		if mn > mx {
			mn, mx = mx, mn
		}
		out = append(out, pts[mn])
		if mx != mn {
			out = append(out, pts[mx])
		}
	}
	return out
}

// RatioSpread draws each benchmark's ratio across runs, one row per
// benchmark (the first at the top): every run's ratio as a point (thinned
// beyond thinAbove runs), the quartile box, the min–max range and the
// median, the band when there is one and the marked run, on a log ratio
// axis, with the chart's vertical reference lines (parity, the median
// score).
func RatioSpread(w io.Writer, c *chartdata.RatioSpread, f Format) error {
	fig, err := ratioSpread(c, desktop)
	if err != nil {
		return err
	}
	return fig.save(w, f)
}

func ratioSpread(c *chartdata.RatioSpread, s size) (*figure, error) {
	if err := undrawable(&c.Head); err != nil {
		return nil, err
	}
	k := len(c.Rows)
	p := newPlot(s, c.Title, c.X.Label, c.Y.Label)
	fig := newFigure(s, "", rowsHeight(k), p)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = ratioTicks{parts: float64(s.ticks(8, 4))}
	names := make([]string, k)
	var band, boxT, pointsT, medianT, thisT plot.Thumbnailer
	n := 0
	// Row k-1-i holds benchmark i, so the first is at the top.
	for i, row := range c.Rows {
		y := float64(k - 1 - i)
		names[k-1-i] = row.Benchmark
		n = len(row.Ratios)
		if row.Band != nil {
			bp, err := plotter.NewPolygon(plotter.XYs{{X: row.Band.Lo, Y: y - 0.45}, {X: row.Band.Hi, Y: y - 0.45}, {X: row.Band.Hi, Y: y + 0.45}, {X: row.Band.Lo, Y: y + 0.45}})
			if err != nil {
				return nil, fmt.Errorf("plots: benchmark %s: band: %w", row.Benchmark, err)
			}
			bp.Color, bp.LineStyle.Width = colBand, 0
			p.Add(bp)
			band = bp
		}
		pts := make(plotter.XYs, 0, len(row.Ratios))
		for _, r := range thin(row.Ratios, c.X.Min, c.X.Max, true) {
			pts = append(pts, plotter.XY{X: r, Y: y})
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("plots: benchmark %s: ratios: %w", row.Benchmark, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colPoint, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
		if len(row.Ratios) > thinAbove {
			sc.GlyphStyle.Radius = vg.Points(1.3)
		}
		b := row.Box
		box, err := plotter.NewPolygon(plotter.XYs{{X: b.Q1, Y: y - 0.3}, {X: b.Q3, Y: y - 0.3}, {X: b.Q3, Y: y + 0.3}, {X: b.Q1, Y: y + 0.3}})
		if err != nil {
			return nil, fmt.Errorf("plots: benchmark %s: quartile box: %w", row.Benchmark, err)
		}
		box.Color = colBox
		box.LineStyle.Color = colLine
		box.LineStyle.Width = vg.Points(1)
		whisker, err := hline(y, b.Min, b.Max, colLine, nil)
		if err != nil {
			return nil, fmt.Errorf("plots: benchmark %s: range: %w", row.Benchmark, err)
		}
		whisker.Width = vg.Points(1)
		median, err := vline(b.Median, y-0.36, y+0.36, colMedian, nil)
		if err != nil {
			return nil, fmt.Errorf("plots: benchmark %s: median: %w", row.Benchmark, err)
		}
		median.Width = vg.Points(2.5)
		// The points under the box, so that the box reads however many
		// there are.
		p.Add(whisker, sc, box, median)
		boxT, pointsT, medianT = box, sc, median
		if row.This > 0 {
			m, err := plotter.NewScatter(plotter.XYs{{X: row.This, Y: y}})
			if err != nil {
				return nil, fmt.Errorf("plots: benchmark %s: the marked run: %w", row.Benchmark, err)
			}
			m.GlyphStyle = draw.GlyphStyle{Color: colMark, Radius: vg.Points(5), Shape: draw.PyramidGlyph{}}
			p.Add(m)
			thisT = m
		}
	}
	p.X.Min, p.X.Max = c.X.Min, c.X.Max
	if _, err := addRefs(fig, p, c.Refs, true, -0.6, float64(k)-0.4); err != nil {
		return nil, err
	}
	if boxT != nil {
		fig.add("quartile box (type 7) and range", boxT)
		fig.add("benchmark median", medianT)
		runs := "a run's ratio"
		if n > thinAbove {
			runs = fmt.Sprintf("runs' ratios, thinned (%d runs)", n)
		}
		fig.add(runs, pointsT)
	}
	if band != nil {
		fig.add(c.BandLegend, band)
	}
	if thisT != nil {
		fig.add(c.ThisLegend, thisT)
	}
	p.NominalY(fitNames(names, s)...)
	p.Y.Min, p.Y.Max = -0.6, float64(k)-0.4
	return fig, nil
}

// ScoreSequence draws each run's score in run order, joined by a line,
// with the chart's horizontal reference lines (the floor, the lowest
// observed score, parity) labelled at their right end, the regimes shaded
// and labelled, runs below the floor as crosses and runs gated after the
// calibration as triangles.
func ScoreSequence(w io.Writer, c *chartdata.ScoreSequence, f Format) error {
	fig, err := scoreSequence(c, desktop)
	if err != nil {
		return err
	}
	return fig.save(w, f)
}

func textWidth(s string) vg.Length {
	f := font.DefaultCache.Lookup(sans(sizeNote), sizeNote)
	return f.Width(s)
}

func scoreSequence(c *chartdata.ScoreSequence, s size) (*figure, error) {
	if err := undrawable(&c.Head); err != nil {
		return nil, err
	}
	n := len(c.Scores.Points)
	p := newPlot(s, c.Title, c.X.Label, c.Y.Label)
	height := s.length(4.2*vg.Inch, 3.6*vg.Inch)
	fig := newFigure(s, "", height, p)
	// Room above the data for the regime labels.
	top := c.Y.Max
	if len(c.Regimes) > 0 {
		top += (c.Y.Max - c.Y.Min) * 0.12
	}
	var calShade, otherShade plot.Thumbnailer
	var regimeLabels plotter.XYLabels
	gutter := refGutter(c.Refs)
	perRun := (s.dataWidth() - gutter) / vg.Length(c.X.Max-c.X.Min)
	for i, r := range c.Regimes {
		// Shade the regimes, lightly and alternately, under everything.
		col := colShadeA
		if i%2 == 1 {
			col = colShadeB
		}
		if r.Calibrated {
			col = colShadeCal
		}
		poly, err := plotter.NewPolygon(plotter.XYs{{X: r.From, Y: c.Y.Min}, {X: r.To, Y: c.Y.Min}, {X: r.To, Y: top}, {X: r.From, Y: top}})
		if err != nil {
			return nil, fmt.Errorf("plots: regime %s: %w", r.Label, err)
		}
		poly.Color, poly.LineStyle.Width = col, 0
		p.Add(poly)
		if r.Calibrated {
			calShade = poly
		} else if otherShade == nil {
			otherShade = poly
		}
		// The regime's label on it, as long as it fits its width: its
		// number and median, or its number alone.
		room := vg.Length(r.To-r.From)*perRun - 4
		for _, l := range []string{fmt.Sprintf("%d: %s", i+1, r.Label), fmt.Sprint(i + 1)} {
			if textWidth(l) <= room {
				regimeLabels.XYs = append(regimeLabels.XYs, plotter.XY{X: r.From, Y: top})
				regimeLabels.Labels = append(regimeLabels.Labels, l)
				break
			}
		}
	}
	line, err := plotter.NewLine(envelope(xys(c.Scores)))
	if err != nil {
		return nil, fmt.Errorf("plots: run scores: %w", err)
	}
	line.Color = colLine
	line.Width = vg.Points(0.8)
	if n > thinAbove {
		line.Width = vg.Points(0.5)
	}
	p.Add(line)
	if _, err := addRefs(fig, p, c.Refs, false, c.X.Min, c.X.Max); err != nil {
		return nil, err
	}
	xmax, err := labelRefs(p, c.Refs, c.X.Min, c.X.Max, c.Y.Min, top, height, s)
	if err != nil {
		return nil, err
	}
	radius := vg.Points(3)
	if n > 50 {
		radius = vg.Points(1.8)
	}
	for _, m := range []struct {
		series chartdata.Series
		glyph  draw.GlyphStyle
	}{
		{c.Above, draw.GlyphStyle{Color: colPoint, Radius: radius, Shape: draw.CircleGlyph{}}},
		{c.Below, draw.GlyphStyle{Color: colBad, Radius: vg.Points(4), Shape: draw.CrossGlyph{}}},
		{c.Gated, draw.GlyphStyle{Color: colGated, Radius: vg.Points(3.5), Shape: draw.TriangleGlyph{}}},
	} {
		if len(m.series.Points) == 0 {
			continue
		}
		if m.series.Label == c.Above.Label && len(m.series.Points) > thinAbove {
			// Beyond thinAbove runs the line alone shows the scores of
			// the runs above the floor.
			fig.add(m.series.Label, line)
			continue
		}
		sc, err := plotter.NewScatter(xys(m.series))
		if err != nil {
			return nil, fmt.Errorf("plots: run scores: %w", err)
		}
		sc.GlyphStyle = m.glyph
		p.Add(sc)
		fig.add(m.series.Label, sc)
	}
	if calShade != nil {
		fig.add("regime calibrated on (numbered, with its median)", calShade)
	}
	if otherShade != nil {
		fig.add("earlier regime: the score shifted at a change point", otherShade)
	}
	if len(regimeLabels.Labels) > 0 {
		lb, err := plotter.NewLabels(regimeLabels)
		if err != nil {
			return nil, err
		}
		for i := range lb.TextStyle {
			lb.TextStyle[i] = note(grey)
			lb.TextStyle[i].YAlign = draw.YTop
		}
		lb.Offset = vg.Point{X: vg.Points(3), Y: vg.Points(-2)}
		p.Add(lb)
	}
	p.X.Min, p.X.Max = c.X.Min, xmax
	p.Y.Min, p.Y.Max = c.Y.Min, top
	p.X.Tick.Marker = runTicks{runs: c.Scores.Points, most: s.ticks(10, 5), room: s.length(0, s.dataWidth()-gutter)}
	p.Y.Tick.Marker = niceTicks{n: s.ticks(6, 4)}
	return fig, nil
}

// labelRefs writes each labelled reference line's label in a gutter
// right of the data (widening the X axis by its width), level with its
// line, and pushes labels apart where lines are too close for both.
// It returns the X axis maximum that leaves room for the labels.
func labelRefs(p *plot.Plot, refs []chartdata.Ref, xmin, xmax, ymin, ymax float64, height vg.Length, s size) (float64, error) {
	type lab struct {
		y     vg.Length // in points from ymin
		label string
		col   color.Color
	}
	perY := (height - 110) / vg.Length(ymax-ymin)
	var labs []lab
	for _, r := range refs {
		if r.Label != "" {
			labs = append(labs, lab{vg.Length(r.At-ymin) * perY, shortLabel(r), refStyles[r.Kind].color})
		}
	}
	if len(labs) == 0 {
		return xmax, nil
	}
	sort.SliceStable(labs, func(i, j int) bool { return labs[i].y < labs[j].y })
	// Push each label up to clear the one below it.
	const lineH = sizeNote + 2
	for i := 1; i < len(labs); i++ {
		if labs[i].y-labs[i-1].y < lineH {
			labs[i].y = labs[i-1].y + lineH
		}
	}
	gutter := refGutter(refs)
	newMax := xmax + (xmax-xmin)*float64(gutter/(s.dataWidth()-gutter))
	var l plotter.XYLabels
	var styles []draw.TextStyle
	for _, b := range labs {
		l.XYs = append(l.XYs, plotter.XY{X: xmax, Y: ymin + float64(b.y/perY)})
		l.Labels = append(l.Labels, b.label)
		st := note(b.col)
		st.YAlign = -0.5
		styles = append(styles, st)
	}
	lb, err := plotter.NewLabels(l)
	if err != nil {
		return xmax, err
	}
	lb.TextStyle = styles
	lb.Offset = vg.Point{X: vg.Points(4)}
	p.Add(lb)
	return newMax, nil
}

// refGutter is the width of the gutter right of the data that labelRefs
// writes the reference lines' labels in; 0 when none is labelled.
func refGutter(refs []chartdata.Ref) vg.Length {
	var gutter vg.Length
	for _, r := range refs {
		if r.Label != "" {
			gutter = max(gutter, textWidth(shortLabel(r))+vg.Points(8))
		}
	}
	return gutter
}

// shortLabel is a reference line's label written on the chart (its
// legend entry says more): "floor 1.25", "lowest 1.44".
func shortLabel(r chartdata.Ref) string {
	switch r.Kind {
	case chartdata.RefFloor:
		return "floor " + chartdata.Num(r.At)
	case chartdata.RefLowest:
		return "lowest " + chartdata.Num(r.At)
	case chartdata.RefParity:
		return "parity"
	case chartdata.RefMedian:
		return "median " + chartdata.Num(r.At)
	}
	return r.Label
}

// runTicks labels the run axis with at most 10 labels however many runs:
// the run ids when there are at most 10 short ones, otherwise run numbers
// at a round step (1, 2, 5, 10, 20, ...), with an unlabelled tick per run
// up to 100 runs.
type runTicks struct {
	runs []chartdata.Point
	// most is the most labels wanted; 0 means 10. Fewer than 10 labels
	// (a small panel) are run numbers, never run ids, unless room is set.
	most int
	// room, when set, is the width of the axis: the run ids label it
	// when there are at most most runs and their ids fit in it, each
	// with room around it.
	room vg.Length
}

func (t runTicks) Ticks(min, max float64) []plot.Tick {
	n := len(t.runs)
	most := t.most
	if most == 0 {
		most = 10
	}
	ids := n <= 10 && most == 10 && t.room == 0
	if t.room > 0 && n <= most {
		var w vg.Length
		for _, r := range t.runs {
			w += textWidth(r.Label) + vg.Points(12)
		}
		ids = w <= t.room
	}
	for _, r := range t.runs {
		if len(r.Label) > 8 {
			ids = false
		}
	}
	var ticks []plot.Tick
	if ids {
		for i, r := range t.runs {
			ticks = append(ticks, plot.Tick{Value: float64(i + 1), Label: r.Label})
		}
		return ticks
	}
	step, _ := niceStep(float64(n), most, true)
	if n <= 100 {
		for i := 1; i <= n; i++ {
			if math.Mod(float64(i), step) != 0 {
				ticks = append(ticks, plot.Tick{Value: float64(i)})
			}
		}
	}
	// Run 1 when the step is small, then the multiples of the step.
	if step <= 5 && float64(n)/step < float64(most) {
		ticks = append(ticks, plot.Tick{Value: 1, Label: "1"})
	}
	for v := step; v <= float64(n); v += step {
		if v-1 >= step/2 {
			ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprint(v)})
		}
	}
	return ticks
}

// ScoreDistribution draws the histogram of the run scores, the fitted
// density (scaled to counts) and the chart's vertical reference lines
// (the floor, the lowest observed score, the prediction bound) from the
// bottom of the plot to its top.
func ScoreDistribution(w io.Writer, c *chartdata.ScoreDistribution, f Format) error {
	fig, err := scoreDistribution(c, desktop)
	if err != nil {
		return err
	}
	return fig.save(w, f)
}

// fitDashes draw the fitted density: a line style no reference line has.
var fitDashes = []vg.Length{vg.Points(9), vg.Points(2), vg.Points(2), vg.Points(2), vg.Points(2), vg.Points(2)}

func scoreDistribution(c *chartdata.ScoreDistribution, s size) (*figure, error) {
	if err := undrawable(&c.Head); err != nil {
		return nil, err
	}
	p := newPlot(s, c.Title, c.X.Label, c.Y.Label)
	fig := newFigure(s, "", s.length(4*vg.Inch, 3.4*vg.Inch), p)
	h := &plotter.Histogram{FillColor: colBox, LineStyle: plotter.DefaultLineStyle}
	for _, b := range c.Bins {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: b.Min, Max: b.Max, Weight: float64(b.Count)})
	}
	h.LineStyle.Color = colLine
	h.LineStyle.Width = vg.Points(0.8)
	p.Add(h)
	fig.add("runs per bin of scores", h)
	if len(c.Density.Points) > 0 {
		dens := &curve{pts: xys(c.Density), LineStyle: plotter.DefaultLineStyle}
		dens.Color = colFit
		dens.Width = vg.Points(1.8)
		dens.Dashes = fitDashes
		p.Add(dens)
		fig.add(c.Density.Label, dens)
	}
	if _, err := addRefs(fig, p, c.Refs, true, c.Y.Min, c.Y.Max); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = c.X.Min, c.X.Max
	p.Y.Min, p.Y.Max = c.Y.Min, c.Y.Max
	p.X.Tick.Marker = niceTicks{n: s.ticks(8, 4)}
	p.Y.Tick.Marker = niceTicks{n: 5, integer: true}
	return fig, nil
}

// Noise draws, for each benchmark (the first at the top), its two bars
// (CV in log space, share of the score's variance) and a line at zero.
func Noise(w io.Writer, c *chartdata.Noise, f Format) error {
	fig, err := noise(c, desktop)
	if err != nil {
		return err
	}
	return fig.save(w, f)
}

func noise(c *chartdata.Noise, s size) (*figure, error) {
	if err := undrawable(&c.Head); err != nil {
		return nil, err
	}
	k := len(c.Benchmarks)
	p := newPlot(s, c.Title, c.X.Label, c.Y.Label)
	fig := newFigure(s, "", rowsHeight(k), p)
	// Row k-1-i holds benchmark i, so the first is at the top.
	cv := make(plotter.Values, k)
	share := make(plotter.Values, k)
	names := make([]string, k)
	for i := range c.Benchmarks {
		cv[k-1-i], share[k-1-i], names[k-1-i] = c.CV.Values[i], c.Share.Values[i], c.Benchmarks[i]
	}
	barW := vg.Points(8)
	b1, err := plotter.NewBarChart(cv, barW)
	if err != nil {
		return nil, err
	}
	b1.Horizontal = true
	b1.Color = colLine
	b1.LineStyle.Width = 0
	b1.Offset = barW / 2
	b2, err := plotter.NewBarChart(share, barW)
	if err != nil {
		return nil, err
	}
	b2.Horizontal = true
	b2.Color = colShare
	b2.LineStyle.Width = 0
	b2.Offset = -barW / 2
	p.Add(b1, b2)
	if _, err := addRefs(fig, p, []chartdata.Ref{c.Zero}, true, -0.6, float64(k)-0.4); err != nil {
		return nil, err
	}
	fig.add(c.CV.Label, b1)
	fig.add(c.Share.Label, b2)
	p.NominalY(fitNames(names, s)...)
	p.Y.Min, p.Y.Max = -0.6, float64(k)-0.4
	p.X.Min, p.X.Max = c.X.Min, c.X.Max
	p.X.Tick.Marker = niceTicks{n: s.ticks(8, 4)}
	return fig, nil
}

// FloorTradeoff draws two panels on one floor axis: above, the candidate
// floors' false-positive rates per healthy run (log axis in percent) with
// the target rate; below, their r50; the recommended floor marked across
// both.
func FloorTradeoff(w io.Writer, c *chartdata.FloorTradeoff, f Format) error {
	fig, err := floorTradeoff(c, desktop)
	if err != nil {
		return err
	}
	return fig.save(w, f)
}

func floorTradeoff(c *chartdata.FloorTradeoff, s size) (*figure, error) {
	if err := undrawable(&c.Head); err != nil {
		return nil, err
	}
	var floors []float64
	for _, pt := range c.Costs.Points {
		floors = append(floors, pt.X)
	}
	xt := floorTicks{floors: floors, marked: c.Floor.At, parts: float64(s.ticks(10, 5))}
	top := newPlot(s, "", "", c.Y.Label)
	top.Y.Scale = plot.LogScale{}
	top.Y.Tick.Marker = percentTicks{}
	top.X.Tick.Marker = unlabelled{xt}
	fig := newFigure(s, c.Title, s.length(5*vg.Inch, 4.4*vg.Inch), top)
	if err := series(fig, top, c.Costs, colLine, draw.CircleGlyph{}, nil); err != nil {
		return nil, fmt.Errorf("plots: false-positive rates: %w", err)
	}
	if c.Target.At > 0 {
		if _, err := addRefs(fig, top, []chartdata.Ref{c.Target}, false, c.X.Min, c.X.Max); err != nil {
			return nil, err
		}
	}
	fl, err := refLine(c.Floor, true, c.Y.Min, c.Y.Max)
	if err != nil {
		return nil, err
	}
	top.Add(fl)
	fig.add(c.Floor.Label, fl)
	top.X.Min, top.X.Max = c.X.Min, c.X.Max
	top.Y.Min, top.Y.Max = c.Y.Min, c.Y.Max
	if len(c.R50.Points) > 0 {
		bottom := newPlot(s, "", c.X.Label, c.R50Axis.Label)
		if err := series(fig, bottom, c.R50, colR50, draw.SquareGlyph{}, dashed); err != nil {
			return nil, fmt.Errorf("plots: r50: %w", err)
		}
		fl2, err := refLine(c.Floor, true, c.R50Axis.Min, c.R50Axis.Max)
		if err != nil {
			return nil, err
		}
		bottom.Add(fl2)
		bottom.X.Min, bottom.X.Max = c.X.Min, c.X.Max
		bottom.Y.Min, bottom.Y.Max = c.R50Axis.Min, c.R50Axis.Max
		bottom.X.Tick.Marker = xt
		bottom.Y.Tick.Marker = niceTicks{n: 4}
		fig.panels = append(fig.panels, bottom)
	} else {
		top.X.Label.Text = c.X.Label
		top.X.Tick.Marker = xt
	}
	return fig, nil
}

// series draws a line through a series' points with a glyph at each and
// adds it to the legend.
func series(fig *figure, p *plot.Plot, s chartdata.Series, col color.Color, shape draw.GlyphDrawer, dashes []vg.Length) error {
	line, sc, err := plotter.NewLinePoints(xys(s))
	if err != nil {
		return err
	}
	line.Color, line.Width, line.Dashes = col, vg.Points(1.5), dashes
	sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: shape}
	p.Add(line, sc)
	fig.add(s.Label, line, sc)
	return nil
}

// History draws a small panel per benchmark (noisiest first, row by row):
// its ratio in each run joined by a line (with a dot per run up to
// thinAbove runs), its band shaded and its median as a dashed line, each
// panel on its own ratio range so that small moves show.
func History(w io.Writer, c *chartdata.History, f Format) error {
	fig, err := history(c, desktop)
	if err != nil {
		return err
	}
	return fig.save(w, f)
}

// historyCols is the number of columns of panels: two, three from nine
// benchmarks on (two at most on a phone).
func historyCols(k int, s size) int {
	if k >= 9 && !s.phone {
		return 3
	}
	if k == 1 {
		return 1
	}
	return 2
}

func history(c *chartdata.History, s size) (*figure, error) {
	if err := undrawable(&c.Head); err != nil {
		return nil, err
	}
	k := len(c.Panels)
	cols := historyCols(k, s)
	rows := (k + cols - 1) / cols
	fig := newFigure(s, c.Title, vg.Length(rows)*s.length(1.75*vg.Inch, 1.5*vg.Inch)+0.4*vg.Inch)
	fig.cols = cols
	var lineT, bandT, medianT plot.Thumbnailer
	for _, pn := range c.Panels {
		x := c.X.Label
		p := newPlot(s, "", x, "")
		p.Title.Text = fit(pn.Benchmark, sans(sizeLabel), (s.width-2*vg.Points(margin))/vg.Length(cols)-vg.Points(24))
		p.Title.TextStyle.Font = sans(sizeLabel)
		p.Title.Padding = vg.Points(3)
		p.X.Label.Text = ""
		if pn.Band != nil {
			bp, err := plotter.NewPolygon(plotter.XYs{{X: c.X.Min, Y: pn.Band.Lo}, {X: c.X.Max, Y: pn.Band.Lo}, {X: c.X.Max, Y: pn.Band.Hi}, {X: c.X.Min, Y: pn.Band.Hi}})
			if err != nil {
				return nil, fmt.Errorf("plots: benchmark %s: band: %w", pn.Benchmark, err)
			}
			bp.Color, bp.LineStyle.Width = colBand, 0
			p.Add(bp)
			bandT = bp
		}
		med, err := hline(pn.Median, c.X.Min, c.X.Max, colMedian, dashed)
		if err != nil {
			return nil, fmt.Errorf("plots: benchmark %s: median: %w", pn.Benchmark, err)
		}
		med.Width = vg.Points(1)
		p.Add(med)
		medianT = med
		line, err := plotter.NewLine(envelope(xys(pn.Ratios)))
		if err != nil {
			return nil, fmt.Errorf("plots: benchmark %s: ratios: %w", pn.Benchmark, err)
		}
		line.Color, line.Width = colLine, vg.Points(0.9)
		p.Add(line)
		lineT = line
		if len(pn.Ratios.Points) <= thinAbove {
			sc, err := plotter.NewScatter(xys(pn.Ratios))
			if err != nil {
				return nil, fmt.Errorf("plots: benchmark %s: ratios: %w", pn.Benchmark, err)
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: colPoint, Radius: vg.Points(1.8), Shape: draw.CircleGlyph{}}
			p.Add(sc)
		}
		p.X.Min, p.X.Max = c.X.Min, c.X.Max
		p.Y.Min, p.Y.Max = pn.Y.Min, pn.Y.Max
		p.X.Tick.Marker = runTicks{runs: pn.Ratios.Points, most: s.ticks(4, 2)}
		p.Y.Tick.Marker = niceTicks{n: 3}
		fig.panels = append(fig.panels, p)
	}
	if lineT != nil {
		fig.add(c.RatiosLegend, lineT)
		fig.add("the benchmark's median ratio", medianT)
	}
	if bandT != nil {
		fig.add(c.BandLegend, bandT)
	}
	return fig, nil
}
