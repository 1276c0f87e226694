package plots

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"qoscal/calibrate"
)

const width = 8 * vg.Inch

// RatioSpread draws each benchmark's ratio across runs, one row per
// benchmark (noisiest first, at the top): every run's ratio as a point, the
// type 7 quartile box, the min–max range and the median, on a log ratio
// axis with reference lines at parity (1.0) and at the median score.
func RatioSpread(w io.Writer, a *calibrate.Analysis, f Format) error {
	k := len(a.Benchmarks)
	p := newPlot(fmt.Sprintf("Ratio %s per benchmark over %s (noisiest first)", metric(a), runsNote(a)),
		fmt.Sprintf("ratio %s (log scale; > 1: %s better)", metric(a), a.Candidate), "")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = ratioTicks{}
	names := make([]string, k)
	lo, hi := 1.0, 1.0
	// Row k-1-i holds benchmark i, so the noisiest is at the top.
	for i, b := range a.Benchmarks {
		y := float64(k - 1 - i)
		names[k-1-i] = b.Name
		lo, hi = math.Min(lo, b.Min), math.Max(hi, b.Max)
		box, err := plotter.NewPolygon(plotter.XYs{{X: b.Q1, Y: y - 0.3}, {X: b.Q3, Y: y - 0.3}, {X: b.Q3, Y: y + 0.3}, {X: b.Q1, Y: y + 0.3}})
		if err != nil {
			return fmt.Errorf("plots: benchmark %s: quartile box: %v", b.Name, err)
		}
		box.Color = colBox
		box.LineStyle.Color = colPoint
		box.LineStyle.Width = vg.Points(0.8)
		whisker, err := hline(y, b.Min, b.Max, colPoint, nil)
		if err != nil {
			return fmt.Errorf("plots: benchmark %s: range: %v", b.Name, err)
		}
		whisker.Width = vg.Points(0.8)
		median, err := vline(b.Median, y-0.35, y+0.35, colMedian, nil)
		if err != nil {
			return fmt.Errorf("plots: benchmark %s: median: %v", b.Name, err)
		}
		median.Width = vg.Points(2)
		p.Add(box, whisker, median)
		pts := make(plotter.XYs, len(a.Runs))
		j := 0
		for _, r := range a.Runs {
			for s, name := range a.Suite {
				if name == b.Name {
					pts[j] = plotter.XY{X: r.Ratios[s], Y: y}
				}
			}
			j++
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("plots: benchmark %s: ratios: %v", b.Name, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colPoint, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	}
	lo = math.Min(lo, a.Score.Median)
	hi = math.Max(hi, a.Score.Median)
	p.X.Min, p.X.Max = logPad(lo, hi, 0.04)
	parity, err := vline(1, -0.6, float64(k)-0.4, colParity, dashed)
	if err != nil {
		return err
	}
	med, err := vline(a.Score.Median, -0.6, float64(k)-0.4, colMedian, dotted)
	if err != nil {
		return fmt.Errorf("plots: median score: %v", err)
	}
	p.Add(parity, med)
	p.Legend.Add("parity (1.0)", parity)
	p.Legend.Add(fmt.Sprintf("median score %.2f", a.Score.Median), med)
	p.Legend.Add("quartiles (type 7), median, range; a point per run", box(colBox))
	p.NominalY(names...)
	// Head room above the top row keeps the legend off the data.
	p.Y.Min, p.Y.Max = -0.7, float64(k)+1.6
	p.Legend.Top = true
	p.Legend.Left = true
	height := vg.Length(k+2)*0.32*vg.Inch + 2*vg.Inch
	return save(p, w, width, height, f)
}

// box returns a legend thumbnail of a filled box.
func box(c color.Color) plot.Thumbnailer {
	// Only the fill and line colours show in a thumbnail: no points, so
	// nothing for NewPolygon to refuse (it checks points for NaN and Inf).
	poly := &plotter.Polygon{Color: c, LineStyle: plotter.DefaultLineStyle}
	poly.LineStyle.Color = colPoint
	return poly
}

// ScoreSequence draws each run's score in run order, with horizontal lines
// at the floor, the lowest observed score and parity; runs below the floor
// are drawn red.
func ScoreSequence(w io.Writer, a *calibrate.Analysis, floor Floor, f Format) error {
	n := len(a.Runs)
	p := newPlot(fmt.Sprintf("Score (geomean %s) of each run, in run order, %s", metric(a), runsNote(a)),
		"run (order read)", fmt.Sprintf("score, geomean %s", metric(a)))
	var ok, bad plotter.XYs
	lo, hi := a.Score.Min, a.Score.Max
	for i, r := range a.Runs {
		pt := plotter.XY{X: float64(i + 1), Y: r.Score}
		if floor.Value > 0 && r.Score < floor.Value {
			bad = append(bad, pt)
		} else {
			ok = append(ok, pt)
		}
	}
	all := make(plotter.XYs, n)
	for i, r := range a.Runs {
		all[i] = plotter.XY{X: float64(i + 1), Y: r.Score}
	}
	line, err := plotter.NewLine(all)
	if err != nil {
		return fmt.Errorf("plots: run scores: %v", err)
	}
	line.Color = colPoint
	line.Width = vg.Points(0.6)
	p.Add(line)
	x0, x1 := 0.5, float64(n)+0.5
	if floor.Value > 0 {
		fl, err := hline(floor.Value, x0, x1, colFloor, nil)
		if err != nil {
			return fmt.Errorf("plots: floor: %v", err)
		}
		p.Add(fl)
		p.Legend.Add(fmt.Sprintf("floor %s (%s)", trimFloat(floor.Value), floor.Label), fl)
		lo = math.Min(lo, floor.Value)
	}
	mn, err := hline(a.Score.Min, x0, x1, colMin, dashed)
	if err != nil {
		return fmt.Errorf("plots: lowest score: %v", err)
	}
	p.Add(mn)
	p.Legend.Add(fmt.Sprintf("lowest observed %.2f", a.Score.Min), mn)
	if lo < 1.15 && hi > 0.85 {
		par, err := hline(1, x0, x1, colParity, dotted)
		if err != nil {
			return err
		}
		p.Add(par)
		p.Legend.Add("parity 1.0", par)
		lo, hi = math.Min(lo, 1), math.Max(hi, 1)
	}
	radius := vg.Points(3)
	if n > 50 {
		radius = vg.Points(1.8)
	}
	if len(ok) > 0 {
		sc, err := plotter.NewScatter(ok)
		if err != nil {
			return fmt.Errorf("plots: run scores: %v", err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colPoint, Radius: radius, Shape: draw.CircleGlyph{}}
		p.Add(sc)
		p.Legend.Add("run score", sc)
	}
	if len(bad) > 0 {
		sc, err := plotter.NewScatter(bad)
		if err != nil {
			return fmt.Errorf("plots: run scores: %v", err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colBad, Radius: vg.Points(4), Shape: draw.CrossGlyph{}}
		p.Add(sc)
		p.Legend.Add("below the floor", sc)
	}
	p.X.Min, p.X.Max = x0, x1
	p.Y.Min, p.Y.Max = pad(lo, hi, 0.08)
	p.X.Tick.Marker = runTicks{a: a}
	p.Y.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: trimFloat}
	// Head room above the highest run for the legend.
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.35
	p.Legend.Top = true
	return save(p, w, width, 4.5*vg.Inch, f)
}

// runTicks labels the run axis with run ids, thinned to at most about 12
// labels so that 200 runs do not overlap.
type runTicks struct{ a *calibrate.Analysis }

func (t runTicks) Ticks(min, max float64) []plot.Tick {
	n := len(t.a.Runs)
	stride := (n + 11) / 12
	var ticks []plot.Tick
	for i := 0; i < n; i++ {
		tk := plot.Tick{Value: float64(i + 1)}
		if i%stride == 0 {
			tk.Label = t.a.Runs[i].ID
			if n > 12 {
				tk.Label = fmt.Sprint(i + 1)
			}
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// ScoreDistribution draws a histogram of the run scores with the fitted
// log-normal density (scaled to counts), and vertical lines at the floor,
// the lowest observed score and the lower prediction bound.
func ScoreDistribution(w io.Writer, a *calibrate.Analysis, floor Floor, predBound float64, alpha float64, f Format) error {
	p := newPlot(fmt.Sprintf("Distribution of the score (geomean %s) over %s", metric(a), runsNote(a)),
		fmt.Sprintf("score, geomean %s", metric(a)), "runs")
	vals := make(plotter.Values, len(a.Runs))
	for i, r := range a.Runs {
		vals[i] = r.Score
	}
	bins := int(math.Ceil(math.Sqrt(float64(len(vals))))) + 2
	h, err := plotter.NewHist(vals, bins)
	if err != nil {
		return err
	}
	h.FillColor = colBox
	h.LineStyle.Color = colPoint
	p.Add(h)
	binWidth := h.Width
	lo, hi := a.Score.Min, a.Score.Max
	for _, v := range []float64{floor.Value, predBound} {
		if v > 0 {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	lo, hi = pad(lo, hi, 0.1)
	if lo <= 0 {
		lo = hi / 100
	}
	if a.Score.Min == a.Score.Max && len(h.Bins) > 0 {
		// Every run has the same score: gonum gives the lone value a bin
		// of width 1 that starts at it; centre one narrow bin on it.
		w := (hi - lo) / float64(4*bins)
		v := a.Score.Min
		h.Bins = []plotter.HistogramBin{{Min: v - w/2, Max: v + w/2, Weight: float64(len(vals))}}
		h.Width = w
	}
	n := float64(len(vals))
	var top float64
	for _, b := range h.Bins {
		top = math.Max(top, b.Weight)
	}
	// With no spread (every run the same score) the fitted log-normal is
	// degenerate, a spike with no density to draw: leave the curve out.
	if fitted := a.Score.SDLog > 0 && !math.IsInf(a.Score.SDLog, 0); fitted {
		dens := plotter.NewFunction(func(x float64) float64 { return a.Score.Density(x) * n * binWidth })
		dens.XMin, dens.XMax = lo, hi
		dens.Samples = 200
		dens.Color = colMedian
		dens.Width = vg.Points(1.5)
		p.Add(dens)
		p.Legend.Add("fitted log-normal", dens)
		peak := a.Score.Density(math.Exp(a.Score.MeanLog-a.Score.SDLog*a.Score.SDLog)) * n * binWidth
		top = math.Max(top, peak)
	}
	top *= 1.15
	if floor.Value > 0 {
		fl, err := vline(floor.Value, 0, top, colFloor, nil)
		if err != nil {
			return fmt.Errorf("plots: floor: %v", err)
		}
		p.Add(fl)
		p.Legend.Add(fmt.Sprintf("floor %s (%s)", trimFloat(floor.Value), floor.Label), fl)
	}
	mn, err := vline(a.Score.Min, 0, top, colMin, dashed)
	if err != nil {
		return fmt.Errorf("plots: lowest score: %v", err)
	}
	p.Add(mn)
	p.Legend.Add(fmt.Sprintf("lowest observed %.2f", a.Score.Min), mn)
	if predBound > 0 {
		pb, err := vline(predBound, 0, top, colPred, dotted)
		if err != nil {
			return fmt.Errorf("plots: prediction bound: %v", err)
		}
		p.Add(pb)
		p.Legend.Add(fmt.Sprintf("%g%% prediction bound %.3f", alpha*100, predBound), pb)
	}
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min, p.Y.Max = 0, top
	p.X.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: trimFloat}
	p.Y.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: func(v float64) string { return fmt.Sprintf("%.3g", v) }}
	// Head room above the tallest bin for the legend, at the top right.
	p.Y.Max = top * 1.45
	p.Legend.Top = true
	p.Legend.Left = false
	return save(p, w, width, 4.5*vg.Inch, f)
}

// Noise draws, for each benchmark, its CV in log space (the SD of ln
// ratio) and its share of the score's variance, as horizontal bars in
// percent, noisiest first (at the top).
func Noise(w io.Writer, a *calibrate.Analysis, f Format) error {
	k := len(a.Benchmarks)
	p := newPlot(fmt.Sprintf("Noise by benchmark over %s: CV (log) and share of the score's variance", runsNote(a)), "percent", "")
	cv := make(plotter.Values, k)
	share := make(plotter.Values, k)
	names := make([]string, k)
	for i, b := range a.Benchmarks {
		cv[k-1-i] = b.CVLog * 100
		s := b.VarianceShare * 100
		if math.IsNaN(s) {
			s = 0
		}
		share[k-1-i] = s
		names[k-1-i] = b.Name
	}
	barW := vg.Points(7)
	b1, err := plotter.NewBarChart(cv, barW)
	if err != nil {
		return err
	}
	b1.Horizontal = true
	b1.Color = colPoint
	b1.LineStyle.Width = 0
	b1.Offset = -barW / 2
	b2, err := plotter.NewBarChart(share, barW)
	if err != nil {
		return err
	}
	b2.Horizontal = true
	b2.Color = colMin
	b2.LineStyle.Width = 0
	b2.Offset = barW / 2
	zero, err := vline(0, -0.6, float64(k)-0.4, colParity, nil)
	if err != nil {
		return err
	}
	p.Add(b1, b2, zero)
	p.Legend.Add("CV, log space (SD of ln ratio), %", b1)
	p.Legend.Add("share of Var(ln score), %", b2)
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.7, float64(k)+1.2
	p.Legend.Top = true
	p.Legend.Left = false
	lo, hi := 0.0, 0.0
	for i := range cv {
		lo = math.Min(lo, math.Min(cv[i], share[i]))
		hi = math.Max(hi, math.Max(cv[i], share[i]))
	}
	p.X.Min, p.X.Max = pad(lo, hi, 0.05)
	p.X.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: func(v float64) string { return fmt.Sprintf("%.3g", v) }}
	height := vg.Length(k+2)*0.32*vg.Inch + 2*vg.Inch
	return save(p, w, width, height, f)
}

// FloorTradeoff draws, for each candidate floor of the recommendation, its
// predictive false-positive rate per healthy run (log axis), each point
// labelled with its r50, the uniform regression it catches half the time.
func FloorTradeoff(w io.Writer, a *calibrate.Analysis, rec *calibrate.Recommendation, f Format) error {
	p := newPlot(fmt.Sprintf("Cost of a floor, from %s runs: false-positive rate per run, and r50", fmt.Sprint(a.Score.N)),
		fmt.Sprintf("floor (score, geomean %s)", metric(a)), "false-positive rate per run (log)")
	p.Y.Scale = plot.LogScale{}
	pts := make(plotter.XYs, 0, len(rec.Candidates))
	labels := make([]string, 0, len(rec.Candidates))
	lo, hi := math.Inf(1), 0.0
	for _, c := range rec.Candidates {
		if !(c.Predictive > 0) {
			continue
		}
		pts = append(pts, plotter.XY{X: c.Floor, Y: c.Predictive})
		labels = append(labels, fmt.Sprintf("r50 %.3f", c.R50))
		lo, hi = math.Min(lo, c.Predictive), math.Max(hi, c.Predictive)
	}
	if len(pts) == 0 {
		return &UndrawableError{Chart: "floor-tradeoff", Reason: "no candidate floor has a positive false-positive rate to draw on its log axis" + sameScores(a)}
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("plots: false-positive rates: %v", err)
	}
	line.Color = colFloor
	line.Width = vg.Points(1.5)
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return fmt.Errorf("plots: false-positive rates: %v", err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: colFloor, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: labels})
	if err != nil {
		return err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Font.Size = vg.Points(8)
		lb.TextStyle[i].XAlign = -0.5
	}
	lb.Offset = vg.Point{X: vg.Points(0), Y: vg.Points(6)}
	p.Add(line, sc, lb)
	p.Legend.Add("predictive false-positive rate (label: r50)", line)
	xlo, xhi := pts[0].X, pts[len(pts)-1].X
	p.X.Min, p.X.Max = pad(xlo, xhi, 0.12)
	p.Y.Min, p.Y.Max = logPad(lo, hi, 0.25)
	p.Y.Tick.Marker = fmtTicks{Ticker: plot.LogTicks{Prec: -1}, format: func(v float64) string { return fmt.Sprintf("%.3g", v) }}
	p.X.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: trimFloat}
	p.Legend.Left = true
	return save(p, w, width, 4*vg.Inch, f)
}

// sameScores explains, when every run has the same score, why a chart of
// the score's spread has nothing to show.
func sameScores(a *calibrate.Analysis) string {
	if a.Score.N > 0 && a.Score.Min == a.Score.Max {
		return fmt.Sprintf(" (all %d runs have the same score, %s: the fitted spread is zero)", a.Score.N, trimFloat(a.Score.Min))
	}
	return ""
}
