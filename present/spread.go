package present

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/render"
	"github.com/qoscal/qoscal/stats"
)

// Spread is the view of a calibration's spread (qoscal spread).
type Spread struct {
	A *calspread.Analysis
	// Warnings are the analysis' warnings in the command's words.
	Warnings []string
}

// Metric describes the score: "mimalloc/glibc".
func Metric(a *calspread.Analysis) string { return a.Candidate + "/" + a.Baseline }

// DirectionNote says how the suite's ratios are oriented: "higher is
// better: ops/sec".
func DirectionNote(a *calspread.Analysis) string {
	byDir := map[calibrate.Direction]map[string]bool{}
	for _, b := range a.Suite {
		d := a.Directions[b]
		if byDir[d] == nil {
			byDir[d] = map[string]bool{}
		}
		byDir[d][a.Units[b]] = true
	}
	var parts []string
	for _, d := range []calibrate.Direction{calibrate.HigherIsBetter, calibrate.LowerIsBetter} {
		if units := byDir[d]; units != nil {
			var us []string
			for unit := range units {
				us = append(us, unit)
			}
			sort.Strings(us)
			parts = append(parts, d.String()+": "+strings.Join(us, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

var scoreColumns = []render.Column[calspread.RunScore]{
	{Head: "run", Cell: func(r calspread.RunScore) string { return r.ID }, Key: "run", JSON: func(r calspread.RunScore) any { return r.ID }},
	{Head: "score", Align: render.Right, Cell: func(r calspread.RunScore) string { return X(r.Score) },
		Key: "score", JSON: func(r calspread.RunScore) any { return render.Float(r.Score) }},
}

type bs = calspread.BenchmarkSpread

// benchColumns are the per-benchmark spread's columns (text, Markdown and
// JSON).
var benchColumns = []render.Column[bs]{
	{Head: "benchmark", Cell: func(b bs) string { return b.Name }, Key: "name", JSON: func(b bs) any { return b.Name }},
	{Key: "unit", JSON: func(b bs) any { return b.Unit }},
	{Key: "direction", JSON: func(b bs) any { return b.Direction.Key() }},
	{Head: "min", Align: render.Right, Cell: func(b bs) string { return X(b.Min) }, Key: "min", JSON: func(b bs) any { return render.Float(b.Min) }},
	{Head: "median", Align: render.Right, Cell: func(b bs) string { return X(b.Median) }, Key: "median", JSON: func(b bs) any { return render.Float(b.Median) }},
	{Head: "max", Align: render.Right, Cell: func(b bs) string { return X(b.Max) }, Key: "max", JSON: func(b bs) any { return render.Float(b.Max) }},
	{Head: "range", Align: render.Right, Cell: func(b bs) string { return Pct(b.RangePct / 100) }, Key: "range_pct", JSON: func(b bs) any { return render.Float(b.RangePct) }},
	{Head: "CV", Align: render.Right, Cell: func(b bs) string { return Pct(b.CV) }, Key: "cv", JSON: func(b bs) any { return render.Float(b.CV) }},
	{Head: "CV(log)", Align: render.Right, Cell: func(b bs) string { return Pct(b.CVLog) }, Key: "cv_log", JSON: func(b bs) any { return render.Float(b.CVLog) }},
	{Head: "IQR", Align: render.Right, Cell: func(b bs) string { return Dec(b.IQR, 3) }, Key: "iqr", JSON: func(b bs) any { return render.Float(b.IQR) }},
	{Head: "MAD", Align: render.Right, Cell: func(b bs) string { return Dec(b.MAD, 3) }, Key: "mad", JSON: func(b bs) any { return render.Float(b.MAD) }},
	{Head: "share", Align: render.Right, Cell: func(b bs) string { return Pct(b.VarianceShare) }, Key: "variance_share", JSON: func(b bs) any { return render.Float(b.VarianceShare) }},
	{Head: "LOO", Align: render.Right, Cell: func(b bs) string { return X(b.LOOScore) }, Key: "loo_score", JSON: func(b bs) any { return render.Float(b.LOOScore) }},
	{Head: "shifts", Cell: shifts, Key: "regimes", JSON: func(b bs) any { return RegimesJSON(b.Regimes) }},
}

// shifts lists where a benchmark's ratio changed regime: "run-04", or ""
// when it never did.
func shifts(b bs) string {
	var at []string
	for _, r := range b.Regimes[min(1, len(b.Regimes)):] {
		at = append(at, r.First)
	}
	return strings.Join(at, ", ")
}

// ScoreTable is the score of every run.
func (v *Spread) ScoreTable() *render.Table { return render.NewTable(scoreColumns, v.A.Runs) }

// BenchmarkTable is the per-benchmark spread, noisiest first.
func (v *Spread) BenchmarkTable() *render.Table { return render.NewTable(benchColumns, v.A.Benchmarks) }

// DistributionTable is the score distribution in one row.
func (v *Spread) DistributionTable() *render.Table {
	s := v.A.Score
	t := &render.Table{Head: []string{"n", "min", "median", "max", "mean", "geomean", "GSD", "95% CI", "range", "CV"}}
	for range t.Head {
		t.Align = append(t.Align, render.Right)
	}
	t.AddRow(fmt.Sprint(s.N), X(s.Min), X(s.Median), X(s.Max), Dec(s.Mean, 3), Dec(s.GeoMean, 3), Dec(s.GSD, 3),
		Dec(s.CILow, 3)+"–"+Dec(s.CIHigh, 3), Pct(s.RangePct/100), Pct(s.CV))
	return t
}

// Distribution is the score distribution as indented lines.
func (v *Spread) Distribution() []string {
	s := v.A.Score
	regimes := "    one regime: no significant change of the score (E-Divisive, level 0.05)"
	if rs := v.A.Regimes; len(rs) > 1 {
		regimes = "    regimes: " + DescribeRegimes(rs)
	}
	return []string{
		fmt.Sprintf("    min %s  median %s  max %s  (lowest: %s)", X(s.Min), X(s.Median), X(s.Max), s.LowestRun),
		fmt.Sprintf("    mean %s  geomean %s  GSD %s", Dec(s.Mean, 3), Dec(s.GeoMean, 3), Dec(s.GSD, 3)),
		fmt.Sprintf("    95%% CI of the typical score %s–%s; range %s of the median; CV %s", Dec(s.CILow, 3), Dec(s.CIHigh, 3), Pct(s.RangePct/100), Pct(s.CV)),
		regimes,
		"    " + ModelCheck(v.A.Score),
	}
}

// ModelCheck says what the model checks found: "model check: log scores
// normal? Shapiro–Wilk W 0.798, p 0.009 (no, at 5%); lag-1
// autocorrelation +0.70 (SE 0.29)".
func ModelCheck(s calspread.ScoreStats) string {
	if math.IsNaN(s.ShapiroW) {
		return "model check: too few runs, or scores that never varied, for the normality and autocorrelation checks"
	}
	verdict := "consistent with normal"
	if s.ShapiroP < calspread.NormalityAlpha {
		verdict = "not normal at 5%"
	}
	corr := "no significant autocorrelation"
	if s.Effective.Rho > 0 {
		corr = "consecutive runs correlated"
	}
	return fmt.Sprintf("model check: log scores %s (Shapiro–Wilk W %.3f, p %.3f); %s; lag-1 autocorrelation %+.2f (SE %.2f), %s",
		verdict, s.ShapiroW, s.ShapiroP, TailNote(s.Tail), s.Lag1, s.Lag1SE, corr)
}

// TailNote says what the tail model found (docs/STATS.md 5d): "tail
// normal (t with ≥ 5 degrees of freedom not ruled out)", "tail heavier
// than normal: t with 4 degrees of freedom (likelihood ratio 3.2)".
func TailNote(t stats.Tail) string {
	if !t.Normal() {
		return fmt.Sprintf("tail heavier than normal: Student-t with %v degrees of freedom (likelihood ratio %.1f)", t.DF, t.LR)
	}
	if math.IsInf(t.DFLower, 1) {
		return "tail normal"
	}
	return fmt.Sprintf("tail normal, a Student-t with %v degrees of freedom not ruled out", t.DFLower)
}

// ModelCheckRows are the model checks as rows of a table of figures: the
// normality of the log scores and the lag-1 autocorrelation, each with
// what it does to the figures (docs/STATS.md 5a–5c).
func ModelCheckRows(s calspread.ScoreStats) [][2]string {
	if math.IsNaN(s.ShapiroW) {
		return [][2]string{{"model check", "too few runs, or scores that never varied, to check normality and autocorrelation"}}
	}
	normal := fmt.Sprintf("yes at 5%%: Shapiro–Wilk W %.3f, p %.3f", s.ShapiroW, s.ShapiroP)
	if s.ShapiroP < calspread.NormalityAlpha {
		normal = fmt.Sprintf("no at 5%%: Shapiro–Wilk W %.3f, p %.3f; the claimed rates are no lower than the model-free ones", s.ShapiroW, s.ShapiroP)
	}
	corr := fmt.Sprintf("%+.2f (SE %.2f): not significant, the runs are treated as independent", s.Lag1, s.Lag1SE)
	if e := s.Effective; e.Rho > 0 {
		corr = fmt.Sprintf("%+.2f (SE %.2f): consecutive runs correlated; allowing for ρ %.2f the %d runs count as %.1f", s.Lag1, s.Lag1SE, e.Rho, s.N, e.N)
	}
	tail := "normal: the rates are the log-normal model's"
	if !s.Tail.Normal() {
		tail = fmt.Sprintf("heavier than normal: a Student-t with %v degrees of freedom fits better (likelihood ratio %.1f); the rates are that tail's, and the claimed rates no lower than the model-free ones", s.Tail.DF, s.Tail.LR)
	}
	if !math.IsInf(s.Tail.DFLower, 1) {
		tail += fmt.Sprintf("; the 95%% bound allows for a tail as heavy as a Student-t with %v degrees of freedom, which the runs do not rule out", s.Tail.DFLower)
	}
	return [][2]string{{"log scores normal?", normal}, {"tail of the log scores", tail}, {"lag-1 autocorrelation of the log scores", corr}}
}

// ModelCheckJSON is the model checks in JSON.
type ModelCheckJSON struct {
	ShapiroW render.Float `json:"shapiro_w"`
	ShapiroP render.Float `json:"shapiro_p"`
	Normal   *bool        `json:"normal"`
	Lag1     render.Float `json:"lag1_autocorrelation"`
	Lag1SE   render.Float `json:"lag1_se"`
	Tail     TailJSON     `json:"tail"`
}

// TailJSON is what the tail model found (docs/STATS.md 5d): the degrees
// of freedom of the tail the runs favour (null: the normal), of the
// heaviest they do not rule out (null: none heavier than the normal),
// and the likelihood ratio of the best fit against the normal.
type TailJSON struct {
	DF      render.Float `json:"df"`
	DFLower render.Float `json:"df_lower"`
	LR      render.Float `json:"likelihood_ratio"`
}

// ModelCheckOf returns the model checks of a score distribution.
func ModelCheckOf(s calspread.ScoreStats) ModelCheckJSON {
	j := ModelCheckJSON{ShapiroW: render.Float(s.ShapiroW), ShapiroP: render.Float(s.ShapiroP),
		Lag1: render.Float(s.Lag1), Lag1SE: render.Float(s.Lag1SE),
		Tail: TailJSON{DF: render.Float(s.Tail.DF), DFLower: render.Float(s.Tail.DFLower), LR: render.Float(s.Tail.LR)}}
	if !math.IsNaN(s.ShapiroP) {
		normal := s.ShapiroP >= calspread.NormalityAlpha
		j.Normal = &normal
	}
	return j
}

// Summary is the plain-language reading of the spread: the scores, the
// noisiest benchmarks' ranges, and how little (or much) the geomean
// moves.
func (v *Spread) Summary() string {
	a := v.A
	s := a.Score
	var scores []string
	for i, r := range a.Runs {
		if i == 10 && len(a.Runs) > 12 {
			scores = append(scores, fmt.Sprintf("… (%d more)", len(a.Runs)-10))
			break
		}
		scores = append(scores, X(r.Score))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Measured across %d runs of unchanged code: geomean(%s) = %s.", s.N, Metric(a), strings.Join(scores, ", "))
	rd := a.Reading()
	var noisy []string
	for _, x := range rd.Widest {
		noisy = append(noisy, x.Name+" "+Range(x.Min, x.Max))
	}
	if rd.Steadier {
		fmt.Fprintf(&b, " Individual benchmarks are noisy (%s), but the geomean moves less: %s, a range of %s of its median.",
			strings.Join(noisy, ", "), Range(s.Min, s.Max), Pct(s.RangePct/100))
	} else {
		fmt.Fprintf(&b, " The geomean ranges %s, %s of its median.", Range(s.Min, s.Max), Pct(s.RangePct/100))
	}
	if d := rd.Dominant; d != nil {
		fmt.Fprintf(&b, " %s alone carries %s of the score's variance.", d.Name, Pct(d.VarianceShare))
	}
	return b.String()
}

// addWarnings ends a Markdown document with its warnings, if any.
func addWarnings(d *render.Doc, ws []string) {
	if len(ws) > 0 {
		md := render.In{Only: render.Markdown}
		d.Add(&render.Heading{In: md, Level: 3, Text: "Warnings"}, &render.List{In: md, Items: ws})
	}
}

// only limits a table to some formats.
func only(t *render.Table, f render.Formats) *render.Table {
	t.In = render.In{Only: f}
	return t
}

// Doc is the spread: in a terminal the scores, the distribution, the
// benchmarks and the summary; in Markdown the summary first, then the
// distribution, the benchmarks and the scores as tables, and the warnings.
func (v *Spread) Doc() *render.Doc {
	a := v.A
	s := a.Score
	text, md := render.In{Only: render.Text}, render.In{Only: render.Markdown}
	d := &render.Doc{}
	d.Add(
		&render.Lines{In: text, Lines: []string{fmt.Sprintf("score = geomean(%s) over %s, %d runs (%s)", Metric(a), Plural(len(a.Suite), "benchmark"), s.N, DirectionNote(a))}},
		&render.Blank{In: text},
		only(v.ScoreTable(), render.Text),
		&render.Blank{In: text},
		&render.Lines{In: text, Lines: append([]string{fmt.Sprintf("score distribution over %d runs:", s.N)}, v.Distribution()...)},
		&render.Blank{In: text},
	)
	if l := VarianceLine(a); l != "" {
		d.Add(&render.Paragraph{In: text, Text: l, Width: 78}, &render.Blank{In: text})
	}
	d.Add(
		only(v.BenchmarkTable(), render.Text),
		&render.Blank{In: text},
		&render.Paragraph{In: text, Text: v.Summary(), Width: 78},

		&render.Heading{In: md, Level: 2, Text: "Score spread: geomean(" + Metric(a) + ")"},
		&render.Paragraph{In: md, Text: v.Summary()},
		&render.Paragraph{In: md, Text: fmt.Sprintf("%d benchmarks, %d runs (%s).", len(a.Suite), s.N, DirectionNote(a))},
		only(v.DistributionTable(), render.Markdown),
		&render.Paragraph{In: md, Text: strings.TrimSpace(v.Distribution()[3]) + "."},
		&render.Paragraph{In: md, Text: upperFirst(ModelCheck(a.Score)) + "."},
	)
	if l := VarianceLine(a); l != "" {
		d.Add(&render.Paragraph{In: md, Text: upperFirst(l) + "."})
	}
	d.Add(
		&render.Heading{In: md, Level: 3, Text: "Benchmarks, noisiest first"},
		only(v.BenchmarkTable(), render.Markdown),
		&render.Heading{In: md, Level: 3, Text: "Scores by run"},
		only(v.ScoreTable(), render.Markdown),
	)
	addWarnings(d, v.Warnings)
	return d
}

// SpreadJSON is the spread's JSON document (docs/json.md).
type SpreadJSON struct {
	Runs       int             `json:"runs"`
	Baseline   string          `json:"baseline"`
	Candidate  string          `json:"candidate"`
	Suite      []string        `json:"suite"`
	Scores     []render.Object `json:"scores"`
	Score      ScoreStatsJSON  `json:"score"`
	Benchmarks []render.Object `json:"benchmarks"`
	Baselines  []RawSpreadJSON `json:"baseline_spread"`
	Excluded   []ExcludedJSON  `json:"excluded"`
	Dropped    []string        `json:"dropped"`
	Warnings   []string        `json:"warnings"`
	Regimes    []RegimeJSON    `json:"regimes"`
	ModelCheck ModelCheckJSON  `json:"model_check"`
	// VarianceComponents is null for runs without repetitions.
	VarianceComponents *VarianceJSON `json:"variance_components"`
}

// ScoreStatsJSON is the score distribution in JSON.
type ScoreStatsJSON struct {
	Min      render.Float `json:"min"`
	Median   render.Float `json:"median"`
	Mean     render.Float `json:"mean"`
	Max      render.Float `json:"max"`
	GeoMean  render.Float `json:"geomean"`
	GSD      render.Float `json:"gsd"`
	CILow    render.Float `json:"ci_low"`
	CIHigh   render.Float `json:"ci_high"`
	RangePct render.Float `json:"range_pct"`
	CV       render.Float `json:"cv"`
	MeanLog  render.Float `json:"mean_log"`
	SDLog    render.Float `json:"sd_log"`
	Lowest   string       `json:"lowest_run"`
}

// RawSpreadJSON is one benchmark's baseline spread in JSON.
type RawSpreadJSON struct {
	Name      string       `json:"name"`
	Unit      string       `json:"unit"`
	Median    render.Float `json:"median"`
	Min       render.Float `json:"min"`
	Max       render.Float `json:"max"`
	CV        render.Float `json:"cv"`
	RangePct  render.Float `json:"range_pct"`
	MedianLog render.Float `json:"median_log"`
	MADLog    render.Float `json:"mad_log"`
}

// ExcludedJSON is a run left out of the distribution.
type ExcludedJSON struct {
	Run     string   `json:"run"`
	Missing []string `json:"missing"`
}

// JSON is the spread's JSON document.
func (v *Spread) JSON() SpreadJSON {
	a := v.A
	s := a.Score
	j := SpreadJSON{
		Runs: s.N, Baseline: a.Baseline, Candidate: a.Candidate, Suite: a.Suite,
		Scores: render.Objects(scoreColumns, a.Runs),
		Score: ScoreStatsJSON{
			Min: render.Float(s.Min), Median: render.Float(s.Median), Mean: render.Float(s.Mean), Max: render.Float(s.Max),
			GeoMean: render.Float(s.GeoMean), GSD: render.Float(s.GSD), CILow: render.Float(s.CILow), CIHigh: render.Float(s.CIHigh),
			RangePct: render.Float(s.RangePct), CV: render.Float(s.CV), MeanLog: render.Float(s.MeanLog), SDLog: render.Float(s.SDLog),
			Lowest: s.LowestRun,
		},
		Benchmarks: render.Objects(benchColumns, a.Benchmarks),
		Baselines:  []RawSpreadJSON{}, Excluded: []ExcludedJSON{},
		Dropped: append([]string{}, a.Dropped...), Warnings: append([]string{}, v.Warnings...),
		Regimes: RegimesJSON(a.Regimes), ModelCheck: ModelCheckOf(a.Score),
		VarianceComponents: VarianceOf(a),
	}
	for _, r := range a.BaselineSpread {
		j.Baselines = append(j.Baselines, RawSpreadJSON{
			Name: r.Name, Unit: r.Unit, Median: render.Float(r.Median), Min: render.Float(r.Min), Max: render.Float(r.Max),
			CV: render.Float(r.CV), RangePct: render.Float(r.RangePct), MedianLog: render.Float(r.MedianLog), MADLog: render.Float(r.MADLog),
		})
	}
	for _, e := range a.Excluded {
		j.Excluded = append(j.Excluded, ExcludedJSON{Run: e.ID, Missing: e.Missing})
	}
	return j
}
