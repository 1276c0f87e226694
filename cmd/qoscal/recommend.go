package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	calgate "github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/measure"
	"github.com/qoscal/qoscal/present"
)

var recommendCmd = &command{
	name:    "recommend",
	summary: "floor recommendation (and calibration file)",
	format:  true,
	usage: `qoscal recommend [flags] [PATH...]
`,
	intro: `Recommends the floor of a gate from runs of unchanged code, and says what it
costs: how often a healthy run would trip it (the false-positive rate), and how
large a real regression it catches. A table of snugger floors, up to the lowest
observed run, shows what each would cost instead.
`,
	notes: `The false-positive rate is predictive (Student-t, log-normal scores), with
the 95% upper confidence bound of the true rate (a different quantity, which
can be below the predictive rate at few runs) and the bound 1/(n+1) that
holds with no model.
r50 and r90 are the mildest uniform regressions (every benchmark's ratio times
r) the floor catches half the time and 90% of the time.
`,
	example: `Example: the worked example's five runs, a 13% margin on a 0.05 grid:

    $ qoscal recommend --margin 0.13 --step 0.05 --write gate.json runs.csv
    floor: 1.25x for geomean(hoard/system) ...
`,
	new: func() runner { return new(recommendFlags) },
}

func init() {
	register(recommendCmd)
}

// recommendFlags are the recommend command's flags.
type recommendFlags struct {
	af    analysisFlags
	rf    recFlags
	write string
	// by is the label whose values get a profile each (--by).
	by                       string
	backtest, backtestLabels []string
	detect, repSeconds       float64
	jobSeconds               float64
}

func (r *recommendFlags) flags(fs *flagSet) {
	r.af.add(fs)
	fs.group("The floor:")
	r.rf.add(fs)
	fs.StringArrayVar(&r.backtest, "backtest", nil, "also count the runs at `PATH` (same --baseline and --candidate files) that fall below the floor, such as runs of a known regression")
	fs.StringArrayVar(&r.backtestLabels, "backtest-label", nil, "likewise for the stored runs carrying every such `KEY=VALUE` label")
	fs.group("Repetitions (runs measured with them: qoscal measure):")
	fs.Float64Var(&r.detect, "detect", 0, "plan the repetitions per job that catch a `SLIDE` (0.05: every ratio 5% lower) nine times in ten at the floor's rate, at the least CI time, in [0, 1) (default 0: no plan)")
	fs.Float64Var(&r.repSeconds, "repetition-seconds", 0, "the time of one repetition, `S` seconds, in [0, 1e6] (default 0: from the runs' qoscal.json)")
	fs.Float64Var(&r.jobSeconds, "job-seconds", 60, "a job's fixed cost in `S` seconds (checkout, build, runner start), in [0, 1e6]")
	fs.group("Output:")
	fs.StringVar(&r.write, "write", "", "write the calibration `FILE` for 'qoscal gate' (its folders made if missing)")
	fs.StringVar(&r.by, "by", "", "also calibrate one profile per value of the run label `KEY` (cpu, image, or any label), each on that value's runs alone by the same method, listed with its floor and written with --write into the same file; gate judges a run on the profile of its own value of KEY (a value without one: on the calibration of all runs, with a warning)")
}

