package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"qoscal/calibrate"
	"qoscal/data"
	"qoscal/present"
	"qoscal/render"
)

var recommendCmd = &command{
	name:    "recommend",
	summary: "floor recommendation (and calibration file)",
	usage: `Usage:
    qoscal recommend [flags] [PATH...]

Recommends the floor of a gate from runs of unchanged code, and says what it
costs: how often a healthy run would trip it (the false-positive rate), and how
large a real regression it catches. A table of snugger floors, up to the lowest
observed run, shows what each would cost instead.

` + analysisInputHelp + `
The floor:
` + recommendHelp + `    --backtest PATH          also count the runs at PATH (same --baseline and
                             --candidate files) that fall below the floor,
                             such as runs of a known regression (repeatable)
    --backtest-label K=V     likewise for the stored runs with this label
                             (repeatable: all of them)
    --write FILE             write the calibration file for 'qoscal gate'
    --format FORMAT          text (default), markdown or json

The false-positive rate is predictive (Student-t, log-normal scores) with its
upper 95% confidence bound, beside the bound 1/(n+1) that holds with no model.
r50 and r90 are the mildest uniform regressions (every benchmark's ratio times
r) the floor catches half the time and 90% of the time.

Example: the worked example's five runs, a 13% margin on a 0.05 grid:

    $ qoscal recommend --margin 0.13 --step 0.05 --write gate.json runs.csv
    floor: 1.25x for geomean(hoard/system) ...
`,
}

func init() {
	recommendCmd.run = runRecommend
	register(recommendCmd)
}

func runRecommend(u *ui, args []string) error {
	c := recommendCmd
	fs := newFlags(c)
	var af analysisFlags
	af.add(fs)
	var rf recFlags
	rf.add(fs)
	var format, write string
	var backtest, backtestLabels []string
	fs.StringArrayVar(&backtest, "backtest", nil, "runs at `PATH` to backtest the floor on")
	fs.StringArrayVar(&backtestLabels, "backtest-label", nil, "backtest on the stored runs with this `KEY=VALUE` label")
	fs.StringVar(&write, "write", "", "write the calibration `FILE`")
	fs.StringVar(&format, "format", "text", "output `FORMAT`: text, markdown or json")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if err := u.outputFormat(c.name, format); err != nil {
		return err
	}
	if err := nonEmpty(c.name, fs, "write", "db"); err != nil {
		return err
	}
	if st, err := os.Stat(write); write != "" && err == nil && st.IsDir() {
		return usagef(c.name, "--write %s is a folder: expected the calibration file's name, such as %s", write, filepath.Join(write, "gate.json"))
	}
	in, rec, err := recommendFor(u, c.name, &af, &rf, fs.Args())
	if err != nil {
		return err
	}
	a := in.analysis
	var others []calibrate.BacktestRun
	if len(backtest) > 0 || len(backtestLabels) > 0 {
		runs, err := backtestRuns(u, c.name, &af, backtest, backtestLabels)
		if err != nil {
			return err
		}
		if others, err = runBacktest(u, c.name, &af, a, rec, runs); err != nil {
			return err
		}
	}
	if write != "" {
		now, err := u.now()
		if err != nil {
			return err
		}
		labels := in.filter
		if in.source == "paths" {
			labels = commonLabels(in.runs)
		}
		f := calibrate.NewFile(a, rec, labels, now, "qoscal "+version)
		if err := f.WriteFile(write); err != nil {
			return fmt.Errorf("writing the calibration file: %v", err)
		}
		u.notef("wrote the calibration file %s (floor %s)", write, f.FloorText)
	}
	switch format {
	case "json":
		return writeJSON(u, recommendToJSON(a, rec, others))
	case "markdown":
		writeRecommendMarkdown(u.stdout, a, rec, others)
	default:
		writeRecommendText(u.stdout, a, rec, others)
	}
	return nil
}

