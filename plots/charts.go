package plots

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"qoscal/chartdata"
)

const width = 8 * vg.Inch

// rowsHeight is the height of a chart with a row per benchmark.
func rowsHeight(k int) vg.Length { return vg.Length(k+2)*0.32*vg.Inch + 2*vg.Inch }

// RatioSpread draws each benchmark's ratio across runs, one row per
// benchmark (the first at the top): every run's ratio as a point, the
// quartile box, the min–max range and the median, on a log ratio axis,
// with the chart's vertical reference lines (parity, the median score).
func RatioSpread(w io.Writer, c *chartdata.RatioSpread, f Format) error {
	if err := undrawable(&c.Head); err != nil {
		return err
	}
	k := len(c.Rows)
	p := newPlot(c.Title, c.X.Label, c.Y.Label)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = ratioTicks{}
	names := make([]string, k)
	// Row k-1-i holds benchmark i, so the first is at the top.
	for i, row := range c.Rows {
		y := float64(k - 1 - i)
		names[k-1-i] = row.Benchmark
		b := row.Box
		box, err := plotter.NewPolygon(plotter.XYs{{X: b.Q1, Y: y - 0.3}, {X: b.Q3, Y: y - 0.3}, {X: b.Q3, Y: y + 0.3}, {X: b.Q1, Y: y + 0.3}})
		if err != nil {
			return fmt.Errorf("plots: benchmark %s: quartile box: %v", row.Benchmark, err)
		}
		box.Color = colBox
		box.LineStyle.Color = colPoint
		box.LineStyle.Width = vg.Points(0.8)
		whisker, err := hline(y, b.Min, b.Max, colPoint, nil)
		if err != nil {
			return fmt.Errorf("plots: benchmark %s: range: %v", row.Benchmark, err)
		}
		whisker.Width = vg.Points(0.8)
		median, err := vline(b.Median, y-0.35, y+0.35, colMedian, nil)
		if err != nil {
			return fmt.Errorf("plots: benchmark %s: median: %v", row.Benchmark, err)
		}
		median.Width = vg.Points(2)
		p.Add(box, whisker, median)
		pts := make(plotter.XYs, len(row.Ratios))
		for j, r := range row.Ratios {
			pts[j] = plotter.XY{X: r, Y: y}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("plots: benchmark %s: ratios: %v", row.Benchmark, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colPoint, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	}
	p.X.Min, p.X.Max = c.X.Min, c.X.Max
	err := addRefs(p, c.Refs, true, -0.6, float64(k)-0.4, map[chartdata.RefKind]lineStyle{
		chartdata.RefParity: {colParity, dashed},
		chartdata.RefMedian: {colMedian, dotted},
	})
	if err != nil {
		return err
	}
	p.Legend.Add(c.RowsLegend, box(colBox))
	p.NominalY(names...)
	// Head room above the top row keeps the legend off the data.
	p.Y.Min, p.Y.Max = -0.7, float64(k)+1.6
	p.Legend.Top = true
	p.Legend.Left = true
	return save(p, w, width, rowsHeight(k), f)
}

// box returns a legend thumbnail of a filled box.
func box(c color.Color) plot.Thumbnailer {
	// Only the fill and line colours show in a thumbnail: no points, so
	// nothing for NewPolygon to refuse (it checks points for NaN and Inf).
	poly := &plotter.Polygon{Color: c, LineStyle: plotter.DefaultLineStyle}
	poly.LineStyle.Color = colPoint
	return poly
}

// ScoreSequence draws each run's score in run order, joined by a line,
// with the chart's horizontal reference lines (the floor, the lowest
// observed score, parity); runs below the floor are red crosses.
func ScoreSequence(w io.Writer, c *chartdata.ScoreSequence, f Format) error {
	if err := undrawable(&c.Head); err != nil {
		return err
	}
	n := len(c.Scores.Points)
	p := newPlot(c.Title, c.X.Label, c.Y.Label)
	// The axis range is set below, with head room for the legend; the
	// shades span it all.
	top := c.Y.Max + (c.Y.Max-c.Y.Min)*0.35
	for i, s := range c.Regimes {
		// Shade the regimes, lightly and alternately, under everything.
		col := colShadeA
		if i%2 == 1 {
			col = colShadeB
		}
		if s.Calibrated {
			col = colShadeCal
		}
		poly, err := plotter.NewPolygon(plotter.XYs{{X: s.From, Y: c.Y.Min}, {X: s.To, Y: c.Y.Min}, {X: s.To, Y: top}, {X: s.From, Y: top}})
		if err != nil {
			return fmt.Errorf("plots: regime %s: %v", s.Label, err)
		}
		poly.Color, poly.LineStyle.Width = col, 0
		p.Add(poly)
		p.Legend.Add(s.Label, poly)
	}
	line, err := plotter.NewLine(xys(c.Scores))
	if err != nil {
		return fmt.Errorf("plots: run scores: %v", err)
	}
	line.Color = colPoint
	line.Width = vg.Points(0.6)
	p.Add(line)
	err = addRefs(p, c.Refs, false, c.X.Min, c.X.Max, map[chartdata.RefKind]lineStyle{
		chartdata.RefFloor:  {colFloor, nil},
		chartdata.RefLowest: {colMin, dashed},
		chartdata.RefParity: {colParity, dotted},
	})
	if err != nil {
		return err
	}
	radius := vg.Points(3)
	if n > 50 {
		radius = vg.Points(1.8)
	}
	for _, s := range []struct {
		series chartdata.Series
		glyph  draw.GlyphStyle
	}{
		{c.Above, draw.GlyphStyle{Color: colPoint, Radius: radius, Shape: draw.CircleGlyph{}}},
		{c.Below, draw.GlyphStyle{Color: colBad, Radius: vg.Points(4), Shape: draw.CrossGlyph{}}},
	} {
		if len(s.series.Points) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys(s.series))
		if err != nil {
			return fmt.Errorf("plots: run scores: %v", err)
		}
		sc.GlyphStyle = s.glyph
		p.Add(sc)
		p.Legend.Add(s.series.Label, sc)
	}
	p.X.Min, p.X.Max = c.X.Min, c.X.Max
	p.Y.Min, p.Y.Max = c.Y.Min, c.Y.Max
	p.X.Tick.Marker = runTicks{runs: c.Scores.Points}
	p.Y.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: chartdata.Num}
	// Head room above the highest run for the legend.
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.35
	p.Legend.Top = true
	return save(p, w, width, 4.5*vg.Inch, f)
}