func (r *recommendFlags) run(u *ui, paths []string) error {
	af, rf, write, backtest, backtestLabels := &r.af, &r.rf, r.write, r.backtest, r.backtestLabels
	if st, err := os.Stat(write); write != "" && err == nil && st.IsDir() {
		return usagef("--write %s is a folder: expected the calibration file's name, such as %s", write, filepath.Join(write, "gate.json"))
	} else if write != "" && err == nil && !st.Mode().IsRegular() {
		return usagef("--write %s is %s, not a file: the calibration would replace it", write, data.FileKind(st.Mode()))
	}
	if !(r.detect >= 0 && r.detect < 1) {
		return usagef("--detect must be in [0, 1), got %v", r.detect)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"--repetition-seconds", r.repSeconds}, {"--job-seconds", r.jobSeconds}} {
		if !(f.v >= 0 && f.v <= 1e6) {
			return usagef("%s must be in [0, 1e6], got %v", f.name, f.v)
		}
	}
	fc := u.newFiles()
	af.inputs(u, fc, paths)
	fc.runs(&af.runFlags, backtest)
	if len(backtestLabels) > 0 {
		fc.store(storePath(u, af.db))
	}
	fc.out("--write", write)
	if err := fc.check(); err != nil {
		return err
	}
	in, rec, err := recommendFor(u, af, rf, paths)
	if err != nil {
		return err
	}
	u.warnAll(present.Unsaid(in.analysis.Warnings, rec.Warnings))
	a := in.analysis
	var others []calfloor.BacktestRun
	if len(backtest) > 0 || len(backtestLabels) > 0 {
		runs, err := backtestRuns(u, af, backtest, backtestLabels)
		if err != nil {
			return err
		}
		if others, err = runBacktest(u, af, a, rec, runs); err != nil {
			return err
		}
	}
	var profiles []model.FileProfile
	if r.by != "" {
		now, err := u.now()
		if err != nil {
			return err
		}
		if profiles, err = profilesBy(u, in, rec, r.by, now); err != nil {
			return err
		}
	}
	if write != "" {
		// What the gate would refuse is not written (model.CheckFloorUseful).
		if err := calfloor.CheckUseful(a, rec.Floor, rec.Options); err != nil {
			return err
		}
		now, err := u.now()
		if err != nil {
			return err
		}
		labels := in.filter
		if in.source == "paths" {
			sets := make([]map[string]string, len(in.runs))
			for i, r := range in.runs {
				sets[i] = r.Labels
			}
			labels = data.CommonLabels(sets)
		}
		f := calfloor.NewFile(a, rec, labels, now, "qoscal "+version)
		f.ExpectSkips(af.skipped)
		f.SetEnvironments(runLabels(in.runs))
		if r.by != "" {
			f.SetProfiles(r.by, profiles)
		}
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			return fmt.Errorf("writing the calibration file: %w", err)
		}
		if err := writeFile(write, buf.Bytes()); err != nil {
			return fmt.Errorf("writing the calibration file: %w", err)
		}
		u.notef("wrote the calibration file %s (floor %s)", write, f.FloorText)
		if len(f.ExpectedSkips) > 0 {
			u.notef("expected from now on, skipped in every calibration run: %s (a gate says nothing of them; a new skip is still a warning)", strings.Join(f.ExpectedSkips, ", "))
		}
	}
	var plan *calgate.DetectPlan
	if r.detect > 0 {
		if plan, err = r.detectPlan(a, rec, paths); err != nil {
			return err
		}
	}
	view := &present.Recommend{A: a, Rec: rec, Detect: plan, Others: others, Warnings: warningTexts(a.Warnings, rec.Warnings), BacktestName: "--backtest"}
	if r.by != "" {
		return show(u, &present.RecommendProfiles{Recommend: view, By: r.by, Profiles: profiles})
	}
	return show(u, view)
}

// detectPlan plans the repetitions that catch --detect's slide (STATS.md
// 2.15), with the time of a repetition given or measured.
func (r *recommendFlags) detectPlan(a *spread.Analysis, rec *calfloor.Recommendation, paths []string) (*calgate.DetectPlan, error) {
	if a.Variance == nil {
		return nil, withHint(errors.New("--detect plans repetitions from the variance components, and these runs have none: it needs runs measured with repetitions (two runs or more, a run with two repetitions or more)"),
			"measure the calibration runs with 'qoscal measure --repetitions N'")
	}
	rep := r.repSeconds
	if rep == 0 {
		var ok bool
		if rep, ok = measuredRepetitionSeconds(paths); !ok {
			return nil, usagef("--detect needs the time of a repetition: none of the runs' qoscal.json records one (runs from a store, or CSV files): give --repetition-seconds S")
		}
	}
	p, err := calgate.Detect(a, rec, r.detect, 0.9, rep, r.jobSeconds)
	if err != nil {
		return nil, fmt.Errorf("--detect: %w", err)
	}
	return &p, nil
}

