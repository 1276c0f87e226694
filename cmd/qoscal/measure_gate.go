package main

import (
	"errors"
	"fmt"
	"os/signal"

	calgate "github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/measure"
	"github.com/qoscal/qoscal/present"
)

// gateFlags adds measure's flags of the sequential gate.
func (m *measureFlags) gateFlags(fs *flagSet) {
	fs.group("The sequential gate:")
	fs.StringVar(&m.calibration, "calibration", "", "judge the run after each repetition against the calibration `FILE` ('qoscal recommend --write' on runs measured with repetitions: it needs their variance components; with profiles, the one of this machine's environment or --label), and stop once decided")
	fs.IntVar(&m.maxRepetitions, "max-repetitions", 0, fmt.Sprintf("with --calibration, the most repetitions `M`, in [0, %d]: 0, the default, takes --repetitions when given, else the design's, the fewest whose mean holds 90%% of what unlimited repetitions would tell, 2 to 10; undecided then, the verdict is rerun (exit 3)", calgate.MaxRepetitions))
	fs.BoolVar(&m.bisect, "bisect", false, "exit as 'git bisect run' reads it: 0 pass (good), 1 fail (bad), 125 skip (undecided, or the commit could not be measured), 128 a usage error such as a mistyped flag (git bisect run stops: the mistake is the same at every commit)")
	fs.BoolVar(&m.reportOnly, "report-only", false, "report, never fail on a regression (exit 0; with --bisect a regression still exits 1, bad)")
	fs.StringVar(&m.perBenchmark, "per-benchmark", calgate.PerBenchmarkWarn, "what a benchmark below its calibrated band does, `MODE`: warn, fail (exit 1 even when the sequential gate passes) or off")
	fs.StringVar(&m.onDegraded, "on-degraded", "warn", "what a degraded runner does, `MODE`: warn, fail (exit 3) or ignore")
	fs.StringVar(&m.summary, "summary", "", "append the verdict's Markdown summary to `FILE` (default $GITHUB_STEP_SUMMARY when set)")
}

// bisectSkip is git bisect run's exit code for a commit it cannot judge.
const bisectSkip = 125

// bisectAbort is the exit code under --bisect of a usage error (a flag
// mistyped, --calibration missing): the same mistake at every commit, so
// qoscal stops 'git bisect run', which aborts on a code above 127. Exit
// 2 would mark each commit bad (a fourth hostile sweep's bisect named
// the second of six identical commits the first bad one, from a typo),
// and 125 would skip every commit.
const bisectAbort = 128

// bisectFlag says whether raw command-line arguments ask for --bisect:
// read before the flags are parsed, so that an error parsing them is
// still mapped for git bisect run.
func bisectFlag(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--bisect" || a == "--bisect=true" || a == "--bisect=1" {
			return true
		}
	}
	return false
}

