package gate

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// Verdicts of the gate.
const (
	VerdictPass         = "pass"
	VerdictFail         = "fail"
	VerdictWarn         = "warn"         // below the floor in report-only mode
	VerdictInconclusive = "inconclusive" // could not judge: a degraded runner (OnDegraded "fail"), or a benchmark far above its band carries the verdict
	VerdictUngated      = "ungated"      // no floor given
	VerdictRerun        = "rerun"        // just below the floor, within the rerun band: measure again
)

// Where the gate's floor came from.
const (
	FloorGiven       = "given"       // GateOptions.Floor
	FloorCalibration = "calibration" // the calibration file
)

// GateOptions say how to judge one run.
type GateOptions struct {
	// Baseline and Candidate name the run's variants.
	Baseline, Candidate string
	// Direction overrides the units' direction.
	Direction calibrate.Direction
	// Metric selects one of several metrics per benchmark (see Ratios).
	Metric string
	// Floor is the floor to judge against; 0 means none (unless the
	// calibration file gives one). FloorFlag says it was given explicitly
	// and wins over the calibration file's.
	Floor float64
	// Calibration is the calibration file, if any.
	Calibration *model.File
	// AllowPartial gates on the part of the calibrated suite the run has.
	AllowPartial bool
	// ReportOnly never fails on a regression.
	ReportOnly bool
	// OnDegraded is "fail", "warn" (default) or "ignore".
	OnDegraded string
	// PerBenchmark says what a benchmark below its calibrated band does:
	// "fail" fails the gate, "warn" (default, also "") warns, "off" does
	// not judge the bands. Bands need a calibration with a matrix.
	PerBenchmark string
	// MinSuite is the smallest part of the calibrated suite that a
	// partial run may be gated on; 0 means half the suite, at least 2.
	MinSuite int
	// Ignore names benchmarks left out on purpose (gate --ignore): their
	// measurements are dropped from the run, and, when the calibrated
	// suite holds them, the run is gated on the rest against the floor
	// of that sub-suite, recomputed from the matrix as for a partial run,
	// with no warning: what is ignored is GateResult.Ignored.
	Ignore []string
	// RerunBand, a fraction, turns a FAIL whose score is below the floor
	// by less than it (floor·(1 − RerunBand) ≤ score < floor) into
	// VerdictRerun: a run that close is as likely one unlucky healthy run
	// as a regression, and one more run on a fresh runner decides. 0: off.
	RerunBand float64
}

// Per-benchmark modes.
const (
	PerBenchmarkFail = "fail"
	PerBenchmarkWarn = "warn"
	PerBenchmarkOff  = "off"
)

// Bands of a benchmark against its calibration.
const (
	BandBelow  = "below"
	BandWithin = "within"
	BandAbove  = "above"
)

// DefaultMinSuite is the smallest sub-suite gated by default: half the
// calibrated suite, rounded up, and at least 2.
func DefaultMinSuite(k int) int { return max(2, (k+1)/2) }

// GateBenchmark is one benchmark row of the gate's table.
type GateBenchmark struct {
	calibrate.BenchmarkRatio
	// InScore is false for benchmarks reported but left out of the score
	// (not in the calibrated suite).
	InScore bool
	// HealthZ is the runner-health z of the baseline value, NaN if the
	// calibration has no usable history for it (none, or no spread).
	HealthZ float64
	// Usual is the benchmark's median ratio over the calibration runs and
	// VsUsual this run's ratio over it; NaN without a matrix.
	Usual, VsUsual float64
	// Band is BandBelow, BandWithin or BandAbove against the calibrated
	// band (Holm's step-down over the gated benchmarks), "" when not
	// judged.
	Band string
	// BandLower and BandUpper are the band's edges as ratios (Holm's
	// first step, model.Band); NaN without one.
	BandLower, BandUpper float64
	// Advisory is true for a benchmark within its band at the failing
	// rate but below it at the advisory rate (model.AdvisoryFamilyAlpha,
	// Holm's step-down over the gated benchmarks): named, never failed.
	Advisory bool
}

