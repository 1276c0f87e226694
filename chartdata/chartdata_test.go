package chartdata_test

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/chartdata"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/stats"
)

// workedExample analyses the worked example's five runs (their scores are
// the published 1.55, 1.54, 1.65, 1.59 and 1.44:
// data/samples/windows-hoard-worked-example/README.md) and recommends the
// floor of the example, a 13% margin on a 0.05 grid: 1.25 (the
// recommend_worked_example testscript).
func workedExample(t *testing.T) (*spread.Analysis, *calfloor.Recommendation) {
	t.Helper()
	runs, err := load.All([]string{filepath.Join("..", "data", "samples", "windows-hoard-worked-example", "five-runs.csv")}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := spread.Analyze(runs, spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := model.DefaultRecommendOptions
	opt.Method, opt.Margin, opt.Step = model.MethodMargin, 0.13, 0.05
	rec, err := calfloor.Recommend(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Floor != 1.25 {
		t.Fatalf("the worked example's floor is %v, want 1.25", rec.Floor)
	}
	return a, rec
}

// published are the worked example's scores, in run order.
var published = []float64{1.55, 1.54, 1.65, 1.59, 1.44}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func checkRefs(t *testing.T, chart string, got, want []chartdata.Ref) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d reference lines %+v, want %d %+v", chart, len(got), got, len(want), want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Kind != w.Kind || !near(g.At, w.At, 1e-9) || g.Label != w.Label {
			t.Errorf("%s: reference line %d is %+v, want %+v", chart, i, g, w)
		}
	}
}

func TestAllOrder(t *testing.T) {
	a, rec := workedExample(t)
	var names []string
	for _, c := range chartdata.All(a, nil, rec, chartdata.Floor{Value: rec.Floor, Label: "recommended"}) {
		names = append(names, c.Header().Name)
	}
	want := []string{"ratio-spread", "score-sequence", "score-distribution", "noise", "floor-tradeoff", "history"}
	if len(names) != len(want) {
		t.Fatalf("charts %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("chart %d is %s, want %s", i, names[i], want[i])
		}
	}
}

// TestAllHistoryBandSource: when the floor was calibrated on a window of
// the runs shown, the history's band legend names that window, since the
// bands are the window's, not those of every run drawn.
func TestAllHistoryBandSource(t *testing.T) {
	a, rec := workedExample(t)
	floor := chartdata.Floor{Value: rec.Floor, Label: "recommended"}
	window := *rec
	window.Window.N, window.Window.First, window.Window.Last = 4, a.Runs[1].ID, a.Runs[4].ID
	for _, c := range []struct {
		rec  *calfloor.Recommendation
		runs *spread.Analysis
		want string
	}{
		{rec, nil, "band: the ratios the gate accepts (these runs)"},
		{&window, a, "band: the ratios the gate accepts (from " + a.Runs[1].ID + ".." + a.Runs[4].ID + ")"},
	} {
		charts := chartdata.All(a, c.runs, c.rec, floor)
		if got := charts[len(charts)-1].(*chartdata.History).BandLegend; got != c.want {
			t.Errorf("band legend %q, want %q", got, c.want)
		}
	}
}

// TestScoreSequence: a point per run at X 1..5 with the published score
// and the run id; runs under a floor of 1.56 (three of the five) are
// Below; the reference lines sit at the floor and the lowest score, and
// parity is left out (the scores are far from 1).
func TestScoreSequence(t *testing.T) {
	a, _ := workedExample(t)
	c := chartdata.NewScoreSequence(a, chartdata.Floor{Value: 1.56, Label: "--floor"})
	if len(c.Scores.Points) != len(published) {
		t.Fatalf("%d points, want %d", len(c.Scores.Points), len(published))
	}
	for i, pt := range c.Scores.Points {
		if pt.X != float64(i+1) || !near(pt.Y, published[i], 1e-9) || pt.Label != a.Runs[i].ID {
			t.Errorf("point %d is %+v, want X %d, Y %v, run %s", i, pt, i+1, published[i], a.Runs[i].ID)
		}
	}
	if len(c.Below.Points) != 3 || len(c.Above.Points) != 2 {
		t.Errorf("%d runs below the floor 1.56 and %d above, want 3 (1.55, 1.54, 1.44) and 2", len(c.Below.Points), len(c.Above.Points))
	}
	checkRefs(t, "score sequence", c.Refs, []chartdata.Ref{
		{Kind: chartdata.RefFloor, At: 1.56, Label: "floor 1.56 (--floor)"},
		{Kind: chartdata.RefLowest, At: 1.44, Label: "lowest observed 1.44"},
	})
	if c.X.Min != 0.5 || c.X.Max != 5.5 {
		t.Errorf("X axis %v to %v, want 0.5 to 5.5 (half a run beyond each end)", c.X.Min, c.X.Max)
	}
	// 8% of the span from the lowest score (1.44) to the highest (1.65)
	// on each side.
	if d := 0.08 * (1.65 - 1.44); !near(c.Y.Min, 1.44-d, 1e-9) || !near(c.Y.Max, 1.65+d, 1e-9) {
		t.Errorf("Y axis %v to %v, want %v to %v", c.Y.Min, c.Y.Max, 1.44-d, 1.65+d)
	}
}

