package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/qoscal/qoscal/calibrate/drift"
	calgate "github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/measure"
	"github.com/qoscal/qoscal/present"
	"github.com/spf13/pflag"
)

var gateCmd = &command{
	name:      "gate",
	summary:   "judge one run against a floor",
	format:    true,
	annotates: "the verdict, every warning and an error",
	usage: `qoscal gate [flags] --baseline [NAME=]FILE --candidate [NAME=]FILE
qoscal gate [flags] --baseline NAME=FILE --candidate NAME=FILE RUN-FOLDER
qoscal gate [flags] --baseline NAME=FILE --candidate NAME=FILE RUN1 RUN2
qoscal gate [flags] --db STORE --run ID
`,
	intro: `Judges one CI run: the geomean of the candidate/baseline ratios over the suite
(the score) against the floor, and, with a calibration file, each benchmark
against its calibrated band. The suite is the calibration's, or without one
every benchmark either variant measured. PASS exits 0; FAIL (score below the
floor, or a benchmark below its band with --per-benchmark fail) exits 1; input
it cannot read, a benchmark of the suite missing, variant names, units or
metric directions that differ from the calibration's exit 2, never PASS; a
degraded runner with --on-degraded fail, a score within --rerun-band below the
floor, or a verdict that rests on a benchmark far above its band (judged with
it at its band's upper edge, the run gets another verdict) exits 3.
`,
	notes: `Under Actions ($GITHUB_OUTPUT set), gate also writes the step outputs
verdict, verdict-detail, score, floor, floor-source, run and exit-code
(after an error, exit-code=2 alone).
`,
	example: `Example: the Windows runner's first measurement against a 1.25 floor:

    $ qoscal gate --floor 1.25 --baseline system=baseline.txt --candidate hoard=hoard.txt
    hoard (candidate) vs system (baseline), run ...
    ...
    benchmark           system        hoard  hoard/system
    alloc-test      31,225,137   52,293,433         1.67x  faster
    ...
    larson           5,514,093    4,802,417         0.87x  SLOWER
    ...
    sh8bench        20,336,963   20,255,113         1.00x
    geomean                                         1.55x  over 10 benchmarks
    ...
    PASS: hoard is 1.55x system (geomean), >= 1.25x floor.
`,
	new: func() runner { return new(gateFlags) },
}

func init() {
	register(gateCmd)
}

// gateFlags are the gate command's flags.
type gateFlags struct {
	runFlags
	dirFlags
	db, calibration, onDegraded, summary, metric string
	rerunCommand                                 string
	floor, tag                                   float64
	perBenchmark                                 string
	rerunBand                                    float64
	rerunTimeout                                 time.Duration
	minSuite, driftWindow                        int
	reportOnly, allowPartial, record, emitMeta   bool
	// dbNamed is set when --db or $QOSCAL_DB names the store.
	dbNamed bool
	labels  []string
	// ignore are the benchmarks left out on purpose (--ignore); skips
	// those the run's files may print without a figure unsaid: the
	// calibration's expected_skips and the ignored ones; skipped those
	// the run's files skipped.
	ignore, skips, skipped []string
	// fs tells a flag given from one left at its default (--floor, --db).
	fs *pflag.FlagSet
}

