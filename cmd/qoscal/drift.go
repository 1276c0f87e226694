package main

import (
	"fmt"
	"math"
	"strings"

	"qoscal/calibrate"
	"qoscal/data"
	"qoscal/data/source"
	"qoscal/render"
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
--record', or given as PATHs) with the calibration's own runs: a two-sided
CUSUM of their log scores, in order, standardised by the mean and SD of the
calibration's, says whether the score has moved up or down and stayed
there (docs/STATS.md 5, "Drift"). That is drift: the floor was calibrated
on a machine or a code base that is no longer there. The check runs at a
stated false-alarm rate: checked after every run, steady runs raise a false
drift in at most --false-alarm of sequences of --per runs, over
calibrations of the file's size (its decision interval is set by a seeded
simulation of steady runs, allowing for the calibration's
autocorrelation); drift prints that rate. Each benchmark is checked the
same way, at the same rate family-wise (Holm). At least 3 runs are needed.
Exits 0 either way, unless --fail-on-drift (exit 1 on drift). Needs a
version 2 calibration file (it holds the calibration's runs).
`,
	example: `Example: calibrate on the bundled healthy runs (on the nine settled ones),
then compare the runs of the real regression with them:

    $ qoscal recommend --write settled.json --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
    floor: 1.16x for geomean(mimalloc/glibc) over 10 benchmarks, calibrated on run-04..run-12 ...
    ...

    $ qoscal drift --calibration settled.json --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/regressed
    drift: the score moved from median 1.26 to 1.15 from run run-01 on (p = 0.016): recalibrate.
    Checked at a false-alarm rate of 5% per 20 runs: a two-sided CUSUM of the log score against ...
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
	d.addLoadFlags(fs, loadHelp{
		baseline:  "in run folders, the baseline's result `[NAME=]FILE` (NAME defaults to the calibration's)",
		candidate: "the candidate's `[NAME=]FILE`, likewise",
		variant:   "a further variant's result `[NAME=]FILE` in each run folder, read with the others, not compared",
	}, "input-format")
	fs.StringVar(&d.db, "db", "", "without PATHs, the `STORE`: a SQLite file or a postgres:// URL (default $QOSCAL_DB, else qoscal.db), runs in the order stored")
	fs.StringArrayVar(&d.labels, "label", nil, "with the store, only runs with this `KEY=VALUE` label")
	d.dirFlags.add(fs)
	fs.group("The check:")
	fs.Float64Var(&d.falseAlarm, "false-alarm", calibrate.DefaultDriftFalseAlarm, "the chance `P` that steady runs raise a false drift in --per runs checked after each, in (0, 0.5]")
	fs.IntVar(&d.per, "per", calibrate.DefaultDriftRuns, fmt.Sprintf("the runs `N` --false-alarm covers (as gate's --drift-window), in [%d, %d]", calibrate.MinNewRuns, calibrate.MaxDriftRuns))
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
	if per < calibrate.MinNewRuns || per > calibrate.MaxDriftRuns {
		return usagef("--per must be from %d to %d runs, got %d", calibrate.MinNewRuns, calibrate.MaxDriftRuns, per)
	}
	cal, err := calibrate.ReadFile(calPath)
	if err != nil {
		return err
	}
	dir, err := d.direction()
	if err != nil {
		return err
	}
	filter, err := data.ParseLabels(labels)
	if err != nil {
		return usagef("--label: %v", err)
	}
	// The variants are the calibration's unless named.
	if rf.baseline == "" && len(paths) == 0 {
		rf.baseline = cal.Baseline
	}
	if rf.candidate == "" && len(paths) == 0 {
		rf.candidate = cal.Candidate
	}
	lopt, err := rf.loadOptions(u, namesVariants(paths))
	if err != nil {
		return err
	}
	src := source.Source{Paths: paths, Load: lopt, Store: storePath(u, db), Labels: filter}
	runs, err := src.Runs(u.ctx)
	if err != nil {
		return err
	}
	res, err := calibrate.Drift(cal, runs, dir, calibrate.DriftOptions{FalseAlarm: falseAlarm, PerRuns: per, Seed: seed})
	if err != nil {
		return err
	}
	if len(res.Skipped) > 0 {
		u.warnf("left out, lacking a suite benchmark: %s", strings.Join(res.Skipped, ", "))
	}
	if len(res.Foreign) > 0 {
		u.warnf("left out, lacking the calibration's variants (%s and %s): %s", cal.Baseline, cal.Candidate, strings.Join(res.Foreign, ", "))
	}
	if err := show(u, driftView{res}); err != nil {
		return err
	}
	if u.github && res.Drift {
		ghCommand(u.annotations(), "warning", "qoscal drift", res.Sentence())
	}
	if res.Drift && failOn {
		return &exitError{code: exitRegression}
	}
	return nil
}

