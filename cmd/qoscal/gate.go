package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"qoscal/calibrate"
	"qoscal/data"
)

var gateCmd = &command{
	name:    "gate",
	summary: "judge one run against a floor",
	usage: `Usage:
    qoscal gate [flags] --baseline [NAME=]FILE --candidate [NAME=]FILE
    qoscal gate [flags] --baseline NAME=FILE --candidate NAME=FILE RUN-FOLDER
    qoscal gate [flags] --db FILE --run ID

Judges one CI run: the geomean of the candidate/baseline ratios over the suite
(the score) against the floor. PASS exits 0; FAIL (score below the floor)
exits 1; input it cannot read, a suite that differs from the calibrated one,
or variant names or metric directions that differ from the calibration's exit
2, never PASS; a degraded runner with --on-degraded fail exits 3.

The run:
    --baseline [NAME=]FILE   the baseline's result file (a path; inside
                             RUN-FOLDER, a file name); any format qoscal
                             reads, UTF-16 from PowerShell included
    --candidate [NAME=]FILE  the candidate's result file
    --input-format NAME      result-file format: auto (default), ops, csv,
                             gobench, gbench, hyperfine, pytest-benchmark
    --strip-procs            drop the -N GOMAXPROCS suffix of Go benchmark
                             names (BenchmarkX-8 becomes BenchmarkX)
    --db FILE --run ID       judge a stored run instead
    --higher-is-better, --lower-is-better
                             override the direction the units give
    --metric METRIC          with several metrics per benchmark, the one to
                             compare (default sec/op)

The floor:
    --floor X                the floor (wins over the calibration file's)
    --calibration FILE       the file 'qoscal recommend --write' made: floor,
                             suite, variant names, directions and the
                             baseline history for the runner-health check
    --report-only            report, never fail on a regression (exit 0)
    --allow-partial          gate on the calibrated benchmarks the run has
    --on-degraded MODE       a degraded runner: warn (default), fail (exit 3,
                             "inconclusive"), ignore
    --tag-threshold F        tag ratios beyond ±F as faster/SLOWER
                             (default 0.03)

CI:
    --annotations MODE       auto (default: github when GITHUB_ACTIONS=true),
                             github, none: ::error:: and ::warning:: lines
    --summary FILE           append a Markdown summary (default
                             $GITHUB_STEP_SUMMARY when set)
    --record                 also store the run (--db, --run ID, --label)
    --label KEY=VALUE        labels of the recorded run (repeatable)
    --format FORMAT          text (default), markdown or json

Example: the Windows runner's first measurement against a 1.25 floor:

    $ qoscal gate --floor 1.25 --baseline system=baseline.txt --candidate hoard=hoard.txt
    hoard (candidate) vs system (baseline), run gated: ops/sec, higher is better
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
}

func init() {
	gateCmd.run = runGate
	register(gateCmd)
}

type gateFlags struct {
	runFlags
	dirFlags
	db, calibration, onDegraded, annotations, summary, format, metric string
	floor, tag                                                        float64
	reportOnly, allowPartial, record, higher, lower                   bool
	labels                                                            []string
}

func runGate(u *ui, args []string) error {
	c := gateCmd
	fs := newFlags(c)
	var g gateFlags
	g.addLoadFlags(fs, true, "input-format")
	fs.StringVar(&g.db, "db", "", "the store `FILE`")
	fs.Float64Var(&g.floor, "floor", 0, "the `FLOOR`")
	fs.StringVar(&g.calibration, "calibration", "", "the calibration `FILE`")
	fs.BoolVar(&g.reportOnly, "report-only", false, "never fail on a regression")
	fs.BoolVar(&g.allowPartial, "allow-partial", false, "gate on the calibrated benchmarks present")
	fs.StringVar(&g.onDegraded, "on-degraded", "warn", "degraded runner: `MODE` warn, fail or ignore")
	fs.Float64Var(&g.tag, "tag-threshold", 0.03, "tag ratios beyond ±`F`")
	fs.StringVar(&g.annotations, "annotations", "auto", "CI annotations: `MODE` auto, github or none")
	fs.StringVar(&g.summary, "summary", "", "append a Markdown summary to `FILE`")
	fs.BoolVar(&g.record, "record", false, "also store the gated run")
	fs.StringArrayVar(&g.labels, "label", nil, "a `KEY=VALUE` label of the recorded run")
	g.dirFlags.add(fs)
	fs.StringVar(&g.metric, "metric", "", "the `METRIC` to compare when results have several")
	fs.StringVar(&g.format, "format", "text", "output `FORMAT`: text, markdown or json")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if err := u.outputFormat(c.name, g.format); err != nil {
		return err
	}
	if err := nonEmpty(c.name, fs, "calibration", "db", "summary", "run"); err != nil {
		return err
	}
	if err := g.validate(fs.Changed("floor")); err != nil {
		return err
	}
	var cal *calibrate.File
	if g.calibration != "" {
		f, err := calibrate.ReadFile(g.calibration)
		if err != nil {
			return err
		}
		cal = f
	}
	run, err := g.readRun(u, fs.Args())
	if err != nil {
		return err
	}
	dir, err := g.direction("gate")
	if err != nil {
		return err
	}
	opt := calibrate.GateOptions{
		Baseline: run.Baseline, Candidate: run.Candidate, Floor: g.floor, Calibration: cal, Direction: dir,
		AllowPartial: g.allowPartial, ReportOnly: g.reportOnly, OnDegraded: g.onDegraded, Metric: g.metric,
	}
	res, err := calibrate.Gate(run, opt)
	if err != nil {
		return err
	}
	if g.record {
		if err := g.recordRun(u, run); err != nil {
			return err
		}
	}
	v := &gateView{res: res, run: run, cal: cal, calPath: g.calibration, tag: g.tag, reportOnly: g.reportOnly}
	code := v.exitCode()
	github := g.annotations == "github" || (g.annotations == "auto" && u.getenv("GITHUB_ACTIONS") == "true")
	u.warnAll(res.Warnings)
	switch g.format {
	case "json":
		if err := writeJSON(u, v.json(code)); err != nil {
			return err
		}
	case "markdown":
		v.markdown(u.stdout)
	default:
		v.text(u.stdout)
	}
	annotated := false
	if github {
		annotated = v.annotate(u.annotations())
	}
	v.verdictLine(u, g.format == "json", annotated)
	summary := g.summary
	if summary == "" {
		summary = u.getenv("GITHUB_STEP_SUMMARY")
	}
	if summary != "" {
		if err := appendFile(summary, func(w io.Writer) { v.markdown(w) }); err != nil {
			return fmt.Errorf("step summary %s: %v", summary, err)
		}
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

func (g *gateFlags) validate(floorSet bool) error {
	switch g.onDegraded {
	case "warn", "fail", "ignore":
	default:
		return usagef("gate", "--on-degraded must be warn, fail or ignore, got %q", g.onDegraded)
	}
	switch g.annotations {
	case "auto", "github", "none":
	default:
		return usagef("gate", "--annotations must be auto, github or none, got %q", g.annotations)
	}
	if floorSet {
		if err := checkFloor("gate", g.floor); err != nil {
			return err
		}
	}
	if !(g.tag >= 0 && g.tag < 1) {
		return usagef("gate", "--tag-threshold must be in [0, 1), got %v", g.tag)
	}
	if g.record && g.runID == "" {
		return usagef("gate", "--record needs --run ID: the id of the run in the store")
	}
	return nil
}

// readRun reads the run to judge: from files, a run folder, or the store.
func (g *gateFlags) readRun(u *ui, paths []string) (*data.Run, error) {
	if len(paths) > 1 {
		return nil, usagef("gate", "gate judges one run: give one run folder, or the files with --baseline and --candidate")
	}
	fromStore := len(paths) == 0 && g.runID != "" && !g.record && g.baseline == "" && g.candidate == ""
	if fromStore {
		src := data.Source{Store: storePath(u, g.db), ID: g.runID}
		runs, err := src.Runs(u.ctx)
		if err != nil {
			return nil, err
		}
		return &runs[0], nil
	}
	if g.baseline == "" || g.candidate == "" {
		return nil, usagef("gate", "name the run's files with --baseline and --candidate (or a stored run with --db and --run)")
	}
	opt, err := g.loadOptions(u, "gate")
	if err != nil {
		return nil, err
	}
	if opt.RunID == "" {
		opt.RunID = "gated"
	}
	if len(paths) == 1 {
		runs, err := data.Load(paths, opt)
		if err != nil {
			return nil, err
		}
		if len(runs) != 1 {
			return nil, usagef("gate", "%s holds %d runs: gate judges one", paths[0], len(runs))
		}
		return &runs[0], nil
	}
	run, err := data.LoadFiles(opt)
	if err != nil {
		return nil, err
	}
	return &run, nil
}

func (g *gateFlags) recordRun(u *ui, run *data.Run) error {
	labels, err := data.ParseLabels(g.labels)
	if err != nil {
		return usagef("gate", "--label: %v", err)
	}
	for k, v := range labels {
		if run.Labels == nil {
			run.Labels = map[string]string{}
		}
		run.Labels[k] = v
	}
	run.ID = g.runID
	now, err := u.now()
	if err != nil {
		return err
	}
	st, err := data.Open(u.ctx, storePath(u, g.db), data.ReadWrite)
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := st.Ingest(u.ctx, []data.Run{*run}, data.IngestOptions{Now: now})
	if err != nil {
		return err
	}
	if res.Unchanged > 0 {
		u.notef("run %s already stored in %s", run.ID, st.Location())
	} else {
		u.notef("recorded run %s in %s", run.ID, st.Location())
	}
	return nil
}

func appendFile(path string, write func(io.Writer)) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	write(f)
	return f.Close()
}

// gateView renders a gate result.
type gateView struct {
	res        *calibrate.GateResult
	run        *data.Run
	cal        *calibrate.File
	calPath    string
	tag        float64
	reportOnly bool
}

func (v *gateView) exitCode() int {
	switch v.res.Verdict {
	case calibrate.VerdictFail:
		return exitRegression
	case calibrate.VerdictInconclusive:
		return exitInconclusive
	}
	return exitOK
}

func (v *gateView) names() (base, cand string) { return v.run.Baseline, v.run.Candidate }

// tagOf returns "faster", "SLOWER" or "" for a ratio.
func (v *gateView) tagOf(r float64) string {
	switch {
	case r > 1+v.tag:
		return "faster"
	case r < 1-v.tag:
		return "SLOWER"
	}
	return ""
}

func (v *gateView) table() *table {
	base, cand := v.names()
	t := &table{
		head:  []string{"benchmark", base, cand, cand + "/" + base, ""},
		right: []bool{false, true, true, true, false},
	}
	for _, b := range v.res.Benchmarks {
		note := v.tagOf(b.Ratio)
		if b.BaselineSamples > 1 || b.CandidateSamples > 1 {
			note = strings.TrimSpace(note + fmt.Sprintf("  (median of %d/%d samples)", b.BaselineSamples, b.CandidateSamples))
		}
		if !b.InScore {
			note = strings.TrimSpace(note + "  (not in the calibrated suite: left out)")
		}
		t.add(b.Name, fvalue(b.Baseline, b.Unit), fvalue(b.Candidate, b.Unit), fx(b.Ratio)+"x", note)
	}
	t.add("geomean", "", "", fx(v.res.Score)+"x", "over "+plural(len(v.res.Suite), "benchmark"))
	return t
}

func (v *gateView) header() string {
	base, cand := v.names()
	dirs := map[string]bool{}
	for _, b := range v.res.Benchmarks {
		dirs[b.Unit+", "+b.Direction.String()] = true
	}
	var d []string
	for k := range dirs {
		d = append(d, k)
	}
	sort.Strings(d)
	return fmt.Sprintf("%s (candidate) vs %s (baseline), run %s: %s", cand, base, v.run.ID, strings.Join(d, "; "))
}

func (v *gateView) text(w io.Writer) {
	fmt.Fprintln(w, v.header())
	fmt.Fprintln(w)
	v.table().text(w)
	if v.cal != nil || v.res.Floor > 0 {
		fmt.Fprintln(w)
	}
}

// headline is the verdict sentence.
func (v *gateView) headline() string {
	base, cand := v.names()
	r := v.res
	what := fmt.Sprintf("%s is %sx %s (geomean)", cand, fx(r.Score), base)
	if r.Partial {
		what += fmt.Sprintf(" on the partial suite of %d benchmarks", len(r.Suite))
	}
	floor := ""
	if r.Floor > 0 {
		floor = v.floorText() + "x floor"
	}
	var s string
	switch r.Verdict {
	case calibrate.VerdictPass:
		s = fmt.Sprintf("PASS: %s, >= %s.", what, floor)
	case calibrate.VerdictFail:
		s = fmt.Sprintf("FAIL: %s, below the %s.", what, floor)
	case calibrate.VerdictWarn:
		s = fmt.Sprintf("below the floor: %s, below the %s.", what, floor)
	case calibrate.VerdictInconclusive:
		s = fmt.Sprintf("INCONCLUSIVE: %s against the %s, but the runner looks degraded: rerun on a healthy runner.", what, floor)
	default:
		s = fmt.Sprintf("%s.", what)
	}
	if v.cal != nil {
		s += fmt.Sprintf(" Calibration %s: %d runs, lowest %s, median %s; this run %s.", v.calPath, v.cal.Runs, fx(v.cal.Observed.Min), fx(v.cal.Observed.Median), fx(r.Score))
		if r.FloorSource == calibrate.FloorGiven {
			s += " The floor comes from --floor, not from the calibration file."
		}
	}
	return s
}

func (v *gateView) floorText() string {
	if v.res.FloorSource == calibrate.FloorCalibration {
		return v.cal.FloorText
	}
	return strconv.FormatFloat(v.res.Floor, 'f', -1, 64)
}

// verdictLine prints the verdict sentence: PASS (and "not gating") on
// stdout, FAIL and inconclusive on stderr, report-only below the floor as a
// warning. With JSON on stdout the sentence goes to stderr (it is the
// document's message too); when an annotation already said it, it is not
// said again.
func (v *gateView) verdictLine(u *ui, json, annotated bool) {
	h := v.headline()
	out := func(s string) {
		if json {
			u.notef("%s", s)
		} else {
			fmt.Fprintln(u.stdout, s)
		}
	}
	switch v.res.Verdict {
	case calibrate.VerdictPass:
		out(h)
	case calibrate.VerdictFail, calibrate.VerdictInconclusive:
		if !annotated {
			u.notef("%s", h)
		}
	case calibrate.VerdictWarn:
		if !annotated {
			u.warnf("%s", h)
		}
		out("report-only: not gating.")
	case calibrate.VerdictUngated:
		out(h)
		out("no floor set: not gating.")
	}
}

// annotate writes GitHub Actions workflow commands, and reports whether
// one of them stated the verdict.
func (v *gateView) annotate(w io.Writer) (verdict bool) {
	r := v.res
	switch r.Verdict {
	case calibrate.VerdictFail:
		ghCommand(w, "error", "qoscal gate: FAIL", v.headline())
		verdict = true
	case calibrate.VerdictWarn:
		ghCommand(w, "warning", "qoscal gate: below the floor (report-only)", v.headline())
		verdict = true
	case calibrate.VerdictInconclusive:
		ghCommand(w, "error", "qoscal gate: inconclusive", v.headline())
		verdict = true
	}
	if r.RunnerDegraded && r.Verdict != calibrate.VerdictInconclusive {
		ghCommand(w, "warning", "qoscal gate: runner degraded", fmt.Sprintf("the baseline is far below its calibrated history (median robust z %.1f): treat this verdict with care", r.MedianZ))
	}
	if r.Partial {
		ghCommand(w, "warning", "qoscal gate: partial suite", fmt.Sprintf("gated on %d of %d calibrated benchmarks; missing: %s", len(r.Suite), len(v.cal.Suite), strings.Join(r.Missing, ", ")))
	}
	return verdict
}

// ghCommand writes one workflow command, with its data and title escaped
// as the runner expects (%, CR, LF; and : and , in properties).
func ghCommand(w io.Writer, kind, title, msg string) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	fmt.Fprintf(w, "::%s title=%s::%s\n", kind, prop.Replace(title), esc.Replace(msg))
}

func (v *gateView) markdown(w io.Writer) {
	r := v.res
	icon := map[string]string{
		calibrate.VerdictPass: "PASS", calibrate.VerdictFail: "FAIL", calibrate.VerdictWarn: "below the floor (report-only)",
		calibrate.VerdictInconclusive: "INCONCLUSIVE", calibrate.VerdictUngated: "not gated",
	}[r.Verdict]
	fmt.Fprintf(w, "### qoscal gate: %s\n\n", icon)
	fmt.Fprintf(w, "%s\n\n", mdEscape(v.headline()))
	switch r.FloorSource {
	case calibrate.FloorCalibration:
		fmt.Fprintf(w, "Floor %sx from the calibration file %s (%s method, %d runs).\n\n", mdEscape(v.floorText()), mdEscape(v.calPath), mdEscape(string(v.cal.Method)), v.cal.Runs)
	case calibrate.FloorGiven:
		fmt.Fprintf(w, "Floor %sx from --floor.\n\n", v.floorText())
	default:
		fmt.Fprintln(w, "No floor set: not gating.")
		fmt.Fprintln(w)
	}
	v.table().markdown(w)
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w)
		for _, warn := range warningTexts(r.Warnings) {
			fmt.Fprintf(w, "- warning: %s\n", mdEscape(warn))
		}
	}
	fmt.Fprintln(w)
}

type gateJSON struct {
	Verdict        string          `json:"verdict"`
	Score          jfloat          `json:"score"`
	Floor          *float64        `json:"floor"`
	FloorSource    *string         `json:"floor_source"`
	ExitCode       int             `json:"exit_code"`
	Run            string          `json:"run"`
	Baseline       string          `json:"baseline"`
	Candidate      string          `json:"candidate"`
	Suite          []string        `json:"suite"`
	Benchmarks     []gateBenchJSON `json:"benchmarks"`
	Missing        []string        `json:"missing"`
	Extra          []string        `json:"extra"`
	Partial        bool            `json:"partial"`
	RunnerDegraded bool            `json:"runner_degraded"`
	MedianZ        jfloat          `json:"runner_median_z"`
	Calibration    *gateCalJSON    `json:"calibration"`
	Warnings       []string        `json:"warnings"`
	Message        string          `json:"message"`
}

type gateBenchJSON struct {
	Name             string `json:"name"`
	Unit             string `json:"unit"`
	Direction        string `json:"direction"`
	Baseline         jfloat `json:"baseline"`
	Candidate        jfloat `json:"candidate"`
	Ratio            jfloat `json:"ratio"`
	BaselineSamples  int    `json:"baseline_samples"`
	CandidateSamples int    `json:"candidate_samples"`
	InScore          bool   `json:"in_score"`
	HealthZ          jfloat `json:"health_z"`
}

type gateCalJSON struct {
	File   string  `json:"file"`
	Floor  float64 `json:"floor"`
	Runs   int     `json:"runs"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

func (v *gateView) json(code int) gateJSON {
	r := v.res
	j := gateJSON{
		Verdict: r.Verdict, Score: jfloat(r.Score), ExitCode: code, Run: v.run.ID,
		Baseline: v.run.Baseline, Candidate: v.run.Candidate, Suite: r.Suite,
		Benchmarks: []gateBenchJSON{}, Missing: append([]string{}, r.Missing...), Extra: append([]string{}, r.Extra...),
		Partial: r.Partial, RunnerDegraded: r.RunnerDegraded, MedianZ: jfloat(r.MedianZ),
		Warnings: warningTexts(r.Warnings), Message: v.headline(),
	}
	if r.Floor > 0 {
		f, src := r.Floor, floorSourceName(r.FloorSource)
		j.Floor, j.FloorSource = &f, &src
	}
	for _, b := range r.Benchmarks {
		j.Benchmarks = append(j.Benchmarks, gateBenchJSON{
			Name: b.Name, Unit: b.Unit, Direction: b.Direction.Key(), Baseline: jfloat(b.Baseline), Candidate: jfloat(b.Candidate),
			Ratio: jfloat(b.Ratio), BaselineSamples: b.BaselineSamples, CandidateSamples: b.CandidateSamples,
			InScore: b.InScore, HealthZ: jfloat(b.HealthZ),
		})
	}
	if v.cal != nil {
		j.Calibration = &gateCalJSON{File: v.calPath, Floor: v.cal.Floor, Runs: v.cal.Runs, Min: v.cal.Observed.Min, Median: v.cal.Observed.Median, Max: v.cal.Observed.Max}
	}
	return j
}