// recFlags are the flags of a floor recommendation, shared by recommend,
// plot and report.
type recFlags struct {
	opt    calibrate.RecommendOptions
	method string
}

func (r *recFlags) add(fs *pflag.FlagSet) {
	r.opt = calibrate.DefaultRecommendOptions
	fs.StringVar(&r.method, "method", string(r.opt.Method), "floor `METHOD`: margin, prediction or tolerance")
	fs.Float64Var(&r.opt.Margin, "margin", r.opt.Margin, "margin below the lowest run, as a `FRACTION`")
	fs.Float64Var(&r.opt.Step, "step", r.opt.Step, "the floor's grid `STEP`")
	fs.Float64Var(&r.opt.Alpha, "alpha", r.opt.Alpha, "prediction method's false-positive rate `A`")
	fs.Float64Var(&r.opt.Coverage, "coverage", r.opt.Coverage, "tolerance method's coverage `P`")
	fs.Float64Var(&r.opt.Confidence, "confidence", r.opt.Confidence, "tolerance method's confidence `G`")
	fs.Uint64Var(&r.opt.Seed, "seed", r.opt.Seed, "bootstrap seed `N`")
	fs.IntVar(&r.opt.Bootstrap, "bootstrap", r.opt.Bootstrap, "bootstrap resamples `B`")
}

func (r *recFlags) options(cmd string) (calibrate.RecommendOptions, error) {
	opt := r.opt
	opt.Method = calibrate.Method(r.method)
	if err := opt.Validate(); err != nil {
		return opt, usagef(cmd, "%v", err)
	}
	return opt, nil
}

// recommendFor reads and analyses the runs and recommends a floor, printing
// the warnings of both: what recommend, plot and report all start with.
func recommendFor(u *ui, cmd string, af *analysisFlags, rf *recFlags, paths []string) (*input, *calibrate.Recommendation, error) {
	opt, err := rf.options(cmd)
	if err != nil {
		return nil, nil, err
	}
	in, err := af.analyze(u, cmd, paths)
	if err != nil {
		return nil, nil, err
	}
	rec, err := calibrate.Recommend(in.analysis, opt)
	if err != nil {
		return nil, nil, err
	}
	u.warnAll(rec.Warnings)
	return in, rec, nil
}

// recommendHelp documents recFlags, for the usage texts.
const recommendHelp = `    --method NAME            margin (default): the lowest observed score
                             × (1 − margin), rounded down to the step;
                             prediction: the log-normal lower prediction
                             bound at --alpha; tolerance: the lower normal
                             tolerance bound (log space) at --coverage and
                             --confidence. Every floor is rounded down.
    --margin FRACTION        how far below the lowest run (default 0.10)
    --step STEP              the floor's grid (default 0.01)
    --alpha A                prediction: false-positive rate (default 0.01)
    --coverage P             tolerance: share of healthy runs above the
                             floor (default 0.95)
    --confidence G           tolerance: confidence of that (default 0.95)
    --seed N                 seed of the bootstrap diagnostic (default 1)
    --bootstrap B            its resamples (default 2000; 0 turns it off)
`

// backtestRuns reads the runs to backtest a floor on: those at the
// --backtest PATHs, and the stored runs with the --backtest-label labels.
func backtestRuns(u *ui, cmd string, af *analysisFlags, paths, labels []string) ([]data.Run, error) {
	var runs []data.Run
	if len(paths) > 0 {
		lopt, err := af.loadOptions(u, cmd)
		if err != nil {
			return nil, err
		}
		src := data.Source{Paths: paths, Load: lopt}
		if runs, err = src.Runs(u.ctx); err != nil {
			return nil, fmt.Errorf("--backtest: %w", err)
		}
	}
	if len(labels) > 0 {
		filter, err := data.ParseLabels(labels)
		if err != nil {
			return nil, usagef(cmd, "--backtest-label: %v", err)
		}
		src := data.Source{Store: storePath(u, af.db), Labels: filter}
		stored, err := src.Runs(u.ctx)
		if err != nil {
			return nil, fmt.Errorf("--backtest-label: %w", err)
		}
		runs = append(runs, stored...)
	}
	return runs, nil
}