// runTicks labels the run axis with run ids, thinned to at most about 12
// labels so that 200 runs do not overlap (then numbered, not named).
type runTicks struct{ runs []chartdata.Point }

func (t runTicks) Ticks(min, max float64) []plot.Tick {
	n := len(t.runs)
	stride := (n + 11) / 12
	var ticks []plot.Tick
	for i := 0; i < n; i++ {
		tk := plot.Tick{Value: float64(i + 1)}
		if i%stride == 0 {
			tk.Label = t.runs[i].Label
			if n > 12 {
				tk.Label = fmt.Sprint(i + 1)
			}
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// ScoreDistribution draws the histogram of the run scores, the fitted
// density (scaled to counts) and the chart's vertical reference lines
// (the floor, the lowest observed score, the prediction bound).
func ScoreDistribution(w io.Writer, c *chartdata.ScoreDistribution, f Format) error {
	if err := undrawable(&c.Head); err != nil {
		return err
	}
	p := newPlot(c.Title, c.X.Label, c.Y.Label)
	h := &plotter.Histogram{FillColor: colBox, LineStyle: plotter.DefaultLineStyle}
	for _, b := range c.Bins {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: b.Min, Max: b.Max, Weight: float64(b.Count)})
	}
	h.LineStyle.Color = colPoint
	p.Add(h)
	if len(c.Density.Points) > 0 {
		dens := &curve{pts: xys(c.Density), LineStyle: plotter.DefaultLineStyle}
		dens.Color = colMedian
		dens.Width = vg.Points(1.5)
		p.Add(dens)
		p.Legend.Add(c.Density.Label, dens)
	}
	err := addRefs(p, c.Refs, true, c.Y.Min, c.Y.Max, map[chartdata.RefKind]lineStyle{
		chartdata.RefFloor:      {colFloor, nil},
		chartdata.RefLowest:     {colMin, dashed},
		chartdata.RefPrediction: {colPred, dotted},
	})
	if err != nil {
		return err
	}
	p.X.Min, p.X.Max = c.X.Min, c.X.Max
	p.Y.Min, p.Y.Max = c.Y.Min, c.Y.Max
	p.X.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: chartdata.Num}
	p.Y.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: func(v float64) string { return fmt.Sprintf("%.3g", v) }}
	// Head room above the tallest bin for the legend, at the top right.
	p.Y.Max = c.Y.Max * 1.45
	p.Legend.Top = true
	p.Legend.Left = false
	return save(p, w, width, 4.5*vg.Inch, f)
}

