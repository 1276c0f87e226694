package chartdata

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// RatioSpread is each benchmark's ratio across runs, a row per benchmark
// (noisiest first, at the top), on a log ratio X axis.
type RatioSpread struct {
	Head
	// Rows are the benchmarks, noisiest first.
	Rows []RatioRow
	// RowsLegend is the legend entry of the rows' boxes, ranges and
	// points.
	RowsLegend string
	// Refs are vertical lines across every row at a ratio: parity, then
	// the median score; in legend order, before RowsLegend.
	Refs []Ref
	// BandLegend is the legend entry of the rows' bands, "" when no row
	// has one (AddBands); ThisLegend that of the marked run's ratios, ""
	// when no run is marked (MarkRun).
	BandLegend, ThisLegend string
}

// RatioRow is one benchmark's ratios.
type RatioRow struct {
	Benchmark string
	Box       Box
	// Ratios are every run's ratio, in run order.
	Ratios []float64
	// Band is the benchmark's band, the range of ratios its gate accepts
	// (model.Band); nil when none is shown or it is undefined.
	Band *Interval
	// This is the marked run's ratio; 0 when no run is marked.
	This float64
}

// NewRatioSpread computes the ratio spread chart.
func NewRatioSpread(a *spread.Analysis) *RatioSpread {
	c := &RatioSpread{
		Head: Head{
			Name: "ratio-spread", Caption: "Ratio spread per benchmark",
			Title: fmt.Sprintf("Ratio %s per benchmark over %s (noisiest first)", metric(a), runsNote(a)),
			X:     Axis{Label: fmt.Sprintf("ratio %s (log scale; > 1: %s better)", metric(a), a.Candidate), Scale: Log},
		},
		RowsLegend: "quartiles (type 7), median, range; a point per run",
		Refs: []Ref{
			{Kind: RefParity, At: 1, Label: "parity (1.0)"},
			{Kind: RefMedian, At: a.Score.Median, Label: fmt.Sprintf("median score %.2f", a.Score.Median)},
		},
	}
	for _, b := range a.Benchmarks {
		row := RatioRow{Benchmark: b.Name, Box: Box{Min: b.Min, Q1: b.Q1, Median: b.Median, Q3: b.Q3, Max: b.Max},
			Ratios: make([]float64, len(a.Runs))}
		if s := suiteIndex(a, b.Name); s >= 0 {
			for j, r := range a.Runs {
				row.Ratios[j] = r.Ratios[s]
			}
		}
		c.Rows = append(c.Rows, row)
	}
	c.repad()
	return c
}

// Clone returns a copy of the chart whose rows and reference lines are
// its own, so that AddBands or MarkRun on it leave c as it is: a
// renderer that shows more than another (the step summary's text strips
// show the bands of the runs where the chart drawn as an image shows
// none) draws from the copy.
func (c *RatioSpread) Clone() *RatioSpread {
	d := *c
	d.Rows = slices.Clone(c.Rows)
	d.Refs = slices.Clone(c.Refs)
	return &d
}

// AddBands gives each row its benchmark's band (the prediction bounds
// Lower to Upper of model.Band), from where says whose bands they are
// ("calibration file", "these runs"), and widens the axis to show them.
// A benchmark with no band, or one undefined (it never varied), has none.
func (c *RatioSpread) AddBands(bands []model.Band, from string) {
	by := map[string]model.Band{}
	for _, b := range bands {
		by[b.Name] = b
	}
	lo, hi := math.Log(c.X.Min), math.Log(c.X.Max)
	any := false
	for i := range c.Rows {
		b, ok := by[c.Rows[i].Benchmark]
		if !ok || !(b.Lower > 0) || math.IsInf(b.Upper, 0) || !(b.Upper > b.Lower) {
			continue
		}
		c.Rows[i].Band = &Interval{Lo: b.Lower, Hi: b.Upper}
		lo, hi = math.Min(lo, math.Log(b.Lower)), math.Max(hi, math.Log(b.Upper))
		any = true
	}
	if any {
		c.BandLegend = fmt.Sprintf("band: the ratios the gate accepts (%s)", from)
		c.X.Min, c.X.Max = math.Exp(lo), math.Exp(hi)
		c.repad()
	}
}

