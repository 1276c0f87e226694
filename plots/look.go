package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/qoscal/qoscal/chartdata"
)

// The one look of every chart: Liberation Sans (the sans-serif face of the
// Liberation fonts that gonum/plot compiles in, metric-compatible with
// Arial, so that an SVG shown with a fallback face keeps its layout), the
// Okabe–Ito palette (told apart with every common colour-vision
// deficiency) with a line style or marker of its own for every meaning, so
// that nothing is told by colour alone, and text no smaller than 10 pt.

// sans is Liberation Sans at a size.
func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// Text sizes: the title, the axis labels, tick labels and the legend, and
// labels written on the data.
const (
	sizeTitle = 12
	sizeLabel = 11
	sizeTick  = 10
	sizeNote  = 10
)

// The Okabe–Ito palette (Okabe and Ito, "Color Universal Design", 2008).
var (
	oiBlack     = color.NRGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xff}
	oiOrange    = color.NRGBA{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff}
	oiSky       = color.NRGBA{R: 0x56, G: 0xb4, B: 0xe9, A: 0xff}
	oiGreen     = color.NRGBA{R: 0x00, G: 0x9e, B: 0x73, A: 0xff}
	oiBlue      = color.NRGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff}
	oiVermilion = color.NRGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff}
	oiPurple    = color.NRGBA{R: 0xcc, G: 0x79, B: 0xa7, A: 0xff}
	grey        = color.NRGBA{R: 0x59, G: 0x59, B: 0x59, A: 0xff}
)

// What each colour means, on every chart.
var (
	colPoint  = withAlpha(oiBlue, 0xb0) // a run's ratio or score
	colLine   = oiBlue                  // lines and outlines of the data
	colBox    = withAlpha(oiBlue, 0x38) // the quartile box, histogram bars
	colBand   = withAlpha(oiSky, 0x40)  // a calibrated band
	colMedian = oiBlack                 // a benchmark's median ratio
	colBad    = oiVermilion             // runs below the floor
	colMark   = oiVermilion             // this run (plot --run)
	colGated  = oiOrange                // runs gated after the calibration
	colFit    = oiGreen                 // the fitted density
	colShare  = oiOrange                // the share-of-variance bars
	colR50    = oiGreen                 // r50 on the floor trade-off
	// Regime shades: greys for earlier regimes, a light blue for the one
	// calibrated on.
	colShadeA   = color.NRGBA{A: 0x14}
	colShadeB   = color.NRGBA{A: 0x08}
	colShadeCal = withAlpha(oiSky, 0x22)
)

func withAlpha(c color.NRGBA, a uint8) color.NRGBA { c.A = a; return c }

var (
	dashed  = []vg.Length{vg.Points(6), vg.Points(3)}
	dotted  = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
	dashDot = []vg.Length{vg.Points(7), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)}
	longer  = []vg.Length{vg.Points(10), vg.Points(4)}
)

// lineStyle is how a reference line is drawn.
type lineStyle struct {
	color  color.Color
	dashes []vg.Length
	width  vg.Length
}

// refStyles is the one style of each kind of reference line, on every
// chart: the floor solid and thick, the lowest observed score dashed, the
// median score dash-dotted, the prediction bound in long dashes, parity
// dotted grey.
var refStyles = map[chartdata.RefKind]lineStyle{
	chartdata.RefFloor:      {oiVermilion, nil, vg.Points(2)},
	chartdata.RefLowest:     {oiOrange, dashed, vg.Points(1.5)},
	chartdata.RefMedian:     {oiPurple, dashDot, vg.Points(1.5)},
	chartdata.RefPrediction: {oiBlack, longer, vg.Points(1.3)},
	chartdata.RefParity:     {grey, dotted, vg.Points(1.2)},
	chartdata.RefZero:       {grey, nil, vg.Points(1)},
	chartdata.RefTarget:     {oiPurple, dashDot, vg.Points(1.5)},
}

// size is what a chart is laid out for: a page on a desktop's screen,
// 8 inches wide (768 CSS pixels), or a phone's, 3.75 inches (360 CSS
// pixels: shown at 340 to 430 pixels wide on common phones, the chart's
// 10 pt text is 12.6 px or more there, where the desktop's chart, scaled
// to fit, had text of 6 px). A phone's chart has fewer labels on its
// axes, its titles and legend wrapped to its width, its legend from its
// left edge, and the history's panels in two columns.
type size struct {
	width vg.Length
	phone bool
}

