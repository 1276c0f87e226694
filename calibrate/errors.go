package calibrate

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The errors of this file are those a caller can put right by changing
// what it asked for: an option out of its range, a variant or a metric to
// name, a suite to gate on in part. Each is a value that says what is
// wrong and what would put it right; its Error is the library's plain
// statement, and a command words it in its own terms, naming the flag
// that changes it (package present). Nothing here names a flag or
// formats a figure.

// Option names an option of RecommendOptions, as the struct spells it.
type Option string

// The options Validate checks.
const (
	OptMethod      Option = "Method"
	OptRerunBand   Option = "RerunBand"
	OptTargetFPR   Option = "TargetFPR"
	OptMargin      Option = "Margin"
	OptStep        Option = "Step"
	OptAlpha       Option = "Alpha"
	OptCoverage    Option = "Coverage"
	OptConfidence  Option = "Confidence"
	OptFamilyAlpha Option = "FamilyAlpha"
	OptBootstrap   Option = "Bootstrap"
)

// Range is an interval of values: from Lo to Hi, each end excluded when
// its Open flag is set.
type Range struct {
	Lo, Hi         float64
	OpenLo, OpenHi bool
}

// Contains reports whether x lies in the range (NaN never does).
func (r Range) Contains(x float64) bool {
	above := x > r.Lo || (!r.OpenLo && x == r.Lo)
	below := x < r.Hi || (!r.OpenHi && x == r.Hi)
	return above && below
}

// OptionRanges are the ranges of the numeric options, which Validate
// checks before any work (Bootstrap's is of a whole number).
var OptionRanges = map[Option]Range{
	OptRerunBand:   {Lo: 0, Hi: 0.5, OpenHi: true},
	OptTargetFPR:   {Lo: 0, Hi: 0.5, OpenLo: true, OpenHi: true},
	OptMargin:      {Lo: 0, Hi: 1, OpenHi: true},
	OptStep:        {Lo: MinStep, Hi: 1},
	OptAlpha:       {Lo: 0, Hi: 0.5, OpenLo: true, OpenHi: true},
	OptCoverage:    {Lo: 0.5, Hi: 1, OpenLo: true, OpenHi: true},
	OptConfidence:  {Lo: 0, Hi: 1, OpenLo: true, OpenHi: true},
	OptFamilyAlpha: {Lo: 0, Hi: 0.5, OpenLo: true, OpenHi: true},
	OptBootstrap:   {Lo: 0, Hi: MaxBootstrap},
}

// Methods are the floor methods, in the order a message lists them.
var Methods = []Method{MethodTargetFPR, MethodMargin, MethodPrediction, MethodTolerance}

// OptionError is an option outside its range (OptionRanges), or a method
// that is not one of Methods: the error of RecommendOptions.Validate.
type OptionError struct {
	Option Option
	// Got is the value given: a Method, an int (Bootstrap) or a float64.
	Got any
}

func (e *OptionError) Error() string {
	if e.Option == OptMethod {
		return "the method is not one of calibrate.Methods"
	}
	return "option " + string(e.Option) + " is outside its range (calibrate.OptionRanges)"
}

// RoleError is runs that do not name the variant of a role alike, when
// the options do not name it (Collect): a run that names none (Unnamed),
// or runs that name several (Names, each with the first run that names
// it).
type RoleError struct {
	Role    string // "baseline" or "candidate"
	Unnamed string // the id of a run that names no variant for the role
	Names   []RoleName
}

// RoleName is a variant a run names for a role.
type RoleName struct{ Name, Run string }

func (e *RoleError) Error() string {
	if e.Unnamed != "" {
		return fmt.Sprintf("run %s does not say which variant is the %s", e.Unnamed, e.Role)
	}
	parts := make([]string, len(e.Names))
	for i, n := range e.Names {
		parts[i] = n.Name + " in " + n.Run
	}
	sort.Strings(parts)
	return fmt.Sprintf("the runs disagree on the %s (%s)", e.Role, strings.Join(parts, ", "))
}

// DirectionError is a unit whose direction qoscal does not know (or no
// unit at all), when the direction was not given (Auto): qoscal does not
// guess which way a metric improves.
type DirectionError struct {
	Unit string // "" for measurements without a unit
}