// BandWidth says why the bands are as wide as they are: each edge lies
// Multiple SDs of the benchmark's log ratio from its mean, a prediction
// bound at Level a benchmark (Holm's first step) from the Runs of the
// calibration, where unlimited runs would put it Limit SDs away; RunsNear
// is the fewest runs at which Multiple comes within 10% of Limit.
type BandWidth struct {
	Runs            int
	Level           float64
	Multiple, Limit float64
	RunsNear        int
}

// bandWidthNear is how close to the unlimited-runs edge RunsNear brings
// the bands: within 10%.
const bandWidthNear = 1.1

// bandWidth computes BandWidth for bands over k benchmarks at the
// family-wise rate alpha, from a band that varied.
func bandWidth(b model.Band, k int, alpha float64) *BandWidth {
	if !(b.SDLog > 0) || b.N < 2 || !(b.Lower > 0) {
		return nil
	}
	p := alpha / float64(k)
	// The band's edge stands on the moderated SD (model.Band.SDPost,
	// the benchmark's own shrunk toward the suite's) when it has one.
	sd := b.SDLog
	if b.SDPost > 0 {
		sd = b.SDPost
	}
	w := &BandWidth{Runs: b.N, Level: p, Multiple: (b.MeanLog - math.Log(b.Lower)) / sd,
		Limit: -stats.TailBound(0, 1, 1<<20, p, b.DF)}
	for n := b.N; n <= 100000; n = max(n+1, n*11/10) {
		if -stats.TailBound(0, 1, n, p, b.DF) <= bandWidthNear*w.Limit {
			w.RunsNear = n
			break
		}
	}
	return w
}

// GateResult is the gate's verdict on one run.
type GateResult struct {
	Verdict     string
	Score       float64
	Floor       float64 // 0 when ungated
	FloorSource string  // FloorGiven, FloorCalibration, or "" (ungated)
	Suite       []string
	Benchmarks  []GateBenchmark // in name order
	Missing     []string        // calibrated benchmarks the run lacks (partial)
	Ignored     []string        // benchmarks of the run or the calibrated suite left out by GateOptions.Ignore, sorted
	Extra       []string        // run benchmarks the calibration does not know
	OnlyOne     []string        // benchmarks only one variant measured
	Partial     bool
	// Repetitions is how many repetitions of the suite the run holds (0
	// for a run measured without them). RepetitionFloor is, when the
	// calibration has variance components and the run repetitions, the
	// floor for the mean of that many repetitions (it is then Floor, and
	// Score the mean of the repetitions' scores): as far below the
	// model's mean, in SDs of such a mean, as the calibrated floor is
	// below the calibration runs' mean in SDs of theirs; 0 otherwise.
	Repetitions     int
	RepetitionFloor float64
	// BandWidth says why the bands are as wide as they are, and how many
	// calibration runs would narrow them; nil without bands.
	BandWidth *BandWidth
	// Sequential is the sequential gate's decision, for a run measured
	// and judged after each repetition (GateSequential); nil otherwise.
	Sequential *SequentialVerdict
	// SubSuiteFloor is, for a partial run gated on a sub-suite, the floor
	// recomputed from the calibration's matrix for that sub-suite by the
	// calibrated method (it is then Floor, and FullFloor the calibrated
	// one); 0 otherwise.
	SubSuiteFloor, FullFloor float64
	// PerBenchmark is the mode the bands were judged in; Below and Above
	// name the benchmarks outside their bands.
	PerBenchmark string
	Below, Above []string
	// Advisory names the benchmarks at the advisory level
	// (GateBenchmark.Advisory).
	Advisory []string
	// CappedScore is the score with every benchmark far above its band
	// (Holm's step-down on the upper side, judged whatever the mode) put
	// at its band's upper edge; NaN when no benchmark is above its edge.
	// CarriedBy names those benchmarks when the capped score gives
	// another verdict than the score: the verdict rests on them, and the
	// run is VerdictInconclusive (VerdictWarn in report-only mode).
	CappedScore float64
	CarriedBy   []string
	// VerdictDetail is the verdict with what qualifies it: "pass on a
	// degraded runner".
	VerdictDetail string
	// Pair are the two runs of a pair judged together (GatePair), with
	// their own scores; nil for one run.
	Pair []PairRun
	// RunnerDegraded is set when the median runner-health z is below
	// RunnerCutoffZ (RunnerCutoff of the history's runs); MedianZ is that
	// median (NaN without a calibration or a usable history).
	// RunnerHealth is RunnerHealthOK, RunnerHealthDegraded, RunnerHealthUnchecked (a
	// calibration, but no benchmark with a usable baseline history), or
	// "" without a calibration. RunnerChecked counts the benchmarks in the
	// median; RunnerFlat names those whose history has no spread (MAD 0),
	// left out of it and reported.
	RunnerDegraded bool
	MedianZ        float64
	RunnerCutoffZ  float64
	RunnerHealth   string
	RunnerChecked  int
	RunnerFlat     []string
	Warnings       []calibrate.Warning
}

