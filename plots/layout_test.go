package plots

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/chartdata"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

// synthetic analyses n seeded runs of seven benchmarks, with a step down
// of the score after 60% of them, and recommends the default floor. With
// long, two of the benchmarks have long names, one hostile.
func synthetic(t testing.TB, n int, long bool) (*spread.Analysis, *calfloor.Recommendation) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	benches := []struct {
		name     string
		mean, cv float64
	}{{"alloc-test", 1.67, 0.03}, {"cache-scratch", 2.2, 0.05}, {"cache-thrash", 1.8, 0.08}, {"larson", 0.88, 0.015}, {"sh8bench", 0.97, 0.02}, {"threadtest", 1.4, 0.04}, {"mstress", 1.2, 0.03}}
	if long {
		benches[1].name = "BenchmarkCacheScratch/threads=64/size=4096/objects=1000000-8"
		benches[4].name = "<b>sh8bench</b> :: a name of forty-five characters"
	}
	runs := make([]data.Run, n)
	for i := range runs {
		r := data.Run{ID: fmt.Sprintf("run-%04d", i+1), Baseline: "system", Candidate: "hoard"}
		shift := 1.0
		if i > n*6/10 {
			shift = 0.97
		}
		for _, b := range benches {
			base := 1e6 * (1 + rng.Float64())
			ratio := b.mean * shift * math.Exp(rng.NormFloat64()*b.cv)
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: b.name, Variant: "system", Value: base, Unit: formats.OpsUnit},
				data.Measurement{Benchmark: b.name, Variant: "hoard", Value: base * ratio, Unit: formats.OpsUnit})
		}
		runs[i] = r
	}
	a, err := spread.Analyze(runs, spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := calfloor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	return a, rec
}

// box is a text's extent in the SVG's user space (points, y down).
type box struct {
	x0, y0, x1, y1 float64
	text           string
}

func (a box) overlaps(b box) bool {
	// A hair of tolerance: abutting boxes do not overlap.
	const eps = 0.5
	return a.x0 < b.x1-eps && b.x0 < a.x1-eps && a.y0 < b.y1-eps && b.y0 < a.y1-eps
}

var (
	sizeRe   = regexp.MustCompile(`font-size:([0-9.]+)px`)
	rotateRe = regexp.MustCompile(`^rotate\(([-0-9.]+)\)$`)
)

// textBoxes are the boxes of every text of a gonum SVG, measured with the
// font the SVG names (Liberation Sans, the face the chart was laid out
// with): x, baseline y and size from the element, width and height from
// the font's metrics, turned by the rotation of the group it is in. It
// fails on a text in another face.
func textBoxes(t *testing.T, svg []byte) []box {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var rot []float64 // rotation of each open <g>, degrees
	var out []box
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "g":
				deg := 0.0
				if m := rotateRe.FindStringSubmatch(attr["transform"]); m != nil {
					deg, _ = strconv.ParseFloat(m[1], 64)
				}
				rot = append(rot, deg)
			case "text":
				var s string
				if err := dec.DecodeElement(&s, &el); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(attr["style"], "font-family:'Liberation Sans'") {
					t.Fatalf("text %q is not in Liberation Sans: %s", s, attr["style"])
				}
				m := sizeRe.FindStringSubmatch(attr["style"])
				if m == nil {
					t.Fatalf("text %q has no font size", s)
				}
				size, _ := strconv.ParseFloat(m[1], 64)
				x, _ := strconv.ParseFloat(attr["x"], 64)
				y, _ := strconv.ParseFloat(attr["y"], 64)
				face := font.DefaultCache.Lookup(sans(vg.Length(size)), vg.Length(size))
				ext := face.Extents()
				w := float64(face.Width(s))
				// The text is drawn with scale(1, -1) at (x, y): its
				// baseline is at -y in the group's space, which is
				// itself flipped: y grows upwards there.
				b := box{x, -y - float64(ext.Descent), x + w, -y + float64(ext.Ascent), s}
				deg := 0.0
				for _, r := range rot {
					deg += r
				}
				if deg != 0 {
					b = turn(b, deg)
				}
				out = append(out, b)
			}
		case xml.EndElement:
			if el.Name.Local == "g" && len(rot) > 0 {
				rot = rot[:len(rot)-1]
			}
		}
	}
	return out
}

