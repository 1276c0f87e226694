package gate

import (
	"fmt"
	"math"
	"slices"
	"sort"
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

// DegradedZ is the least extreme cut-off of the runner-health z (log
// space, median over benchmarks): the Iglewicz–Hoaglin −3.5, in force
// once the calibration has enough runs (STATS.md 3.4).
const DegradedZ = -3.5

// RunnerFalseFlag is the largest rate at which a healthy run may be
// flagged as on a degraded runner, whatever the number of calibration
// runs n ≥ 2 and the number and correlation of the benchmarks.
const RunnerFalseFlag = 0.005

// Runner-health states (GateResult.RunnerHealth).
const (
	RunnerHealthOK        = "ok"
	RunnerHealthDegraded  = "degraded"
	RunnerHealthUnchecked = "unchecked" // a calibration without a usable baseline history
)

// RunnerCutoff is the cut-off of the median runner-health robust z for
// a history of n calibration runs (STATS.md 3.4): the 0.004-quantile of
// one benchmark's robust z on a healthy run (robustCutoffs), so that a
// healthy run is flagged at most RunnerFalseFlag of the time. For one
// benchmark, or benchmarks that the runner moves together, the median is
// one such z; the median of independent benchmarks' z is flagged less
// often. Never less extreme than DegradedZ; NaN below 2 runs.
func RunnerCutoff(n int) float64 {
	if n < 2 {
		return math.NaN()
	}
	if n-2 < len(robustCutoffs) {
		return robustCutoffs[n-2]
	}
	return DegradedZ
}

// robustCutoffs[n−2] is the 0.004-quantile of the robust z
// (x − med h)/(1.4826·MAD h) for h n i.i.d. normal values and x one more,
// for n = 2…21, from 4M draws each (calibrate/testdata/
// runner_health_robust_table.py; the quantile is below the 0.005 target
// by a margin for Monte Carlo error). From n = 22 on the 0.005-quantile
// is above −3.5, and DegradedZ holds.
var robustCutoffs = []float64{
	-94.49, -138.9, -17.68, -16.23, -8.795, -8.483, -6.363, -6.187, -5.26, -5.156,
	-4.653, -4.617, -4.275, -4.251, -4.021, -3.995, -3.823, -3.805, -3.685, -3.676,
}

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
	// Advisory is true for a benchmark within its band at the failing
	// rate but below it at the advisory rate (model.AdvisoryFamilyAlpha,
	// Holm's step-down over the gated benchmarks): named, never failed.
	Advisory bool
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
// lacks does in a suite without a calibration (GatePair).
func gate(run *data.Run, opt GateOptions, elsewhere []string) (*GateResult, error) {
	cal := opt.Calibration
	ignore := map[string]bool{}
	for _, b := range opt.Ignore {
		ignore[b] = true
	}
	if cal != nil && len(ignore) > 0 && !slices.ContainsFunc(cal.Suite, func(b string) bool { return !ignore[b] }) {
		return nil, inputErrorf("the benchmarks ignored leave none of the suite of %s (%s) to gate on", calName(cal), strings.Join(cal.Suite, ", "))
	}
	run, ignored := withoutBenchmarks(run, ignore)
	if cal != nil {
		if cal.Matrix == nil {
			// ParseFile refuses a file without one (ErrVersion1).
			return nil, fmt.Errorf("the calibration has no matrix: %w", model.ErrVersion1)
		}
		if opt.Baseline != cal.Baseline || opt.Candidate != cal.Candidate {
			return nil, &VariantsError{Baseline: opt.Baseline, Candidate: opt.Candidate, CalBaseline: cal.Baseline, CalCandidate: cal.Candidate}
		}
	}
	metric := opt.Metric
	if metric == "" && cal != nil {
		// Compare what the floor was calibrated on: with several metrics
		// per benchmark, the calibration's unit, when it has one.
		metric = cal.SoleUnit()
		if err := checkRunUnit(cal, run, opt, metric); err != nil {
			return nil, err
		}
	}
	rr, err := calibrate.Ratios(run, opt.Baseline, opt.Candidate, opt.Direction, metric)
	if err != nil {
		return nil, err
	}
	res := &GateResult{MedianZ: math.NaN(), RunnerCutoffZ: math.NaN()}
	warn := func(w calibrate.Warning) { res.Warnings = append(res.Warnings, w) }
	subSuite := false // the calibrated suite less what is ignored
	if len(rr.Ratios) == 0 {
		return nil, inputErrorf("no benchmark in common between %s (%s) and %s (%s)",
			opt.Baseline, listOrNone(namesOf(run, opt.Baseline)), opt.Candidate, listOrNone(namesOf(run, opt.Candidate)))
	}
	res.OnlyOne = append(append([]string{}, rr.OnlyBaseline...), rr.OnlyCandidate...)
	sort.Strings(res.OnlyOne)
	if len(rr.OnlyBaseline) > 0 {
		warn(calibrate.Warning{Kind: calibrate.WarnOneVariantOnly, Benchmarks: rr.OnlyBaseline, Figures: calibrate.OneVariantFigures{Variant: opt.Baseline}})
	}
	if len(rr.OnlyCandidate) > 0 {
		warn(calibrate.Warning{Kind: calibrate.WarnOneVariantOnly, Benchmarks: rr.OnlyCandidate, Figures: calibrate.OneVariantFigures{Variant: opt.Candidate}})
	}
	inSuite := map[string]bool{}
	if cal != nil {
		for _, b := range cal.Suite {
			if ignore[b] {
				ignored[b], subSuite = true, true
				continue
			}
			br, ok := rr.Ratios[b]
			if !ok {
				res.Missing = append(res.Missing, b)
				continue
			}
			if d := cal.DirectionOf(b); d != br.Direction {
				return nil, inputErrorf("benchmark %s: %s has it as %s (%s), but %s as %s (%s, field units.%s.direction): expected the direction the floor was calibrated on", b, calibrate.RunName(run), br.Direction, br.Unit, calName(cal), d, cal.Units[b].Unit, b)
			}
			if u := cal.Units[b].Unit; br.Unit != u {
				// Two units of one direction (sec/op and B/op) are still
				// two metrics: a floor on one says nothing of the other.
				return nil, &UnitError{Unit: u, Msg: fmt.Sprintf("benchmark %s: %s measured it in %s, but %s has %s (field units.%s.unit)", b, calibrate.RunName(run), br.Unit, calName(cal), u, b)}
			}
			inSuite[b] = true
			res.Suite = append(res.Suite, b)
		}
		for _, b := range rr.Names() {
			if !contains(cal.Suite, b) {
				res.Extra = append(res.Extra, b)
			}
		}
		if len(res.Missing) > 0 {
			// A benchmark both variants measured, in two units, did not
			// crash: say so, rather than that one variant lacks it.
			for _, b := range res.Missing {
				if err := unitMismatch(cal, run, opt, b); err != nil {
					return nil, err
				}
			}
			if !opt.AllowPartial {
				return nil, &PartialError{Part: "the common part", Msg: fmt.Sprintf("%s lacks %s of the suite of %s (a crashed benchmark prints no result): the floor was calibrated on all %d benchmarks",
					calibrate.RunName(run), strings.Join(res.Missing, ", "), calName(cal), len(cal.Suite))}
			}
			if len(res.Suite) == 0 {
				return nil, inputErrorf("%s has none of the suite of %s (%s)", calibrate.RunName(run), calName(cal), strings.Join(cal.Suite, ", "))
			}
			subSuite = true
			minSuite := opt.MinSuite
			if minSuite <= 0 {
				minSuite = DefaultMinSuite(len(cal.Suite))
			}
			if len(res.Suite) < minSuite {
				return nil, inputErrorf("%s has only %d of the %d benchmarks of %s (it lacks %s): fewer than the %d a partial suite needs, too few for its geomean to stand for the suite",
					calibrate.RunName(run), len(res.Suite), len(cal.Suite), calName(cal), strings.Join(res.Missing, ", "), minSuite)
			}
			res.Partial = true
			warn(calibrate.Warning{Kind: calibrate.WarnPartialGate, Benchmarks: res.Missing, Figures: calibrate.PartialFigures{Gated: len(res.Suite), Of: len(cal.Suite)}})
		}
		if len(res.Extra) > 0 {
			warn(calibrate.Warning{Kind: calibrate.WarnNotCalibrated, Benchmarks: res.Extra})
		}
	} else {
		res.Suite = rr.Names()
		for _, b := range res.Suite {
			inSuite[b] = true
		}
		if opt.Floor > 0 {
			if err := res.uncalibratedSuite(run, rr, opt, elsewhere, warn); err != nil {
				return nil, err
			}
		}
	}
	if res.Score, err = rr.Score(res.Suite); err != nil {
		return nil, err
	}
	// Runner health: the run's baselines against the calibrated history
	// (STATS.md 3.4).
	var zs []float64
	hist := 0
	if cal != nil {
		hist = cal.Runs
	}
	for _, b := range rr.Names() {
		br := rr.Ratios[b]
		gb := GateBenchmark{BenchmarkRatio: br, InScore: inSuite[b], HealthZ: math.NaN()}
		if cal != nil {
			if h, ok := cal.Health[b]; ok {
				if z, ok := h.Z(math.Log(br.Baseline)); ok {
					if br.Direction == calibrate.LowerIsBetter {
						z = -z // a slower runner takes longer: orient so that negative is slower
					}
					gb.HealthZ = z
					zs = append(zs, z)
				} else {
					res.RunnerFlat = append(res.RunnerFlat, b)
				}
			}
		}
		res.Benchmarks = append(res.Benchmarks, gb)
	}
	if cal != nil {
		res.RunnerCutoffZ = RunnerCutoff(hist)
		res.RunnerChecked = len(zs)
		switch {
		case len(zs) == 0 || math.IsNaN(res.RunnerCutoffZ):
			res.RunnerHealth = RunnerHealthUnchecked
			why := calibrate.UncheckedNoSpread
			if len(cal.Health) == 0 {
				why = calibrate.UncheckedNoHistory
			} else if math.IsNaN(res.RunnerCutoffZ) {
				why = calibrate.UncheckedFewRuns
			}
			warn(calibrate.Warning{Kind: calibrate.WarnRunnerUnchecked, Benchmarks: res.RunnerFlat, Figures: calibrate.UncheckedFigures{Why: why, CalibrationRuns: hist}})
		default:
			res.MedianZ = stats.Median(zs)
			res.RunnerDegraded = res.MedianZ < res.RunnerCutoffZ
			res.RunnerHealth = RunnerHealthOK
			if res.RunnerDegraded {
				res.RunnerHealth = RunnerHealthDegraded
			}
			if len(res.RunnerFlat) > 0 {
				warn(calibrate.Warning{Kind: calibrate.WarnRunnerUnchecked, Benchmarks: res.RunnerFlat, Figures: calibrate.UncheckedFigures{Why: calibrate.UncheckedFlat, CalibrationRuns: hist}})
			}
		}
	}
	// The floor.
	switch {
	case opt.Floor > 0:
		res.Floor, res.FloorSource = opt.Floor, FloorGiven
		if cal != nil && cal.Floor != opt.Floor {
			warn(calibrate.Warning{Kind: calibrate.WarnFloorOverride, Figures: calibrate.OverrideFigures{Given: opt.Floor, FileFloor: cal.FloorText}})
		}
	case cal != nil:
		res.Floor, res.FloorSource = cal.Floor, FloorCalibration
	}
	res.Ignored = sortedKeys(ignored)
	if subSuite && res.FloorSource == FloorCalibration {
		scores, err := cal.Matrix.Scores(res.Suite)
		if err != nil {
			return nil, inputErrorf("%v", err)
		}
		_, sub, _, err := model.FloorOf(scores, cal.RecommendOptions())
		if err != nil {
			return nil, inputErrorf("the floor of the sub-suite: %v", err)
		}
		if !(sub > 0) {
			return nil, inputErrorf("the %s method gives the sub-suite of %d benchmarks no floor above 0", cal.Method, len(res.Suite))
		}
		if err := model.CheckFloorUseful(scores, sub, cal.RecommendOptions()); err != nil {
			return nil, fmt.Errorf("the floor of the sub-suite of %d benchmarks: %w", len(res.Suite), err)
		}
		res.FullFloor, res.SubSuiteFloor, res.Floor = cal.Floor, sub, sub
	}
	if cal != nil {
		// A thin calibration: said on every gate that rests on it, since
		// recommend's warnings are long gone when the gate runs.
		if cal.Runs < spread.FewRuns {
			warn(calibrate.Warning{Kind: calibrate.WarnThinCalibration, Figures: calibrate.FewRunsFigures{Runs: cal.Runs, Enough: spread.FewRuns}})
		}
		if res.FloorSource == FloorCalibration && res.Floor < 1 {
			warn(calibrate.Warning{Kind: calibrate.WarnGateFloorBelowOne, Figures: calibrate.FloorFigures{Floor: res.Floor, Step: cal.Params.Step, Min: cal.Observed.Min}})
		}
	}
	if err := res.judgeRepetitions(run, cal, opt, metric); err != nil {
		return nil, err
	}
	res.CappedScore = math.NaN()
	capped := res.judgeBands(cal, opt, rr, warn)
	res.Verdict = res.verdictAt(res.Score, opt)
	if len(capped) > 0 {
		// A benchmark far above its band must not carry the verdict
		// (docs/STATS.md 2.10a): judged at its band's upper edge, the
		// run must get the same verdict, or it could not be judged.
		if v := res.verdictAt(res.CappedScore, opt); v != res.Verdict {
			res.CarriedBy = capped
			res.Verdict = VerdictInconclusive
			if opt.ReportOnly {
				res.Verdict = VerdictWarn
			}
		}
	}
	if res.RunnerDegraded {
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
	return res, nil
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

// withoutBenchmarks returns run without the measurements of the
// benchmarks in ignore (run itself when it has none of them), and the
// set of those it had.
func withoutBenchmarks(run *data.Run, ignore map[string]bool) (*data.Run, map[string]bool) {
	had := map[string]bool{}
	if len(ignore) == 0 {
		return run, had
	}
	kept := make([]data.Measurement, 0, len(run.Measurements))
	for _, m := range run.Measurements {
		if ignore[m.Benchmark] {
			had[m.Benchmark] = true
			continue
		}
		kept = append(kept, m)
	}
	if len(had) == 0 {
		return run, had
	}
	r := *run
	r.Measurements = kept
	return &r, had
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

// uncalibratedSuite holds a run gated on a given floor without a
// calibration to the rule a calibration sets: the suite is every
// benchmark the job measured, by either variant (and, for a pair, in
// either run), so that a benchmark that crashed on one side cannot leave
// the score to the benchmarks that did not. One missing is an error
// naming what each side measured, unless AllowPartial; then the run is
// gated on the benchmarks both measured, if they are at least MinSuite
// (default DefaultMinSuite of the whole).
func (res *GateResult) uncalibratedSuite(run *data.Run, rr calibrate.RunRatios, opt GateOptions, elsewhere []string, warn func(calibrate.Warning)) error {
	all := map[string]bool{}
	for _, list := range [][]string{res.Suite, rr.OnlyBaseline, rr.OnlyCandidate, elsewhere} {
		for _, b := range list {
			all[b] = true
		}
	}
	if len(all) == len(res.Suite) {
		return nil
	}
	for b := range all {
		if _, ok := rr.Ratios[b]; !ok {
			res.Missing = append(res.Missing, b)
		}
	}
	sort.Strings(res.Missing)
	if !opt.AllowPartial {
		return oneSidedError(run, rr, opt)
	}
	of := "variant"
	if elsewhere != nil {
		of = "run"
	}
	minSuite := opt.MinSuite
	if minSuite <= 0 {
		minSuite = DefaultMinSuite(len(all))
	}
	if len(res.Suite) < minSuite {
		return inputErrorf("%s has only %d of the %d benchmarks either %s measured (it lacks %s): fewer than the %d a partial suite needs, too few for its geomean to stand for the suite",
			calibrate.RunName(run), len(res.Suite), len(all), of, strings.Join(res.Missing, ", "), minSuite)
	}
	res.Partial = true
	warn(calibrate.Warning{Kind: calibrate.WarnPartialGate, Benchmarks: res.Missing, Figures: calibrate.PartialFigures{Gated: len(res.Suite), Of: len(all), Either: of}})
	return nil
}

// oneSidedError is the error of a run gated without a calibration in
// which one variant lacks benchmarks the other measured.
func oneSidedError(run *data.Run, rr calibrate.RunRatios, opt GateOptions) error {
	var lacks []string
	if len(rr.OnlyBaseline) > 0 {
		lacks = append(lacks, fmt.Sprintf("%s (candidate) lacks %s", opt.Candidate, strings.Join(rr.OnlyBaseline, ", ")))
	}
	if len(rr.OnlyCandidate) > 0 {
		lacks = append(lacks, fmt.Sprintf("%s (baseline) lacks %s", opt.Baseline, strings.Join(rr.OnlyCandidate, ", ")))
	}
	return &PartialError{Part: "the benchmarks both measured", Msg: fmt.Sprintf("%s: %s (a crashed benchmark prints no result): without a calibration the suite is every benchmark either variant measured: %s measured %s; %s measured %s",
		calibrate.RunName(run), strings.Join(lacks, "; "), opt.Baseline, listOrNone(namesOf(run, opt.Baseline)), opt.Candidate, listOrNone(namesOf(run, opt.Candidate)))}
}

// judgeBands sets each gated benchmark's usual ratio and, unless the mode
// is off, its band, by Holm's step-down over the gated benchmarks at the
// calibration's family-wise rate. Whatever the mode, it returns the
// benchmarks far above their bands (Holm's upper side) whose ratio is
// above their band's upper edge, and sets CappedScore to the score with
// each at that edge (docs/STATS.md 2.10a).
func (res *GateResult) judgeBands(cal *model.File, opt GateOptions, rr calibrate.RunRatios, warn func(calibrate.Warning)) (capped []string) {
	res.PerBenchmark = opt.PerBenchmark
	if res.PerBenchmark == "" {
		res.PerBenchmark = PerBenchmarkWarn
	}
	for i := range res.Benchmarks {
		res.Benchmarks[i].Usual, res.Benchmarks[i].VsUsual = math.NaN(), math.NaN()
	}
	if cal == nil {
		return nil
	}
	alpha := cal.RecommendOptions().FamilyAlpha
	bands := cal.Matrix.Bands(alpha)
	byName := map[string]model.Band{}
	for _, b := range bands {
		byName[b.Name] = b
	}
	logs := map[string]float64{}
	for i := range res.Benchmarks {
		gb := &res.Benchmarks[i]
		b, ok := byName[gb.Name]
		if !ok || !gb.InScore {
			continue
		}
		gb.Usual = b.Usual
		gb.VsUsual = gb.Ratio / b.Usual
		logs[gb.Name] = math.Log(gb.Ratio)
	}
	j := model.JudgeBands(bands, logs, alpha)
	// A benchmark that never varied has no band to test against, but it
	// must not escape the rule below: its band is the point [usual,
	// usual], and a ratio above it by more than rounding is above it.
	for name, x := range logs {
		if b := byName[name]; isPointBand(b) && x > math.Log(b.Usual)+PointBandTolerance {
			j.Above[name] = true
		}
	}
	// The score with the benchmarks far above their bands at the bands'
	// upper edges, over the same suite, as ScoreOver computes it.
	at := calibrate.RunRatios{ID: rr.ID, Ratios: make(map[string]calibrate.BenchmarkRatio, len(res.Suite))}
	for _, name := range res.Suite {
		br := rr.Ratios[name]
		if edge := upperEdge(byName[name]); j.Above[name] && br.Ratio > edge {
			br.Ratio = edge
			capped = append(capped, name)
		}
		at.Ratios[name] = br
	}
	if len(capped) > 0 {
		res.CappedScore = at.ScoreOver(res.Suite).Score
	}
	if res.PerBenchmark == PerBenchmarkOff {
		return capped
	}
	for i := range res.Benchmarks {
		gb := &res.Benchmarks[i]
		if _, judged := logs[gb.Name]; !judged {
			continue
		}
		switch {
		case j.Below[gb.Name]:
			gb.Band = BandBelow
			res.Below = append(res.Below, gb.Name)
		case j.Above[gb.Name]:
			gb.Band = BandAbove
			res.Above = append(res.Above, gb.Name)
		case math.IsNaN(j.P[gb.Name]):
			// No band: a benchmark that never varied, at or below its one
			// ratio (the lower side of a point band is not judged).
		default:
			gb.Band = BandWithin
			if j.Advisory[gb.Name] {
				gb.Advisory = true
				res.Advisory = append(res.Advisory, gb.Name)
			}
		}
	}
	if len(res.Below) > 0 {
		warn(calibrate.Warning{Kind: calibrate.WarnBelowBand, Benchmarks: res.Below, Figures: calibrate.BandFigures{Alpha: alpha}})
	}
	if len(res.Above) > 0 {
		warn(calibrate.Warning{Kind: calibrate.WarnAboveBand, Benchmarks: res.Above})
	}
	return capped
}

// PointBandTolerance is how far, in log ratio, a benchmark that never
// varied over the calibration runs may lie above its one ratio and still
// be at it: the rounding of a ratio of two float64 values is about 1e-16
// of it, so 1e-9 is far above rounding and far below any change a
// benchmark harness prints.
const PointBandTolerance = 1e-9

// isPointBand reports whether a band is a point: its benchmark never
// varied over the calibration runs (docs/STATS.md 2.10a).
func isPointBand(b model.Band) bool { return b.N >= 2 && !(b.SDLog > 0) && b.Usual > 0 }

// upperEdge is the upper edge of a benchmark's band as the wild-benchmark
// rule caps at it: the band's, or for a benchmark that never varied its
// one ratio.
func upperEdge(b model.Band) float64 {
	if isPointBand(b) {
		return b.Usual
	}
	return b.Upper
}

// calName names the calibration in a message: "calibration file gate.json".
func calName(f *model.File) string {
	if f.Path == "" {
		return "the calibration"
	}
	return "calibration file " + f.Path
}

// checkRunUnit checks that each variant of the run has measurements in
// unit, the one unit of the calibration's suite ("": several, checked
// benchmark by benchmark), which the gate compares.
func checkRunUnit(f *model.File, run *data.Run, opt GateOptions, unit string) error {
	if unit == "" {
		return nil
	}
	var lacking []string
	for _, v := range []string{opt.Baseline, opt.Candidate} {
		units := unitsOf(run, v, "")
		if len(units) > 0 && !contains(units, unit) {
			lacking = append(lacking, fmt.Sprintf("%s (it has %s)", v, strings.Join(units, ", ")))
		}
	}
	if len(lacking) == 0 {
		return nil
	}
	return inputErrorf("%s: field units: the floor was calibrated on %s, but %s has no %s measurements of %s: expected results in %s",
		calName(f), unit, calibrate.RunName(run), unit, strings.Join(lacking, " nor of "), unit)
}

// unitMismatch is the error of a suite benchmark that both variants of
// the run measured, in different units (so that it has no ratio), or nil.
func unitMismatch(f *model.File, run *data.Run, opt GateOptions, bench string) error {
	ub, uc := unitsOf(run, opt.Baseline, bench), unitsOf(run, opt.Candidate, bench)
	if len(ub) == 0 || len(uc) == 0 {
		return nil
	}
	return inputErrorf("%s: benchmark %s is in %s for %s (baseline) but %s for %s (candidate): expected both in %s, as %s has it (field units.%s.unit)",
		calibrate.RunName(run), bench, strings.Join(ub, ", "), opt.Baseline, strings.Join(uc, ", "), opt.Candidate, f.Units[bench].Unit, calName(f), bench)
}

// unitsOf returns the units of a variant's measurements in a run, of one
// benchmark (or of all, for bench ""), sorted.
func unitsOf(run *data.Run, variant, bench string) []string {
	seen := map[string]bool{}
	for _, m := range run.Measurements {
		if m.Variant == variant && (bench == "" || m.Benchmark == bench) {
			seen[m.Unit] = true
		}
	}
	out := make([]string, 0, len(seen))
	for u := range seen {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

func namesOf(run *data.Run, variant string) []string {
	seen := map[string]bool{}
	for _, m := range run.Measurements {
		if m.Variant == variant {
			seen[m.Benchmark] = true
		}
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "no benchmarks"
	}
	return strings.Join(names, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