// InputError is a gate input the gate refuses to judge: exit 2, never a
// PASS. Refusals the caller puts right by asking otherwise (other
// variants, a metric, a partial suite) are the typed errors of errors.go.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func inputErrorf(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

// Gate judges one run against the floor.
func Gate(run *data.Run, opt GateOptions) (*GateResult, error) {
	return gate(run, opt, nil)
}

// gate is Gate with the benchmarks a pair's other run measured and run
// (the pair's common part) lacks, which count as a benchmark one variant
// lacks does in a suite without a calibration (GatePair). It asks each
// question of the decision in turn: the inputs, the suite, the score, the
// runner's health, the floor, the repetitions, the bands, the verdict.
func gate(run *data.Run, opt GateOptions, elsewhere []string) (*GateResult, error) {
	cal := opt.Calibration
	run, ignored, err := checkInputs(run, opt)
	if err != nil {
		return nil, err
	}
	metric, err := chooseMetric(run, opt)
	if err != nil {
		return nil, err
	}
	rr, err := calibrate.Ratios(run, opt.Baseline, opt.Candidate, opt.Direction, metric)
	if err != nil {
		return nil, err
	}
	res := &GateResult{MedianZ: math.NaN(), RunnerCutoffZ: math.NaN()}
	warn := func(w calibrate.Warning) { res.Warnings = append(res.Warnings, w) }
	inSuite, subSuite, err := res.chooseSuite(run, &rr, opt, ignored, elsewhere, warn)
	if err != nil {
		return nil, err
	}
	if res.Score, err = rr.Score(res.Suite); err != nil {
		return nil, err
	}
	res.judgeRunner(rr, cal, inSuite, warn)
	res.Ignored = sortedKeys(ignored)
	if err := res.chooseFloor(cal, opt, subSuite, warn); err != nil {
		return nil, err
	}
	if err := res.judgeRepetitions(run, cal, opt, metric); err != nil {
		return nil, err
	}
	res.CappedScore = math.NaN()
	capped := res.judgeBands(cal, opt, rr, warn)
	res.decide(cal, opt, capped, warn)
	return res, nil
}

// checkInputs checks what the gate is asked before it reads a ratio: what
// --ignore leaves of the calibrated suite, the calibration's matrix and
// variants; it returns the run without the ignored benchmarks, and those
// it had.
func checkInputs(run *data.Run, opt GateOptions) (*data.Run, map[string]bool, error) {
	cal := opt.Calibration
	ignore := map[string]bool{}
	for _, b := range opt.Ignore {
		ignore[b] = true
	}
	if cal != nil && len(ignore) > 0 && !slices.ContainsFunc(cal.Suite, func(b string) bool { return !ignore[b] }) {
		return nil, nil, inputErrorf("the benchmarks ignored leave none of the suite of %s (%s) to gate on", calName(cal), strings.Join(cal.Suite, ", "))
	}
	run, ignored := withoutBenchmarks(run, ignore)
	if cal != nil {
		if cal.Matrix == nil {
			// ParseFile refuses a file without one (ErrVersion1).
			return nil, nil, fmt.Errorf("the calibration has no matrix: %w", model.ErrVersion1)
		}
		if opt.Baseline != cal.Baseline || opt.Candidate != cal.Candidate {
			return nil, nil, &VariantsError{Baseline: opt.Baseline, Candidate: opt.Candidate, CalBaseline: cal.Baseline, CalCandidate: cal.Candidate}
		}
	}
	return run, ignored, nil
}

