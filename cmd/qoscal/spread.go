package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"qoscal/calibrate"
	"qoscal/present"
	"qoscal/render"
)

var spreadCmd = &command{
	name:    "spread",
	summary: "score distribution and per-benchmark spread",
	usage: `Usage:
    qoscal spread [flags] [PATH...]

Shows how much the score (the geomean of the candidate/baseline ratios over
the suite) moves across runs of unchanged code, and how much each benchmark
moves: the score of every run, the distribution of scores, and a table of the
benchmarks, noisiest first (by share of the score's variance).

` + analysisInputHelp + `
Output:
    --format FORMAT          text (default), markdown or json

Columns of the benchmark table: min, median, max of the ratio across runs;
range as % of the median; CV (SD/mean); CV in log space (SD of ln ratio);
IQR (type 7 quartiles); scaled MAD; share of the variance of ln(score)
(the shares add up to 100%; a negative share hedges the others); LOO, the
median score over runs with this benchmark left out.

Example: the twelve bundled healthy Linux runs, straight from their folders:

    $ qoscal spread --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
`,
}

func init() {
	spreadCmd.run = runSpread
	register(spreadCmd)
}

func runSpread(u *ui, args []string) error {
	c := spreadCmd
	fs := newFlags(c)
	var af analysisFlags
	af.add(fs)
	var format string
	fs.StringVar(&format, "format", "text", "output `FORMAT`: text, markdown or json")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if err := u.outputFormat(c.name, format); err != nil {
		return err
	}
	in, err := af.analyze(u, c.name, fs.Args())
	if err != nil {
		return err
	}
	a := in.analysis
	switch format {
	case "json":
		return writeJSON(u, spreadToJSON(a))
	case "markdown":
		writeSpreadMarkdown(u.stdout, a)
	default:
		writeSpreadText(u.stdout, a)
	}
	return nil
}

// metric describes the score: "mimalloc/glibc".
func metric(a *calibrate.Analysis) string { return a.Candidate + "/" + a.Baseline }

// directionNote says how the suite's ratios are oriented: "higher is
// better: ops/sec".
func directionNote(a *calibrate.Analysis) string {
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

func scoreTable(a *calibrate.Analysis) *table {
	t := &table{head: []string{"run", "score"}, right: []bool{false, true}}
	for _, r := range a.Runs {
		t.add(r.ID, present.X(r.Score))
	}
	return t
}

func benchmarkTable(a *calibrate.Analysis) *table {
	t := &table{
		head:  []string{"benchmark", "min", "median", "max", "range", "CV", "CV(log)", "IQR", "MAD", "share", "LOO"},
		right: []bool{false, true, true, true, true, true, true, true, true, true, true},
	}
	for _, b := range a.Benchmarks {
		t.add(b.Name, present.X(b.Min), present.X(b.Median), present.X(b.Max), present.Pct(b.RangePct/100), present.Pct(b.CV), present.Pct(b.CVLog),
			present.Dec(b.IQR, 3), present.Dec(b.MAD, 3), present.Pct(b.VarianceShare), present.X(b.LOOScore))
	}
	return t
}

func writeSpreadText(w io.Writer, a *calibrate.Analysis) {
	s := a.Score
	fmt.Fprintf(w, "score = geomean(%s) over %s, %d runs (%s)\n\n", metric(a), present.Plural(len(a.Suite), "benchmark"), s.N, directionNote(a))
	scoreTable(a).text(w)
	fmt.Fprintf(w, "\nscore distribution over %d runs:\n", s.N)
	fmt.Fprintf(w, "    min %s  median %s  max %s  (lowest: %s)\n", present.X(s.Min), present.X(s.Median), present.X(s.Max), s.LowestRun)
	fmt.Fprintf(w, "    mean %s  geomean %s  GSD %s\n", present.Dec(s.Mean, 3), present.Dec(s.GeoMean, 3), present.Dec(s.GSD, 3))
	fmt.Fprintf(w, "    95%% CI of the typical score %s–%s; range %s of the median; CV %s\n\n",
		present.Dec(s.CILow, 3), present.Dec(s.CIHigh, 3), present.Pct(s.RangePct/100), present.Pct(s.CV))
	benchmarkTable(a).text(w)
	fmt.Fprintf(w, "\n%s\n", render.Wrap(spreadSummary(a), 78))
}

func writeSpreadMarkdown(w io.Writer, a *calibrate.Analysis) {
	s := a.Score
	fmt.Fprintf(w, "## Score spread: geomean(%s)\n\n", render.MDEscape(metric(a)))
	fmt.Fprintf(w, "%s\n\n", render.MDEscape(spreadSummary(a)))
	fmt.Fprintf(w, "%d benchmarks, %d runs (%s).\n\n", len(a.Suite), s.N, render.MDEscape(directionNote(a)))
	t := &table{head: []string{"n", "min", "median", "max", "mean", "geomean", "GSD", "95% CI", "range", "CV"},
		right: []bool{true, true, true, true, true, true, true, true, true, true}}
	t.add(fmt.Sprint(s.N), present.X(s.Min), present.X(s.Median), present.X(s.Max), present.Dec(s.Mean, 3), present.Dec(s.GeoMean, 3), present.Dec(s.GSD, 3),
		present.Dec(s.CILow, 3)+"–"+present.Dec(s.CIHigh, 3), present.Pct(s.RangePct/100), present.Pct(s.CV))
	t.markdown(w)
	fmt.Fprintln(w, "\n### Benchmarks, noisiest first")
	fmt.Fprintln(w)
	benchmarkTable(a).markdown(w)
	fmt.Fprintln(w, "\n### Scores by run")
	fmt.Fprintln(w)
	scoreTable(a).markdown(w)
	if len(a.Warnings) > 0 {
		fmt.Fprintln(w, "\n### Warnings")
		fmt.Fprintln(w)
		for _, warn := range warningTexts(a.Warnings) {
			fmt.Fprintf(w, "- %s\n", render.MDEscape(warn))
		}
	}
}

// spreadSummary is the plain-language reading of the spread: the scores,
// the noisiest benchmarks' ranges, and how little (or much) the geomean
// moves.
func spreadSummary(a *calibrate.Analysis) string {
	s := a.Score
	var scores []string
	for i, r := range a.Runs {
		if i == 10 && len(a.Runs) > 12 {
			scores = append(scores, fmt.Sprintf("… (%d more)", len(a.Runs)-10))
			break
		}
		scores = append(scores, present.X(r.Score))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Calibrated across %d runs of unchanged code: geomean(%s) = %s.", s.N, metric(a), strings.Join(scores, ", "))
	// The three benchmarks with the widest relative range.
	bs := append([]calibrate.BenchmarkSpread(nil), a.Benchmarks...)
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].RangePct > bs[j].RangePct })
	if len(bs) > 3 {
		bs = bs[:3]
	}
	var noisy []string
	for _, x := range bs {
		noisy = append(noisy, x.Name+" "+present.Range(x.Min, x.Max))
	}
	if len(a.Suite) > 1 && len(bs) > 0 && bs[0].RangePct > 1.2*s.RangePct {
		fmt.Fprintf(&b, " Individual benchmarks are noisy (%s), but the geomean moves less: %s, a range of %s of its median.",
			strings.Join(noisy, ", "), present.Range(s.Min, s.Max), present.Pct(s.RangePct/100))
	} else {
		fmt.Fprintf(&b, " The geomean ranges %s, %s of its median.", present.Range(s.Min, s.Max), present.Pct(s.RangePct/100))
	}
	if len(a.Benchmarks) > 1 && a.Benchmarks[0].VarianceShare >= 0.5 {
		fmt.Fprintf(&b, " %s alone carries %s of the score's variance.", a.Benchmarks[0].Name, present.Pct(a.Benchmarks[0].VarianceShare))
	}
	return b.String()
}

