package calibrate

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"qoscal/data"
	"qoscal/stats"
)

// Verdicts of the gate.
const (
	VerdictPass         = "pass"
	VerdictFail         = "fail"
	VerdictWarn         = "warn"         // below the floor in report-only mode
	VerdictInconclusive = "inconclusive" // degraded runner, --on-degraded fail
	VerdictUngated      = "ungated"      // no floor given
)

// Where the gate's floor came from.
const (
	FloorGiven       = "given"       // GateOptions.Floor
	FloorCalibration = "calibration" // the calibration file
)

// DegradedZ is the robust z (log space, median over benchmarks) below
// which a run's baseline values say that its runner was degraded
// (STATS.md 3.4; the Iglewicz–Hoaglin cut-off).
const DegradedZ = -3.5

// GateOptions say how to judge one run.
type GateOptions struct {
	// Baseline and Candidate name the run's variants.
	Baseline, Candidate string
	// Direction overrides the units' direction.
	Direction Direction
	// Metric selects one of several metrics per benchmark (see Ratios).
	Metric string
	// Floor is the floor to judge against; 0 means none (unless the
	// calibration file gives one). FloorFlag says it was given explicitly
	// and wins over the calibration file's.
	Floor float64
	// Calibration is the calibration file, if any.
	Calibration *File
	// AllowPartial gates on the part of the calibrated suite the run has.
	AllowPartial bool
	// ReportOnly never fails on a regression.
	ReportOnly bool
	// OnDegraded is "fail", "warn" (default) or "ignore".
	OnDegraded string
}

// GateBenchmark is one benchmark row of the gate's table.
type GateBenchmark struct {
	BenchmarkRatio
	// InScore is false for benchmarks reported but left out of the score
	// (not in the calibrated suite).
	InScore bool
	// HealthZ is the runner-health z of the baseline value, NaN if the
	// calibration has no history for it.
	HealthZ float64
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
	Extra       []string        // run benchmarks the calibration does not know
	OnlyOne     []string        // benchmarks only one variant measured
	Partial     bool
	// RunnerDegraded is set when the median runner-health z is below
	// DegradedZ; MedianZ is that median (NaN without a calibration).
	RunnerDegraded bool
	MedianZ        float64
	Warnings       []Warning
}

// InputError is a gate input the gate refuses to judge: exit 2, never a
// PASS.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func inputErrorf(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