// chooseMetric is the metric the gate compares: the one asked, else what
// the floor was calibrated on (with several metrics per benchmark, the
// calibration's unit, when it has one), which the run must have.
func chooseMetric(run *data.Run, opt GateOptions) (string, error) {
	cal, metric := opt.Calibration, opt.Metric
	if metric == "" && cal != nil {
		metric = cal.SoleUnit()
		if err := checkRunUnit(cal, run, opt, metric); err != nil {
			return "", err
		}
	}
	return metric, nil
}

// chooseFloor sets the floor: the one given, else the calibration's, or,
// on part of the calibrated suite, that sub-suite's floor recomputed from
// the calibration's matrix; and warns of a thin calibration or a floor
// below 1.
func (res *GateResult) chooseFloor(cal *model.File, opt GateOptions, subSuite bool, warn func(calibrate.Warning)) error {
	switch {
	case opt.Floor > 0:
		res.Floor, res.FloorSource = opt.Floor, FloorGiven
		if cal != nil && cal.Floor != opt.Floor {
			warn(calibrate.Warning{Kind: calibrate.WarnFloorOverride, Figures: calibrate.OverrideFigures{Given: opt.Floor, FileFloor: cal.FloorText}})
		}
	case cal != nil:
		res.Floor, res.FloorSource = cal.Floor, FloorCalibration
	}
	if subSuite && res.FloorSource == FloorCalibration {
		scores, err := cal.Matrix.Scores(res.Suite)
		if err != nil {
			return inputErrorf("%v", err)
		}
		_, sub, _, err := model.FloorOf(scores, cal.RecommendOptions())
		if err != nil {
			return inputErrorf("the floor of the sub-suite: %v", err)
		}
		if !(sub > 0) {
			return inputErrorf("the %s method gives the sub-suite of %d benchmarks no floor above 0", cal.Method, len(res.Suite))
		}
		if err := model.CheckFloorUseful(scores, sub, cal.RecommendOptions()); err != nil {
			return fmt.Errorf("the floor of the sub-suite of %d benchmarks: %w", len(res.Suite), err)
		}
		res.FullFloor, res.SubSuiteFloor, res.Floor = cal.Floor, sub, sub
	}
	if cal != nil {
		// A thin calibration: said on every gate that rests on it, since
		// recommend's warnings are long gone when the gate runs.
		if cal.Runs < spread.FewRuns {
			warn(calibrate.Warning{Kind: calibrate.WarnThinCalibration, Figures: calibrate.FewRunsFigures{Runs: cal.Runs, Enough: spread.FewRuns}})
		}
		// A floor below 1.0 is no warning here (issue 35: it annotated
		// every healthy run of a calibration whose runs score about 1.0):
		// recommend said it where the floor was chosen, and the
		// summary's notes say it (present.Gate).
	}
	return nil
}

// decide sets the verdict: the score against the floor, unless the
// benchmarks capped at their bands' upper edge (capped) would change it,
// or a degraded runner makes it inconclusive; and says why in
// VerdictDetail.
func (res *GateResult) decide(cal *model.File, opt GateOptions, capped []string, warn func(calibrate.Warning)) {
	res.Verdict = res.verdictAt(res.Score, opt)
	if len(capped) > 0 {
		// A benchmark far above its band must not carry the verdict
		// (docs/STATS.md 2.10a): judged at its band's upper edge, the
		// run must get the same verdict, or it could not be judged.
		// Only a pass can be carried: when the score itself is below
		// the floor, the capped score (never higher) is too, and two
		// readings that both fail make a failure, not a run that could
		// not be judged (issue 35: the bundled regressed run-01, 1.154
		// against a 1.16 floor, in the rerun band and 1.12 capped, was
		// "could not judge" and its rerun command never ran). The
		// score's own verdict stands: fail, or rerun inside the band.
		if v := res.verdictAt(res.CappedScore, opt); v != res.Verdict && res.Verdict == VerdictPass {
			res.CarriedBy = capped
			res.Verdict = VerdictInconclusive
			if opt.ReportOnly {
				res.Verdict = VerdictWarn
			}
		}
	}
	if res.RunnerDegraded {
		hist := 0
		if cal != nil {
			hist = cal.Runs
		}
		switch opt.OnDegraded {
		case "ignore":
		case "fail":
			res.Verdict = VerdictInconclusive
			warn(calibrate.Warning{Kind: calibrate.WarnRunnerDegraded, Figures: calibrate.DegradedFigures{MedianZ: res.MedianZ, Cutoff: res.RunnerCutoffZ, CalibrationRuns: hist, Inconclusive: true}})
		default:
			warn(calibrate.Warning{Kind: calibrate.WarnRunnerDegraded, Figures: calibrate.DegradedFigures{MedianZ: res.MedianZ, Cutoff: res.RunnerCutoffZ, CalibrationRuns: hist}})
		}
	}
	res.VerdictDetail = res.Verdict
	if len(res.CarriedBy) > 0 {
		res.VerdictDetail += fmt.Sprintf(": carried by %s, far above %s", strings.Join(res.CarriedBy, ", "), map[bool]string{true: "its band", false: "their bands"}[len(res.CarriedBy) == 1])
	}
	if res.RunnerDegraded && res.Verdict != VerdictInconclusive {
		res.VerdictDetail += " on a degraded runner"
	}
}

