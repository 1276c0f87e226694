package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"qoscal/calibrate"
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
		t.add(r.ID, fx(r.Score))
	}
	return t
}

func benchmarkTable(a *calibrate.Analysis) *table {
	t := &table{
		head:  []string{"benchmark", "min", "median", "max", "range", "CV", "CV(log)", "IQR", "MAD", "share", "LOO"},
		right: []bool{false, true, true, true, true, true, true, true, true, true, true},
	}
	for _, b := range a.Benchmarks {
		t.add(b.Name, fx(b.Min), fx(b.Median), fx(b.Max), fpct(b.RangePct/100), fpct(b.CV), fpct(b.CVLog),
			fdec(b.IQR, 3), fdec(b.MAD, 3), fpct(b.VarianceShare), fx(b.LOOScore))
	}
	return t
}

func writeSpreadText(w io.Writer, a *calibrate.Analysis) {
	s := a.Score
	fmt.Fprintf(w, "score = geomean(%s) over %s, %d runs (%s)\n\n", metric(a), plural(len(a.Suite), "benchmark"), s.N, directionNote(a))
	scoreTable(a).text(w)
	fmt.Fprintf(w, "\nscore distribution over %d runs:\n", s.N)
	fmt.Fprintf(w, "    min %s  median %s  max %s  (lowest: %s)\n", fx(s.Min), fx(s.Median), fx(s.Max), s.LowestRun)
	fmt.Fprintf(w, "    mean %s  geomean %s  GSD %s\n", fdec(s.Mean, 3), fdec(s.GeoMean, 3), fdec(s.GSD, 3))
	fmt.Fprintf(w, "    95%% CI of the typical score %s–%s; range %s of the median; CV %s\n\n",
		fdec(s.CILow, 3), fdec(s.CIHigh, 3), fpct(s.RangePct/100), fpct(s.CV))
	benchmarkTable(a).text(w)
	fmt.Fprintf(w, "\n%s\n", wrap(spreadSummary(a), 78))
}

func writeSpreadMarkdown(w io.Writer, a *calibrate.Analysis) {
	s := a.Score
	fmt.Fprintf(w, "## Score spread: geomean(%s)\n\n", mdEscape(metric(a)))
	fmt.Fprintf(w, "%s\n\n", mdEscape(spreadSummary(a)))
	fmt.Fprintf(w, "%d benchmarks, %d runs (%s).\n\n", len(a.Suite), s.N, mdEscape(directionNote(a)))
	t := &table{head: []string{"n", "min", "median", "max", "mean", "geomean", "GSD", "95% CI", "range", "CV"},
		right: []bool{true, true, true, true, true, true, true, true, true, true}}
	t.add(fmt.Sprint(s.N), fx(s.Min), fx(s.Median), fx(s.Max), fdec(s.Mean, 3), fdec(s.GeoMean, 3), fdec(s.GSD, 3),
		fdec(s.CILow, 3)+"–"+fdec(s.CIHigh, 3), fpct(s.RangePct/100), fpct(s.CV))
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
			fmt.Fprintf(w, "- %s\n", mdEscape(warn))
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
		scores = append(scores, fx(r.Score))
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
		noisy = append(noisy, x.Name+" "+frange(x.Min, x.Max))
	}
	if len(a.Suite) > 1 && len(bs) > 0 && bs[0].RangePct > 1.2*s.RangePct {
		fmt.Fprintf(&b, " Individual benchmarks are noisy (%s), but the geomean moves less: %s, a range of %s of its median.",
			strings.Join(noisy, ", "), frange(s.Min, s.Max), fpct(s.RangePct/100))
	} else {
		fmt.Fprintf(&b, " The geomean ranges %s, %s of its median.", frange(s.Min, s.Max), fpct(s.RangePct/100))
	}
	if len(a.Benchmarks) > 1 && a.Benchmarks[0].VarianceShare >= 0.5 {
		fmt.Fprintf(&b, " %s alone carries %s of the score's variance.", a.Benchmarks[0].Name, fpct(a.Benchmarks[0].VarianceShare))
	}
	return b.String()
}

