package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"qoscal/calibrate"
	"qoscal/data"
	"qoscal/present"
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

The false-positive rate is predictive (Student-t, log-normal scores), with
the 95% upper confidence bound of the true rate (a different quantity, which
can be below the predictive rate at few runs) and the bound 1/(n+1) that
holds with no model.
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
	if st, err := os.Stat(write); write != "" && err == nil && st.IsDir() {
		return usagef(c.name, "--write %s is a folder: expected the calibration file's name, such as %s", write, filepath.Join(write, "gate.json"))
	} else if write != "" && err == nil && !st.Mode().IsRegular() {
		return usagef(c.name, "--write %s is %s, not a file: the calibration would replace it", write, data.FileKind(st.Mode()))
	}
	fc := u.newFiles()
	af.inputs(u, fc, fs.Args())
	fc.runs(&af.runFlags, backtest)
	if len(backtestLabels) > 0 {
		fc.store(storePath(u, af.db))
	}
	fc.out("--write", write)
	if err := fc.check(); err != nil {
		return err
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
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			return fmt.Errorf("writing the calibration file: %v", err)
		}
		if err := writeFile(write, buf.Bytes()); err != nil {
			return fmt.Errorf("writing the calibration file: %v", err)
		}
		u.notef("wrote the calibration file %s (floor %s)", write, f.FloorText)
	}
	v := &present.Recommend{A: a, Rec: rec, Others: others, Warnings: warningTexts(a.Warnings, rec.Warnings), BacktestName: "--backtest"}
	switch format {
	case "json":
		return writeJSON(u, v.JSON())
	case "markdown":
		v.Doc().WriteMarkdown(u.stdout)
	default:
		v.Doc().WriteText(u.stdout)
	}
	return nil
}

// recFlags are the flags of a floor recommendation, shared by recommend,
// plot and report.
type recFlags struct {
	opt     calibrate.RecommendOptions
	method  string
	target  string
	window  string
	minRuns int
	fs      *pflag.FlagSet
}

func (r *recFlags) add(fs *pflag.FlagSet) {
	r.opt = calibrate.DefaultRecommendOptions
	r.fs = fs
	fs.StringVar(&r.method, "method", string(r.opt.Method), "floor `METHOD`: target-fpr, margin, prediction or tolerance")
	fs.StringVar(&r.target, "target-fpr", "1/1000", "target-fpr method's false-positive rate per healthy run `P` (0.001 or 1/1000)")
	fs.StringVar(&r.window, "regime", calibrate.WindowAuto, "calibrate on `RUNS`: auto (the latest regime when long enough), all, latest")
	fs.IntVar(&r.minRuns, "min-runs", calibrate.DefaultMinRuns, "the fewest runs of the latest regime that auto calibrates on alone (`N`)")
	fs.Float64Var(&r.opt.Margin, "margin", r.opt.Margin, "margin below the lowest run, as a `FRACTION`")
	fs.Float64Var(&r.opt.Step, "step", r.opt.Step, "the floor's grid `STEP`")
	fs.Float64Var(&r.opt.Alpha, "alpha", r.opt.Alpha, "prediction method's false-positive rate `A`")
	fs.Float64Var(&r.opt.Coverage, "coverage", r.opt.Coverage, "tolerance method's coverage `P`")
	fs.Float64Var(&r.opt.Confidence, "confidence", r.opt.Confidence, "tolerance method's confidence `G`")
	fs.Float64Var(&r.opt.RerunBand, "rerun-band", r.opt.RerunBand, "report the gate with this rerun band `FRACTION` (0: not)")
	fs.Float64Var(&r.opt.FamilyAlpha, "family-alpha", r.opt.FamilyAlpha, "the per-benchmark bands' family-wise false-positive rate `A`")
	fs.Uint64Var(&r.opt.Seed, "seed", r.opt.Seed, "seed `N` of the bootstrap and the change-point test")
	fs.IntVar(&r.opt.Bootstrap, "bootstrap", r.opt.Bootstrap, "bootstrap resamples `B`")
}

func (r *recFlags) options(cmd string) (calibrate.RecommendOptions, error) {
	opt := r.opt
	opt.Method = calibrate.Method(r.method)
	// The seed's rule is one flag away: --margin alone selects it.
	if r.fs != nil && r.fs.Changed("margin") && !r.fs.Changed("method") {
		opt.Method = calibrate.MethodMargin
	}
	p, err := parseRate(r.target)
	if err != nil {
		return opt, usagef(cmd, "--target-fpr: %v", err)
	}
	opt.TargetFPR = p
	if err := opt.Validate(); err != nil {
		return opt, usagef(cmd, "%v", err)
	}
	switch r.window {
	case calibrate.WindowAuto, calibrate.WindowAll, calibrate.WindowLatest:
	default:
		return opt, usagef(cmd, "--regime must be auto, all or latest, got %q", r.window)
	}
	if r.minRuns < 2 || r.minRuns > maxMinRuns {
		return opt, usagef(cmd, "--min-runs must be in [2, %d], got %d", maxMinRuns, r.minRuns)
	}
	return opt, nil
}