var (
	desktop = size{width: 8 * vg.Inch}
	phone   = size{width: 3.75 * vg.Inch, phone: true}
)

// dataWidth is about the width of a chart's data area, to decide what
// text fits in it.
func (s size) dataWidth() vg.Length { return s.width - 80 }

// ticks is the number of labels wanted on an axis: desk on a desktop,
// ph on a phone.
func (s size) ticks(desk, ph int) int {
	if s.phone {
		return ph
	}
	return desk
}

// length is desk on a desktop, ph on a phone.
func (s size) length(desk, ph vg.Length) vg.Length {
	if s.phone {
		return ph
	}
	return desk
}

// wrap breaks text at spaces into lines no wider than w in font f (a
// word wider than w keeps a line of its own).
func wrap(text string, f font.Font, w vg.Length) []string {
	face := font.DefaultCache.Lookup(f, f.Size)
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case face.Width(line+" "+word) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// spaced draws text as gonum's plain handler does, but the lines of a
// text of several a line height apart, as its box is measured
// (text.Plain sets them one font size apart, where an ascender touches
// the descender above it).
type spaced struct{ text.Plain }

var spacedText = spaced{text.Plain{Fonts: font.DefaultCache}}

func (h spaced) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	lines := h.Lines(strings.TrimRight(txt, "\n"))
	if len(lines) < 2 {
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	// Line i is drawn alone, moved along the text's up direction from
	// pt by where the whole text's alignment puts it, the last line
	// where text.Plain puts it.
	lh := h.Extents(sty.Font).Height
	rest := sty.Height(txt) - sty.Height(lines[0])
	sin, cos := math.Sincos(sty.Rotation)
	for i, line := range lines {
		d := rest*vg.Length(sty.YAlign) + vg.Length(len(lines)-1-i)*lh
		h.Plain.Draw(c, line, sty, vg.Point{X: pt.X - d*vg.Length(sin), Y: pt.Y + d*vg.Length(cos)})
	}
}

// fit shortens text to at most w wide in font f, when it is wider, by
// putting an ellipsis in its middle: its start and its end are kept (a
// benchmark's name and its parameters; the report's tables give it
// whole).
func fit(text string, f font.Font, w vg.Length) string {
	face := font.DefaultCache.Lookup(f, f.Size)
	if face.Width(text) <= w {
		return text
	}
	r := []rune(text)
	for keep := len(r) - 1; keep > 0; keep-- {
		head, tail := (keep+1)/2, keep/2
		s := string(r[:head]) + "…" + string(r[len(r)-tail:])
		if face.Width(s) <= w {
			return s
		}
	}
	return "…"
}

// fitNames fits a chart's row names (the benchmarks) into two fifths of
// its width, so that a long name does not take the data's room.
func fitNames(names []string, s size) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fit(n, sans(sizeTick), s.width*2/5)
	}
	return out
}

// newPlot is a plot in the one look: sans-serif text, padded axes, and
// no legend of its own (the figure draws the legend below the plot, where
// it never covers the data). The title and the X axis's label are
// wrapped to the chart's width.
func newPlot(s size, title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = strings.Join(wrap(title, sans(sizeTitle), s.width-2*vg.Points(margin)), "\n")
	p.Title.TextStyle.Handler = spacedText
	p.X.Label.TextStyle.Handler = spacedText
	x = strings.Join(wrap(x, sans(sizeLabel), s.width-vg.Points(60)), "\n")
	p.Title.Padding = vg.Points(8)
	p.Title.TextStyle.Font = sans(sizeTitle)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(sizeLabel)
		a.Tick.Label.Font = sans(sizeTick)
		a.Padding = vg.Points(6)
	}
	p.Legend.TextStyle.Font = sans(sizeTick)
	return p
}

// note is the style of a label written on the data.
func note(c color.Color) draw.TextStyle {
	return draw.TextStyle{Color: c, Font: sans(sizeNote), Handler: plot.DefaultTextHandler}
}

// figure is what a chart function draws: one plot, or panels stacked
// top to bottom with their data areas aligned, and a legend below them
// (in one or two columns), where it cannot touch the data or itself.
type figure struct {
	// title is drawn above the panels when there are several (gonum's
	// alignment of panels would count a panel's own title as space to
	// keep between panels).
	title  string
	panels []*plot.Plot
	// cols lays the panels out in a grid of this many columns, filled
	// row by row, with gonum's alignment (0 or 1: stacked).
	cols int
	// height is the height of the panels together, without the legend.
	width, height vg.Length
	// phone starts the legend at the figure's left edge, not under the
	// data area, to give its text the width.
	phone  bool
	legend []legendEntry
}