// runBacktest scores runs on the calibration's suite against the floor,
// and warns of the runs it could not score.
func runBacktest(u *ui, cmd string, af *analysisFlags, a *calibrate.Analysis, rec *calibrate.Recommendation, runs []data.Run) ([]calibrate.BacktestRun, error) {
	dir, err := af.direction(cmd)
	if err != nil {
		return nil, err
	}
	out, err := calibrate.Backtest(a, rec.Floor, runs, dir, af.metric)
	if err != nil {
		return nil, fmt.Errorf("--backtest: %v", err)
	}
	for _, b := range out {
		if len(b.Missing) > 0 {
			u.warnf("backtest run %s lacks %s: not scored", b.ID, strings.Join(b.Missing, ", "))
		}
	}
	return out, nil
}

// commonLabels are the labels every run carries with the same value.
func commonLabels(runs []data.Run) map[string]string {
	out := map[string]string{}
	if len(runs) == 0 {
		return out
	}
	for k, v := range runs[0].Labels {
		out[k] = v
	}
	for _, r := range runs[1:] {
		for k, v := range out {
			if r.Labels[k] != v {
				delete(out, k)
			}
		}
	}
	return out
}

func methodNote(a *calibrate.Analysis, rec *calibrate.Recommendation) string {
	o := rec.Options
	switch o.Method {
	case calibrate.MethodPrediction:
		return fmt.Sprintf("log-normal lower prediction bound at α = %v, %s, rounded down to a step of %v", o.Alpha, present.Dec(rec.Raw, 4), o.Step)
	case calibrate.MethodTolerance:
		return fmt.Sprintf("lower tolerance bound, %v coverage at %v confidence (k = %.4f), %s, rounded down to a step of %v", o.Coverage, o.Confidence, rec.ToleranceK, present.Dec(rec.Raw, 4), o.Step)
	}
	return fmt.Sprintf("margin rule: %s%% below the lowest of %d runs (%s), rounded down to a step of %v", present.TrimPct(o.Margin), a.Score.N, present.X(a.Score.Min), o.Step)
}

func candidateTable(rec *calibrate.Recommendation) *table {
	t := &table{
		head:  []string{"floor", "below min", "FPR", "FPR 95% up", "no-model bound", "trips", "r50", "r90"},
		right: []bool{true, true, true, true, true, true, true, true},
	}
	for _, c := range rec.Candidates {
		t.add(rec.FormatFloor(c.Floor)+"x", fmt.Sprintf("%.1f%%", c.BelowMinPct), present.Rate(c.Predictive), present.Rate(c.Upper95),
			present.Rate(c.DistributionFree), present.OneIn(c.Predictive), present.Dec(c.R50, 3), present.Dec(c.R90, 3))
	}
	return t
}

// recommendSummary is the plain-language reading of the recommendation.
func recommendSummary(a *calibrate.Analysis, rec *calibrate.Recommendation) string {
	c := rec.Cost
	var b strings.Builder
	fmt.Fprintf(&b, "Floor is %sx: %.0f%% below the lowest observed (%s), so a healthy run trips it %s (predictive; at most 1 in %d with no model), while a %.0f%% slide toward parity trips it half the time and a %.0f%% slide nine times in ten.",
		rec.FormatFloor(rec.Floor), c.BelowMinPct, present.X(a.Score.Min), present.HowOften(c.Predictive),
		a.Score.N+1, (1-c.R50)*100, (1-c.R90)*100)
	if len(a.Suite) > 1 {
		fmt.Fprintf(&b, " A single benchmark falling alone would have to lose %.0f%% to trip it.", (1-c.SingleQ50)*100)
	}
	return b.String()
}

