// Package plots draws qoscal's variance charts with gonum.org/v1/plot:
// the ratio spread per benchmark, the score sequence, the score
// distribution, the noise by benchmark and the floor trade-off.
//
// Every chart is drawn from its data, computed once by package chartdata
// (points, reference lines, boxes, bins, the sampled density, labels and
// axis ranges), and written as one image to an io.Writer, as SVG or PNG.
// Drawing computes no statistics and no figures: only the layout of
// gonum/plot (row geometry, glyph sizes, room for the legend, tick
// marks). It never chooses file names: that is the command line's job.
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

// Format is an image format: "svg" or "png".
type Format string

const (
	SVG Format = "svg"
	PNG Format = "png"
)

// Colours: a palette that reads in colour and in greyscale print.
var (
	colPoint  = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xb0}
	colBox    = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x30}
	colFloor  = color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	colMin    = color.NRGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	colParity = color.NRGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	// Regime shades: greys for earlier regimes, a light blue for the one
	// calibrated on.
	colShadeA   = color.NRGBA{R: 0x00, G: 0x00, B: 0x00, A: 0x12}
	colShadeB   = color.NRGBA{R: 0x00, G: 0x00, B: 0x00, A: 0x08}
	colShadeCal = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x16}
	colMedian   = color.NRGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}
	colPred     = color.NRGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}
	colBad      = color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
)

var dashed = []vg.Length{vg.Points(5), vg.Points(3)}
var dotted = []vg.Length{vg.Points(1.5), vg.Points(2.5)}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.X.Padding = vg.Points(6)
	p.Y.Padding = vg.Points(6)
	return p
}

func save(p *plot.Plot, w io.Writer, width, height vg.Length, f Format) error {
	if f != SVG && f != PNG {
		return fmt.Errorf("plots: image format %q, want svg or png", f)
	}
	wt, err := p.WriterTo(width, height, string(f))
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

// UndrawableError says that a chart cannot be drawn from the data it was
// given, and why (its Head.LeftOut): the data hold nothing it could show
// (every run has the same score, say). It is no fault of the writer or the
// format, and the other charts of the same analysis can still be drawn.
type UndrawableError struct {
	Chart  string // the chart's name, as the command line names its file
	Reason string
}

func (e *UndrawableError) Error() string {
	return "plots: cannot draw the " + e.Chart + " chart: " + e.Reason
}

// hline draws a horizontal reference line from x0 to x1 at y. It fails
// (as gonum does) when a coordinate is NaN or infinite.
func hline(y, x0, x1 float64, c color.Color, dashes []vg.Length) (*plotter.Line, error) {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return nil, fmt.Errorf("plots: a horizontal line at %v from %v to %v: %v", y, x0, x1, err)
	}
	l.Color = c
	l.Width = vg.Points(1.2)
	l.Dashes = dashes
	return l, nil
}

// vline draws a vertical reference line from y0 to y1 at x. It fails (as
// gonum does) when a coordinate is NaN or infinite.
func vline(x, y0, y1 float64, c color.Color, dashes []vg.Length) (*plotter.Line, error) {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	if err != nil {
		return nil, fmt.Errorf("plots: a vertical line at %v from %v to %v: %v", x, y0, y1, err)
	}
	l.Color = c
	l.Width = vg.Points(1.2)
	l.Dashes = dashes
	return l, nil
}

// ratioTicks labels a log axis of ratios with round values near 1 (gonum's
// log ticks label only powers of ten).
type ratioTicks struct{}

func (ratioTicks) Ticks(min, max float64) []plot.Tick {
	cands := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8, 2, 2.5, 3, 4, 5, 6, 8, 10, 15, 20, 30, 50, 100}
	var in []float64
	for _, c := range cands {
		if c >= min && c <= max {
			in = append(in, c)
		}
	}
	// Thin the labels to at most about 10.
	stride := (len(in) + 9) / 10
	if stride < 1 {
		stride = 1
	}
	var ticks []plot.Tick
	for i, c := range in {
		t := plot.Tick{Value: c}
		if i%stride == 0 || c == 1 {
			t.Label = chartdata.Num(c)
		}
		ticks = append(ticks, t)
	}
	if len(ticks) < 2 {
		// A narrow range: label its ends.
		return []plot.Tick{{Value: min, Label: fmt.Sprintf("%.3g", min)}, {Value: max, Label: fmt.Sprintf("%.3g", max)}}
	}
	return ticks
}