// newFigure is a figure of the size s, panels height high.
func newFigure(s size, title string, height vg.Length, panels ...*plot.Plot) *figure {
	t := ""
	if title != "" {
		t = strings.Join(wrap(title, sans(sizeTitle), s.width-2*vg.Points(margin)), "\n")
	}
	return &figure{title: t, panels: panels, width: s.width, height: height, phone: s.phone}
}

type legendEntry struct {
	label  string
	thumbs []plot.Thumbnailer
}

func (f *figure) add(label string, thumbs ...plot.Thumbnailer) {
	f.legend = append(f.legend, legendEntry{label, thumbs})
}

// legendPad is the space between legend entries, and above the legend.
const legendPad = 4

// legendRoom is about the width of the legend strip: under the data area
// on a desktop's chart, the whole width on a phone's.
func (f *figure) legendRoom() vg.Length {
	if f.phone {
		return f.width - 2*vg.Points(margin)
	}
	return f.width - vg.Points(90)
}

// legends lays the entries out in one column, or two when there are more
// than four, filled top to bottom then left to right. A label wider than
// its column goes on as many lines as it needs, the lines after its first
// without a thumbnail.
func (f *figure) legends() []plot.Legend {
	cols := 1
	sty := draw.TextStyle{Font: sans(sizeTick), Handler: plot.DefaultTextHandler}
	if len(f.legend) > 4 {
		cols = 2
		for _, e := range f.legend {
			if vg.Points(24)+sty.Width(" "+e.label)+vg.Points(12) > f.legendRoom()/2 {
				cols = 1
			}
		}
	}
	textRoom := f.legendRoom()/vg.Length(cols) - vg.Points(24) - sty.Width(" ") - vg.Points(2)
	per := (len(f.legend) + cols - 1) / cols
	var out []plot.Legend
	for c := 0; c < cols; c++ {
		l := plot.NewLegend()
		l.TextStyle.Font = sans(sizeTick)
		l.Top, l.Left = true, true
		l.Padding = vg.Points(legendPad)
		l.ThumbnailWidth = vg.Points(24)
		for _, e := range f.legend[c*per : min((c+1)*per, len(f.legend))] {
			for i, line := range wrap(e.label, sans(sizeTick), textRoom) {
				if i == 0 {
					l.Add(line, e.thumbs...)
				} else {
					l.Add(line)
				}
			}
		}
		out = append(out, l)
	}
	return out
}

// legendHeight is the height of the legend strip.
func (f *figure) legendHeight(ls []plot.Legend) vg.Length {
	var h vg.Length
	for i := range ls {
		r := ls[i].Rectangle(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: f.width, Y: 1000}}})
		h = max(h, r.Size().Y)
	}
	if h == 0 {
		return 0
	}
	return h + 2*vg.Points(legendPad) + vg.Points(4)
}

// margin is the space around a figure, in points.
const margin = 6

// pngDPI draws PNG images at twice the 96 dpi of a CSS pixel, for
// high-density screens.
const pngDPI = 192