func writeRecommendText(w io.Writer, a *calibrate.Analysis, rec *calibrate.Recommendation, others []calibrate.BacktestRun) {
	c := rec.Cost
	s := a.Score
	fmt.Fprintf(w, "floor: %sx for geomean(%s) over %s\n", rec.FormatFloor(rec.Floor), metric(a), present.Plural(len(a.Suite), "benchmark"))
	fmt.Fprintf(w, "    %s\n", methodNote(a, rec))
	fmt.Fprintf(w, "    calibration: %d runs, scores %s (median %s)\n\n", s.N, present.Range(s.Min, s.Max), present.X(s.Median))
	fmt.Fprintln(w, "false-positive rate per healthy run:")
	fmt.Fprintf(w, "    predictive %s (%s); 95%% upper bound %s; plug-in %s\n", present.Rate(c.Predictive), present.PerRun(c.Predictive), present.Rate(c.Upper95), present.Rate(c.Plugin))
	fmt.Fprintf(w, "    with no model: at most %s, (j+1)/(n+1) = %d/%d with j = %d calibration runs below\n", present.Rate(c.DistributionFree), c.CalibrationBelow+1, s.N+1, c.CalibrationBelow)
	fmt.Fprintf(w, "    over the next %d healthy runs: %s chance of a false alarm (predictive); no model: %s chance one falls below the lowest so far\n\n",
		c.HorizonRuns, present.Rate(c.Horizon), present.Rate(c.HorizonFree))
	fmt.Fprintln(w, "detection:")
	fmt.Fprintf(w, "    a uniform regression to %sx of today's (%.1f%% slower) trips it half the time (r50);\n", present.Dec(c.R50, 3), (1-c.R50)*100)
	fmt.Fprintf(w, "    to %sx (%.1f%% slower) nine times in ten (r90, predictive)\n", present.Dec(c.R90, 3), (1-c.R90)*100)
	if len(a.Suite) > 1 {
		fmt.Fprintf(w, "    one benchmark alone must fall to %sx of its ratio (%.1f%% slower) to move the score by r50\n", present.Dec(c.SingleQ50, 3), (1-c.SingleQ50)*100)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "backtest: %d of %d calibration runs below the floor\n", c.CalibrationBelow, s.N)
	if len(others) > 0 {
		n := 0
		for _, o := range others {
			if o.Below {
				n++
			}
		}
		fmt.Fprintf(w, "    %d of %d --backtest runs below the floor:\n", n, len(others))
		t := &table{head: []string{"    run", "score", "verdict"}, right: []bool{false, true, false}}
		for _, o := range others {
			verdict := "pass"
			switch {
			case len(o.Missing) > 0:
				verdict = "not scored: lacks " + strings.Join(o.Missing, ", ")
			case o.Below:
				verdict = "FAIL"
			}
			t.add("    "+o.ID, present.X(o.Score), verdict)
		}
		t.text(w)
	}
	if rec.MoreRunsForOnePct > 0 {
		fmt.Fprintf(w, "runs needed: %d more runs would bring the no-model bound 1/(n+1) below 1%%\n", rec.MoreRunsForOnePct)
	}
	if rec.Bootstrap.B > 0 {
		bs := rec.Bootstrap
		fmt.Fprintf(w, "bootstrap diagnostic (%d resamples, seed %d): plug-in FPR mean %s, median %s, 95th percentile %s\n",
			bs.B, bs.Seed, present.Rate(bs.Mean), present.Rate(bs.Q50), present.Rate(bs.Q95))
	}
	fmt.Fprintln(w, "\ncandidate floors (a snugger floor catches smaller regressions, and trips healthy runs more often):")
	candidateTable(rec).text(w)
	fmt.Fprintf(w, "\n%s\n", render.Wrap(recommendSummary(a, rec), 78))
}