// driftView is drift's result as it is shown: in text, its two
// sentences; in Markdown, under a heading; in JSON, driftOut.
type driftView struct{ res *calibrate.DriftResult }

func (v driftView) Doc() *render.Doc {
	res := v.res
	doc := &render.Doc{}
	doc.Add(&render.Heading{Level: 3, Text: "qoscal drift: " + map[bool]string{true: "drift", false: "no drift"}[res.Drift]},
		&render.Paragraph{Text: res.Sentence() + "."}, &render.Paragraph{Text: capitalize(res.RateSentence()) + "."})
	return doc
}

func (v driftView) JSON() driftOut { return driftJSON(v.res) }

type driftOut struct {
	Drift          bool                 `json:"drift"`
	TooFew         bool                 `json:"too_few"`
	Direction      *string              `json:"direction"`
	FromRun        *string              `json:"from_run"`
	BeforeMedian   render.Float         `json:"before_median"`
	AfterMedian    render.Float         `json:"after_median"`
	P              render.Float         `json:"p"`
	FalseAlarmRate float64              `json:"false_alarm_rate"`
	FalseAlarmRuns int                  `json:"false_alarm_runs"`
	Check          driftCheckJSON       `json:"check"`
	Runs           []string             `json:"runs"`
	Scores         []float64            `json:"scores"`
	Skipped        []string             `json:"skipped"`
	Benchmarks     []driftBenchmarkJSON `json:"benchmarks"`
	Message        string               `json:"message"`
	Rate           string               `json:"rate_message"`
}

// driftCheckJSON is how the check was made: the CUSUM's reference value
// and decision interval, the autocorrelation allowed for, and the
// calibration's runs.
type driftCheckJSON struct {
	K               float64      `json:"k"`
	H               render.Float `json:"h"`
	Rho             float64      `json:"rho"`
	CalibrationRuns int          `json:"calibration_runs"`
}

type driftBenchmarkJSON struct {
	Name         string  `json:"name"`
	Direction    string  `json:"direction"`
	FromRun      string  `json:"from_run"`
	BeforeMedian float64 `json:"before_median"`
	AfterMedian  float64 `json:"after_median"`
	P            float64 `json:"p"`
}

func driftJSON(r *calibrate.DriftResult) driftOut {
	nan := render.Float(math.NaN())
	j := driftOut{Drift: r.Drift, TooFew: r.TooFew, Runs: r.Runs, Scores: r.Scores, Skipped: append(append([]string{}, r.Skipped...), r.Foreign...),
		Benchmarks: []driftBenchmarkJSON{}, Message: r.Sentence(), Rate: r.RateSentence(), BeforeMedian: nan, AfterMedian: nan, P: nan,
		FalseAlarmRate: r.FalseAlarm, FalseAlarmRuns: r.PerRuns,
		Check: driftCheckJSON{K: r.K, H: render.Float(r.H), Rho: r.Rho, CalibrationRuns: r.CalibrationRuns}}
	if r.Drift {
		id, dir := r.FromRun, r.Direction
		j.FromRun, j.Direction = &id, &dir
		j.BeforeMedian, j.AfterMedian, j.P = render.Float(r.BeforeMedian), render.Float(r.AfterMedian), render.Float(r.P)
	}
	for _, b := range r.Benchmarks {
		j.Benchmarks = append(j.Benchmarks, driftBenchmarkJSON{Name: b.Name, Direction: b.Direction, FromRun: b.FromRun,
			BeforeMedian: b.BeforeMedian, AfterMedian: b.AfterMedian, P: b.P})
	}
	return j
}

// capitalize upper-cases the first letter of a sentence.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