// draw draws the figure on a canvas of its size.
func (f *figure) draw(dc draw.Canvas) {
	ls := f.legends()
	lh := f.legendHeight(ls)
	top := draw.Crop(dc, vg.Points(margin), -vg.Points(margin), lh, -vg.Points(margin))
	if f.title != "" {
		sty := draw.TextStyle{Color: color.Black, Font: sans(sizeTitle), Handler: spacedText, XAlign: draw.XCenter, YAlign: draw.YTop}
		top.FillText(sty, vg.Point{X: (top.Min.X + top.Max.X) / 2, Y: top.Max.Y}, f.title)
		top = draw.Crop(top, 0, 0, 0, -sty.Height(f.title)-vg.Points(8))
	}
	if f.cols > 1 {
		f.drawGrid(dc, top, ls, lh)
		return
	}
	// Panels share the height; their data areas are lined up by
	// cropping each tile to the widest left and right spacing of all.
	cs := make([]draw.Canvas, len(f.panels))
	h := (top.Max.Y - top.Min.Y) / vg.Length(len(f.panels))
	var left, right vg.Length
	for i, p := range f.panels {
		cs[i] = top
		cs[i].Max.Y = top.Max.Y - vg.Length(i)*h
		cs[i].Min.Y = cs[i].Max.Y - h
		if _, log := p.Y.Scale.(plot.LogScale); log && p.Y.Label.Text != "" {
			// gonum reserves room for the label of a log Y axis as if
			// it sat at the arithmetic middle of the range, near the
			// top: draw it here instead, at the panel's middle.
			sty := p.Y.Label.TextStyle
			sty.Rotation = math.Pi / 2
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
			cs[i].FillText(sty, vg.Point{X: cs[i].Min.X, Y: (cs[i].Min.Y + cs[i].Max.Y) / 2}, p.Y.Label.Text)
			cs[i] = draw.Crop(cs[i], p.Y.Label.TextStyle.Height(p.Y.Label.Text)+p.Y.Label.Padding+vg.Points(6), 0, 0, 0)
			p.Y.Label.Text = ""
		}
		d := p.DataCanvas(cs[i])
		left, right = max(left, d.Min.X-top.Min.X), max(right, top.Max.X-d.Max.X)
	}
	for i, p := range f.panels {
		d := p.DataCanvas(cs[i])
		cs[i] = draw.Crop(cs[i], left-(d.Min.X-top.Min.X), -(right - (top.Max.X - d.Max.X)), 0, 0)
	}
	var data draw.Canvas
	for i, p := range f.panels {
		p.Draw(cs[i])
		if i == len(f.panels)-1 {
			data = p.DataCanvas(cs[i])
		}
	}
	f.drawLegend(dc, ls, lh, data.Min.X)
}

// drawGrid draws the panels in a grid of f.cols columns on top, and the
// legend below.
func (f *figure) drawGrid(dc, top draw.Canvas, ls []plot.Legend, lh vg.Length) {
	rows := (len(f.panels) + f.cols - 1) / f.cols
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, f.cols)
		for c := range grid[r] {
			if i := r*f.cols + c; i < len(f.panels) {
				grid[r][c] = f.panels[i]
			}
		}
	}
	cs := plot.Align(grid, draw.Tiles{Rows: rows, Cols: f.cols, PadX: vg.Points(14), PadY: vg.Points(8)}, top)
	x0 := top.Max.X
	for r := range grid {
		for c, p := range grid[r] {
			if p == nil {
				continue
			}
			p.Draw(cs[r][c])
			x0 = min(x0, p.DataCanvas(cs[r][c]).Min.X)
		}
	}
	f.drawLegend(dc, ls, lh, x0)
}

// drawLegend draws the legend's columns in the strip of height lh at the
// bottom of dc, from x0.
func (f *figure) drawLegend(dc draw.Canvas, ls []plot.Legend, lh, x0 vg.Length) {
	if lh == 0 {
		return
	}
	// The legend starts under the data area's left edge; a second column
	// starts halfway across it.
	// On a phone, or when a column would not fit from there (a long
	// benchmark name widens the axis), from the figure's left edge.
	colW := (dc.Max.X - x0) / vg.Length(len(ls))
	for i := range ls {
		if ls[i].Rectangle(dc).Size().X > colW {
			x0 = dc.Min.X + vg.Points(margin)
		}
	}
	if f.phone {
		x0 = dc.Min.X + vg.Points(margin)
	}
	colW = (dc.Max.X - x0) / vg.Length(len(ls))
	for i := range ls {
		c := dc
		c.Min.X = x0 + vg.Length(i)*colW
		c.Max.X = c.Min.X + colW
		c.Max.Y = dc.Min.Y + lh - vg.Points(legendPad)
		ls[i].Draw(c)
	}
}

// save writes the figure as SVG (the primary format) or PNG (at twice the
// resolution of a CSS pixel).
func (f *figure) save(w io.Writer, format Format) error {
	ls := f.legends()
	h := f.height + f.legendHeight(ls)
	switch format {
	case SVG:
		c := vgsvg.New(f.width, h)
		f.draw(draw.New(c))
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return err
		}
		_, err := w.Write(sansFallback(buf.Bytes()))
		return err
	case PNG:
		c := vgimg.NewWith(vgimg.UseWH(f.width, h), vgimg.UseDPI(pngDPI), vgimg.UseBackgroundColor(color.White))
		f.draw(draw.New(c))
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
		return err
	}
	return fmt.Errorf("plots: image format %q, want svg or png", format)
}