func writeRecommendMarkdown(w io.Writer, a *calibrate.Analysis, rec *calibrate.Recommendation, others []calibrate.BacktestRun) {
	c := rec.Cost
	fmt.Fprintf(w, "## Recommended floor: %sx for geomean(%s)\n\n", rec.FormatFloor(rec.Floor), render.MDEscape(metric(a)))
	fmt.Fprintf(w, "%s\n\n", render.MDEscape(recommendSummary(a, rec)))
	fmt.Fprintf(w, "Method: %s.\n\n", render.MDEscape(methodNote(a, rec)))
	t := &table{head: []string{"figure", "value"}, right: []bool{false, true}}
	t.add("false-positive rate (predictive)", present.Rate(c.Predictive)+" ("+present.OneIn(c.Predictive)+")")
	t.add("its 95% upper bound", present.Rate(c.Upper95))
	t.add("bound with no model, (j+1)/(n+1)", present.Rate(c.DistributionFree))
	t.add(fmt.Sprintf("a false alarm in the next %d runs", c.HorizonRuns), present.Rate(c.Horizon))
	t.add("r50: regression caught half the time", fmt.Sprintf("%sx (%.1f%% slower)", present.Dec(c.R50, 3), (1-c.R50)*100))
	t.add("r90: caught nine times in ten", fmt.Sprintf("%sx (%.1f%% slower)", present.Dec(c.R90, 3), (1-c.R90)*100))
	t.add("calibration runs below the floor", fmt.Sprintf("%d of %d", c.CalibrationBelow, a.Score.N))
	for _, o := range others {
		verdict := "pass"
		if o.Below {
			verdict = "FAIL"
		} else if len(o.Missing) > 0 {
			verdict = "not scored"
		}
		t.add("backtest run "+o.ID, present.X(o.Score)+" "+verdict)
	}
	t.markdown(w)
	fmt.Fprintln(w, "\n### Candidate floors")
	fmt.Fprintln(w)
	candidateTable(rec).markdown(w)
	if warns := warningTexts(a.Warnings, rec.Warnings); len(warns) > 0 {
		fmt.Fprintln(w, "\n### Warnings")
		fmt.Fprintln(w)
		for _, warn := range warns {
			fmt.Fprintf(w, "- %s\n", render.MDEscape(warn))
		}
	}
}

type recommendJSON struct {
	Floor           float64         `json:"floor"`
	FloorText       string          `json:"floor_text"`
	Method          string          `json:"method"`
	Raw             render.Float    `json:"raw"`
	Margin          float64         `json:"margin"`
	Step            float64         `json:"step"`
	Alpha           float64         `json:"alpha"`
	Coverage        float64         `json:"coverage"`
	Confidence      float64         `json:"confidence"`
	ToleranceK      render.Float    `json:"tolerance_k"`
	Seed            uint64          `json:"seed"`
	Baseline        string          `json:"baseline"`
	Candidate       string          `json:"candidate"`
	Suite           []string        `json:"suite"`
	Runs            int             `json:"runs"`
	Observed        observedJSON    `json:"observed"`
	FPR             fprJSON         `json:"false_positive_rate"`
	Horizon         horizonJSON     `json:"horizon"`
	Detection       detectionJSON   `json:"detection"`
	Backtest        backtestJSON    `json:"backtest"`
	MoreRunsFor1Pct int             `json:"more_runs_for_1pct"`
	Bootstrap       *bootstrapJSON  `json:"bootstrap"`
	Candidates      []candidateJSON `json:"candidates"`
	Warnings        []string        `json:"warnings"`
	Summary         string          `json:"summary"`
}

type observedJSON struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

type fprJSON struct {
	Predictive       render.Float `json:"predictive"`
	Upper95          render.Float `json:"upper95"`
	Plugin           render.Float `json:"plugin"`
	DistributionFree render.Float `json:"distribution_free"`
}

type horizonJSON struct {
	Runs             int          `json:"runs"`
	Predictive       render.Float `json:"predictive"`
	DistributionFree render.Float `json:"distribution_free"`
}

type detectionJSON struct {
	R50       render.Float `json:"r50"`
	R90       render.Float `json:"r90"`
	SingleQ50 render.Float `json:"single_benchmark_q50"`
}