// MarkRun marks the ratios of run id, one of the runs of a (the analysis
// the chart was made from, or the wider one of every run read), so that
// the chart shows where this run sits in each benchmark's spread. It fails
// when a has no run of that id or lacks a benchmark of the chart.
func (c *RatioSpread) MarkRun(a *spread.Analysis, id string) error {
	run := -1
	for i, r := range a.Runs {
		if r.ID == id {
			run = i
		}
	}
	if run < 0 {
		return fmt.Errorf("no run %q among the %d runs read", id, len(a.Runs))
	}
	for i := range c.Rows {
		s := suiteIndex(a, c.Rows[i].Benchmark)
		if s < 0 {
			return fmt.Errorf("run %q has no ratio for %s", id, c.Rows[i].Benchmark)
		}
		c.Rows[i].This = a.Runs[run].Ratios[s]
		c.X.Min, c.X.Max = math.Min(c.X.Min, c.Rows[i].This), math.Max(c.X.Max, c.Rows[i].This)
	}
	c.ThisLegend = "run " + id
	c.repad()
	return nil
}

// repad sets the X range from everything the rows show, with the margin
// NewRatioSpread gives it.
func (c *RatioSpread) repad() {
	lo, hi := 1.0, 1.0
	for _, r := range c.Refs {
		lo, hi = math.Min(lo, r.At), math.Max(hi, r.At)
	}
	for _, row := range c.Rows {
		lo, hi = math.Min(lo, row.Box.Min), math.Max(hi, row.Box.Max)
		if row.Band != nil {
			lo, hi = math.Min(lo, row.Band.Lo), math.Max(hi, row.Band.Hi)
		}
		if row.This > 0 {
			lo, hi = math.Min(lo, row.This), math.Max(hi, row.This)
		}
	}
	c.X.Min, c.X.Max = logPad(lo, hi, 0.04)
}

// suiteIndex is the index of a benchmark in the suite (the runs' ratios
// are in suite order), -1 if it is not there.
func suiteIndex(a *spread.Analysis, name string) int {
	for s, n := range a.Suite {
		if n == name {
			return s
		}
	}
	return -1
}

// ScoreSequence is each run's score in run order (X: 1 to n), with
// horizontal reference lines.
type ScoreSequence struct {
	Head
	// Scores are every run's score, in run order, labelled with the run
	// id (drawn as a line; no legend entry).
	Scores Series
	// Above are the runs at or above the floor (all of them with no
	// floor), Below those under it; Gated the runs after the calibration
	// (MarkGated), whatever their score, which are in neither.
	Above, Below, Gated Series
	// Refs are horizontal lines across the runs: the floor (when there
	// is one), the lowest observed score, and parity (when the scores
	// are near it); in legend order, before Above and Below.
	Refs []Ref
	// Regimes shade the stretches of runs between change points of the
	// score, when there is more than one (docs/STATS.md 5), in run order.
	Regimes []Shade
}

// Shade is a stretch of runs shaded on the X axis, from From to To.
type Shade struct {
	From, To float64
	Label    string
	// Calibrated marks the stretch the floor was calibrated on.
	Calibrated bool
}

// NewScoreSequence computes the score sequence chart.
func NewScoreSequence(a *spread.Analysis, floor Floor) *ScoreSequence {
	n := len(a.Runs)
	c := &ScoreSequence{
		Head: Head{
			Name: "score-sequence", Caption: "Score sequence",
			Title: fmt.Sprintf("Score (geomean %s) of each run, in run order, %s", metric(a), runsNote(a)),
			X:     Axis{Label: "run (order read)", Min: 0.5, Max: float64(n) + 0.5},
			Y:     Axis{Label: fmt.Sprintf("score, geomean %s", metric(a))},
		},
		Above: Series{Label: "run score"},
		Below: Series{Label: "below the floor"},
		Gated: Series{Label: "runs after the calibration"},
	}
	lo, hi := a.Score.Min, a.Score.Max
	for i, r := range a.Runs {
		pt := Point{X: float64(i + 1), Y: r.Score, Label: r.ID}
		c.Scores.Points = append(c.Scores.Points, pt)
		if floor.Value > 0 && r.Score < floor.Value {
			c.Below.Points = append(c.Below.Points, pt)
		} else {
			c.Above.Points = append(c.Above.Points, pt)
		}
	}
	if floor.Value > 0 {
		c.Refs = append(c.Refs, Ref{Kind: RefFloor, At: floor.Value, Label: floorLabel(floor)})
		lo = math.Min(lo, floor.Value)
	}
	c.Refs = append(c.Refs, Ref{Kind: RefLowest, At: a.Score.Min, Label: lowestLabel(a)})
	if rs := a.Regimes; len(rs) > 1 {
		for i, r := range rs {
			s := Shade{From: float64(r.Start) + 0.5, To: float64(r.Start+r.N) + 0.5, Calibrated: i == len(rs)-1}
			s.Label = fmt.Sprintf("regime %s, median %s", r.Span(), Num(r.Median))
			c.Regimes = append(c.Regimes, s)
		}
	}
	if lo < 1.15 && hi > 0.85 {
		c.Refs = append(c.Refs, Ref{Kind: RefParity, At: 1, Label: "parity 1.0"})
		lo, hi = math.Min(lo, 1), math.Max(hi, 1)
	}
	c.Y.Min, c.Y.Max = pad(lo, hi, 0.08)
	return c
}