// judgeRepetitions counts the run's repetitions and, when the floor is
// the calibration's over its whole suite and the calibration has variance
// components, judges the mean of the repetitions' log scores instead of
// the score of their pooled samples: against the floor at the same
// distance below the model's mean, in SDs of a mean of that many
// repetitions (√(σ_b² + σ_w²/m)), as the calibrated floor is below the
// calibration runs' mean in SDs of their scores. Under the log-normal
// model the floor then keeps the rate of false alarms the calibration
// claims, whatever the number of repetitions (docs/STATS.md 2.15).
func (res *GateResult) judgeRepetitions(run *data.Run, cal *model.File, opt GateOptions, metric string) error {
	reps, err := spread.Repetitions(run, opt.Baseline, opt.Candidate)
	if err != nil || reps == nil {
		return err
	}
	res.Repetitions = len(reps)
	if cal == nil || cal.Variance == nil || res.FloorSource != FloorCalibration || res.Partial {
		return nil
	}
	_, logs, err := RepetitionScores(run, opt.Baseline, opt.Candidate, opt.Direction, metric, res.Suite)
	if err != nil {
		return inputErrorf("%v: the mean of the repetitions cannot be judged", err)
	}
	v := cal.Variance
	s := cal.Observed.SDLog
	sdm := v.SDOfMeanVsCalibration(len(reps), s)
	if !(s > 0) || !(sdm > 0) {
		return nil
	}
	// d is how far below the runs' mean the floor is, in SDs of a new
	// run's difference from that mean (s·√(1 + 1/n)), so that a run of
	// as many repetitions as a calibration run keeps the file's floor.
	d := (cal.Observed.MeanLog - math.Log(cal.Floor)) / (s * math.Sqrt(1+1/float64(v.Runs)))
	res.RepetitionFloor = math.Exp(v.MeanLog - d*sdm)
	res.Floor = res.RepetitionFloor
	res.Score = math.Exp(stats.Mean(logs))
	return nil
}

// verdictAt is the verdict a score gives against the floor, with the
// options and the bands judged: ungated, pass, fail, rerun (within the
// rerun band), warn (report-only), and fail (or warn) for a benchmark
// below its band with PerBenchmark fail.
func (res *GateResult) verdictAt(score float64, opt GateOptions) string {
	var v string
	switch {
	case res.Floor == 0:
		v = VerdictUngated
	case score >= res.Floor:
		v = VerdictPass
	case opt.ReportOnly:
		v = VerdictWarn
	default:
		v = VerdictFail
	}
	if v == VerdictFail && opt.RerunBand > 0 && score >= res.Floor*(1-opt.RerunBand) {
		v = VerdictRerun
	}
	if res.PerBenchmark == PerBenchmarkFail && len(res.Below) > 0 && v == VerdictPass {
		v = VerdictFail
		if opt.ReportOnly {
			v = VerdictWarn
		}
	}
	return v
}

// calName names the calibration in a message: "calibration file gate.json".
func calName(f *model.File) string {
	if f.Path == "" {
		return "the calibration"
	}
	return "calibration file " + f.Path
}