type backtestJSON struct {
	CalibrationBelow int               `json:"calibration_below"`
	CalibrationRuns  int               `json:"calibration_runs"`
	Other            []backtestRunJSON `json:"other"`
}

type backtestRunJSON struct {
	Run     string       `json:"run"`
	Score   render.Float `json:"score"`
	Below   bool         `json:"below"`
	Missing []string     `json:"missing"`
}

type bootstrapJSON struct {
	B    int     `json:"resamples"`
	Seed uint64  `json:"seed"`
	Mean float64 `json:"mean"`
	Q05  float64 `json:"q05"`
	Q50  float64 `json:"q50"`
	Q95  float64 `json:"q95"`
}

type candidateJSON struct {
	Floor            float64      `json:"floor"`
	BelowMinPct      render.Float `json:"below_min_pct"`
	FPR              render.Float `json:"false_positive_rate"`
	Upper95          render.Float `json:"upper95"`
	DistributionFree render.Float `json:"distribution_free"`
	R50              render.Float `json:"r50"`
	R90              render.Float `json:"r90"`
}

func recommendToJSON(a *calibrate.Analysis, rec *calibrate.Recommendation, others []calibrate.BacktestRun) recommendJSON {
	o, c := rec.Options, rec.Cost
	j := recommendJSON{
		Floor: rec.Floor, FloorText: rec.FormatFloor(rec.Floor), Method: string(o.Method), Raw: render.Float(rec.Raw),
		Margin: o.Margin, Step: o.Step, Alpha: o.Alpha, Coverage: o.Coverage, Confidence: o.Confidence,
		ToleranceK: render.Float(math.NaN()), Seed: o.Seed,
		Baseline: a.Baseline, Candidate: a.Candidate, Suite: a.Suite, Runs: a.Score.N,
		Observed:  observedJSON{Min: a.Score.Min, Median: a.Score.Median, Max: a.Score.Max},
		FPR:       fprJSON{Predictive: render.Float(c.Predictive), Upper95: render.Float(c.Upper95), Plugin: render.Float(c.Plugin), DistributionFree: render.Float(c.DistributionFree)},
		Horizon:   horizonJSON{Runs: c.HorizonRuns, Predictive: render.Float(c.Horizon), DistributionFree: render.Float(c.HorizonFree)},
		Detection: detectionJSON{R50: render.Float(c.R50), R90: render.Float(c.R90), SingleQ50: render.Float(c.SingleQ50)},
		Backtest:  backtestJSON{CalibrationBelow: c.CalibrationBelow, CalibrationRuns: a.Score.N, Other: []backtestRunJSON{}},
		Warnings:  warningTexts(a.Warnings, rec.Warnings),
		Summary:   recommendSummary(a, rec), MoreRunsFor1Pct: rec.MoreRunsForOnePct,
	}
	if o.Method == calibrate.MethodTolerance {
		j.ToleranceK = render.Float(rec.ToleranceK)
	}
	for _, b := range others {
		j.Backtest.Other = append(j.Backtest.Other, backtestRunJSON{Run: b.ID, Score: render.Float(b.Score), Below: b.Below, Missing: append([]string{}, b.Missing...)})
	}
	if bs := rec.Bootstrap; bs.B > 0 {
		j.Bootstrap = &bootstrapJSON{B: bs.B, Seed: bs.Seed, Mean: bs.Mean, Q05: bs.Q05, Q50: bs.Q50, Q95: bs.Q95}
	}
	for _, x := range rec.Candidates {
		j.Candidates = append(j.Candidates, candidateJSON{
			Floor: x.Floor, BelowMinPct: render.Float(x.BelowMinPct), FPR: render.Float(x.Predictive), Upper95: render.Float(x.Upper95),
			DistributionFree: render.Float(x.DistributionFree), R50: render.Float(x.R50), R90: render.Float(x.R90),
		})
	}
	return j
}