// sansFallback names faces a browser has when it lacks Liberation Sans:
// gonum's SVG names only the face it measured the text with, and a
// browser without it falls back to its default face, often a serif one.
func sansFallback(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;"))
}

// ratioTicks labels a log axis of ratios with round values, spaced so
// that labels never collide: at least an eighth of the axis (in log
// space; 1/parts of it when parts is set) apart. The roundest values are placed first (1, 2, 5 and their
// tenths), then the tenths (0.7, 1.3), then the twentieths (1.05), each
// where it keeps its distance from those placed. Every twentieth in range
// gets an unlabelled tick.
type ratioTicks struct {
	// parts is the number of gaps the axis is cut into at least (8
	// when 0): the most labels there can be, less one.
	parts float64
}

// ratioTiers are the round values of a ratio axis, roundest first.
var ratioTiers = func() [][]float64 {
	t0 := []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}
	var t1, t2 []float64
	for i := 1; i <= 9; i++ {
		t1 = append(t1, float64(i)/10)
	}
	for i := 11; i <= 19; i++ {
		t1 = append(t1, float64(i)/10)
	}
	t1 = append(t1, 1.5, 2.5, 3, 4, 6, 8, 15, 30)
	for i := 10; i <= 40; i++ {
		if i%2 == 1 {
			t2 = append(t2, float64(i)*0.05)
		}
	}
	return [][]float64{t0, t1, t2}
}()

func (t ratioTicks) Ticks(lo, hi float64) []plot.Tick {
	parts := t.parts
	if parts == 0 {
		parts = 8
	}
	gap := (math.Log(hi) - math.Log(lo)) / parts
	var labels []float64
	for _, tier := range ratioTiers {
		for _, v := range tier {
			if v < lo || v > hi {
				continue
			}
			free := true
			for _, l := range labels {
				if math.Abs(math.Log(v)-math.Log(l)) < gap {
					free = false
				}
			}
			if free {
				labels = append(labels, v)
			}
		}
	}
	if len(labels) < 2 {
		// A narrow range: its ends, with three significant digits.
		return []plot.Tick{{Value: lo, Label: fmt.Sprintf("%.3g", lo)}, {Value: hi, Label: fmt.Sprintf("%.3g", hi)}}
	}
	seen := map[float64]bool{}
	var ticks []plot.Tick
	for _, v := range labels {
		seen[v] = true
		ticks = append(ticks, plot.Tick{Value: v, Label: chartdata.Num(v)})
	}
	for _, tier := range ratioTiers {
		for _, v := range tier {
			if v >= lo && v <= hi && !seen[v] {
				seen[v] = true
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	sort.Slice(ticks, func(i, j int) bool { return ticks[i].Value < ticks[j].Value })
	return ticks
}

// percentTicks labels a log axis of rates (fractions) in percent, at 1, 2
// and 5 times powers of ten.
type percentTicks struct{}

func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	var cands []float64
	for e := -15; e <= 0; e++ {
		for _, m := range []float64{1, 2, 5} {
			if v := m * math.Pow(10, float64(e)); v <= 1 {
				cands = append(cands, v)
			}
		}
	}
	if math.Log10(hi/lo) >= 2.5 {
		// Over several decades, the powers of ten alone.
		var pow []float64
		for _, c := range cands {
			if m := math.Log10(c); math.Abs(m-math.Round(m)) < 1e-9 {
				pow = append(pow, c)
			}
		}
		cands = pow
	}
	return logTicks(lo, hi, cands, 7, Percent)
}

// Percent formats a rate (a fraction) in percent with up to three
// significant digits and no exponent: 0.001 is "0.1%".
// Below 0.01% a power of ten is written with its exponent: 1e-6%.
func Percent(v float64) string {
	p := v * 100
	if e := math.Log10(p); p > 0 && p < 0.01 && math.Abs(e-math.Round(e)) < 1e-9 {
		return fmt.Sprintf("1e%d%%", int(math.Round(e)))
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(p, 'g', 3, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64) + "%"
}

// niceTicks labels a linear axis at steps of 1, 2, 2.5 or 5 times a power
// of ten, the step that gives the nearest to n labels (never more than
// 10), every label with the same number of decimals. integer keeps the
// step whole (counts).
type niceTicks struct {
	n       int
	integer bool
}

func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: chartdata.Num(lo)}}
	}
	step, decimals := niceStep(hi-lo, t.n, t.integer)
	var ticks []plot.Tick
	first := math.Ceil(lo/step-1e-9) * step
	for i := 0; ; i++ {
		v := first + float64(i)*step
		if v > hi+step*1e-9 {
			break
		}
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	return ticks
}

