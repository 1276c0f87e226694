package main

import (
	"fmt"
	"math"
	"strings"

	"qoscal/calibrate"
	"qoscal/data"
	"qoscal/render"
)

var driftCmd = &command{
	name:    "drift",
	summary: "has the calibration gone stale?",
	usage: `Usage:
    qoscal drift --calibration FILE [flags] [PATH...]
    qoscal drift --calibration FILE --db STORE [--label KEY=VALUE...]

Compares the runs gated since a calibration (stored with 'qoscal gate
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

Input:
    --calibration FILE       the calibration file ('qoscal recommend --write')
    PATH...                  run folders, folders of run folders, CSV files
    --baseline [NAME=]FILE   in run folders, the baseline's result file
                             (NAME defaults to the calibration's)
    --candidate [NAME=]FILE  the candidate's
    --input-format NAME      result-file format (default auto)
    --db STORE               without PATHs, the store: a SQLite file or a
                             postgres:// URL (default $QOSCAL_DB, else
                             qoscal.db), runs in the order stored
    --label KEY=VALUE        with the store, only runs with this label
    --higher-is-better, --lower-is-better
                             override the direction the units give

The check:
    --false-alarm P          the chance that steady runs raise a false drift
                             in --per runs checked after each (default
                             0.05; in (0, 0.5])
    --per N                  the runs --false-alarm covers, in [3, 1000]
                             (default 20, as gate's --drift-window)
    --seed N                 seed of the simulation that sets the check's
                             decision interval and of the change-point
                             test, any whole number from 0 to 2^64-1
                             (default 1)

Output:
    --fail-on-drift          exit 1 when the score drifted
    --annotations MODE       auto (default: github when GITHUB_ACTIONS=true),
                             github, none: a ::warning:: on drift
    --format FORMAT          text (default), markdown or json

Example: calibrate on the bundled healthy runs (on the nine settled ones),
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
}

func init() {
	driftCmd.run = runDrift
	register(driftCmd)
}

func runDrift(u *ui, args []string) error {
	c := driftCmd
	fs := newFlags(c)
	var rf runFlags
	var df dirFlags
	rf.addLoadFlags(fs, false, "input-format")
	df.add(fs)
	var calPath, db, format, annotations string
	var labels []string
	var failOn bool
	var seed uint64
	var falseAlarm float64
	var per int
	fs.StringVar(&calPath, "calibration", "", "the calibration `FILE`")
	fs.StringVar(&db, "db", "", "the `STORE`: a SQLite file or a postgres:// URL")
	fs.StringArrayVar(&labels, "label", nil, "only stored runs with this `KEY=VALUE` label")
	fs.BoolVar(&failOn, "fail-on-drift", false, "exit 1 on drift")
	fs.Float64Var(&falseAlarm, "false-alarm", calibrate.DefaultDriftFalseAlarm, "false-alarm rate `P` per --per runs checked after each")
	fs.IntVar(&per, "per", calibrate.DefaultDriftRuns, "the runs `N` --false-alarm covers")
	fs.Uint64Var(&seed, "seed", 1, "seed `N` of the check's simulation")
	fs.StringVar(&annotations, "annotations", "auto", "CI annotations: `MODE` auto, github or none")
	fs.StringVar(&format, "format", "text", "output `FORMAT`: text, markdown or json")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if err := u.outputFormat(c.name, format); err != nil {
		return err
	}
	if calPath == "" {
		return usagef(c.name, "--calibration FILE is required: the calibration to compare the runs with")
	}
	fc := u.newFiles()
	fc.in("the calibration file", calPath)
	if fs.NArg() > 0 {
		fc.runs(&rf, fs.Args())
	} else {
		fc.store(storePath(u, db))
	}
	if err := fc.check(); err != nil {
		return err
	}
	switch annotations {
	case "auto", "github", "none":
	default:
		return usagef(c.name, "--annotations must be auto, github or none, got %q", annotations)
	}
	if !(falseAlarm > 0 && falseAlarm <= 0.5) {
		return usagef(c.name, "--false-alarm must be in (0, 0.5], got %v", falseAlarm)
	}
	if per < calibrate.MinNewRuns || per > calibrate.MaxDriftRuns {
		return usagef(c.name, "--per must be from %d to %d runs, got %d", calibrate.MinNewRuns, calibrate.MaxDriftRuns, per)
	}
	cal, err := calibrate.ReadFile(calPath)
	if err != nil {
		return err
	}
	dir, err := df.direction(c.name)
	if err != nil {
		return err
	}
	filter, err := data.ParseLabels(labels)
	if err != nil {
		return usagef(c.name, "--label: %v", err)
	}
	// The variants are the calibration's unless named.
	if rf.baseline == "" && fs.NArg() == 0 {
		rf.baseline = cal.Baseline
	}
	if rf.candidate == "" && fs.NArg() == 0 {
		rf.candidate = cal.Candidate
	}
	lopt, err := rf.loadOptions(u, c.name, namesVariants(fs.Args()))
	if err != nil {
		return err
	}
	src := data.Source{Paths: fs.Args(), Load: lopt, Store: storePath(u, db), Labels: filter}
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
	switch format {
	case "json":
		if err := writeJSON(u, driftJSON(res)); err != nil {
			return err
		}
	case "markdown":
		doc := &render.Doc{}
		doc.Add(&render.Heading{Level: 3, Text: "qoscal drift: " + map[bool]string{true: "drift", false: "no drift"}[res.Drift]},
			&render.Paragraph{Text: res.Sentence() + "."}, &render.Paragraph{Text: capitalize(res.RateSentence()) + "."})
		doc.WriteMarkdown(u.stdout)
	default:
		fmt.Fprintln(u.stdout, res.Sentence()+".")
		fmt.Fprintln(u.stdout, capitalize(res.RateSentence())+".")
	}
	github := annotations == "github" || (annotations == "auto" && u.getenv("GITHUB_ACTIONS") == "true")
	if github && res.Drift {
		ghCommand(u.annotations(), "warning", "qoscal drift", res.Sentence())
	}
	if res.Drift && failOn {
		return &exitError{code: exitRegression}
	}
	return nil
}

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