// TestScoreDistribution: ⌈√5⌉+2 = 5 bins of width (1.65−1.44)/5 = 0.042
// from 1.44; the scores fall in them as 1.44 | - | 1.54 1.55 | 1.59 |
// 1.65, so the counts are 1, 0, 2, 1, 1 and add up to n. The density is
// the log-normal of the log scores' mean and SD times n times the bins'
// width. The reference lines are the floor, the lowest score and the
// prediction bound at α = 0.01, 1.264336 (recommend_worked_example).
func TestScoreDistribution(t *testing.T) {
	a, rec := workedExample(t)
	floor := chartdata.Floor{Value: rec.Floor, Label: "recommended"}
	c := chartdata.NewScoreDistribution(a, floor, rec.PredictionBound, rec.Options.Alpha)
	if c.LeftOut != "" {
		t.Fatalf("left out: %s", c.LeftOut)
	}
	wantCounts := []int{1, 0, 2, 1, 1}
	if len(c.Bins) != len(wantCounts) {
		t.Fatalf("%d bins, want %d", len(c.Bins), len(wantCounts))
	}
	total := 0
	width := (a.Score.Max - a.Score.Min) / 5
	for i, b := range c.Bins {
		total += b.Count
		if b.Count != wantCounts[i] {
			t.Errorf("bin %d [%v, %v) holds %d, want %d", i, b.Min, b.Max, b.Count, wantCounts[i])
		}
		if !near(b.Min, a.Score.Min+float64(i)*width, 1e-12) || !near(b.Max-b.Min, width, 1e-12) {
			t.Errorf("bin %d is [%v, %v), want [%v, %v)", i, b.Min, b.Max, a.Score.Min+float64(i)*width, a.Score.Min+float64(i+1)*width)
		}
	}
	if total != a.Score.N {
		t.Errorf("the bins hold %d runs, want n = %d", total, a.Score.N)
	}
	if !near(width, 0.042, 1e-9) {
		t.Errorf("bin width %v, want 0.042", width)
	}
	checkRefs(t, "score distribution", c.Refs, []chartdata.Ref{
		{Kind: chartdata.RefFloor, At: 1.25, Label: "floor 1.25 (recommended)"},
		{Kind: chartdata.RefLowest, At: 1.44, Label: "lowest observed 1.44"},
		{Kind: chartdata.RefPrediction, At: rec.PredictionBound, Label: "1% prediction bound 1.264"},
	})
	if !near(rec.PredictionBound, 1.26433614, 1e-8) {
		t.Errorf("prediction bound %v, want 1.26433614", rec.PredictionBound)
	}
	// The X axis spans the floor (the lowest mark) to the highest score,
	// 10% wider on each side.
	if d := 0.1 * (1.65 - 1.25); !near(c.X.Min, 1.25-d, 1e-9) || !near(c.X.Max, 1.65+d, 1e-9) {
		t.Errorf("X axis %v to %v, want %v to %v", c.X.Min, c.X.Max, 1.25-d, 1.65+d)
	}
	pts := c.Density.Points
	if len(pts) != 200 || c.Density.Label != "fitted log-normal" {
		t.Fatalf("density: %d points labelled %q, want 200, \"fitted log-normal\"", len(pts), c.Density.Label)
	}
	if pts[0].X != c.X.Min || !near(pts[199].X, c.X.Max, 1e-12) {
		t.Errorf("density sampled from %v to %v, want the X axis, %v to %v", pts[0].X, pts[199].X, c.X.Min, c.X.Max)
	}
	n := float64(a.Score.N)
	var area float64
	for i, pt := range pts {
		if want := stats.LogNormalPDF(pt.X, a.Score.MeanLog, a.Score.SDLog) * n * width; !near(pt.Y, want, 1e-12*want) {
			t.Errorf("density at %v is %v, want %v", pt.X, pt.Y, want)
		}
		if i > 0 {
			area += (pt.X - pts[i-1].X) * (pt.Y + pts[i-1].Y) / 2
		}
	}
	// On the count axis the curve's area over the bin width is n times
	// the log-normal's mass on the X axis (normal CDF of the log bounds).
	m, s := a.Score.MeanLog, a.Score.SDLog
	mass := stats.NormalCDF((math.Log(c.X.Max)-m)/s) - stats.NormalCDF((math.Log(c.X.Min)-m)/s)
	if got := area / width; !near(got, n*mass, 1e-3*n) {
		t.Errorf("area under the density over the bin width %v, want n × mass = %v", got, n*mass)
	}
	// The Y axis reaches 15% above the taller of the highest bin (2) and
	// the density's peak (at the mode, exp(m − s²)).
	peak := stats.LogNormalPDF(math.Exp(m-s*s), m, s) * n * width
	if want := 1.15 * math.Max(2, peak); c.Y.Min != 0 || !near(c.Y.Max, want, 1e-12) {
		t.Errorf("Y axis %v to %v, want 0 to %v", c.Y.Min, c.Y.Max, want)
	}
}