// measuredRepetitionSeconds is the median time of a repetition over the
// run folders 'qoscal measure' wrote at paths, each folder's own median
// (measure.FolderRepetitionSeconds).
func measuredRepetitionSeconds(paths []string) (float64, bool) {
	times := measure.FolderRepetitionSeconds(paths)
	if len(times) == 0 {
		return 0, false
	}
	return calgate.TypicalSeconds(times), true
}

// recFlags are the flags of a floor recommendation, shared by recommend,
// plot and report.
type recFlags struct {
	opt     model.RecommendOptions
	method  string
	target  string
	window  string
	minRuns int
	fs      *pflag.FlagSet
}

// add registers the flags of a recommendation, into the group begun.
func (r *recFlags) add(fs *flagSet) {
	r.opt = model.DefaultRecommendOptions
	r.fs = fs.FlagSet
	fs.StringVar(&r.method, "method", string(r.opt.Method), "the floor's `METHOD`: target-fpr, the snuggest floor whose predictive false-positive rate per healthy run is at most --target-fpr; margin, the lowest observed score × (1 − margin), rounded down to the step (--margin alone selects it); prediction, the log-normal lower prediction bound at --alpha; tolerance, the lower normal tolerance bound (log space) at --coverage and --confidence; every floor is rounded down to the step")
	fs.StringVar(&r.target, "target-fpr", "1/1000", "the target-fpr method's false-positive rate `P` per healthy run, 0.001 or 1/1000, in (0, 0.5)")
	fs.Float64Var(&r.opt.Margin, "margin", r.opt.Margin, "how far below the lowest run, as a `FRACTION` of it, in [0, 1)")
	fs.Float64Var(&r.opt.Step, "step", r.opt.Step, "the floor's grid `STEP`, in [0.0001, 1]")
	fs.Float64Var(&r.opt.Alpha, "alpha", r.opt.Alpha, "prediction: the false-positive rate `A`, in (0, 0.5)")
	fs.Float64Var(&r.opt.Coverage, "coverage", r.opt.Coverage, "tolerance: the share `P` of healthy runs above the floor, in (0.5, 1)")
	fs.Float64Var(&r.opt.Confidence, "confidence", r.opt.Confidence, "tolerance: the confidence `G` of that, in (0, 1)")
	fs.StringVar(&r.window, "regime", spread.WindowAuto, "which `RUNS` to calibrate on: auto, the latest regime of the scores when a change is significant and it has --min-runs runs, else all; all; latest")
	fs.IntVar(&r.minRuns, "min-runs", spread.DefaultMinRuns, fmt.Sprintf("the fewest runs `N` of the latest regime that auto calibrates on alone, in [2, %d]", maxMinRuns))
	fs.Float64Var(&r.opt.RerunBand, "rerun-band", r.opt.RerunBand, "report what 'gate --rerun-band `FRACTION`' costs (0: not), in [0, 0.5)")
	fs.Float64Var(&r.opt.FamilyAlpha, "family-alpha", r.opt.FamilyAlpha, "the per-benchmark bands' family-wise false-positive rate `A` per healthy run (Holm's step-down over the suite), in (0, 0.5)")
	fs.Uint64Var(&r.opt.Seed, "seed", r.opt.Seed, "the seed `N` of the bootstrap diagnostic and of the change-point test, any whole number from 0 to 2^64-1")
	fs.IntVar(&r.opt.Bootstrap, "bootstrap", r.opt.Bootstrap, "the bootstrap diagnostic's resamples `B` (0: none), in [0, 100000]")
}