// niceStep is the step of 1, 2, 2.5 or 5 times a power of ten (whole when
// integer) that cuts span into the nearest to n parts, no more than 10,
// and the decimals its labels need.
func niceStep(span float64, n int, integer bool) (float64, int) {
	e0 := math.Floor(math.Log10(span / float64(n)))
	best, bestD, bestMiss := 0.0, 0, math.Inf(1)
	for e := e0 - 1; e <= e0+1; e++ {
		for _, m := range []float64{1, 2, 2.5, 5} {
			step := m * math.Pow(10, e)
			if integer && (step < 1 || (m == 2.5 && e == 0)) {
				continue
			}
			parts := span / step
			if parts > 10 {
				continue
			}
			if miss := math.Abs(parts - float64(n)); miss < bestMiss {
				d := -int(e)
				if m == 2.5 {
					d++
				}
				best, bestD, bestMiss = step, max(0, d), miss
			}
		}
	}
	if best == 0 {
		// No round step makes 10 parts or fewer: the smallest power of
		// ten that does.
		return math.Pow(10, math.Ceil(math.Log10(span/10))), 0
	}
	return best, bestD
}

// logTicks picks, from round values cands (ascending), the ones in
// [lo, hi], and labels those at least 1/parts of the log range apart,
// starting from the value nearest 1 and going out both ways.
func logTicks(lo, hi float64, cands []float64, parts float64, format func(float64) string) []plot.Tick {
	var in []float64
	for _, c := range cands {
		if c >= lo && c <= hi {
			in = append(in, c)
		}
	}
	if len(in) < 2 {
		// A narrow range: its ends, with three significant digits.
		return []plot.Tick{{Value: lo, Label: fmt.Sprintf("%.3g", lo)}, {Value: hi, Label: fmt.Sprintf("%.3g", hi)}}
	}
	gap := (math.Log(hi) - math.Log(lo)) / parts
	start := 0
	for i, c := range in {
		if math.Abs(math.Log(c)) < math.Abs(math.Log(in[start])) {
			start = i
		}
	}
	labelled := make([]bool, len(in))
	labelled[start] = true
	last := in[start]
	for i := start + 1; i < len(in); i++ {
		if math.Log(in[i])-math.Log(last) >= gap {
			labelled[i], last = true, in[i]
		}
	}
	last = in[start]
	for i := start - 1; i >= 0; i-- {
		if math.Log(last)-math.Log(in[i]) >= gap {
			labelled[i], last = true, in[i]
		}
	}
	ticks := make([]plot.Tick, len(in))
	for i, c := range in {
		ticks[i].Value = c
		if labelled[i] {
			ticks[i].Label = format(c)
		}
	}
	return ticks
}

// floorTicks marks every candidate floor on the floor axis, and labels
// those at least a tenth of the axis apart (1/parts of it, when parts is
// set), the marked one (the recommended floor) first.
type floorTicks struct {
	floors []float64
	marked float64
	parts  float64
}

func (t floorTicks) Ticks(lo, hi float64) []plot.Tick {
	parts := t.parts
	if parts == 0 {
		parts = 10
	}
	gap := (hi - lo) / parts
	vals := append([]float64{t.marked}, t.floors...)
	var ticks []plot.Tick
	var labelled []float64
	seen := map[float64]bool{}
	for _, v := range vals {
		if v < lo || v > hi || seen[v] {
			continue
		}
		seen[v] = true
		tk := plot.Tick{Value: v}
		free := true
		for _, l := range labelled {
			if math.Abs(l-v) < gap {
				free = false
			}
		}
		if free {
			tk.Label = chartdata.Num(v)
			labelled = append(labelled, v)
		}
		ticks = append(ticks, tk)
	}
	sort.Slice(ticks, func(i, j int) bool { return ticks[i].Value < ticks[j].Value })
	return ticks
}

// unlabelled is a ticker's ticks without their labels (the upper panel of
// two that share an X axis).
type unlabelled struct{ plot.Ticker }

func (u unlabelled) Ticks(lo, hi float64) []plot.Tick {
	ts := u.Ticker.Ticks(lo, hi)
	for i := range ts {
		ts[i].Label = ""
	}
	return ts
}