type spreadJSON struct {
	Runs       int             `json:"runs"`
	Baseline   string          `json:"baseline"`
	Candidate  string          `json:"candidate"`
	Suite      []string        `json:"suite"`
	Scores     []scoreJSON     `json:"scores"`
	Score      scoreStatsJSON  `json:"score"`
	Benchmarks []benchJSON     `json:"benchmarks"`
	Baselines  []rawSpreadJSON `json:"baseline_spread"`
	Excluded   []excludedJSON  `json:"excluded"`
	Dropped    []string        `json:"dropped"`
	Warnings   []string        `json:"warnings"`
}

type scoreJSON struct {
	Run   string       `json:"run"`
	Score render.Float `json:"score"`
}

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

type benchJSON struct {
	Name          string       `json:"name"`
	Unit          string       `json:"unit"`
	Direction     string       `json:"direction"`
	Min           render.Float `json:"min"`
	Median        render.Float `json:"median"`
	Max           render.Float `json:"max"`
	RangePct      render.Float `json:"range_pct"`
	CV            render.Float `json:"cv"`
	CVLog         render.Float `json:"cv_log"`
	IQR           render.Float `json:"iqr"`
	MAD           render.Float `json:"mad"`
	VarianceShare render.Float `json:"variance_share"`
	LOOScore      render.Float `json:"loo_score"`
}

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

type excludedJSON struct {
	Run     string   `json:"run"`
	Missing []string `json:"missing"`
}

func spreadToJSON(a *calibrate.Analysis) spreadJSON {
	s := a.Score
	j := spreadJSON{
		Runs: s.N, Baseline: a.Baseline, Candidate: a.Candidate, Suite: a.Suite,
		Score: scoreStatsJSON{
			Min: render.Float(s.Min), Median: render.Float(s.Median), Mean: render.Float(s.Mean), Max: render.Float(s.Max),
			GeoMean: render.Float(s.GeoMean), GSD: render.Float(s.GSD), CILow: render.Float(s.CILow), CIHigh: render.Float(s.CIHigh),
			RangePct: render.Float(s.RangePct), CV: render.Float(s.CV), MeanLog: render.Float(s.MeanLog), SDLog: render.Float(s.SDLog),
			Lowest: s.LowestRun,
		},
		Scores: []scoreJSON{}, Benchmarks: []benchJSON{}, Baselines: []rawSpreadJSON{},
		Excluded: []excludedJSON{}, Dropped: append([]string{}, a.Dropped...), Warnings: warningTexts(a.Warnings),
	}
	for _, r := range a.Runs {
		j.Scores = append(j.Scores, scoreJSON{Run: r.ID, Score: render.Float(r.Score)})
	}
	for _, b := range a.Benchmarks {
		j.Benchmarks = append(j.Benchmarks, benchJSON{
			Name: b.Name, Unit: b.Unit, Direction: b.Direction.Key(),
			Min: render.Float(b.Min), Median: render.Float(b.Median), Max: render.Float(b.Max), RangePct: render.Float(b.RangePct),
			CV: render.Float(b.CV), CVLog: render.Float(b.CVLog), IQR: render.Float(b.IQR), MAD: render.Float(b.MAD),
			VarianceShare: render.Float(b.VarianceShare), LOOScore: render.Float(b.LOOScore),
		})
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
