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

	"github.com/qoscal/qoscal/chartdata"
)

// Format is an image format: "svg" or "png".
type Format string

const (
	SVG Format = "svg"
	PNG Format = "png"
)

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
		return nil, fmt.Errorf("plots: a horizontal line at %v from %v to %v: %w", y, x0, x1, err)
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
		return nil, fmt.Errorf("plots: a vertical line at %v from %v to %v: %w", x, y0, y1, err)
	}
	l.Color = c
	l.Width = vg.Points(1.2)
	l.Dashes = dashes
	return l, nil
}

// undrawable is the error for a chart whose data say it cannot be drawn,
// nil for one that can.
func undrawable(h *chartdata.Head) error {
	if h.LeftOut != "" {
		return &UndrawableError{Chart: h.Name, Reason: h.LeftOut}
	}
	return nil
}

// Draw draws any of the six charts, at a desktop's width (8 inches, 768
// CSS pixels).
func Draw(w io.Writer, c chartdata.Chart, f Format) error {
	fig, err := build(c, desktop)
	if err != nil {
		return err
	}
	return fig.save(w, f)
}

// DrawPhone draws any of the six charts at a phone's width (3.75 inches,
// 360 CSS pixels), laid out to be read there without zooming: fewer
// labels on the axes, the title and the legend wrapped to the width, the
// history's panels in two columns. The HTML report shows it in place of
// Draw's on a narrow screen.
func DrawPhone(w io.Writer, c chartdata.Chart, f Format) error {
	fig, err := build(c, phone)
	if err != nil {
		return err
	}
	return fig.save(w, f)
}

// build lays out any chart for the size s.
func build(c chartdata.Chart, s size) (*figure, error) {
	switch c := c.(type) {
	case *chartdata.RatioSpread:
		return ratioSpread(c, s)
	case *chartdata.ScoreSequence:
		return scoreSequence(c, s)
	case *chartdata.ScoreDistribution:
		return scoreDistribution(c, s)
	case *chartdata.Noise:
		return noise(c, s)
	case *chartdata.FloorTradeoff:
		return floorTradeoff(c, s)
	case *chartdata.History:
		return history(c, s)
	}
	return nil, fmt.Errorf("plots: no drawing for a chart of type %T", c)
}

// refLine draws a reference line across the chart, horizontal at r.At
// from lo to hi on X or vertical at r.At from lo to hi on Y, in the one
// style of its kind (refStyles). It fails (as gonum does) when a
// coordinate is NaN or infinite, naming what the line marks.
func refLine(r chartdata.Ref, vertical bool, lo, hi float64) (*plotter.Line, error) {
	st, ok := refStyles[r.Kind]
	if !ok {
		return nil, fmt.Errorf("plots: no style for a reference line of kind %d", r.Kind)
	}
	draw := hline
	if vertical {
		draw = vline
	}
	l, err := draw(r.At, lo, hi, st.color, st.dashes)
	if err == nil {
		l.Width = st.width
		return l, nil
	}
	switch r.Kind {
	case chartdata.RefFloor:
		return nil, fmt.Errorf("plots: floor: %w", err)
	case chartdata.RefLowest:
		return nil, fmt.Errorf("plots: lowest score: %w", err)
	case chartdata.RefPrediction:
		return nil, fmt.Errorf("plots: prediction bound: %w", err)
	case chartdata.RefMedian:
		return nil, fmt.Errorf("plots: median score: %w", err)
	case chartdata.RefTarget:
		return nil, fmt.Errorf("plots: target rate: %w", err)
	}
	return nil, err
}

// addRefs draws reference lines on p and adds those with a label to the
// figure's legend, in order.
func addRefs(fig *figure, p *plot.Plot, refs []chartdata.Ref, vertical bool, lo, hi float64) ([]*plotter.Line, error) {
	var out []*plotter.Line
	for _, r := range refs {
		l, err := refLine(r, vertical, lo, hi)
		if err != nil {
			return nil, err
		}
		p.Add(l)
		if r.Label != "" {
			fig.add(r.Label, l)
		}
		out = append(out, l)
	}
	return out, nil
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