// MarkGated moves the runs that came after the calibration, those after
// the last of its runs (calibrated, the run ids of the calibration file's
// model) that are not among them, from Above and Below to Gated: the runs
// since, which show whether the score has drifted from what the floor
// was calibrated on. They are labelled runs after the calibration, not
// gated runs: a run ingested or read from a file after the calibration
// looks the same as one the gate recorded, and only a record of the
// gate's verdicts could tell them apart.
func (c *ScoreSequence) MarkGated(calibrated []string) {
	in := map[string]bool{}
	for _, id := range calibrated {
		in[id] = true
	}
	last := -1
	for i, pt := range c.Scores.Points {
		if in[pt.Label] {
			last = i
		}
	}
	gated := map[float64]bool{}
	for i, pt := range c.Scores.Points {
		if i > last && !in[pt.Label] {
			gated[pt.X] = true
			c.Gated.Points = append(c.Gated.Points, pt)
		}
	}
	keep := func(s []Point) []Point {
		var out []Point
		for _, pt := range s {
			if !gated[pt.X] {
				out = append(out, pt)
			}
		}
		return out
	}
	c.Above.Points, c.Below.Points = keep(c.Above.Points), keep(c.Below.Points)
	// The regime calibrated on is the one the calibration's last run is
	// in, not the latest.
	if last >= 0 {
		x := c.Scores.Points[last].X
		for i := range c.Regimes {
			c.Regimes[i].Calibrated = c.Regimes[i].From <= x && x < c.Regimes[i].To
		}
	}
}

// ScoreDistribution is a histogram of the run scores with the fitted
// log-normal density scaled to counts, and vertical reference lines. The
// Y axis counts runs, from 0 to a little above the tallest bin or the
// density's peak.
type ScoreDistribution struct {
	Head
	// Bins are the histogram: ⌈√n⌉+2 bins of equal width from the lowest
	// score to the highest; one narrow bin centred on the score when
	// every run has the same.
	Bins []Bin
	// Density is the fitted log-normal density times n times the bins'
	// width, so that it reads on the count axis, at 200 evenly spaced scores
	// from X.Min to X.Max. No points when the scores have no spread (the
	// fit is a spike with no density to draw).
	Density Series
	// Refs are vertical lines from 0 to Y.Max: the floor (when there is
	// one), the lowest observed score, and the lower prediction bound
	// (when positive); in legend order, after Density.
	Refs []Ref
}

// densitySamples is how many points of the fitted density are drawn.
const densitySamples = 200

