package mermaid_test

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/chartdata"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/mermaid"
)

// update rewrites testdata/charts.txtar, the golden charts.
var update = flag.Bool("update", false, "rewrite testdata/charts.txtar")

var samples = filepath.Join("..", "data", "samples", "linux-glibc-vs-mimalloc")

// loadRuns reads the runs of a sample folder, glibc against mimalloc.
func loadRuns(t *testing.T, dir string) []data.Run {
	t.Helper()
	b, _ := load.ParseVariantSpec("glibc=baseline.txt")
	c, _ := load.ParseVariantSpec("mimalloc=mimalloc.txt")
	runs, err := load.All([]string{filepath.Join(samples, dir)}, load.Options{Baseline: b, Candidate: c})
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

func analyze(t *testing.T, runs []data.Run) *spread.Analysis {
	t.Helper()
	a, err := spread.Analyze(runs, spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// recommend recommends the floor of runs as `qoscal recommend` does by
// default: on the latest regime of their scores when a change is
// significant and it has enough runs (the window), else on all. It
// returns the analysis of every run, that of the window and the
// recommendation.
func recommend(t *testing.T, runs []data.Run) (all, window *spread.Analysis, rec *calfloor.Recommendation) {
	t.Helper()
	all = analyze(t, runs)
	w, err := all.Choose(spread.WindowAuto, spread.DefaultMinRuns)
	if err != nil {
		t.Fatal(err)
	}
	a := all
	if w.Rule == spread.WindowLatest {
		ids := w.IDs(all)
		var sub []data.Run
		for _, r := range runs {
			if ids[r.ID] {
				sub = append(sub, r)
			}
		}
		a = analyze(t, sub)
	}
	rec, err = calfloor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	rec.Window = w
	return all, a, rec
}

// chartSet is the step summary's two charts of one report.
type chartSet struct {
	name string
	seq  *chartdata.ScoreSequence
	rs   *chartdata.RatioSpread
}

// sets are the charts the goldens and the structural checks draw: the
// bundled healthy sample, as `qoscal report --summary` shows it (the
// sequence of every run, the spread of the calibration window); the same
// runs with the regressed sample after them (run-13 to run-15), with the
// healthy runs' floor and bands as a calibration's, the later runs gated
// and run-13 marked, much as `report --calibration --run run-13` shows
// them;
// and a wide suite, 30 benchmarks of long names over 45 runs.
func sets(t *testing.T) []chartSet {
	t.Helper()
	healthy := loadRuns(t, "healthy")
	ha, hw, hrec := recommend(t, healthy)
	sample := chartSet{name: "sample",
		seq: chartdata.NewScoreSequence(ha, chartdata.Floor{Value: hrec.Floor, Label: "recommended"}),
		rs:  chartdata.NewRatioSpread(hw)}

	all := append([]data.Run(nil), healthy...)
	for i, r := range loadRuns(t, "regressed") {
		r.ID = fmt.Sprintf("run-%02d", 13+i)
		all = append(all, r)
	}
	aa := analyze(t, all)
	gated := chartSet{name: "gated",
		seq: chartdata.NewScoreSequence(aa, chartdata.Floor{Value: hrec.Floor, Label: "calibration"}),
		rs:  chartdata.NewRatioSpread(aa)}
	var ids []string
	for _, r := range healthy {
		ids = append(ids, r.ID)
	}
	gated.seq.MarkGated(ids)
	gated.rs.AddBands(hrec.Bands, "calibration file")
	if err := gated.rs.MarkRun(aa, "run-13"); err != nil {
		t.Fatal(err)
	}

	wa, ww, wrec := recommend(t, wideRuns(30, 45))
	wide := chartSet{name: "wide",
		seq: chartdata.NewScoreSequence(wa, chartdata.Floor{Value: wrec.Floor, Label: "recommended"}),
		rs:  chartdata.NewRatioSpread(ww)}
	return []chartSet{sample, gated, wide}
}

// wideRuns is a suite of k benchmarks with long names sharing a start,
// over n runs, each benchmark its own ratio with a little noise
// (deterministic), as scripts/mermaid-check.sh makes its wide suite.
func wideRuns(k, n int) []data.Run {
	kinds := []string{"producer-consumer-cross-thread-free", "many-small-objects-with-random-lifetimes", "large-block-realloc-growth"}
	var runs []data.Run
	for r := 1; r <= n; r++ {
		run := data.Run{ID: fmt.Sprintf("wide-run-%04d", r), Baseline: "system", Candidate: "candidate"}
		for b := 1; b <= k; b++ {
			name := fmt.Sprintf("allocator-suite/%s-threads=%d-size=%dB-iterations=%d", kinds[b%3], b, 1<<(b%12+4), 1000*b)
			base := 1000 + 37*float64(b)
			ratio := 0.6 + float64(b*7%23)/10 + 0.05*math.Sin(float64(r)*1.7+float64(b))
			run.Measurements = append(run.Measurements,
				data.Measurement{Benchmark: name, Variant: "system", Value: base, Unit: "ops/sec"},
				data.Measurement{Benchmark: name, Variant: "candidate", Value: base * ratio, Unit: "ops/sec"})
		}
		runs = append(runs, run)
	}
	return runs
}

// drawn is a chart as the step summary shows it: the diagram, its key
// line, and for the spread the strips with their key.
func drawn(s chartSet) map[string]string {
	seq, rs, st := mermaid.ScoreSequence(s.seq), mermaid.RatioSpread(s.rs), mermaid.RatioStrips(s.rs)
	strips := strings.Join(st.Lines, "\n") + "\n" + st.Key + "\n"
	return map[string]string{
		s.name + "/score-sequence": seq.Diagram + seq.KeyLine() + "\n",
		s.name + "/ratio-spread":   rs.Diagram + rs.KeyLine() + "\n",
		s.name + "/strips":         strips,
	}
}

// TestGolden compares the charts of the sets with testdata/charts.txtar
// (go test ./mermaid -run TestGolden -update rewrites it: look at the
// diff, and at the charts drawn by scripts/mermaid-check.sh).
func TestGolden(t *testing.T) {
	path := filepath.Join("testdata", "charts.txtar")
	var got txtar.Archive
	got.Comment = []byte("The step summary's charts (package mermaid) of the sets of golden_test.go:\nthe diagram and its key line, and the ratio spread's text strips with theirs.\n")
	for _, s := range sets(t) {
		d := drawn(s)
		for _, part := range []string{"score-sequence", "ratio-spread", "strips"} {
			name := s.name + "/" + part
			got.Files = append(got.Files, txtar.File{Name: name, Data: []byte(d[name])})
		}
	}
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, txtar.Format(&got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./mermaid -run TestGolden -update writes it)", err)
	}
	wantBy := map[string]string{}
	for _, f := range want.Files {
		wantBy[f.Name] = string(f.Data)
	}
	for _, f := range got.Files {
		if diff := cmp.Diff(wantBy[f.Name], string(f.Data)); diff != "" {
			t.Errorf("%s differs from %s (-want +got):\n%s", f.Name, path, diff)
		}
		delete(wantBy, f.Name)
	}
	for name := range wantBy {
		t.Errorf("%s: %s holds a chart no longer drawn", name, path)
	}
}

// parsed is a diagram read back: what the structural checks look at.
type parsed struct {
	horizontal bool
	title      string
	cats       []string
	lo, hi     float64
	palette    []string
	// plots are the bar and line statements, in order.
	plots []parsedPlot
}

type parsedPlot struct {
	bar    bool
	values []float64
}

var (
	reInit  = regexp.MustCompile(`(?m)^%%\{init: .*"plotColorPalette": "([^"]*)".*\}%%$`)
	reKind  = regexp.MustCompile(`(?m)^xychart-beta( horizontal)?$`)
	reTitle = regexp.MustCompile(`(?m)^    title "([^"]*)"$`)
	reX     = regexp.MustCompile(`(?m)^    x-axis "[^"]*" \[(.*)\]$`)
	reY     = regexp.MustCompile(`(?m)^    y-axis "[^"]*" (\S+) --> (\S+)$`)
	rePlot  = regexp.MustCompile(`(?m)^    (bar|line) \[(.*)\]$`)
	reCat   = regexp.MustCompile(`"([^"]*)"`)
)

func parse(t *testing.T, name, d string) parsed {
	t.Helper()
	var p parsed
	m := reInit.FindStringSubmatch(d)
	if m == nil {
		t.Fatalf("%s: no init directive with a palette:\n%s", name, d)
	}
	p.palette = strings.Split(m[1], ", ")
	k := reKind.FindStringSubmatch(d)
	if k == nil {
		t.Fatalf("%s: not an xychart-beta:\n%s", name, d)
	}
	p.horizontal = k[1] != ""
	if m := reTitle.FindStringSubmatch(d); m != nil {
		p.title = m[1]
	}
	x := reX.FindStringSubmatch(d)
	y := reY.FindStringSubmatch(d)
	if x == nil || y == nil {
		t.Fatalf("%s: no x-axis of categories or no y-axis range:\n%s", name, d)
	}
	for _, c := range reCat.FindAllStringSubmatch(x[1], -1) {
		p.cats = append(p.cats, c[1])
	}
	p.lo, _ = strconv.ParseFloat(y[1], 64)
	p.hi, _ = strconv.ParseFloat(y[2], 64)
	for _, m := range rePlot.FindAllStringSubmatch(d, -1) {
		pp := parsedPlot{bar: m[1] == "bar"}
		for _, v := range strings.Split(m[2], ", ") {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %q in %q is not a number", name, v, m[0])
			}
			pp.values = append(pp.values, f)
		}
		p.plots = append(p.plots, pp)
	}
	return p
}

// checkChart checks what every chart must be: categories distinct, short
// and in the safe alphabet, one value per category in every statement, a
// y-axis from 0 or 1 or cut with the title saying where, every value on
// the axis but for the bars not drawn (below it), every line flat (a
// reference, never a line joining unrelated categories), a palette colour
// and a key entry for every statement, in the same order.
func checkChart(t *testing.T, name string, c mermaid.Chart) parsed {
	t.Helper()
	p := parse(t, name, c.Diagram)
	seen := map[string]bool{}
	for _, l := range p.cats {
		if seen[l] {
			t.Errorf("%s: category %q twice", name, l)
		}
		seen[l] = true
		if n := len([]rune(l)); n > 32 {
			t.Errorf("%s: category %q is %d characters, more than 32", name, l, n)
		}
	}
	cut := fmt.Sprintf("axis cut at %s", strconv.FormatFloat(p.lo, 'f', -1, 64))
	switch {
	case p.lo == 0 || p.lo == 1:
		if strings.Contains(p.title, "axis cut") {
			t.Errorf("%s: the axis starts at %v but the title says it is cut: %q", name, p.lo, p.title)
		}
	case !strings.HasSuffix(p.title, cut):
		t.Errorf("%s: the axis starts at %v, not at 0 or 1, and the title %q does not end %q", name, p.lo, p.title, cut)
	case !strings.Contains(c.KeyLine(), "The axis is cut at "+strconv.FormatFloat(p.lo, 'f', -1, 64)):
		t.Errorf("%s: the axis is cut at %v and the key does not say so: %s", name, p.lo, c.KeyLine())
	}
	if !(p.hi > p.lo) {
		t.Errorf("%s: y-axis %v --> %v", name, p.lo, p.hi)
	}
	// A mask (bars in the background's white, drawn over the bars before
	// it so that they float) is in no key; each of its values must lie
	// within the axis and at or below a bar it masks.
	if len(p.plots) == len(p.palette) {
		var plots = p.plots[:0:0]
		var pal []string
		for i, pl := range p.plots {
			if !(pl.bar && p.palette[i] == "#ffffff") {
				plots, pal = append(plots, pl), append(pal, p.palette[i])
				continue
			}
			for j, v := range pl.values {
				top := math.Inf(-1)
				for _, before := range p.plots[:i] {
					if before.bar && before.values[j] >= p.lo {
						top = math.Max(top, before.values[j])
					}
				}
				if v < p.lo || v > p.hi || v > top {
					t.Errorf("%s: the mask %d has %v at category %d, off the axis or above the bar it masks (%v)", name, i, v, j, top)
				}
			}
		}
		p.plots, p.palette = plots, pal
	}
	if len(p.plots) != len(c.Series) || len(p.palette) != len(c.Series) {
		t.Fatalf("%s: %d statements, %d palette colours, %d series in the key", name, len(p.plots), len(p.palette), len(c.Series))
	}
	key := c.KeyLine()
	for i, pl := range p.plots {
		s := c.Series[i]
		if pl.bar != s.Bars {
			t.Errorf("%s: statement %d is a bar: %v; its key entry says %v", name, i, pl.bar, s.Bars)
		}
		if p.palette[i] != s.Colour.Hex {
			t.Errorf("%s: statement %d is drawn %s; its key entry says %s (%s)", name, i, p.palette[i], s.Colour.Hex, s.Colour.Name)
		}
		if !strings.Contains(key, s.Entry()) || !strings.HasPrefix(s.Entry(), s.Colour.Swatch+" "+s.Colour.Name) {
			t.Errorf("%s: the key line %q lacks the entry %q", name, key, s.Entry())
		}
		if len(pl.values) != len(p.cats) {
			t.Errorf("%s: statement %d has %d values for %d categories", name, i, len(pl.values), len(p.cats))
		}
		drawnAny := false
		for _, v := range pl.values {
			switch {
			case pl.bar && v < p.lo:
				// Not drawn: another series has this category.
			case v < p.lo || v > p.hi:
				t.Errorf("%s: statement %d has %v, off the axis %v --> %v", name, i, v, p.lo, p.hi)
			default:
				drawnAny = true
			}
			if !pl.bar && v != pl.values[0] {
				t.Errorf("%s: line %d is not flat (%v): a line may only be a reference", name, i, pl.values)
				break
			}
		}
		if !drawnAny {
			t.Errorf("%s: statement %d draws nothing: a key entry for no mark", name, i)
		}
	}
	return p
}

// TestChartStructure checks the charts of every set: the benchmarks are
// rows of a horizontal chart (labels one above the other never overlap),
// the runs columns while their labels fit, and every chart passes
// checkChart.
func TestChartStructure(t *testing.T) {
	for _, s := range sets(t) {
		rs := checkChart(t, s.name+"/ratio-spread", mermaid.RatioSpread(s.rs))
		if !rs.horizontal {
			t.Errorf("%s: the ratio spread is not horizontal: benchmark labels side by side overlap", s.name)
		}
		if len(rs.cats) != len(s.rs.Rows) {
			t.Errorf("%s: %d benchmark rows for %d benchmarks", s.name, len(rs.cats), len(s.rs.Rows))
		}
		seq := checkChart(t, s.name+"/score-sequence", mermaid.ScoreSequence(s.seq))
		if len(seq.cats) != len(s.seq.Scores.Points) {
			t.Errorf("%s: %d runs drawn of %d", s.name, len(seq.cats), len(s.seq.Scores.Points))
		}
	}
}

// TestFloorAndBandsNamed: the floor is a line the key names with its
// value; a run below the floor and a run gated after the calibration are
// bars of colours of their own, named; a marked run's ratios are bars
// coloured by where they fall in their bands, named with the run.
func TestFloorAndBandsNamed(t *testing.T) {
	ss := sets(t)
	gated := ss[1]
	seq := mermaid.ScoreSequence(gated.seq)
	key := seq.KeyLine()
	for _, want := range []string{
		"🟧 orange line: floor " + chartdata.Num(gated.seq.Refs[0].At) + " (calibration)",
		"🟦 blue bars: run score, at or above the floor",
		"🟥 red bars: " + gated.seq.Gated.Label + ", below the floor",
	} {
		if !strings.Contains(key, want) {
			t.Errorf("the gated score sequence's key lacks %q:\n%s", want, key)
		}
	}
	rs := mermaid.RatioSpread(gated.rs)
	key = rs.KeyLine()
	for _, want := range []string{"run run-13's ratio, within the benchmark's band", "🟥 red bars: run run-13's ratio, below the band", "parity"} {
		if !strings.Contains(key, want) {
			t.Errorf("the marked ratio spread's key lacks %q:\n%s", want, key)
		}
	}
	st := mermaid.RatioStrips(gated.rs)
	for _, want := range []string{"band: the ratios the gate accepts (calibration file)", "◆ run run-13", "● median"} {
		if !strings.Contains(st.Key, want) {
			t.Errorf("the strips' key lacks %q:\n%s", want, st.Key)
		}
	}
}

// TestBarsFloat: issue 35 item 9. The ratio spread showed each
// benchmark's median as a bar from 0 on a linear axis, so that a ratio
// of 0.68 (32% slower) looked like any bar; the score chart drew the runs
// the calibration left out (an earlier regime) as any other run. Now each
// benchmark's bar spans its lowest to highest ratio (a mask in the
// background's colour over the bar up to its lowest); a marked run's bars
// run from parity (1.0) to its ratio; and the score chart draws the runs
// of an earlier regime as a series of their own, named.
func TestBarsFloat(t *testing.T) {
	ss := sets(t)
	sample, gated := ss[0], ss[1]
	rs := mermaid.RatioSpread(sample.rs)
	p := parse(t, "sample/ratio-spread", rs.Diagram)
	var bars, masks [][]float64
	for i, pl := range p.plots {
		switch {
		case pl.bar && p.palette[i] == "#ffffff":
			masks = append(masks, pl.values)
		case pl.bar:
			bars = append(bars, pl.values)
		}
	}
	if len(bars) != 1 || len(masks) != 1 {
		t.Fatalf("the ratio spread has %d bar series and %d masks, want 1 and 1:\n%s", len(bars), len(masks), rs.Diagram)
	}
	for i, r := range sample.rs.Rows {
		if math.Abs(bars[0][i]-r.Box.Max) > 1e-4 || math.Abs(masks[0][i]-r.Box.Min) > 1e-4 {
			t.Errorf("%s: bar to %v over a mask to %v, want from its lowest ratio %v to its highest %v", r.Benchmark, bars[0][i], masks[0][i], r.Box.Min, r.Box.Max)
		}
	}
	if !strings.Contains(rs.KeyLine(), "lowest to highest ratio") {
		t.Errorf("the key does not say what a bar spans: %s", rs.KeyLine())
	}
	// The marked run: from parity to its ratio.
	mr := mermaid.RatioSpread(gated.rs)
	mp := parse(t, "gated/ratio-spread", mr.Diagram)
	for j, r := range gated.rs.Rows {
		top, mask := math.Inf(-1), math.NaN()
		for i, pl := range mp.plots {
			if !pl.bar {
				continue
			}
			if mp.palette[i] == "#ffffff" {
				mask = pl.values[j]
			} else if pl.values[j] >= mp.lo {
				top = math.Max(top, pl.values[j])
			}
		}
		lo, hi := math.Min(r.This, 1), math.Max(r.This, 1)
		if math.Abs(mask-lo) > 1e-4 || math.Abs(top-hi) > 1e-4 {
			t.Errorf("%s: run-13's bar spans %v to %v, want parity to its ratio, %v to %v", r.Benchmark, mask, top, lo, hi)
		}
	}
	// The earlier regime: the sample's first three runs.
	seq := mermaid.ScoreSequence(sample.seq)
	if !strings.Contains(seq.KeyLine(), "🔘 grey bars: run of an earlier regime, left out of the calibration") {
		t.Errorf("the score sequence's key names no earlier regime:\n%s", seq.KeyLine())
	}
}
