package main

import (
	"fmt"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/drift"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/present"
)

var driftCmd = &command{
	name:      "drift",
	summary:   "has the calibration gone stale?",
	format:    true,
	annotates: "drift (a ::warning::), every warning and an error",
	usage: `qoscal drift --calibration FILE [flags] [PATH...]
qoscal drift --calibration FILE --db STORE [--label KEY=VALUE...]
`,
	intro: `Compares the runs gated since a calibration (stored with 'qoscal gate
--record', or given as PATHs) with the calibration's own runs: a scan of
their log scores, in order, for a level that moved from the calibration's
and stayed there, with the runs modelled as AR(1) (consecutive runs are
correlated; the autocorrelation allowed for is the 80% upper confidence
point of the calibration's, so a few runs that cannot rule strong
correlation out get a lenient check), says whether the score has moved up
or down (docs/STATS.md 5, "Drift"). That is drift: the floor was calibrated
on a machine or a code base that is no longer there. The check runs at a
stated false-alarm rate: checked after every run, steady runs raise a false
drift in at most --false-alarm of sequences of --per runs, over
calibrations of the file's size (its decision value is set by a seeded
simulation of steady runs); drift prints that rate. One run far off alone
is not drift (the gate judges it). Each benchmark is checked the same way,
at the same rate family-wise (Holm). At least 3 runs are needed.
A fall is advice to investigate, naming the runs from the change on and
those of them the floor passes below every calibration run: a regression
that slipped past the gate lowers the score too, and a floor calibrated
again on such runs would sit under it, so recalibrate only if the change
was intended. A rise is advice to recalibrate, to tighten the floor.
Exits 0 either way, unless --fail-on-drift (exit 1 on drift). Needs a
version 2 calibration file (it holds the calibration's runs).
`,
	example: `Example: calibrate on the bundled healthy runs (on the nine settled ones),
then compare the runs of the real regression with them. Nine runs whose
lag-1 autocorrelation is +0.30 cannot rule out ρ 0.9, and three runs 10%
down are not drift at 5% under it; at a false-alarm rate of 30% they are:

    $ qoscal recommend --write settled.json --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
    floor: 1.16x for geomean(mimalloc/glibc) over 10 benchmarks, calibrated on run-04..run-12 ...
    ...

    $ qoscal drift --false-alarm 0.3 --calibration settled.json --baseline glibc=baseline.txt \
        --candidate mimalloc=mimalloc.txt data/samples/linux-glibc-vs-mimalloc/regressed
    drift: the score fell from run run-02 on (p = 0.223): investigate: runs run-02..run-03 score below the calibration (median 1.26 → 1.13); recalibrate only if the change was intended. Benchmarks that moved: ...
    Checked at a false-alarm rate of 30% per 20 runs: a scan of the log score's level against ...
`,
	new: func() runner { return new(driftFlags) },
}

func init() {
	register(driftCmd)
}

// driftFlags are the drift command's flags.
type driftFlags struct {
	runFlags
	dirFlags
	calPath, db string
	labels      []string
	failOn      bool
	seed        uint64
	falseAlarm  float64
	per         int
}

func (d *driftFlags) flags(fs *flagSet) {
	fs.group("Input:")
	fs.StringVar(&d.calPath, "calibration", "", "the calibration `FILE` ('qoscal recommend --write'), required")
	fs.arg("PATH...", "run folders, folders of run folders, CSV files")
	d.addLoadFlags(fs, calibratedLoadHelp, "input-format")
	fs.StringVar(&d.db, "db", "", "without PATHs, the `STORE`: a SQLite file or a postgres:// URL (default $QOSCAL_DB, else qoscal.db), runs in the order stored")
	fs.StringArrayVar(&d.labels, "label", nil, "with the store, only runs with this `KEY=VALUE` label")
	d.dirFlags.add(fs)
	fs.group("The check:")
	fs.Float64Var(&d.falseAlarm, "false-alarm", drift.DefaultDriftFalseAlarm, "the chance `P` that steady runs raise a false drift in --per runs checked after each, in (0, 0.5]")
	fs.IntVar(&d.per, "per", drift.DefaultDriftRuns, fmt.Sprintf("the runs `N` --false-alarm covers (as gate's --drift-window), in [%d, %d]", drift.MinNewRuns, drift.MaxDriftRuns))
	fs.Uint64Var(&d.seed, "seed", 1, "the seed `N` of the simulation that sets the check's decision interval and of the change-point test, any whole number from 0 to 2^64-1")
	fs.group("Output:")
	fs.BoolVar(&d.failOn, "fail-on-drift", false, "exit 1 when the score drifted")
}