// NewScoreDistribution computes the score distribution chart; predBound
// is the lower prediction bound at α (marked when positive).
func NewScoreDistribution(a *spread.Analysis, floor Floor, predBound, alpha float64) *ScoreDistribution {
	c := &ScoreDistribution{
		Head: Head{
			Name: "score-distribution", Caption: "Score distribution",
			Title: fmt.Sprintf("Distribution of the score (geomean %s) over %s", metric(a), runsNote(a)),
			X:     Axis{Label: fmt.Sprintf("score, geomean %s", metric(a))},
			Y:     Axis{Label: "runs"},
		},
	}
	vals := make([]float64, len(a.Runs))
	for i, r := range a.Runs {
		vals[i] = r.Score
	}
	nbins := int(math.Ceil(math.Sqrt(float64(len(vals))))) + 2
	bins, width, ok := histogram(vals, nbins)
	if !ok {
		c.LeftOut = "a score is not a finite number"
		return c
	}
	c.Bins = bins
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
	if a.Score.Min == a.Score.Max && len(c.Bins) > 0 {
		// Every run has the same score: the one bin would be of width 1
		// and start at it; centre one narrow bin on it instead.
		w := (hi - lo) / float64(4*nbins)
		v := a.Score.Min
		c.Bins = []Bin{{Min: v - w/2, Max: v + w/2, Count: len(vals)}}
	}
	c.X.Min, c.X.Max = lo, hi
	n := float64(len(vals))
	var top float64
	for _, b := range c.Bins {
		top = math.Max(top, float64(b.Count))
	}
	if fitted := a.Score.SDLog > 0 && !math.IsInf(a.Score.SDLog, 0); fitted {
		c.Density.Label = "fitted log-normal"
		d := (hi - lo) / float64(densitySamples-1)
		for i := range densitySamples {
			x := lo + float64(i)*d
			c.Density.Points = append(c.Density.Points, Point{X: x, Y: a.Score.Density(x) * n * width})
		}
		// The density's peak is at its mode, exp(m − s²).
		peak := a.Score.Density(math.Exp(a.Score.MeanLog-a.Score.SDLog*a.Score.SDLog)) * n * width
		top = math.Max(top, peak)
	}
	top *= 1.15
	c.Y.Min, c.Y.Max = 0, top
	if floor.Value > 0 {
		c.Refs = append(c.Refs, Ref{Kind: RefFloor, At: floor.Value, Label: floorLabel(floor)})
	}
	c.Refs = append(c.Refs, Ref{Kind: RefLowest, At: a.Score.Min, Label: lowestLabel(a)})
	if predBound > 0 {
		c.Refs = append(c.Refs, Ref{Kind: RefPrediction, At: predBound, Label: fmt.Sprintf("%g%% prediction bound %.3f", alpha*100, predBound)})
	}
	return c
}

// histogram counts vals in n bins of equal width from the lowest value to
// the highest (one bin of width 1 when they are all equal), as gonum/plot
// bins a histogram (plotter.NewHist), so that the bars drawn are the ones
// it drew. ok is false when a value falls in no bin (it is not finite).
func histogram(vals []float64, n int) (bins []Bin, width float64, ok bool) {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		xmin, xmax = math.Min(xmin, v), math.Max(xmax, v)
	}
	if n < 1 || xmax <= xmin {
		n = 1
	}
	bins = make([]Bin, n)
	w := (xmax - xmin) / float64(n)
	if w == 0 {
		w = 1
	}
	for i := range bins {
		bins[i].Min = xmin + float64(i)*w
		bins[i].Max = xmin + float64(i+1)*w
	}
	for _, x := range vals {
		b := int((x - xmin) / w)
		if x == xmax {
			b = n - 1
		}
		if math.IsNaN(x) || b < 0 || b >= n {
			return nil, 0, false
		}
		bins[b].Count++
	}
	return bins, w, true
}

// Noise is, for each benchmark (noisiest first, at the top), its CV in
// log space and its share of the score's variance, as horizontal bars in
// percent on the X axis.
type Noise struct {
	Head
	// Benchmarks name the rows, noisiest first.
	Benchmarks []string
	// CV is each benchmark's SD of ln ratio, in %; Share its share of
	// Var(ln score), in % (0 when undefined).
	CV, Share Bars
	// Zero is a vertical line at 0 across the rows (no legend entry).
	Zero Ref
}