// TestFloorTradeoff: the points are the recommendation's candidate floors
// (the target rule's 1.00 side by side, then 1.25 on the 0.05 grid to the
// lowest run, 1.44) at calibrate's predictive false-positive rate for each
// floor, labelled with its r50; the recommended one is the worked
// example's 0.84% and r50 0.805.
func TestFloorTradeoff(t *testing.T) {
	a, rec := workedExample(t)
	c := chartdata.NewFloorTradeoff(a, rec)
	if c.LeftOut != "" {
		t.Fatalf("left out: %s", c.LeftOut)
	}
	floors := []float64{1, 1.25, 1.3, 1.35, 1.4, 1.44}
	if len(c.Costs.Points) != len(floors) {
		t.Fatalf("%d points %+v, want the floors %v", len(c.Costs.Points), c.Costs.Points, floors)
	}
	for i, pt := range c.Costs.Points {
		cost := calfloor.Cost(a, floors[i], rec.Options.Horizon)
		if !near(pt.X, floors[i], 1e-12) || pt.Y != cost.Predictive {
			t.Errorf("point %d is (%v, %v), want (%v, %v)", i, pt.X, pt.Y, floors[i], cost.Predictive)
		}
		if want := fmt.Sprintf("r50 %.3f", cost.R50); pt.Label != want {
			t.Errorf("point %d labelled %q, want %q", i, pt.Label, want)
		}
	}
	if first := c.Costs.Points[1]; !near(first.Y, 0.00837322, 1e-8) || first.Label != "r50 0.805" {
		t.Errorf("the recommended floor's point is %+v, want rate 0.00837322 and r50 0.805", first)
	}
	if c.Y.Scale != chartdata.Log {
		t.Error("the false-positive rate axis is not log")
	}
	// The recommended floor is marked; the margin method has no target
	// rate; r50 is the same candidates' r50, on its own axis.
	if c.Floor.Kind != chartdata.RefFloor || c.Floor.At != 1.25 || c.Floor.Label != "recommended floor 1.25" {
		t.Errorf("recommended floor mark %+v, want a floor line at 1.25", c.Floor)
	}
	if c.Target.At != 0 {
		t.Errorf("target line %+v with the margin method, want none", c.Target)
	}
	if len(c.R50.Points) != len(floors) {
		t.Fatalf("%d r50 points, want %d", len(c.R50.Points), len(floors))
	}
	for i, pt := range c.R50.Points {
		if cost := calfloor.Cost(a, floors[i], rec.Options.Horizon); pt.Y != cost.R50 || !(pt.Y >= c.R50Axis.Min && pt.Y <= c.R50Axis.Max) {
			t.Errorf("r50 point %d is %v, want %v within the axis %v to %v", i, pt.Y, cost.R50, c.R50Axis.Min, c.R50Axis.Max)
		}
	}
}