func (g *gateFlags) flags(fs *flagSet) {
	g.fs = fs.FlagSet
	fs.group("The run:")
	g.addLoadFlags(fs, loadHelp{
		baseline:  "the baseline's result `[NAME=]FILE` (a path; inside RUN-FOLDER, a file name); any format qoscal reads, UTF-16 from PowerShell included",
		candidate: "the candidate's result `[NAME=]FILE`",
		variant:   "a further variant's result `[NAME=]FILE`, read with the run, not judged",
		run:       "the run's `ID`: its name (default: GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT under Actions, else the folder of the candidate's file); with --db and no result files, the stored run to judge",
	}, "input-format")
	fs.StringVar(&g.db, "db", "", "the `STORE`: a SQLite file or a postgres:// URL (default $QOSCAL_DB, else qoscal.db); with --run ID and no result files, gate judges that stored run; --record stores the run there, and --drift-window reads the gated runs from it")
	g.dirFlags.add(fs)
	fs.StringVar(&g.metric, "metric", "", "with several metrics per benchmark, the `METRIC` to compare (default sec/op)")
	fs.StringArrayVar(&g.ignore, "ignore", nil, "leave the benchmark `NAME` out on purpose, said once in the summary, never warned of: out of the run and, when the calibration holds it, out of its suite (gated on the rest against that sub-suite's floor, recomputed from the calibration)")
	fs.group("The floor:")
	fs.Float64Var(&g.floor, "floor", 0, fmt.Sprintf("the `FLOOR` (wins over the calibration file's), in [%g, %g]", MinFloor, MaxFloor))
	fs.StringVar(&g.calibration, "calibration", "", "the calibration `FILE` 'qoscal recommend --write' made: floor, suite, variant names, directions and the baseline history for the runner-health check")
	fs.BoolVar(&g.reportOnly, "report-only", false, "report, never fail on a regression (exit 0)")
	fs.BoolVar(&g.allowPartial, "allow-partial", false, "gate on the benchmarks of the suite the run has: with a calibration, against the floor of that sub-suite recomputed from it; with --floor alone, those both variants measured")
	fs.IntVar(&g.minSuite, "min-suite", 0, fmt.Sprintf("the fewest benchmarks `N` of the suite a partial run is gated on, in [0, %d] (default 0: half, at least 2)", maxMinSuite))
	fs.StringVar(&g.perBenchmark, "per-benchmark", calgate.PerBenchmarkWarn, "what a benchmark below its calibrated band (Holm's step-down at the calibration's family-wise rate) does, `MODE`: warn, fail (exit 1 even when the geomean passes) or off")
	fs.StringVar(&g.onDegraded, "on-degraded", "warn", "what a degraded runner does, `MODE`: warn, fail (exit 3, \"inconclusive\") or ignore")
	fs.Float64Var(&g.rerunBand, "rerun-band", 0, "a score below the floor by less than this `FRACTION` of it (floor × (1 − FRACTION) ≤ score) is verdict \"rerun\" (exit 3) instead of FAIL: measure again on a fresh runner, then judge both runs as RUN1 RUN2; a pair has no band: below the floor, it fails (--rerun-command measures again and judges the pair itself); in [0, 0.5) (default 0: off)")
	fs.StringVar(&g.rerunCommand, "rerun-command", "", "with --rerun-band, when the verdict is rerun: run `CMD` once through the shell (sh -c; cmd /c on Windows), which measures again and rewrites the run's result files, then judge the run and its rerun by their mean (no band: below the floor, the pair fails); a CMD that fails, or leaves a file as it was or with the same bytes (touched or copied back: no new measurement), is an input error (exit 2)")
	fs.DurationVar(&g.rerunTimeout, "rerun-timeout", defaultRerunTimeout, "the longest --rerun-command may run, a `DURATION` (90s, 10m; 0: no limit): then it is killed with its process group and the gate exits 2; once CMD has exited, what it left running (a background job; on Linux also what left its group, setsid()) is killed too")
	fs.Float64Var(&g.tag, "tag-threshold", 0.03, "tag ratios beyond ±`F` as faster or SLOWER, in [0, 1)")
	fs.group("CI:")
	fs.StringVar(&g.summary, "summary", "", "append a Markdown summary to `FILE`, its folders made if missing (default $GITHUB_STEP_SUMMARY when set)")
	fs.BoolVar(&g.record, "record", false, "also store the run (--db, --run ID, --label; without --run, a CSV file or zip artifact given as the PATH names it)")
	fs.BoolVar(&g.emitMeta, "emit-meta", false, "write qoscal.json beside the candidate's result file: the Actions run id and attempt, commit, runner OS and name, the time, and the machine (CPU model, logical CPUs, OS, kernel, runner image), read back as the run's labels when the folder (or its artifact) is a PATH")
	fs.IntVar(&g.driftWindow, "drift-window", 20, fmt.Sprintf("with --db, check the last `N` stored gated runs (those with the --label labels, if given) for drift from the calibration, at a false-alarm rate of %s%% per N runs checked after each: 0 (no check) or in [3, %d]; a note on drift, a warning annotation under Actions", strconv.FormatFloat(100*drift.DefaultDriftFalseAlarm, 'g', -1, 64), maxDriftWindow))
	fs.StringArrayVar(&g.labels, "label", nil, "a `KEY=VALUE` label of the recorded run; with --drift-window, of the stored runs checked")
}