func (d *driftFlags) run(u *ui, paths []string) error {
	rf, calPath, db, labels, failOn, seed, falseAlarm, per := &d.runFlags, d.calPath, d.db, d.labels, d.failOn, d.seed, d.falseAlarm, d.per
	if calPath == "" {
		return usagef("--calibration FILE is required: the calibration to compare the runs with")
	}
	fc := u.newFiles()
	fc.in("the calibration file", calPath)
	if len(paths) > 0 {
		fc.runs(rf, paths)
	} else {
		fc.store(storePath(u, db))
	}
	if err := fc.check(); err != nil {
		return err
	}
	if !(falseAlarm > 0 && falseAlarm <= 0.5) {
		return usagef("--false-alarm must be in (0, 0.5], got %v", falseAlarm)
	}
	if per < drift.MinNewRuns || per > drift.MaxDriftRuns {
		return usagef("--per must be from %d to %d runs, got %d", drift.MinNewRuns, drift.MaxDriftRuns, per)
	}
	cal, dir, filter, lopt, err := readCalibrated(u, rf, &d.dirFlags, calPath, labels, paths)
	if err != nil {
		return err
	}
	// What the calibration expects to be skipped is quiet, as in gate
	// (issue 35: xmalloc-test was a warning on every drift check).
	lopt.ExpectedSkips = append(lopt.ExpectedSkips, cal.ExpectedSkips...)
	src := source.Source{Paths: paths, Load: lopt, Store: storePath(u, db), Labels: filter}
	runs, err := src.Runs(u.ctx)
	if err != nil {
		return err
	}
	res, err := drift.Drift(cal, runs, dir, drift.DriftOptions{FalseAlarm: falseAlarm, PerRuns: per, Seed: seed})
	if err != nil {
		return err
	}
	if len(res.Skipped) > 0 {
		u.warnf("left out, lacking a suite benchmark: %s", strings.Join(res.Skipped, ", "))
	}
	if len(res.Foreign) > 0 {
		u.warnf("left out, lacking the calibration's variants (%s and %s): %s", cal.Baseline, cal.Candidate, strings.Join(res.Foreign, ", "))
	}
	if err := show(u, &present.Drift{Res: res}); err != nil {
		return err
	}
	if u.github && res.Drift {
		ghCommand(u.annotations(), "warning", "qoscal drift", present.DriftSentence(res))
	}
	if res.Drift && failOn {
		return &exitError{code: exitRegression}
	}
	return nil
}

// readCalibrated reads, for a command that reads runs against a
// calibration (drift, watch), the calibration file and how the runs are
// read: the direction, the --label filter, and the load options, whose
// variants are the calibration's unless named (with the store; PATHs'
// own files name theirs).
func readCalibrated(u *ui, rf *runFlags, df *dirFlags, calPath string, labels, paths []string) (*model.File, calibrate.Direction, map[string]string, load.Options, error) {
	cal, err := model.ReadFile(calPath)
	if err != nil {
		return nil, 0, nil, load.Options{}, err
	}
	dir, err := df.direction()
	if err != nil {
		return nil, 0, nil, load.Options{}, err
	}
	filter, err := data.ParseLabels(labels)
	if err != nil {
		return nil, 0, nil, load.Options{}, usagef("--label: %v", err)
	}
	if rf.baseline == "" && len(paths) == 0 {
		rf.baseline = cal.Baseline
	}
	if rf.candidate == "" && len(paths) == 0 {
		rf.candidate = cal.Candidate
	}
	lopt, err := rf.loadOptions(u, namesVariants(paths))
	if err != nil {
		return nil, 0, nil, load.Options{}, err
	}
	return cal, dir, filter, lopt, nil
}