// TestFloorTradeoffTarget: with the target-fpr method the target rate is
// a line, labelled in percent and as one in N, and within the Y range.
func TestFloorTradeoffTarget(t *testing.T) {
	a, _ := workedExample(t)
	rec, err := calfloor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	c := chartdata.NewFloorTradeoff(a, rec)
	want := chartdata.Ref{Kind: chartdata.RefTarget, At: 0.001, Label: "target rate 0.1% (1 in 1000)"}
	if c.Target != want {
		t.Errorf("target line %+v, want %+v", c.Target, want)
	}
	if !(c.Y.Min < 0.001 && c.Y.Max > 0.001) {
		t.Errorf("Y axis %v to %v leaves out the target 0.001", c.Y.Min, c.Y.Max)
	}
}

// TestRatioSpreadBandsAndRun: AddBands gives each row its benchmark's
// band and widens the axis to it; MarkRun marks a run's ratio in every
// row and refuses a run that is not there.
func TestRatioSpreadBandsAndRun(t *testing.T) {
	a, rec := workedExample(t)
	c := chartdata.NewRatioSpread(a)
	c.AddBands(rec.Bands, "these runs")
	if c.BandLegend != "band: the ratios the gate accepts (these runs)" {
		t.Errorf("band legend %q", c.BandLegend)
	}
	for _, row := range c.Rows {
		var band model.Band
		for _, b := range rec.Bands {
			if b.Name == row.Benchmark {
				band = b
			}
		}
		if row.Band == nil || row.Band.Lo != band.Lower || row.Band.Hi != band.Upper {
			t.Errorf("%s: band %+v, want %v to %v", row.Benchmark, row.Band, band.Lower, band.Upper)
			continue
		}
		if row.Band.Lo < c.X.Min || row.Band.Hi > c.X.Max {
			t.Errorf("%s: band %v to %v outside the axis %v to %v", row.Benchmark, row.Band.Lo, row.Band.Hi, c.X.Min, c.X.Max)
		}
	}
	run := a.Runs[2]
	if err := c.MarkRun(a, run.ID); err != nil {
		t.Fatal(err)
	}
	if c.ThisLegend != "run "+run.ID {
		t.Errorf("marked-run legend %q", c.ThisLegend)
	}
	for _, row := range c.Rows {
		s := slices.Index(a.Suite, row.Benchmark)
		if row.This != run.Ratios[s] {
			t.Errorf("%s: marked ratio %v, want %v", row.Benchmark, row.This, run.Ratios[s])
		}
	}
	if err := c.MarkRun(a, "no-such-run"); err == nil || !strings.Contains(err.Error(), `no run "no-such-run"`) {
		t.Errorf("MarkRun of a missing run: %v", err)
	}
}

// TestRatioSpreadClone: bands and a marked run added to a clone leave the
// chart it was cloned from as it was (the step summary's strips show
// bands the image of the same chart does not).
func TestRatioSpreadClone(t *testing.T) {
	a, rec := workedExample(t)
	c := chartdata.NewRatioSpread(a)
	lo, hi := c.X.Min, c.X.Max
	d := c.Clone()
	d.AddBands(rec.Bands, "these runs")
	if err := d.MarkRun(a, a.Runs[0].ID); err != nil {
		t.Fatal(err)
	}
	if d.Rows[0].Band == nil || d.Rows[0].This == 0 {
		t.Fatalf("the clone has no band or marked run: %+v", d.Rows[0])
	}
	for _, row := range c.Rows {
		if row.Band != nil || row.This != 0 {
			t.Errorf("%s: the original row changed with its clone: %+v", row.Benchmark, row)
		}
	}
	if c.BandLegend != "" || c.ThisLegend != "" || c.X.Min != lo || c.X.Max != hi {
		t.Errorf("the original chart changed with its clone: legends %q %q, axis %v to %v (was %v to %v)", c.BandLegend, c.ThisLegend, c.X.Min, c.X.Max, lo, hi)
	}
}