// wrap breaks text into lines of at most width characters, at spaces.
func wrap(text string, width int) string {
	var lines []string
	var line []string
	n := 0
	for _, word := range strings.Fields(text) {
		if n > 0 && n+1+len([]rune(word)) > width {
			lines = append(lines, strings.Join(line, " "))
			line, n = nil, 0
		}
		if n > 0 {
			n++
		}
		line = append(line, word)
		n += len([]rune(word))
	}
	if len(line) > 0 {
		lines = append(lines, strings.Join(line, " "))
	}
	return strings.Join(lines, "\n")
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
	Run   string `json:"run"`
	Score jfloat `json:"score"`
}

type scoreStatsJSON struct {
	Min      jfloat `json:"min"`
	Median   jfloat `json:"median"`
	Mean     jfloat `json:"mean"`
	Max      jfloat `json:"max"`
	GeoMean  jfloat `json:"geomean"`
	GSD      jfloat `json:"gsd"`
	CILow    jfloat `json:"ci_low"`
	CIHigh   jfloat `json:"ci_high"`
	RangePct jfloat `json:"range_pct"`
	CV       jfloat `json:"cv"`
	MeanLog  jfloat `json:"mean_log"`
	SDLog    jfloat `json:"sd_log"`
	Lowest   string `json:"lowest_run"`
}

type benchJSON struct {
	Name          string `json:"name"`
	Unit          string `json:"unit"`
	Direction     string `json:"direction"`
	Min           jfloat `json:"min"`
	Median        jfloat `json:"median"`
	Max           jfloat `json:"max"`
	RangePct      jfloat `json:"range_pct"`
	CV            jfloat `json:"cv"`
	CVLog         jfloat `json:"cv_log"`
	IQR           jfloat `json:"iqr"`
	MAD           jfloat `json:"mad"`
	VarianceShare jfloat `json:"variance_share"`
	LOOScore      jfloat `json:"loo_score"`
}

type rawSpreadJSON struct {
	Name      string `json:"name"`
	Unit      string `json:"unit"`
	Median    jfloat `json:"median"`
	Min       jfloat `json:"min"`
	Max       jfloat `json:"max"`
	CV        jfloat `json:"cv"`
	RangePct  jfloat `json:"range_pct"`
	MedianLog jfloat `json:"median_log"`
	MADLog    jfloat `json:"mad_log"`
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
			Min: jfloat(s.Min), Median: jfloat(s.Median), Mean: jfloat(s.Mean), Max: jfloat(s.Max),
			GeoMean: jfloat(s.GeoMean), GSD: jfloat(s.GSD), CILow: jfloat(s.CILow), CIHigh: jfloat(s.CIHigh),
			RangePct: jfloat(s.RangePct), CV: jfloat(s.CV), MeanLog: jfloat(s.MeanLog), SDLog: jfloat(s.SDLog),
			Lowest: s.LowestRun,
		},
		Scores: []scoreJSON{}, Benchmarks: []benchJSON{}, Baselines: []rawSpreadJSON{},
		Excluded: []excludedJSON{}, Dropped: append([]string{}, a.Dropped...), Warnings: warningTexts(a.Warnings),
	}
	for _, r := range a.Runs {
		j.Scores = append(j.Scores, scoreJSON{Run: r.ID, Score: jfloat(r.Score)})
	}
	for _, b := range a.Benchmarks {
		j.Benchmarks = append(j.Benchmarks, benchJSON{
			Name: b.Name, Unit: b.Unit, Direction: b.Direction.Key(),
			Min: jfloat(b.Min), Median: jfloat(b.Median), Max: jfloat(b.Max), RangePct: jfloat(b.RangePct),
			CV: jfloat(b.CV), CVLog: jfloat(b.CVLog), IQR: jfloat(b.IQR), MAD: jfloat(b.MAD),
			VarianceShare: jfloat(b.VarianceShare), LOOScore: jfloat(b.LOOScore),
		})
	}
	for _, r := range a.BaselineSpread {
		j.Baselines = append(j.Baselines, rawSpreadJSON{
			Name: r.Name, Unit: r.Unit, Median: jfloat(r.Median), Min: jfloat(r.Min), Max: jfloat(r.Max),
			CV: jfloat(r.CV), RangePct: jfloat(r.RangePct), MedianLog: jfloat(r.MedianLog), MADLog: jfloat(r.MADLog),
		})
	}
	for _, e := range a.Excluded {
		j.Excluded = append(j.Excluded, excludedJSON{Run: e.ID, Missing: e.Missing})
	}
	return j
}