func (e *DirectionError) Error() string {
	if e.Unit == "" {
		return "the measurements have no unit, so it is unknown whether higher is better"
	}
	return fmt.Sprintf("unit %q is unknown, so it is unknown whether higher is better", e.Unit)
}

// MetricsError is a benchmark that reports several metrics, none of them
// the default, when no metric was chosen.
type MetricsError struct {
	Run, Benchmark, Variant string
	Metrics                 []string // sorted
}

func (e *MetricsError) Error() string {
	return fmt.Sprintf("run %s: %s of %s reports several metrics (%s)", e.Run, e.Benchmark, e.Variant, strings.Join(e.Metrics, ", "))
}

// NoMetricError is a run without measurements of the metric chosen.
type NoMetricError struct {
	Run string
	// Unit is the unit looked for, Metric the metric as it was chosen
	// ("time" for sec/op), Has the units the run has, sorted.
	Unit, Metric string
	Has          []string
}

func (e *NoMetricError) Error() string {
	return fmt.Sprintf("run %s has no %s measurements; it has %s", e.Run, e.Unit, strings.Join(e.Has, ", "))
}

// VariantsError is a run gated against a calibration of other variants.
type VariantsError struct {
	Baseline, Candidate       string // the run's
	CalBaseline, CalCandidate string // the calibration's
}

func (e *VariantsError) Error() string {
	return fmt.Sprintf("this run compares %s (candidate) with %s (baseline), but the calibration compares %s with %s",
		e.Candidate, e.Baseline, e.CalCandidate, e.CalBaseline)
}

// UnitError is a suite benchmark the run measured in another unit than
// the calibration's: Msg says so; gating the metric Unit would judge it.
type UnitError struct {
	Msg  string
	Unit string // the calibration's unit of the benchmark
}

func (e *UnitError) Error() string { return e.Msg }

// PartialError is a run that lacks benchmarks of the suite it is gated
// on: Msg says which, and the gate could judge Part, the benchmarks it
// has (GateOptions.AllowPartial).
type PartialError struct {
	Msg  string
	Part string // "the common part", "the benchmarks both measured", ...
}

func (e *PartialError) Error() string {
	return e.Msg + "; rerun, or gate on " + e.Part + " (GateOptions.AllowPartial)"
}

// NoFloorError is a method whose floor rounds to zero or below on the
// step grid: nothing to gate on.
type NoFloorError struct {
	Method Method
	// Raw is the method's bound, Floor that rounded down to the grid of
	// Step.
	Raw, Floor, Step float64
}

func (e *NoFloorError) Error() string {
	return fmt.Sprintf("the %s method gives no floor above 0 on its step's grid: nothing to gate on", e.Method)
}

// FloorTooLowError is a floor a model method put below MinFloorShare of
// the lowest calibration score (CheckFloorUseful): recommend does not
// write it, and the calibration file's reader refuses it.
type FloorTooLowError struct {
	Method Method
	// Floor is the floor, on the grid of Step; Lowest the lowest of the
	// Runs calibration scores.
	Floor, Step, Lowest float64
	Runs                int
}

func (e *FloorTooLowError) Error() string {
	return fmt.Sprintf("the %s method puts the floor below half the lowest calibration score: the gate would pass a candidate more than twice as slow as every calibration run", e.Method)
}

// FloorMismatchError is a calibration file whose floor is not what its
// method gives on its matrix: the field errors of the file name the
// field; this one says what would put it right too.
type FloorMismatchError struct {
	Floor, Want float64
	Method      Method
}

func (e *FloorMismatchError) Error() string {
	return fmt.Sprintf("field floor %v is not what the %s method gives on the matrix (%v)", e.Floor, e.Method, e.Want)
}

// UnknownFieldError is a calibration file field the reader does not
// know: a later version that adds one raises the version.
type UnknownFieldError struct {
	Field string // as a message shows it (quoted when it needs to be)
}

func (e *UnknownFieldError) Error() string {
	return "field " + e.Field + " is unknown: expected only the fields of a calibration file (docs/json.md)"
}

// isMethod reports whether m is one of Methods.
func isMethod(m Method) bool { return slices.Contains(Methods, m) }