// parseRate reads a rate given as a number (0.001) or a fraction (1/1000).
func parseRate(s string) (float64, error) {
	if a, b, ok := strings.Cut(s, "/"); ok {
		x, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
		y, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
		if err1 != nil || err2 != nil || !(y > 0) {
			return 0, fmt.Errorf("%q: expected a rate like 0.001 or 1/1000", s)
		}
		return x / y, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q: expected a rate like 0.001 or 1/1000", s)
	}
	return v, nil
}

// recommendFor reads and analyses the runs and recommends a floor, printing
// the warnings of both: what recommend, plot and report all start with.
func recommendFor(u *ui, cmd string, af *analysisFlags, rf *recFlags, paths []string) (*input, *calibrate.Recommendation, error) {
	opt, err := rf.options(cmd)
	if err != nil {
		return nil, nil, err
	}
	af.seed = opt.Seed
	in, err := af.analyze(u, cmd, paths)
	if err != nil {
		return nil, nil, err
	}
	all := in.analysis
	w, err := all.Choose(rf.window, rf.minRuns)
	if err != nil {
		return nil, nil, usagef(cmd, "--regime latest: %v", err)
	}
	if w.Rule == calibrate.WindowLatest {
		// Calibrate on the latest regime: analyse its runs alone.
		ids := w.IDs(all)
		var sub []runInfo
		for _, r := range in.runs {
			if ids[r.ID] {
				sub = append(sub, r)
			}
		}
		in.all = all
		if in.analysis, err = in.collected.Analyze(func(id string) bool { return ids[id] }); err != nil {
			return nil, nil, err
		}
		in.runs = sub
	}
	u.warnAll(in.analysis.Warnings)
	rec, err := calibrate.Recommend(in.analysis, opt)
	if err != nil {
		return nil, nil, err
	}
	rec.Window, rec.Regimes = w, all.Regimes
	u.warnAll(rec.Warnings)
	return in, rec, nil
}

// recommendHelp documents recFlags, for the usage texts.
const recommendHelp = `    --method NAME            target-fpr (default): the snuggest floor whose
                             predictive false-positive rate per healthy
                             run is at most --target-fpr; margin: the
                             lowest observed score × (1 − margin), rounded
                             down to the step (--margin alone selects it);
                             prediction: the log-normal lower prediction
                             bound at --alpha; tolerance: the lower normal
                             tolerance bound (log space) at --coverage and
                             --confidence. Every floor is rounded down.
    --target-fpr P           the target-fpr method's rate, 0.001 or 1/1000,
                             in (0, 0.5) (default 1/1000)
    --margin FRACTION        how far below the lowest run, in [0, 1)
                             (default 0.10)
    --step STEP              the floor's grid, in [0.0001, 1] (default 0.01)
    --alpha A                prediction: false-positive rate, in (0, 0.5)
                             (default 0.01)
    --coverage P             tolerance: share of healthy runs above the
                             floor, in (0.5, 1) (default 0.95)
    --confidence G           tolerance: confidence of that, in (0, 1)
                             (default 0.95)
    --regime RUNS            which runs to calibrate on: auto (default: the
                             latest regime of the scores when a change is
                             significant and it has --min-runs runs, else
                             all), all, latest
    --min-runs N             the fewest runs of the latest regime that auto
                             calibrates on alone, in [2, 1000000]
                             (default 8)
    --rerun-band FRACTION    report what 'gate --rerun-band FRACTION' costs,
                             in [0, 0.5) (default 0.03; 0: not reported)
    --family-alpha A         the per-benchmark bands' family-wise
                             false-positive rate per healthy run (Holm's
                             step-down over the suite), in (0, 0.5)
                             (default 0.01)
    --seed N                 seed of the bootstrap diagnostic and of the
                             change-point test, any whole number from 0 to
                             2^64-1 (default 1)
    --bootstrap B            its resamples, in [0, 100000] (default 2000;
                             0 turns it off)
`

// backtestRuns reads the runs to backtest a floor on: those at the
// --backtest PATHs, and the stored runs with the --backtest-label labels.
func backtestRuns(u *ui, cmd string, af *analysisFlags, paths, labels []string) ([]data.Run, error) {
	var runs []data.Run
	if len(paths) > 0 {
		lopt, err := af.loadOptions(u, cmd, namesVariants(paths))
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
func commonLabels(runs []runInfo) map[string]string {
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