// NewNoise computes the noise chart.
func NewNoise(a *spread.Analysis) *Noise {
	k := len(a.Benchmarks)
	c := &Noise{
		Head: Head{
			Name: "noise", Caption: "Noise by benchmark",
			Title: fmt.Sprintf("Noise by benchmark over %s: CV (log) and share of the score's variance", runsNote(a)),
			X:     Axis{Label: "percent"},
		},
		Benchmarks: make([]string, k),
		CV:         Bars{Label: "CV, log space (SD of ln ratio), %", Values: make([]float64, k)},
		Share:      Bars{Label: "share of Var(ln score), % (below 0: moves against the rest, steadying the score)", Values: make([]float64, k)},
		Zero:       Ref{Kind: RefZero, At: 0},
	}
	lo, hi := 0.0, 0.0
	for i, b := range a.Benchmarks {
		s := b.VarianceShare * 100
		if math.IsNaN(s) {
			s = 0
		}
		c.Benchmarks[i], c.CV.Values[i], c.Share.Values[i] = b.Name, b.CVLog*100, s
		lo = math.Min(lo, math.Min(c.CV.Values[i], s))
		hi = math.Max(hi, math.Max(c.CV.Values[i], s))
	}
	c.X.Min, c.X.Max = pad(lo, hi, 0.05)
	return c
}

// FloorTradeoff is, for each candidate floor of the recommendation, its
// predictive false-positive rate per healthy run (log Y axis, a fraction
// shown in percent), with the recommended floor marked and the target
// rate as a line, and, in a second panel on the same X axis, the r50 of
// each floor: the mildest uniform regression it catches half the time.
type FloorTradeoff struct {
	Head
	// Costs are the candidate floors (X) with a positive predictive
	// false-positive rate (Y), in the recommendation's order, labelled
	// "r50 0.805"; a floor whose rate is 0 or undefined has no place on
	// the log axis.
	Costs Series
	// Floor is a vertical line at the recommended floor, across both
	// panels.
	Floor Ref
	// Target is a horizontal line at the target false-positive rate of
	// the target-fpr method; its At is 0 with any other method.
	Target Ref
	// R50 are the same floors' r50 (Y of the second panel, on R50Axis),
	// for every candidate whose r50 is a number.
	R50     Series
	R50Axis Axis
}

// NewFloorTradeoff computes the floor trade-off chart. It is left out
// when no candidate floor has a positive false-positive rate (every run
// has the same score, say).
func NewFloorTradeoff(a *spread.Analysis, rec *calfloor.Recommendation) *FloorTradeoff {
	c := &FloorTradeoff{
		Head: Head{
			Name: "floor-tradeoff", Caption: "Floor trade-off",
			Title: fmt.Sprintf("Cost of a floor, from %s runs: false alarms per healthy run, and what it catches", fmt.Sprint(a.Score.N)),
			X:     Axis{Label: fmt.Sprintf("floor (score, geomean %s)", metric(a))},
			Y:     Axis{Label: "false alarms per run (log)", Scale: Log},
		},
		Costs:   Series{Label: "predictive false-positive rate per healthy run"},
		R50:     Series{Label: "r50: the uniform slide caught half the time"},
		R50Axis: Axis{Label: "r50 (ratio)"},
		Floor:   Ref{Kind: RefFloor, At: rec.Floor, Label: fmt.Sprintf("recommended floor %s", rec.FormatFloor(rec.Floor))},
	}
	if rec.Options.Method == model.MethodTargetFPR {
		t := rec.Options.TargetFPR
		c.Target = Ref{Kind: RefTarget, At: t, Label: fmt.Sprintf("target rate %s%% (1 in %s)", Num3(t*100), Num3(1/t))}
	}
	lo, hi := math.Inf(1), 0.0
	rlo, rhi := math.Inf(1), math.Inf(-1)
	for _, fc := range rec.Candidates {
		if fc.R50 > 0 && !math.IsInf(fc.R50, 0) {
			c.R50.Points = append(c.R50.Points, Point{X: fc.Floor, Y: fc.R50, Label: fmt.Sprintf("%.3f", fc.R50)})
			rlo, rhi = math.Min(rlo, fc.R50), math.Max(rhi, fc.R50)
		}
		if !(fc.Predictive > 0) {
			continue
		}
		c.Costs.Points = append(c.Costs.Points, Point{X: fc.Floor, Y: fc.Predictive, Label: fmt.Sprintf("r50 %.3f", fc.R50)})
		lo, hi = math.Min(lo, fc.Predictive), math.Max(hi, fc.Predictive)
	}
	pts := c.Costs.Points
	if len(pts) == 0 {
		c.LeftOut = "no candidate floor has a positive false-positive rate to draw on its log axis" + sameScores(a)
		return c
	}
	if c.Target.At > 0 {
		lo, hi = math.Min(lo, c.Target.At), math.Max(hi, c.Target.At)
	}
	xlo, xhi := math.Min(pts[0].X, rec.Floor), math.Max(pts[len(pts)-1].X, rec.Floor)
	c.X.Min, c.X.Max = pad(xlo, xhi, 0.08)
	c.Y.Min, c.Y.Max = logPad(lo, hi, 0.12)
	if len(c.R50.Points) > 0 {
		c.R50Axis.Min, c.R50Axis.Max = pad(rlo, rhi, 0.12)
	}
	return c
}