func (r *recFlags) options() (model.RecommendOptions, error) {
	opt := r.opt
	opt.Method = model.Method(r.method)
	// The seed's rule is one flag away: --margin alone selects it.
	if r.fs != nil && r.fs.Changed("margin") && !r.fs.Changed("method") {
		opt.Method = model.MethodMargin
	}
	p, err := parseRate(r.target)
	if err != nil {
		return opt, usagef("--target-fpr: %v", err)
	}
	opt.TargetFPR = p
	if err := opt.Validate(); err != nil {
		return opt, &usageError{err: err}
	}
	switch r.window {
	case spread.WindowAuto, spread.WindowAll, spread.WindowLatest:
	default:
		return opt, usagef("--regime must be auto, all or latest, got %q", r.window)
	}
	if r.minRuns < 2 || r.minRuns > maxMinRuns {
		return opt, usagef("--min-runs must be in [2, %d], got %d", maxMinRuns, r.minRuns)
	}
	return opt, nil
}

// recommendFor reads and analyses the runs and recommends a floor,
// printing the analysis' warnings: what recommend, plot and report all
// start with. The recommendation's warnings are the caller's to print:
// plot and report print those of the floor they show, which may be
// another (chartFlags.read).
func recommendFor(u *ui, af *analysisFlags, rf *recFlags, paths []string) (*input, *calfloor.Recommendation, error) {
	opt, err := rf.options()
	if err != nil {
		return nil, nil, err
	}
	af.seed = opt.Seed
	in, err := af.analyze(u, paths)
	if err != nil {
		return nil, nil, err
	}
	all := in.analysis
	w, err := all.Choose(rf.window, rf.minRuns)
	if err != nil {
		return nil, nil, usagef("--regime latest: %v", err)
	}
	if w.Rule == spread.WindowLatest {
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
	rec, err := calfloor.RecommendWindow(in.analysis, all, w, opt)
	if err != nil {
		return nil, nil, err
	}
	return in, rec, nil
}

// backtestRuns reads the runs to backtest a floor on: those at the
// --backtest PATHs, and the stored runs with the --backtest-label labels.
func backtestRuns(u *ui, af *analysisFlags, paths, labels []string) ([]data.Run, error) {
	var runs []data.Run
	if len(paths) > 0 {
		lopt, err := af.loadOptions(u, namesVariants(paths))
		if err != nil {
			return nil, err
		}
		src := source.Source{Paths: paths, Load: lopt}
		if runs, err = src.Runs(u.ctx); err != nil {
			return nil, fmt.Errorf("--backtest: %w", err)
		}
	}
	if len(labels) > 0 {
		filter, err := data.ParseLabels(labels)
		if err != nil {
			return nil, usagef("--backtest-label: %v", err)
		}
		src := source.Source{Store: storePath(u, af.db), Labels: filter}
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
func runBacktest(u *ui, af *analysisFlags, a *spread.Analysis, rec *calfloor.Recommendation, runs []data.Run) ([]calfloor.BacktestRun, error) {
	dir, err := af.direction()
	if err != nil {
		return nil, err
	}
	out, err := calfloor.Backtest(a, rec.Floor, runs, dir, af.metric)
	if err != nil {
		return nil, fmt.Errorf("--backtest: %w", err)
	}
	for _, b := range out {
		if len(b.Missing) > 0 {
			u.warnf("backtest run %s lacks %s: not scored", b.ID, strings.Join(b.Missing, ", "))
		}
	}
	return out, nil
}

// runLabels returns the labels of the runs by their id.
func runLabels(runs []runInfo) func(id string) map[string]string {
	byID := make(map[string]map[string]string, len(runs))
	for _, r := range runs {
		byID[r.ID] = r.Labels
	}
	return func(id string) map[string]string { return byID[id] }
}
