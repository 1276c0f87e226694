package chartdata

import (
	"fmt"
	"math"

	"qoscal/calibrate"
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
}

// RatioRow is one benchmark's ratios.
type RatioRow struct {
	Benchmark string
	Box       Box
	// Ratios are every run's ratio, in run order.
	Ratios []float64
}

// NewRatioSpread computes the ratio spread chart.
func NewRatioSpread(a *calibrate.Analysis) *RatioSpread {
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
	lo, hi := 1.0, 1.0
	for _, b := range a.Benchmarks {
		lo, hi = math.Min(lo, b.Min), math.Max(hi, b.Max)
		row := RatioRow{Benchmark: b.Name, Box: Box{Min: b.Min, Q1: b.Q1, Median: b.Median, Q3: b.Q3, Max: b.Max},
			Ratios: make([]float64, len(a.Runs))}
		if s := suiteIndex(a, b.Name); s >= 0 {
			for j, r := range a.Runs {
				row.Ratios[j] = r.Ratios[s]
			}
		}
		c.Rows = append(c.Rows, row)
	}
	lo = math.Min(lo, a.Score.Median)
	hi = math.Max(hi, a.Score.Median)
	c.X.Min, c.X.Max = logPad(lo, hi, 0.04)
	return c
}

// suiteIndex is the index of a benchmark in the suite (the runs' ratios
// are in suite order), -1 if it is not there.
func suiteIndex(a *calibrate.Analysis, name string) int {
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
	// floor), Below those under it.
	Above, Below Series
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
func NewScoreSequence(a *calibrate.Analysis, floor Floor) *ScoreSequence {
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
func NewScoreDistribution(a *calibrate.Analysis, floor Floor, predBound, alpha float64) *ScoreDistribution {
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
func NewNoise(a *calibrate.Analysis) *Noise {
	k := len(a.Benchmarks)
	c := &Noise{
		Head: Head{
			Name: "noise", Caption: "Noise by benchmark",
			Title: fmt.Sprintf("Noise by benchmark over %s: CV (log) and share of the score's variance", runsNote(a)),
			X:     Axis{Label: "percent"},
		},
		Benchmarks: make([]string, k),
		CV:         Bars{Label: "CV, log space (SD of ln ratio), %", Values: make([]float64, k)},
		Share:      Bars{Label: "share of Var(ln score), %", Values: make([]float64, k)},
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
// predictive false-positive rate per healthy run (log Y axis), each point
// labelled with its r50.
type FloorTradeoff struct {
	Head
	// Costs are the candidate floors (X) with a positive predictive
	// false-positive rate (Y), in the recommendation's order, labelled
	// "r50 0.805"; a floor whose rate is 0 or undefined has no place on
	// the log axis.
	Costs Series
}

// NewFloorTradeoff computes the floor trade-off chart. It is left out
// when no candidate floor has a positive false-positive rate (every run
// has the same score, say).
func NewFloorTradeoff(a *calibrate.Analysis, rec *calibrate.Recommendation) *FloorTradeoff {
	c := &FloorTradeoff{
		Head: Head{
			Name: "floor-tradeoff", Caption: "Floor trade-off",
			Title: fmt.Sprintf("Cost of a floor, from %s runs: false-positive rate per run, and r50", fmt.Sprint(a.Score.N)),
			X:     Axis{Label: fmt.Sprintf("floor (score, geomean %s)", metric(a))},
			Y:     Axis{Label: "false-positive rate per run (log)", Scale: Log},
		},
		Costs: Series{Label: "predictive false-positive rate (label: r50)"},
	}
	lo, hi := math.Inf(1), 0.0
	for _, fc := range rec.Candidates {
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
	c.X.Min, c.X.Max = pad(pts[0].X, pts[len(pts)-1].X, 0.12)
	c.Y.Min, c.Y.Max = logPad(lo, hi, 0.25)
	return c
}