// Gate judges one run against the floor.
func Gate(run *data.Run, opt GateOptions) (*GateResult, error) {
	cal := opt.Calibration
	if cal != nil {
		if opt.Baseline != cal.Baseline || opt.Candidate != cal.Candidate {
			return nil, inputErrorf("this run compares %s (candidate) with %s (baseline), but the calibration compares %s with %s: name the variants as the calibration does (--baseline %s=FILE --candidate %s=FILE)",
				opt.Candidate, opt.Baseline, cal.Candidate, cal.Baseline, cal.Baseline, cal.Candidate)
		}
	}
	metric := opt.Metric
	if metric == "" && cal != nil {
		// Compare what the floor was calibrated on: with several metrics
		// per benchmark, the calibration's unit, when it has one.
		metric = cal.soleUnit()
	}
	rr, err := Ratios(run, opt.Baseline, opt.Candidate, opt.Direction, metric)
	if err != nil {
		return nil, err
	}
	res := &GateResult{MedianZ: math.NaN()}
	warn := func(w Warning, format string, args ...any) {
		w.Msg = fmt.Sprintf(format, args...)
		res.Warnings = append(res.Warnings, w)
	}
	if len(rr.Ratios) == 0 {
		return nil, inputErrorf("no benchmark in common between %s (%s) and %s (%s)",
			opt.Baseline, listOrNone(namesOf(run, opt.Baseline)), opt.Candidate, listOrNone(namesOf(run, opt.Candidate)))
	}
	res.OnlyOne = append(append([]string{}, rr.OnlyBaseline...), rr.OnlyCandidate...)
	sort.Strings(res.OnlyOne)
	if len(rr.OnlyBaseline) > 0 {
		warn(Warning{Kind: WarnOneVariantOnly, Benchmarks: rr.OnlyBaseline}, "measured by %s only, left out: %s", opt.Baseline, strings.Join(rr.OnlyBaseline, ", "))
	}
	if len(rr.OnlyCandidate) > 0 {
		warn(Warning{Kind: WarnOneVariantOnly, Benchmarks: rr.OnlyCandidate}, "measured by %s only, left out: %s", opt.Candidate, strings.Join(rr.OnlyCandidate, ", "))
	}
	inSuite := map[string]bool{}
	if cal != nil {
		for _, b := range cal.Suite {
			br, ok := rr.Ratios[b]
			if !ok {
				res.Missing = append(res.Missing, b)
				continue
			}
			if d := cal.DirectionOf(b); d != br.Direction {
				return nil, inputErrorf("benchmark %s: this run's metric is %s (%s), but the calibration's is %s (%s)", b, br.Direction, br.Unit, d, cal.Units[b].Unit)
			}
			if u := cal.Units[b].Unit; br.Unit != u {
				// Two units of one direction (sec/op and B/op) are still
				// two metrics: a floor on one says nothing of the other.
				return nil, inputErrorf("benchmark %s: this run's unit is %s, but the calibration's is %s: gate the metric the floor was calibrated on (--metric %s)", b, br.Unit, u, u)
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
			if !opt.AllowPartial {
				return nil, inputErrorf("this run lacks %s of the calibrated suite (a crashed benchmark prints no result): the floor was calibrated on all %d benchmarks; rerun, or gate on the common part with --allow-partial",
					strings.Join(res.Missing, ", "), len(cal.Suite))
			}
			if len(res.Suite) == 0 {
				return nil, inputErrorf("this run has none of the calibrated suite (%s)", strings.Join(cal.Suite, ", "))
			}
			res.Partial = true
			warn(Warning{Kind: WarnPartialGate, Benchmarks: res.Missing}, "partial suite: gating on %d of the %d calibrated benchmarks; missing: %s", len(res.Suite), len(cal.Suite), strings.Join(res.Missing, ", "))
		}
		if len(res.Extra) > 0 {
			warn(Warning{Kind: WarnNotCalibrated, Benchmarks: res.Extra}, "not in the calibration, reported but left out of the geomean: %s", strings.Join(res.Extra, ", "))
		}
	} else {
		res.Suite = rr.Names()
		for _, b := range res.Suite {
			inSuite[b] = true
		}
	}
	if res.Score, err = rr.Score(res.Suite); err != nil {
		return nil, err
	}
	// Runner health: the run's baselines against the calibrated history.
	var zs []float64
	for _, b := range rr.Names() {
		br := rr.Ratios[b]
		gb := GateBenchmark{BenchmarkRatio: br, InScore: inSuite[b], HealthZ: math.NaN()}
		if cal != nil {
			if h, ok := cal.Health[b]; ok && h.MADLog > 0 {
				z := (math.Log(br.Baseline) - h.MedianLog) / h.MADLog
				if br.Direction == LowerIsBetter {
					z = -z // a slower runner takes longer: orient so that negative is slower
				}
				gb.HealthZ = z
				zs = append(zs, z)
			}
		}
		res.Benchmarks = append(res.Benchmarks, gb)
	}
	if len(zs) > 0 {
		res.MedianZ = stats.Median(zs)
		res.RunnerDegraded = res.MedianZ < DegradedZ
	}
	// The floor.
	switch {
	case opt.Floor > 0:
		res.Floor, res.FloorSource = opt.Floor, FloorGiven
		if cal != nil && cal.Floor != opt.Floor {
			warn(Warning{Kind: WarnFloorOverride}, "the given floor %v overrides the calibration file's floor %s", opt.Floor, cal.FloorText)
		}
	case cal != nil:
		res.Floor, res.FloorSource = cal.Floor, FloorCalibration
	}
	switch {
	case res.Floor == 0:
		res.Verdict = VerdictUngated
	case res.Score >= res.Floor:
		res.Verdict = VerdictPass
	case opt.ReportOnly:
		res.Verdict = VerdictWarn
	default:
		res.Verdict = VerdictFail
	}
	if res.RunnerDegraded {
		switch opt.OnDegraded {
		case "ignore":
		case "fail":
			res.Verdict = VerdictInconclusive
			warn(Warning{Kind: WarnRunnerDegraded}, "runner degraded: the baseline is far below its calibrated history (median robust z %.1f < %.1f): inconclusive, rerun on a healthy runner", res.MedianZ, DegradedZ)
		default:
			warn(Warning{Kind: WarnRunnerDegraded}, "runner degraded: the baseline is far below its calibrated history (median robust z %.1f < %.1f): treat this verdict with care, and rerun on a healthy runner", res.MedianZ, DegradedZ)
		}
	}
	return res, nil
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