// TestMarkGated: the runs after the calibration's last run that are not
// among its runs move from Above/Below to Gated; a run before it stays.
func TestMarkGated(t *testing.T) {
	a, _ := workedExample(t)
	c := chartdata.NewScoreSequence(a, chartdata.Floor{Value: 1.5, Label: "calibration"})
	ids := []string{a.Runs[0].ID, a.Runs[2].ID} // run 2 is not calibrated but comes before the last that is
	c.MarkGated(ids)
	var gated []string
	for _, pt := range c.Gated.Points {
		gated = append(gated, pt.Label)
	}
	if want := []string{a.Runs[3].ID, a.Runs[4].ID}; !slices.Equal(gated, want) {
		t.Errorf("gated runs %v, want %v", gated, want)
	}
	if n := len(c.Above.Points) + len(c.Below.Points); n != 3 {
		t.Errorf("%d runs left above and below the floor, want 3", n)
	}
	for _, pt := range append(c.Above.Points, c.Below.Points...) {
		if slices.Contains(gated, pt.Label) {
			t.Errorf("run %s is both gated and not", pt.Label)
		}
	}
}

// TestRatioSpreadAndNoise: a row per benchmark, noisiest first, with its
// spread and every run's ratio; the reference lines at parity and the
// median score 1.55; the noise bars are the benchmarks' CV(log) and
// variance share in percent, and the shares add up to 100%.
func TestRatioSpreadAndNoise(t *testing.T) {
	a, _ := workedExample(t)
	rs := chartdata.NewRatioSpread(a)
	if len(rs.Rows) != len(a.Benchmarks) {
		t.Fatalf("%d rows, want %d", len(rs.Rows), len(a.Benchmarks))
	}
	checkRefs(t, "ratio spread", rs.Refs, []chartdata.Ref{
		{Kind: chartdata.RefParity, At: 1, Label: "parity (1.0)"},
		{Kind: chartdata.RefMedian, At: 1.55, Label: "median score 1.55"},
	})
	for i, row := range rs.Rows {
		b := a.Benchmarks[i]
		if row.Benchmark != b.Name || row.Box != (chartdata.Box{Min: b.Min, Q1: b.Q1, Median: b.Median, Q3: b.Q3, Max: b.Max}) {
			t.Errorf("row %d is %s %+v, want %s's spread", i, row.Benchmark, row.Box, b.Name)
		}
		if len(row.Ratios) != len(published) {
			t.Fatalf("row %s has %d ratios, want one per run", row.Benchmark, len(row.Ratios))
		}
		// The run's ratios' geomean is its score.
		for j, r := range row.Ratios {
			if r < b.Min || r > b.Max {
				t.Errorf("%s run %d ratio %v outside its range %v–%v", row.Benchmark, j, r, b.Min, b.Max)
			}
		}
	}
	for j := range published {
		var logs float64
		for _, row := range rs.Rows {
			logs += math.Log(row.Ratios[j])
		}
		if got := math.Exp(logs / float64(len(rs.Rows))); !near(got, published[j], 1e-9) {
			t.Errorf("run %d: the geomean of its row ratios is %v, want its score %v", j, got, published[j])
		}
	}
	nz := chartdata.NewNoise(a)
	var shares float64
	for i, b := range a.Benchmarks {
		if nz.Benchmarks[i] != b.Name || nz.CV.Values[i] != b.CVLog*100 || nz.Share.Values[i] != b.VarianceShare*100 {
			t.Errorf("noise row %d: %s %v %v, want %s %v %v", i, nz.Benchmarks[i], nz.CV.Values[i], nz.Share.Values[i], b.Name, b.CVLog*100, b.VarianceShare*100)
		}
		shares += nz.Share.Values[i]
	}
	if !near(shares, 100, 1e-9) {
		t.Errorf("the variance shares add up to %v%%, want 100%%", shares)
	}
}