// runGate measures and judges the run after each repetition with the
// calibration's sequential design, then writes what gate writes: the
// verdict, the table, the step summary and outputs, the annotations, the
// JSON (with repetitions and stopped).
func (m *measureFlags) runGate(u *ui, cfg measure.Config) (err error) {
	if m.bisect {
		defer func() { err = bisectCode(err) }()
	}
	u.gating = true
	if m.summary != "" {
		u.summary, u.summaryFlag = m.summary, "--summary"
	}
	if err := checkJudgeModes(m.onDegraded, m.perBenchmark); err != nil {
		return err
	}
	if m.maxRepetitions < 0 || m.maxRepetitions > calgate.MaxRepetitions {
		return usagef("--max-repetitions must be in [0, %d] (0: --repetitions), got %d", calgate.MaxRepetitions, m.maxRepetitions)
	}
	if m.maxRepetitions == 0 && cfg.Repetitions > calgate.MaxRepetitions {
		return usagef("--repetitions %d with --calibration: the sequential gate decides within %d repetitions at most; give --max-repetitions %d or fewer", cfg.Repetitions, calgate.MaxRepetitions, calgate.MaxRepetitions)
	}
	if cfg.Order == measure.Blocks {
		return usagef("--calibration decides after each repetition: give --order random, alternate or duet, not blocks")
	}
	fc := u.newFiles()
	fc.in("the calibration file", m.calibration)
	if err := fc.check(); err != nil {
		return err
	}
	cal, err := model.ReadFile(m.calibration)
	if err != nil {
		return err
	}
	// The run is measured here: this machine's environment, and the
	// run's labels, pick the calibration's profile and are checked
	// against the environments it lists, as gate does.
	envLabels, envFrom := calgate.RunEnvironment(cfg.Labels, func() map[string]string { return measure.Fingerprint(u.getenv).Labels() }, true, false)
	judging := calgate.ChooseProfile(cal, envLabels)
	cal = judging.Cal
	if cal.Variance == nil {
		return withHint(fmt.Errorf("calibration file %s has no variance components: the sequential gate judges the mean of a job's repetitions with them", m.calibration),
			"calibrate on runs measured with repetitions: qoscal measure --repetitions N on unchanged code, then qoscal recommend --write FILE on those run folders")
	}
	if cfg.Baseline != cal.Baseline || cfg.Candidate != cal.Candidate {
		return usagef("the run compares %s (candidate) with %s (baseline), but %s compares %s with %s: name the variants as the calibration does", cfg.Candidate, cfg.Baseline, m.calibration, cal.Candidate, cal.Baseline)
	}
	maxReps, limit := m.maxRepetitions, "--max-repetitions"
	switch {
	case maxReps == 0 && m.fs != nil && m.fs.Changed("repetitions"):
		maxReps, limit = cfg.Repetitions, "--repetitions"
	case maxReps == 0:
		maxReps, limit = calgate.DesignRepetitions(cal), "the design's most (--max-repetitions sets it)"
	}
	seq, err := calgate.NewSequential(cal, maxReps, maxReps)
	if err != nil {
		return err
	}
	cfg.Repetitions = seq.Last()
	costNotes(u, &cfg, fmt.Sprintf("%s at most, %s", plural(cfg.Repetitions, "repetition"), limit))
	cfg.Decide = func(rep int, ms []data.Measurement) (bool, error) {
		return seq.Look(cfg.RunID, cfg.Baseline, cfg.Candidate, rep, ms)
	}
	ctx, stop := signal.NotifyContext(u.ctx, stopSignals...)
	defer stop()
	if _, err := measure.Run(ctx, cfg, m.out); err != nil {
		return measureErr(err)
	}
	verdict := seq.Verdict()
	runs, err := load.All([]string{m.out}, load.Options{})
	if err != nil {
		return err
	}
	run := &runs[0]
	opt := calgate.GateOptions{Baseline: cal.Baseline, Candidate: cal.Candidate, Calibration: cal,
		OnDegraded: m.onDegraded, PerBenchmark: m.perBenchmark, ReportOnly: m.reportOnly}
	gres, err := calgate.GateSequential(run, opt, verdict)
	if err != nil {
		return err
	}
	gres.Warnings = append(gres.Warnings, judging.Warnings...)
	code := gateExitCode(gres)
	if m.bisect {
		code = bisectExit(gres)
	}
	v := &gateView{&present.Gate{Res: gres, Run: run, Cal: cal, CalPath: m.calibration, Tag: 0.03,
		GivenFloor: "--floor", ExitCode: code, Warnings: warningTexts(gres.Warnings),
		Environment: present.NewGateEnvironment(envLabels, envFrom), Profile: judging.Profile, Full: judging.Full}}
	return writeGate(u, v, append(v.outputs(), output{"repetitions", fmt.Sprint(verdict.Repetitions)}, output{"stopped", verdict.Stopped}), "", gres.Warnings, "", code)
}

// bisectExit is the exit code git bisect run reads: 0 good (pass), 1 bad
// (fail; below the floor in report-only mode too), 125 skip (rerun,
// inconclusive).
func bisectExit(res *calgate.GateResult) int {
	switch res.Verdict {
	case calgate.VerdictPass:
		return exitOK
	case calgate.VerdictFail, calgate.VerdictWarn:
		return exitRegression
	}
	return bisectSkip
}

// bisectCode turns an error that stopped the measurement (a commit that
// does not build or whose benchmark crashes; exit 2) into git bisect
// run's skip, 125: exit 2 would mark the commit bad.
func bisectCode(err error) error {
	if err == nil {
		return nil
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return &exitError{code: bisectAbort, err: err}
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err // a verdict's code, already mapped
	}
	return &exitError{code: bisectSkip, err: err}
}