func (g *gateFlags) run(u *ui, paths []string) error {
	in, err := g.readInputs(u, paths)
	if err != nil {
		return err
	}
	run, second, cal, paths, pair := in.run, in.second, in.cal, in.paths, in.pair
	fs := g.fs
	envLabels, envFrom := calgate.RunEnvironment(run.Labels, func() map[string]string { return measure.Fingerprint(u.getenv).Labels() }, false, g.fromStore(paths))
	judging := calgate.ChooseProfile(cal, envLabels)
	cal = judging.Cal
	dir, err := g.direction()
	if err != nil {
		return err
	}
	opt := calgate.GateOptions{
		Baseline: run.Baseline, Candidate: run.Candidate, Floor: g.floor, Calibration: cal, Direction: dir,
		AllowPartial: g.allowPartial, ReportOnly: g.reportOnly, OnDegraded: g.onDegraded, Metric: g.metric,
		PerBenchmark: g.perBenchmark, MinSuite: g.minSuite, RerunBand: g.rerunBand, Ignore: g.ignore,
	}
	var rerun calgate.Rerun
	if g.rerunCommand != "" {
		rerun = func(first *calgate.GateResult) (*data.Run, error) {
			v := &gateView{&present.Gate{Res: first, Run: run, Cal: cal, CalPath: g.calibration, GivenFloor: "--floor"}}
			u.notef("%s", v.Headline())
			return g.rerun(u, paths, run)
		}
	}
	d, err := calgate.Decide(run, second, opt, rerun)
	if err != nil {
		return err
	}
	// judged are the runs the verdict is about, which --record stores:
	// the run, the two of a pair, or the run and its rerun.
	res, judged, run := d.GateResult, d.Judged, d.Run
	rerunCommand := ""
	if d.Reran {
		rerunCommand = g.rerunCommand
	}
	res.Warnings = append(res.Warnings, judging.Warnings...)
	// The command's own warning, about the files it was given, comes
	// before the gate's.
	same := g.sameFiles(pair)
	if g.record {
		if err := g.recordRun(u, judged, res, cal, judging.Profile, rerunCommand != ""); err != nil {
			return err
		}
	}
	g.checkIgnored(u, res)
	driftNote := g.driftNote(u, fs.Changed("db"), cal, dir)
	code := gateExitCode(res)
	v := &gateView{&present.Gate{Res: res, Run: run, Cal: cal, CalPath: g.calibration, Tag: g.tag,
		GivenFloor: "--floor", ExitCode: code, Warnings: warningTexts(res.Warnings), RerunCommand: rerunCommand,
		Environment: present.NewGateEnvironment(envLabels, envFrom), Profile: judging.Profile, Full: judging.Full}}
	if same != "" {
		v.Warnings = append([]string{same}, v.Warnings...)
	}
	return writeGate(u, v, v.outputs(), same, v.warnings(u), driftNote, code)
}

// gateInput is what the gate reads before it judges: the run (or the
// first of a pair) and the pair's second, the calibration file, and the
// paths the run was read from (pair: the pair's two).
type gateInput struct {
	run, second *data.Run
	cal         *model.File
	paths, pair []string
}

// readInputs checks the flags and the files, and reads the calibration
// and the run or pair (and writes qoscal.json with --emit-meta).
func (g *gateFlags) readInputs(u *ui, paths []string) (*gateInput, error) {
	fs := g.fs
	if err := g.validate(fs.Changed("floor")); err != nil {
		return nil, err
	}
	// A file given as the one PATH (a CSV file, a zip artifact) names
	// its run: --record takes that id as --run would give it (issue 35),
	// once the run is read.
	idFromFile := len(paths) == 1 && isFile(paths[0])
	if g.record && g.runID == "" && len(paths) != 2 && !idFromFile {
		// Under GitHub Actions the run is named, as --run's help says, by
		// default after the Actions run and attempt; elsewhere no default
		// names it well enough to store it by.
		if u.getenv("GITHUB_RUN_ID") == "" {
			return nil, usagef("--record needs --run ID: the id of the run in the store (under GitHub Actions it defaults to GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT)")
		}
		g.runID = load.DefaultRunID(u.getenv, load.SpecFolder(g.candidate))
	}
	if g.summary != "" {
		u.summary, u.summaryFlag = g.summary, "--summary"
	}
	g.dbNamed = fs.Changed("db") || u.getenv("QOSCAL_DB") != ""
	if err := g.checkFiles(u, paths, fs.Changed("db")); err != nil {
		return nil, err
	}
	var cal *model.File
	if g.calibration != "" {
		f, err := model.ReadFile(g.calibration)
		if errors.Is(err, model.ErrVersion1) {
			return nil, withHint(err, "to gate on a floor you chose, give it with --floor instead of --calibration")
		}
		if err != nil {
			return nil, err
		}
		cal = f
		g.skips = append(g.skips, f.ExpectedSkips...)
	}
	g.skips = append(g.skips, g.ignore...)
	var second *data.Run
	var err error
	if len(paths) == 2 {
		// A pair: the two run folders of one job, judged by their mean.
		if g.runID != "" {
			return nil, usagef("--run names one run: a pair of run folders is named after its folders")
		}
		if g.rerunCommand != "" {
			return nil, usagef("--rerun-command reruns one run: a pair is judged by its mean with no band, never rerun")
		}
		if second, err = g.readRun(u, paths[1:]); err != nil {
			return nil, err
		}
	}
	pair := paths
	if second != nil {
		paths = paths[:1]
	}
	if g.rerunCommand != "" && g.fromStore(paths) {
		return nil, usagef("--rerun-command measures again into the run's result files: give them with --baseline and --candidate, not a stored run")
	}
	run, err := g.readRun(u, paths)
	if err != nil {
		return nil, err
	}
	if g.record && g.runID == "" && idFromFile {
		g.runID = run.ID
	}
	if g.rerunCommand != "" {
		if err := checkRerunID(run.ID); err != nil {
			return nil, err
		}
	}
	if second != nil && run.ID == second.ID {
		if err := load.NamePair(run, second, pair[0], pair[1]); err != nil {
			return nil, usagef("%v", err)
		}
	}
	if g.emitMeta {
		if err := g.writeMeta(u, paths); err != nil {
			return nil, err
		}
	}
	return &gateInput{run: run, second: second, cal: cal, paths: paths, pair: pair}, nil
}