// fmtTicks wraps a ticker and formats its labels with %.3g, so that no
// label prints as 9.999999999999999e-06.
type fmtTicks struct {
	plot.Ticker
	format func(float64) string
}

func (t fmtTicks) Ticks(min, max float64) []plot.Tick {
	ticks := t.Ticker.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = t.format(ticks[i].Value)
		}
	}
	return ticks
}

// undrawable is the error for a chart whose data say it cannot be drawn,
// nil for one that can.
func undrawable(h *chartdata.Head) error {
	if h.LeftOut != "" {
		return &UndrawableError{Chart: h.Name, Reason: h.LeftOut}
	}
	return nil
}

// Draw draws any of the five charts.
func Draw(w io.Writer, c chartdata.Chart, f Format) error {
	switch c := c.(type) {
	case *chartdata.RatioSpread:
		return RatioSpread(w, c, f)
	case *chartdata.ScoreSequence:
		return ScoreSequence(w, c, f)
	case *chartdata.ScoreDistribution:
		return ScoreDistribution(w, c, f)
	case *chartdata.Noise:
		return Noise(w, c, f)
	case *chartdata.FloorTradeoff:
		return FloorTradeoff(w, c, f)
	}
	return fmt.Errorf("plots: no drawing for a chart of type %T", c)
}

// lineStyle is how a reference line is drawn.
type lineStyle struct {
	color  color.Color
	dashes []vg.Length
}

// refLine draws a reference line across the chart, horizontal at r.At
// from lo to hi on X or vertical at r.At from lo to hi on Y, in the
// style its chart gives its kind. It fails (as gonum does) when a
// coordinate is NaN or infinite, naming what the line marks.
func refLine(r chartdata.Ref, vertical bool, lo, hi float64, styles map[chartdata.RefKind]lineStyle) (*plotter.Line, error) {
	st, ok := styles[r.Kind]
	if !ok {
		return nil, fmt.Errorf("plots: no style for a reference line of kind %d", r.Kind)
	}
	draw := hline
	if vertical {
		draw = vline
	}
	l, err := draw(r.At, lo, hi, st.color, st.dashes)
	if err == nil {
		return l, nil
	}
	switch r.Kind {
	case chartdata.RefFloor:
		return nil, fmt.Errorf("plots: floor: %v", err)
	case chartdata.RefLowest:
		return nil, fmt.Errorf("plots: lowest score: %v", err)
	case chartdata.RefPrediction:
		return nil, fmt.Errorf("plots: prediction bound: %v", err)
	case chartdata.RefMedian:
		return nil, fmt.Errorf("plots: median score: %v", err)
	}
	return nil, err
}

// addRefs draws reference lines and adds those with a label to the
// legend, in order.
func addRefs(p *plot.Plot, refs []chartdata.Ref, vertical bool, lo, hi float64, styles map[chartdata.RefKind]lineStyle) error {
	for _, r := range refs {
		l, err := refLine(r, vertical, lo, hi, styles)
		if err != nil {
			return err
		}
		p.Add(l)
		if r.Label != "" {
			p.Legend.Add(r.Label, l)
		}
	}
	return nil
}

// xys are the points of a series, for gonum.
func xys(s chartdata.Series) plotter.XYs {
	out := make(plotter.XYs, len(s.Points))
	for i, pt := range s.Points {
		out[i] = plotter.XY{X: pt.X, Y: pt.Y}
	}
	return out
}

// curve draws a line through points sampled elsewhere (the fitted
// density), as plotter.Function draws the points it samples itself: no
// data range, no glyph boxes, clipped to the data area.
type curve struct {
	pts plotter.XYs
	draw.LineStyle
}

func (c *curve) Plot(cv draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&cv)
	line := make([]vg.Point, len(c.pts))
	for i, pt := range c.pts {
		line[i].X = trX(pt.X)
		line[i].Y = trY(pt.Y)
	}
	cv.StrokeLines(c.LineStyle, cv.ClipLinesXY(line)...)
}

// Thumbnail draws a line in the curve's style across the legend entry.
func (c *curve) Thumbnail(cv *draw.Canvas) {
	y := cv.Center().Y
	cv.StrokeLine2(c.LineStyle, cv.Min.X, y, cv.Max.X, y)
}