// svgSize is the width and height of a gonum SVG's picture, in points
// (its viewBox).
func svgSize(t *testing.T, svg []byte) (w, h float64) {
	t.Helper()
	m := regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`).FindSubmatch(svg)
	if m == nil {
		t.Fatal("the SVG has no viewBox")
	}
	w, _ = strconv.ParseFloat(string(m[1]), 64)
	h, _ = strconv.ParseFloat(string(m[2]), 64)
	return w, h
}

// turn rotates a box by deg degrees about the origin and returns the box
// around it.
func turn(b box, deg float64) box {
	s, c := math.Sincos(deg * math.Pi / 180)
	r := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1), b.text}
	for _, p := range [][2]float64{{b.x0, b.y0}, {b.x1, b.y0}, {b.x0, b.y1}, {b.x1, b.y1}} {
		x, y := p[0]*c-p[1]*s, p[0]*s+p[1]*c
		r.x0, r.x1 = math.Min(r.x0, x), math.Max(r.x1, x)
		r.y0, r.y1 = math.Min(r.y0, y), math.Max(r.y1, y)
	}
	return r
}

// labelled counts the labelled ticks of an axis.
func labelled(a plot.Axis) int {
	n := 0
	for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if tk.Label != "" {
			n++
		}
	}
	return n
}

// TestLayout draws every chart of 10 and of 2,000 synthetic runs, at a
// desktop's width and a phone's, and checks that no two texts touch, that
// every text is inside the picture (on a 390 px phone the desktop's
// chart was scaled to text of 6 px, or scrolled sideways: issue 35), that
// each numeric axis has between 2 and 10 labelled ticks (integer ones on
// the count axis; at most 6 on a phone), and that the floor is marked
// where the chart shows it.
func TestLayout(t *testing.T) {
	for _, n := range []int{10, 2000} {
		for _, s := range []size{desktop, phone} {
			for _, long := range []bool{false, true} {
				layout(t, n, s, long)
			}
		}
	}
}

func layout(t *testing.T, n int, s size, long bool) {
	a, rec := synthetic(t, n, long)
	floor := chartdata.Floor{Value: rec.Floor, Label: "recommended"}
	cs := chartdata.All(a, nil, rec, floor)
	most := s.ticks(10, 6)
	for _, c := range cs {
		{
			name := fmt.Sprintf("%d runs/%s at %v pt (long names %v)", n, c.Header().Name, s.width, long)
			fig, err := build(c, s)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i, p := range fig.panels {
				axes := map[string]plot.Axis{"X": p.X, "Y": p.Y}
				for an, ax := range axes {
					if _, nominal := ax.Tick.Marker.(plot.ConstantTicks); nominal {
						continue
					}
					if _, hidden := ax.Tick.Marker.(unlabelled); hidden {
						continue
					}
					if k := labelled(ax); k < 2 || k > most {
						t.Errorf("%s panel %d: %s axis has %d labelled ticks, want 2 to %d", name, i, an, k, most)
					}
				}
			}
			var buf bytes.Buffer
			if err := fig.save(&buf, SVG); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			bs := textBoxes(t, buf.Bytes())
			if len(bs) < 5 {
				t.Fatalf("%s: only %d texts in the SVG", name, len(bs))
			}
			w, h := svgSize(t, buf.Bytes())
			if math.Abs(w-float64(s.width)) > 0.01 {
				t.Errorf("%s: the picture is %.1f pt wide, want %v", name, w, s.width)
			}
			for _, b := range bs {
				if b.x0 < -0.5 || b.x1 > w+0.5 || b.y0 < -0.5 || b.y1 > h+0.5 {
					t.Errorf("%s: text %q %v is outside the picture (%.0f by %.0f pt)", name, b.text, b, w, h)
				}
			}
			for i := range bs {
				for j := i + 1; j < len(bs); j++ {
					if bs[i].overlaps(bs[j]) {
						t.Errorf("%s: text %q %v overlaps %q %v", name, bs[i].text, bs[i], bs[j].text, bs[j])
					}
				}
			}
			svg := buf.String()
			switch c := c.(type) {
			case *chartdata.ScoreDistribution:
				for _, tk := range fig.panels[0].Y.Tick.Marker.Ticks(c.Y.Min, c.Y.Max) {
					if tk.Label != "" && tk.Value != math.Trunc(tk.Value) {
						t.Errorf("%s: a count tick at %v", name, tk.Value)
					}
				}
			case *chartdata.ScoreSequence:
				if want := ">floor " + chartdata.Num(rec.Floor) + "<"; !strings.Contains(svg, want) {
					t.Errorf("%s: the floor is not labelled on its line (%s)", name, want)
				}
			case *chartdata.FloorTradeoff:
				if want := ">recommended floor " + rec.FormatFloor(rec.Floor) + "<"; !strings.Contains(svg, want) {
					t.Errorf("%s: the recommended floor is not marked (%s)", name, want)
				}
				if len(fig.panels) != 2 {
					t.Errorf("%s: %d panels, want 2 (the rate, and r50)", name, len(fig.panels))
				}
			}
		}
	}
}

// TestThin: at most thinAbove runs are all drawn; beyond, one mark per
// occupied sliver, so the marks stay few however many runs there are.
func TestThin(t *testing.T) {
	few := []float64{1, 1.1, 1.2}
	if got := thin(few, 0.5, 2, true); len(got) != 3 {
		t.Errorf("thin of 3 values: %v", got)
	}
	many := make([]float64, 10000)
	for i := range many {
		many[i] = 1 + float64(i%500)/1000
	}
	got := thin(many, 0.9, 1.6, true)
	if len(got) == 0 || len(got) > slivers+1 {
		t.Errorf("thin of 10,000 values gives %d marks, want 1 to %d", len(got), slivers+1)
	}
}

// TestTicks pins the tickers on ranges the charts meet.
func TestTicks(t *testing.T) {
	labels := func(ts []plot.Tick) []string {
		var out []string
		for _, tk := range ts {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	cases := []struct {
		reason string
		ticker plot.Ticker
		lo, hi float64
		want   string
	}{
		{"counts: whole steps only", niceTicks{n: 5, integer: true}, 0, 4.6, "0 1 2 3 4"},
		{"counts of a tall bin: a round step", niceTicks{n: 5, integer: true}, 0, 230, "0 50 100 150 200"},
		{"scores: same decimals on every label", niceTicks{n: 6}, 1.14, 1.51, "1.15 1.20 1.25 1.30 1.35 1.40 1.45 1.50"},
		{"percent over four decades: powers of ten", percentTicks{}, 0.00004, 0.25, "0.01% 0.1% 1% 10%"},
		{"ratios near 1: parity labelled", ratioTicks{}, 0.8, 1.3, "0.8 0.9 1 1.1 1.2 1.3"},
		{"floors: the recommended one first", floorTicks{floors: []float64{1.11, 1.16, 1.17, 1.2, 1.23}, marked: 1.16}, 1.1, 1.24, "1.11 1.16 1.2 1.23"},
		{"2,000 runs: at most 10 labels", runTicks{runs: make([]chartdata.Point, 2000)}, 0.5, 2000.5, "200 400 600 800 1000 1200 1400 1600 1800 2000"},
	}
	for _, c := range cases {
		got := strings.Join(labels(c.ticker.Ticks(c.lo, c.hi)), " ")
		if got != c.want {
			t.Errorf("%s: labels %q, want %q", c.reason, got, c.want)
		}
	}
}

// TestEnvelope: a long line keeps its lowest and highest point of every
// stretch, in order, and at most envelopeAbove points.
func TestEnvelope(t *testing.T) {
	pts := make(plotter.XYs, 10000)
	for i := range pts {
		pts[i] = plotter.XY{X: float64(i + 1), Y: math.Sin(float64(i))}
	}
	pts[5000].Y, pts[7777].Y = -5, 5
	got := envelope(pts)
	if len(got) > envelopeAbove {
		t.Errorf("%d points, want at most %d", len(got), envelopeAbove)
	}
	var lo, hi bool
	for i, p := range got {
		if i > 0 && p.X <= got[i-1].X {
			t.Fatalf("points out of order at %d: %v after %v", i, p, got[i-1])
		}
		lo = lo || p == pts[5000]
		hi = hi || p == pts[7777]
	}
	if !lo || !hi {
		t.Error("the envelope lost the lowest or the highest point")
	}
	if short := pts[:100]; len(envelope(short)) != 100 {
		t.Error("a short line was thinned")
	}
}

// TestTextBoxes: the overlap check finds two labels drawn on top of each
// other (as 0.9, 1 and 1.1 were on the old ratio axis), and none in
// labels set apart, rotated ones included.
func TestTextBoxes(t *testing.T) {
	const style = `style="font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;font-size:10px"`
	svg := func(body string) []byte {
		return []byte(`<svg xmlns="http://www.w3.org/2000/svg"><g transform="scale(1, -1) translate(0, -100)">` + body + `</g></svg>`)
	}
	crammed := textBoxes(t, svg(`<text x="10" y="-20" transform="scale(1, -1)" `+style+`>0.9</text><text x="20" y="-20" transform="scale(1, -1)" `+style+`>1.1</text>`))
	if len(crammed) != 2 || !crammed[0].overlaps(crammed[1]) {
		t.Errorf("labels 10 pt apart at 10 px: boxes %v do not overlap", crammed)
	}
	apart := textBoxes(t, svg(`<text x="10" y="-20" transform="scale(1, -1)" `+style+`>0.9</text><text x="60" y="-20" transform="scale(1, -1)" `+style+`>1.1</text>`+
		`<g transform="rotate(90)"><text x="10" y="-5" transform="scale(1, -1)" `+style+`>a rotated label</text></g>`))
	for i := range apart {
		for j := i + 1; j < len(apart); j++ {
			if apart[i].overlaps(apart[j]) {
				t.Errorf("%q %v overlaps %q %v", apart[i].text, apart[i], apart[j].text, apart[j])
			}
		}
	}
}