// checkJudgeModes checks --on-degraded and --per-benchmark, the modes
// gate and measure --calibration share.
func checkJudgeModes(onDegraded, perBenchmark string) error {
	switch onDegraded {
	case "warn", "fail", "ignore":
	default:
		return usagef("--on-degraded must be warn, fail or ignore, got %q", onDegraded)
	}
	switch perBenchmark {
	case calgate.PerBenchmarkFail, calgate.PerBenchmarkWarn, calgate.PerBenchmarkOff:
	default:
		return usagef("--per-benchmark must be fail, warn or off, got %q", perBenchmark)
	}
	return nil
}

func (g *gateFlags) validate(floorSet bool) error {
	if err := checkJudgeModes(g.onDegraded, g.perBenchmark); err != nil {
		return err
	}
	if g.driftWindow != 0 && (g.driftWindow < 3 || g.driftWindow > maxDriftWindow) {
		return usagef("--drift-window must be 0 (no check) or in [3, %d] (a change needs 3 runs), got %d", maxDriftWindow, g.driftWindow)
	}
	if !(g.rerunBand >= 0 && g.rerunBand < 0.5) {
		return usagef("--rerun-band must be in [0, 0.5), got %v", g.rerunBand)
	}
	if g.fs.Changed("rerun-timeout") && g.rerunCommand == "" {
		return usagef("--rerun-timeout bounds --rerun-command, which is not given")
	}
	if g.rerunCommand != "" && g.rerunBand == 0 {
		return usagef("--rerun-command runs when the verdict is rerun, which only --rerun-band gives: add --rerun-band FRACTION (say 0.03)")
	}
	if g.minSuite < 0 || g.minSuite > maxMinSuite {
		return usagef("--min-suite must be in [0, %d] (0: half the calibrated suite, at least 2), got %d", maxMinSuite, g.minSuite)
	}
	if floorSet {
		if err := checkFloor(g.floor); err != nil {
			return err
		}
	}
	if !(g.tag >= 0 && g.tag < 1) {
		return usagef("--tag-threshold must be in [0, 1), got %v", g.tag)
	}
	return nil
}

// checkIgnored adds to what --ignore left out the lines the run's files
// printed without a figure that it names (GateResult.NoteIgnored), and
// warns of an --ignore NAME that left nothing out. What it left out is
// said once, in the gate's summary (present.Gate).
func (g *gateFlags) checkIgnored(u *ui, res *calgate.GateResult) {
	for _, n := range res.NoteIgnored(g.ignore, g.skipped) {
		u.warnf("--ignore %s: neither the run nor the calibration has it (a misspelt name?)", n)
	}
}

