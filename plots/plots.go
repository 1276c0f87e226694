// Package plots draws qoscal's variance charts with gonum.org/v1/plot:
// the ratio spread per benchmark, the score sequence, the score
// distribution, the noise by benchmark and the floor trade-off.
//
// Every chart takes analysis results from package calibrate and writes one
// image to an io.Writer, as SVG or PNG. The charts compute no statistics of
// their own (quartiles, densities and rates all come from calibrate), and
// never choose file names: that is the command line's job.
package plots

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"qoscal/calibrate"
)

// Format is an image format: "svg" or "png".
type Format string

const (
	SVG Format = "svg"
	PNG Format = "png"
)

// Floor is the floor a chart marks. Label says where it came from, in the
// caller's words, and is shown in the legend ("floor 1.25 (Label)").
type Floor struct {
	Value float64
	Label string
}

// Colours: a palette that reads in colour and in greyscale print.
var (
	colPoint  = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xb0}
	colBox    = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x30}
	colFloor  = color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	colMin    = color.NRGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	colParity = color.NRGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	colMedian = color.NRGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}
	colPred   = color.NRGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}
	colBad    = color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
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

// UndrawableError says that a chart cannot be drawn from the analysis it
// was given, and why: the data hold nothing it could show (every run has
// the same score, say). It is no fault of the writer or the format, and
// the other charts of the same analysis can still be drawn.
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
			t.Label = trimFloat(c)
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

func trimFloat(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// runsNote is "over 12 runs".
func runsNote(a *calibrate.Analysis) string {
	return fmt.Sprintf("%d runs", a.Score.N)
}

func metric(a *calibrate.Analysis) string { return a.Candidate + "/" + a.Baseline }

// pad widens [lo, hi] by a fraction on each side, so that glyphs at the
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