// MarkFloor draws f, a floor not recommended (a calibration file's, or
// one given), as the chart's floor line, labelled as the other charts
// label it, in place of the recommended floor's.
func (c *FloorTradeoff) MarkFloor(f Floor) {
	c.Floor = Ref{Kind: RefFloor, At: f.Value, Label: floorLabel(f)}
	if pts := c.Costs.Points; len(pts) > 0 {
		c.X.Min, c.X.Max = pad(math.Min(pts[0].X, f.Value), math.Max(pts[len(pts)-1].X, f.Value), 0.08)
	}
}

// Num3 formats a number with up to three significant digits and no
// exponent for the sizes charts show: 0.1, 1000, 0.0123.
func Num3(v float64) string {
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if strings.ContainsAny(s, "e") {
		// Write it out: 1e+03 is 1000.
		f, _ := strconv.ParseFloat(s, 64)
		s = strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}

// History is each benchmark's ratio run by run, a small panel per
// benchmark (noisiest first), with the benchmark's band: the chart that
// shows which benchmark moved, and when.
type History struct {
	Head
	// Panels are the benchmarks, noisiest first.
	Panels []HistoryPanel
	// RatiosLegend is the legend entry of the panels' ratios; BandLegend
	// that of their bands ("" when no panel has one).
	RatiosLegend, BandLegend string
}

// HistoryPanel is one benchmark's ratios in run order.
type HistoryPanel struct {
	Benchmark string
	// Ratios are every run's ratio (X the run's number, 1 to n, Y the
	// ratio, labelled with the run id).
	Ratios Series
	// Median is the benchmark's median ratio over the runs.
	Median float64
	// Band is the benchmark's band (model.Band); nil when it has none.
	Band *Interval
	// Y is the panel's own range of ratios: the ratios, the band and the
	// median, with a margin.
	Y Axis
}

// NewHistory computes the per-benchmark history of the runs of a (every
// run read, as the score sequence shows them), with the bands given,
// whose source from names ("these runs", "calibration file"); bands may
// be nil.
func NewHistory(a *spread.Analysis, bands []model.Band, from string) *History {
	c := &History{
		Head: Head{
			Name: "history", Caption: "Ratio history per benchmark",
			Title: fmt.Sprintf("Ratio %s of each benchmark, run by run, %s (noisiest first)", metric(a), runsNote(a)),
			X:     Axis{Label: "run (order read)", Min: 0.5, Max: float64(len(a.Runs)) + 0.5},
			Y:     Axis{Label: "ratio " + metric(a)},
		},
		RatiosLegend: "the benchmark's ratio, run by run (x: the run's number, in the order read)",
	}
	by := map[string]model.Band{}
	for _, b := range bands {
		by[b.Name] = b
	}
	for _, b := range a.Benchmarks {
		p := HistoryPanel{Benchmark: b.Name, Median: b.Median}
		s := suiteIndex(a, b.Name)
		lo, hi := b.Median, b.Median
		for i, r := range a.Runs {
			if s < 0 {
				break
			}
			v := r.Ratios[s]
			p.Ratios.Points = append(p.Ratios.Points, Point{X: float64(i + 1), Y: v, Label: r.ID})
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if bd, ok := by[b.Name]; ok && bd.Lower > 0 && bd.Upper > bd.Lower && !math.IsInf(bd.Upper, 0) {
			p.Band = &Interval{Lo: bd.Lower, Hi: bd.Upper}
			lo, hi = math.Min(lo, bd.Lower), math.Max(hi, bd.Upper)
			c.BandLegend = fmt.Sprintf("band: the ratios the gate accepts (%s)", from)
		}
		p.Y.Label = "ratio"
		p.Y.Min, p.Y.Max = pad(lo, hi, 0.08)
		c.Panels = append(c.Panels, p)
	}
	return c
}