// checkFiles checks, before anything is read, that the gate writes none
// of its inputs (see files.check): the step summary, $GITHUB_OUTPUT and
// qoscal.json against the calibration, the run's files and the store.
func (g *gateFlags) checkFiles(u *ui, paths []string, dbGiven bool) error {
	fc := u.newFiles()
	fc.in("the calibration file", g.calibration)
	if g.fromStore(paths) || g.record || dbGiven {
		fc.store(storePath(u, g.db))
	}
	if !g.fromStore(paths) {
		fc.runs(&g.runFlags, paths)
	}
	if g.emitMeta {
		p, err := g.metaPath(paths)
		if err != nil {
			return err
		}
		fc.meta("--emit-meta", p)
	}
	return fc.check()
}

// fromStore reports whether the run to judge is a stored one: --run
// without PATHs or --record, and no --baseline or --candidate, or, when
// --db (or $QOSCAL_DB) names the store, ones that name no file: they then
// name the stored run's variants (--baseline gcc/O2).
func (g *gateFlags) fromStore(paths []string) bool {
	if len(paths) > 0 || g.runID == "" || g.record {
		return false
	}
	if g.baseline == "" && g.candidate == "" {
		return true
	}
	return g.dbNamed && !namesFile(g.baseline) && !namesFile(g.candidate)
}

// namesFile reports whether a variant flag names a file that exists.
func namesFile(spec string) bool {
	v, err := load.ParseVariantSpec(spec)
	if err != nil {
		return false
	}
	_, err = os.Stat(v.File)
	return err == nil
}

// readRun reads the run to judge: from files, a run folder, or the store.
func (g *gateFlags) readRun(u *ui, paths []string) (*data.Run, error) {
	if len(paths) > 1 {
		return nil, usagef("gate judges one run, or a pair of run folders: give one or two run folders, or the files with --baseline and --candidate")
	}
	if g.fromStore(paths) {
		src := source.Source{Store: storePath(u, g.db), ID: g.runID}
		runs, err := src.Runs(u.ctx)
		if err != nil {
			return nil, err
		}
		opt, err := g.loadOptions(u, true)
		if err != nil {
			return nil, err
		}
		if n := opt.Baseline.Name; n != "" {
			runs[0].Baseline = n
		}
		if n := opt.Candidate.Name; n != "" {
			runs[0].Candidate = n
		}
		return &runs[0], nil
	}
	measured := len(paths) == 1 && load.IsMeasuredFolder(paths[0])
	if (g.baseline == "" || g.candidate == "") && !measured {
		return nil, usagef("name the run's files with --baseline and --candidate (or a stored run with --db and --run)")
	}
	opt, err := g.loadOptions(u, measured || (len(paths) > 0 && namesVariants(paths)))
	if err != nil {
		return nil, err
	}
	opt.ExpectedSkips = g.skips
	opt.Skipped = func(_ string, names []string) { g.skipped = append(g.skipped, names...) }
	if opt.RunID == "" && len(paths) == 0 {
		opt.RunID = load.DefaultRunID(u.getenv, load.SpecFolder(g.candidate))
	}
	if len(paths) == 1 {
		runs, err := load.All(paths, opt)
		if err != nil {
			return nil, err
		}
		if len(runs) != 1 {
			return nil, usagef("%s holds %d runs: gate judges one", paths[0], len(runs))
		}
		if g.runID != "" {
			// --run names the run, as gate --record stores it, whatever
			// id a CSV file's rows give it.
			runs[0].ID = g.runID
		}
		return &runs[0], nil
	}
	run, err := load.Files(opt)
	if err != nil {
		return nil, err
	}
	return &run, nil
}

// sameFiles returns a warning when the candidate's result file is the
// baseline's (load.SameFiles: one file, or two with the same bytes), in
// the files given or in a run folder: every ratio is then 1, whatever the
// candidate is, and a floor at or below 1 passes it. "" otherwise, and
// for a stored run.
func (g *gateFlags) sameFiles(paths []string) string {
	if g.fromStore(paths) {
		return ""
	}
	b, errB := load.ParseVariantSpec(g.baseline)
	c, errC := load.ParseVariantSpec(g.candidate)
	if errB != nil || errC != nil {
		return ""
	}
	folders := paths
	if len(folders) == 0 {
		folders = []string{""}
	}
	for _, dir := range folders {
		switch same, identical, bf, cf := load.SameFiles(dir, b.File, c.File); {
		case same:
			return fmt.Sprintf("the candidate and the baseline are the same file (%s): every ratio is 1", cf)
		case identical:
			return fmt.Sprintf("the candidate and the baseline are the same file, byte for byte (%s and %s): every ratio is 1", cf, bf)
		}
	}
	return ""
}

// isFile says whether path is a file, not a folder (a CSV file or a zip
// artifact, which name their runs).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