// Noise draws, for each benchmark (the first at the top), its two bars
// (CV in log space, share of the score's variance) and a line at zero.
func Noise(w io.Writer, c *chartdata.Noise, f Format) error {
	if err := undrawable(&c.Head); err != nil {
		return err
	}
	k := len(c.Benchmarks)
	p := newPlot(c.Title, c.X.Label, c.Y.Label)
	// Row k-1-i holds benchmark i, so the first is at the top.
	cv := make(plotter.Values, k)
	share := make(plotter.Values, k)
	names := make([]string, k)
	for i := range c.Benchmarks {
		cv[k-1-i], share[k-1-i], names[k-1-i] = c.CV.Values[i], c.Share.Values[i], c.Benchmarks[i]
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
	p.Add(b1, b2)
	err = addRefs(p, []chartdata.Ref{c.Zero}, true, -0.6, float64(k)-0.4, map[chartdata.RefKind]lineStyle{
		chartdata.RefZero: {colParity, nil},
	})
	if err != nil {
		return err
	}
	p.Legend.Add(c.CV.Label, b1)
	p.Legend.Add(c.Share.Label, b2)
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.7, float64(k)+1.2
	p.Legend.Top = true
	p.Legend.Left = false
	p.X.Min, p.X.Max = c.X.Min, c.X.Max
	p.X.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: func(v float64) string { return fmt.Sprintf("%.3g", v) }}
	return save(p, w, width, rowsHeight(k), f)
}

// FloorTradeoff draws the candidate floors' false-positive rates (log
// axis) as a line of points, each labelled (with its r50).
func FloorTradeoff(w io.Writer, c *chartdata.FloorTradeoff, f Format) error {
	if err := undrawable(&c.Head); err != nil {
		return err
	}
	p := newPlot(c.Title, c.X.Label, c.Y.Label)
	p.Y.Scale = plot.LogScale{}
	pts := xys(c.Costs)
	labels := make([]string, len(c.Costs.Points))
	for i, pt := range c.Costs.Points {
		labels[i] = pt.Label
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
	p.Legend.Add(c.Costs.Label, line)
	p.X.Min, p.X.Max = c.X.Min, c.X.Max
	p.Y.Min, p.Y.Max = c.Y.Min, c.Y.Max
	p.Y.Tick.Marker = fmtTicks{Ticker: plot.LogTicks{Prec: -1}, format: func(v float64) string { return fmt.Sprintf("%.3g", v) }}
	p.X.Tick.Marker = fmtTicks{Ticker: plot.DefaultTicks{}, format: chartdata.Num}
	p.Legend.Left = true
	return save(p, w, width, 4*vg.Inch, f)
}