// TestSameScores: three runs with the same score 1.2 give one narrow bin
// of all three centred on it, no density, and a floor trade-off left out.
func TestSameScores(t *testing.T) {
	var runs []data.Run
	for _, id := range []string{"r1", "r2", "r3"} {
		r := data.Run{ID: id, Baseline: "system", Candidate: "hoard"}
		for i, b := range []string{"larson", "sh8bench"} {
			base := float64(1000 * (i + 1))
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: b, Variant: "system", Value: base, Unit: formats.OpsUnit},
				data.Measurement{Benchmark: b, Variant: "hoard", Value: 1.2 * base, Unit: formats.OpsUnit})
		}
		runs = append(runs, r)
	}
	a, err := spread.Analyze(runs, spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := calfloor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	c := chartdata.NewScoreDistribution(a, chartdata.Floor{Value: rec.Floor, Label: "recommended"}, rec.PredictionBound, rec.Options.Alpha)
	if len(c.Bins) != 1 || c.Bins[0].Count != 3 || !near((c.Bins[0].Min+c.Bins[0].Max)/2, a.Score.Min, 1e-12) {
		t.Errorf("bins %+v, want one bin of 3 runs centred on %v", c.Bins, a.Score.Min)
	}
	if len(c.Density.Points) != 0 {
		t.Errorf("a density of %d points for scores with no spread", len(c.Density.Points))
	}
	ft := chartdata.NewFloorTradeoff(a, rec)
	want := "no candidate floor has a positive false-positive rate to draw on its log axis (all 3 runs have the same score, 1.2: the fitted spread is zero)"
	if ft.LeftOut != want {
		t.Errorf("floor trade-off left out:\n got %q\nwant %q", ft.LeftOut, want)
	}
}

// TestScoreSequenceRegimes: the sequence chart shades the regimes of the
// score: on the bundled healthy Linux runs, run-01..run-03 and
// run-04..run-12, the latter the one a floor is calibrated on.
func TestScoreSequenceRegimes(t *testing.T) {
	b, _ := load.ParseVariantSpec("glibc=baseline.txt")
	c, _ := load.ParseVariantSpec("mimalloc=mimalloc.txt")
	runs, err := load.All([]string{filepath.Join("..", "data", "samples", "linux-glibc-vs-mimalloc", "healthy")}, load.Options{Baseline: b, Candidate: c})
	if err != nil {
		t.Fatal(err)
	}
	a, err := spread.Analyze(runs, spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := chartdata.NewScoreSequence(a, chartdata.Floor{})
	want := []chartdata.Shade{
		{From: 0.5, To: 3.5, Label: "regime run-01..run-03, median 1.4"},
		{From: 3.5, To: 12.5, Label: "regime run-04..run-12, median 1.26", Calibrated: true},
	}
	if len(s.Regimes) != len(want) {
		t.Fatalf("shades %+v, want %+v", s.Regimes, want)
	}
	for i := range want {
		if s.Regimes[i] != want[i] {
			t.Errorf("shade %d: %+v, want %+v", i, s.Regimes[i], want[i])
		}
	}
}

// TestHistory: a panel per benchmark, noisiest first, each with every
// run's ratio in run order, its median, the band given, and a range that
// holds them all.
func TestHistory(t *testing.T) {
	a, rec := workedExample(t)
	c := chartdata.NewHistory(a, rec.Bands, "these runs")
	if len(c.Panels) != len(a.Benchmarks) {
		t.Fatalf("%d panels, want %d", len(c.Panels), len(a.Benchmarks))
	}
	for i, p := range c.Panels {
		b := a.Benchmarks[i]
		if p.Benchmark != b.Name || p.Median != b.Median {
			t.Errorf("panel %d is %s with median %v, want %s with %v", i, p.Benchmark, p.Median, b.Name, b.Median)
		}
		s := slices.Index(a.Suite, b.Name)
		for j, pt := range p.Ratios.Points {
			if pt.X != float64(j+1) || pt.Y != a.Runs[j].Ratios[s] || pt.Label != a.Runs[j].ID {
				t.Errorf("%s point %d is %+v, want run %d's ratio %v", b.Name, j, pt, j+1, a.Runs[j].Ratios[s])
			}
			if pt.Y < p.Y.Min || pt.Y > p.Y.Max {
				t.Errorf("%s point %d (%v) outside the panel's range %v to %v", b.Name, j, pt.Y, p.Y.Min, p.Y.Max)
			}
		}
		if p.Band == nil || p.Band.Lo < p.Y.Min || p.Band.Hi > p.Y.Max {
			t.Errorf("%s: band %+v missing or outside the range %v to %v", b.Name, p.Band, p.Y.Min, p.Y.Max)
		}
	}
	if c.BandLegend != "band: the ratios the gate accepts (these runs)" {
		t.Errorf("band legend %q", c.BandLegend)
	}
	if none := chartdata.NewHistory(a, nil, ""); none.BandLegend != "" || none.Panels[0].Band != nil {
		t.Error("bands drawn with none given")
	}
}
