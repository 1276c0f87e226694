package present

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/render"
)

// Spread is the view of a calibration's spread (qoscal spread).
type Spread struct {
	A *calspread.Analysis
	// Warnings are the analysis' warnings in the command's words.
	Warnings []string
}

// metric describes the score: "mimalloc/glibc".
func metric(a *calspread.Analysis) string { return a.Candidate + "/" + a.Baseline }

// directionNote says how the suite's ratios are oriented: "higher is
// better: ops/sec".
func directionNote(a *calspread.Analysis) string {
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
	{Head: "score", Align: render.Right, Cell: func(r calspread.RunScore) string { return ratio(r.Score) },
		Key: "score", JSON: func(r calspread.RunScore) any { return render.Float(r.Score) }},
}

type bs = calspread.BenchmarkSpread

// benchColumns are the per-benchmark spread's columns (text, Markdown and
// JSON).
var benchColumns = []render.Column[bs]{
	{Head: "benchmark", Cell: func(b bs) string { return b.Name }, Key: "name", JSON: func(b bs) any { return b.Name }},
	{Key: "unit", JSON: func(b bs) any { return b.Unit }},
	{Key: "direction", JSON: func(b bs) any { return b.Direction.Key() }},
	{Head: "min", Align: render.Right, Cell: func(b bs) string { return ratio(b.Min) }, Key: "min", JSON: func(b bs) any { return render.Float(b.Min) }},
	{Head: "median", Align: render.Right, Cell: func(b bs) string { return ratio(b.Median) }, Key: "median", JSON: func(b bs) any { return render.Float(b.Median) }},
	{Head: "max", Align: render.Right, Cell: func(b bs) string { return ratio(b.Max) }, Key: "max", JSON: func(b bs) any { return render.Float(b.Max) }},
	{Head: "range", Align: render.Right, Cell: func(b bs) string { return pct(b.RangePct / 100) }, Key: "range_pct", JSON: func(b bs) any { return render.Float(b.RangePct) }},
	{Head: "CV", Align: render.Right, Cell: func(b bs) string { return pct(b.CV) }, Key: "cv", JSON: func(b bs) any { return render.Float(b.CV) }},
	{Head: "CV(log)", Align: render.Right, Cell: func(b bs) string { return pct(b.CVLog) }, Key: "cv_log", JSON: func(b bs) any { return render.Float(b.CVLog) }},
	{Head: "IQR", Align: render.Right, Cell: func(b bs) string { return dec(b.IQR, 3) }, Key: "iqr", JSON: func(b bs) any { return render.Float(b.IQR) }},
	{Head: "MAD", Align: render.Right, Cell: func(b bs) string { return dec(b.MAD, 3) }, Key: "mad", JSON: func(b bs) any { return render.Float(b.MAD) }},
	{Head: "share", Align: render.Right, Cell: func(b bs) string { return pct(b.VarianceShare) }, Key: "variance_share", JSON: func(b bs) any { return render.Float(b.VarianceShare) }},
	{Head: "LOO", Align: render.Right, Cell: func(b bs) string { return ratio(b.LOOScore) }, Key: "loo_score", JSON: func(b bs) any { return render.Float(b.LOOScore) }},
	{Head: "shifts", Cell: shifts, Key: "regimes", JSON: func(b bs) any { return regimesJSON(b.Regimes) }},
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

// scoreTable is the score of every run.
func (v *Spread) scoreTable() *render.Table { return render.NewTable(scoreColumns, v.A.Runs) }

// benchmarkTable is the per-benchmark spread, noisiest first.
func (v *Spread) benchmarkTable() *render.Table { return render.NewTable(benchColumns, v.A.Benchmarks) }

// distributionTable is the score distribution in one row.
func (v *Spread) distributionTable() *render.Table {
	s := v.A.Score
	t := &render.Table{Head: []string{"n", "min", "median", "max", "mean", "geomean", "GSD", "95% CI", "range", "CV"}}
	for range t.Head {
		t.Align = append(t.Align, render.Right)
	}
	t.AddRow(fmt.Sprint(s.N), ratio(s.Min), ratio(s.Median), ratio(s.Max), dec(s.Mean, 3), dec(s.GeoMean, 3), dec(s.GSD, 3),
		dec(s.CILow, 3)+"–"+dec(s.CIHigh, 3), pct(s.RangePct/100), pct(s.CV))
	return t
}

// distribution is the score distribution as indented lines.
func (v *Spread) distribution() []string {
	s := v.A.Score
	regimes := "    one regime: no significant change of the score (E-Divisive, level 0.05)"
	if rs := v.A.Regimes; len(rs) > 1 {
		regimes = "    regimes: " + describeRegimes(rs)
	}
	return []string{
		fmt.Sprintf("    min %s  median %s  max %s  (lowest: %s)", ratio(s.Min), ratio(s.Median), ratio(s.Max), s.LowestRun),
		fmt.Sprintf("    mean %s  geomean %s  GSD %s", dec(s.Mean, 3), dec(s.GeoMean, 3), dec(s.GSD, 3)),
		fmt.Sprintf("    95%% CI of the typical score %s–%s; range %s of the median; CV %s", dec(s.CILow, 3), dec(s.CIHigh, 3), pct(s.RangePct/100), pct(s.CV)),
		regimes,
		"    " + modelCheck(v.A.Score),
	}
}

// summary is the plain-language reading of the spread: the scores, the
// noisiest benchmarks' ranges, and how little (or much) the geomean
// moves.
func (v *Spread) summary() string {
	a := v.A
	s := a.Score
	var scores []string
	for i, r := range a.Runs {
		if i == 10 && len(a.Runs) > 12 {
			scores = append(scores, fmt.Sprintf("… (%d more)", len(a.Runs)-10))
			break
		}
		scores = append(scores, ratio(r.Score))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Measured across %d runs of unchanged code: geomean(%s) = %s.", s.N, metric(a), strings.Join(scores, ", "))
	rd := a.Reading()
	var noisy []string
	for _, x := range rd.Widest {
		noisy = append(noisy, x.Name+" "+rangeOf(x.Min, x.Max))
	}
	if rd.Steadier {
		fmt.Fprintf(&b, " Individual benchmarks are noisy (%s), but the geomean moves less: %s, a range of %s of its median.",
			strings.Join(noisy, ", "), rangeOf(s.Min, s.Max), pct(s.RangePct/100))
	} else {
		fmt.Fprintf(&b, " The geomean ranges %s, %s of its median.", rangeOf(s.Min, s.Max), pct(s.RangePct/100))
	}
	if d := rd.Dominant; d != nil {
		fmt.Fprintf(&b, " %s alone carries %s of the score's variance.", d.Name, pct(d.VarianceShare))
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
		&render.Lines{In: text, Lines: []string{fmt.Sprintf("score = geomean(%s) over %s, %d runs (%s)", metric(a), Plural(len(a.Suite), "benchmark"), s.N, directionNote(a))}},
		&render.Blank{In: text},
		only(v.scoreTable(), render.Text),
		&render.Blank{In: text},
		&render.Lines{In: text, Lines: append([]string{fmt.Sprintf("score distribution over %d runs:", s.N)}, v.distribution()...)},
		&render.Blank{In: text},
	)
	if l := varianceLine(a); l != "" {
		d.Add(&render.Paragraph{In: text, Text: l, Width: 78}, &render.Blank{In: text})
	}
	d.Add(
		only(v.benchmarkTable(), render.Text),
		&render.Blank{In: text},
		&render.Paragraph{In: text, Text: v.summary(), Width: 78},

		&render.Heading{In: md, Level: 2, Text: "Score spread: geomean(" + metric(a) + ")"},
		&render.Paragraph{In: md, Text: v.summary()},
		&render.Paragraph{In: md, Text: fmt.Sprintf("%d benchmarks, %d runs (%s).", len(a.Suite), s.N, directionNote(a))},
		only(v.distributionTable(), render.Markdown),
		&render.Paragraph{In: md, Text: strings.TrimSpace(v.distribution()[3]) + "."},
		&render.Paragraph{In: md, Text: upperFirst(modelCheck(a.Score)) + "."},
	)
	if l := varianceLine(a); l != "" {
		d.Add(&render.Paragraph{In: md, Text: upperFirst(l) + "."})
	}
	d.Add(
		&render.Heading{In: md, Level: 3, Text: "Benchmarks, noisiest first"},
		only(v.benchmarkTable(), render.Markdown),
		&render.Heading{In: md, Level: 3, Text: "Scores by run"},
		only(v.scoreTable(), render.Markdown),
	)
	addWarnings(d, v.Warnings)
	return d
}

// spreadJSON is the spread's JSON document (docs/json.md).
type spreadJSON struct {
	Runs       int             `json:"runs"`
	Baseline   string          `json:"baseline"`
	Candidate  string          `json:"candidate"`
	Suite      []string        `json:"suite"`
	Scores     []render.Object `json:"scores"`
	Score      scoreStatsJSON  `json:"score"`
	Benchmarks []render.Object `json:"benchmarks"`
	Baselines  []rawSpreadJSON `json:"baseline_spread"`
	Excluded   []excludedJSON  `json:"excluded"`
	Dropped    []string        `json:"dropped"`
	Warnings   []string        `json:"warnings"`
	Regimes    []regimeJSON    `json:"regimes"`
	ModelCheck modelCheckJSON  `json:"model_check"`
	// VarianceComponents is null for runs without repetitions.
	VarianceComponents *varianceJSON `json:"variance_components"`
}

// scoreStatsJSON is the score distribution in JSON.
type scoreStatsJSON struct {
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

// rawSpreadJSON is one benchmark's baseline spread in JSON.
type rawSpreadJSON struct {
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

// excludedJSON is a run left out of the distribution.
type excludedJSON struct {
	Run     string   `json:"run"`
	Missing []string `json:"missing"`
}

// JSON is the spread's JSON document.
func (v *Spread) JSON() spreadJSON {
	a := v.A
	s := a.Score
	j := spreadJSON{
		Runs: s.N, Baseline: a.Baseline, Candidate: a.Candidate, Suite: a.Suite,
		Scores: render.Objects(scoreColumns, a.Runs),
		Score: scoreStatsJSON{
			Min: render.Float(s.Min), Median: render.Float(s.Median), Mean: render.Float(s.Mean), Max: render.Float(s.Max),
			GeoMean: render.Float(s.GeoMean), GSD: render.Float(s.GSD), CILow: render.Float(s.CILow), CIHigh: render.Float(s.CIHigh),
			RangePct: render.Float(s.RangePct), CV: render.Float(s.CV), MeanLog: render.Float(s.MeanLog), SDLog: render.Float(s.SDLog),
			Lowest: s.LowestRun,
		},
		Benchmarks: render.Objects(benchColumns, a.Benchmarks),
		Baselines:  []rawSpreadJSON{}, Excluded: []excludedJSON{},
		Dropped: append([]string{}, a.Dropped...), Warnings: append([]string{}, v.Warnings...),
		Regimes: regimesJSON(a.Regimes), ModelCheck: modelCheckOf(a.Score),
		VarianceComponents: varianceOf(a),
	}
	for _, r := range a.BaselineSpread {
		j.Baselines = append(j.Baselines, rawSpreadJSON{
			Name: r.Name, Unit: r.Unit, Median: render.Float(r.Median), Min: render.Float(r.Min), Max: render.Float(r.Max),
			CV: render.Float(r.CV), RangePct: render.Float(r.RangePct), MedianLog: render.Float(r.MedianLog), MADLog: render.Float(r.MADLog),
		})
	}
	for _, e := range a.Excluded {
		j.Excluded = append(j.Excluded, excludedJSON{Run: e.ID, Missing: e.Missing})
	}
	return j
}
