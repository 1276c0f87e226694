package model

import (
	"slices"
	"strconv"
	"strings"

	"github.com/qoscal/qoscal/stats"
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
		return "the method is not one of model.Methods"
	}
	return "option " + string(e.Option) + " is outside its range (calibrate.OptionRanges)"
}

// isMethod reports whether m is one of Methods.
func isMethod(m Method) bool { return slices.Contains(Methods, m) }

// Method is a rule that turns a calibration into a floor (STATS.md 2).
type Method string

const (
	// MethodMargin: the observed minimum score × (1 − margin), rounded down
	// to the step grid (STATS.md 2.1). The default.
	MethodMargin Method = "margin"
	// MethodPrediction: the log-normal lower prediction bound at alpha
	// (STATS.md 2.3), rounded down.
	MethodPrediction Method = "prediction"
	// MethodTargetFPR: the snuggest floor on the step grid whose
	// predictive false-positive rate per healthy run is at most TargetFPR
	// (STATS.md 2.11). The default.
	MethodTargetFPR Method = "target-fpr"
	// MethodTolerance: the one-sided lower normal tolerance bound in log
	// space at coverage/confidence (STATS.md 2.4), rounded down.
	MethodTolerance Method = "tolerance"
)

// RecommendOptions are the parameters of a floor recommendation. Their
// documented defaults are DefaultRecommendOptions.
type RecommendOptions struct {
	Method Method
	// Margin is how far below the lowest run the margin rule puts the
	// floor, as a fraction: 0.10 is 10%. In [0, 1).
	Margin float64
	// Step is the grid the floor is rounded down to: 0.01 gives floors
	// like 1.25. > 0.
	Step float64
	// Alpha is the prediction method's per-run false-positive rate.
	Alpha float64
	// Coverage and Confidence are the tolerance method's p and γ.
	Coverage, Confidence float64
	// Seed seeds the bootstrap diagnostic; Bootstrap is its number of
	// resamples (0: none).
	Seed      uint64
	Bootstrap int
	// Horizon is the number of future healthy runs over which the chance
	// of at least one false alarm is reported.
	Horizon int
	// CandidateStep is the spacing of the table of snugger floors.
	CandidateStep float64
	// FamilyAlpha is the family-wise false-positive rate per healthy run
	// of the per-benchmark bands (Holm's step-down over the suite).
	FamilyAlpha float64
	// TargetFPR is the target-fpr method's predictive false-positive rate
	// per healthy run.
	TargetFPR float64
	// RerunBand is the gate's rerun band whose two-stage rule the
	// recommendation reports (STATS.md 2.14); 0: not reported.
	RerunBand float64
}

// DefaultTargetFPR is the default method's target: one false alarm in
// 1,000 healthy runs (STATS.md 2.11).
const DefaultTargetFPR = 0.001

// DefaultRecommendOptions: margin rule, 10% margin, step 0.01; α 0.01 for
// the prediction method; 95% coverage at 95% confidence for the tolerance
// method; 2000 bootstrap resamples with seed 1; a 100-run horizon;
// candidate floors every 0.05; bands at a family-wise rate of 0.01.
var DefaultRecommendOptions = RecommendOptions{
	Method: MethodTargetFPR, TargetFPR: DefaultTargetFPR, Margin: 0.10, Step: 0.01, Alpha: 0.01,
	Coverage: 0.95, Confidence: 0.95, Seed: 1, Bootstrap: 2000, Horizon: 100, CandidateStep: 0.05,
	FamilyAlpha: DefaultFamilyAlpha, RerunBand: 0.03,
}

// Validate checks the options' ranges (OptionRanges) and the method: an
// *OptionError names the first one out of range, in the order of the
// struct's fields, the method first.
func (o *RecommendOptions) Validate() error {
	if !isMethod(o.Method) {
		return &OptionError{Option: OptMethod, Got: o.Method}
	}
	for _, c := range []struct {
		opt Option
		v   float64
		got any
	}{
		{OptRerunBand, o.RerunBand, o.RerunBand}, {OptTargetFPR, o.TargetFPR, o.TargetFPR}, {OptMargin, o.Margin, o.Margin},
		{OptStep, o.Step, o.Step}, {OptAlpha, o.Alpha, o.Alpha}, {OptCoverage, o.Coverage, o.Coverage},
		{OptConfidence, o.Confidence, o.Confidence}, {OptFamilyAlpha, o.FamilyAlpha, o.FamilyAlpha},
		{OptBootstrap, float64(o.Bootstrap), o.Bootstrap},
	} {
		if !OptionRanges[c.opt].Contains(c.v) {
			return &OptionError{Option: c.opt, Got: c.got}
		}
	}
	return nil
}

// The ranges of the options that are counts and sizes, checked by
// Validate before any work: a grid step of 1e-300 printed a floor to 300
// decimals, and 2,147,483,648 resamples ran for minutes.
const (
	// MinStep is the finest floor grid: four decimals.
	MinStep = 0.0001
	// MaxBootstrap bounds the bootstrap's resamples (50 times the
	// default).
	MaxBootstrap = 100000
)

// StepDecimals is the number of decimals a floor on the grid of step
// needs: 2 for 0.05, 1 for 0.1, 3 for 0.005.
func StepDecimals(step float64) int {
	s := strconv.FormatFloat(step, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// RoundDown rounds x down to the grid of step, safely: the number of
// steps is ⌊x/step + 1e−9⌋, and the result is that many steps, rounded to
// the step's decimals so that 27 × 0.05 is 1.35 and not
// 1.3500000000000001 (STATS.md 2.1).
func RoundDown(x, step float64) float64 {
	n := stats.FloorSteps(x, step)
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(n)*step, 'f', StepDecimals(step), 64), 64)
	return v
}

// FormatOnStep prints a floor with the decimals of the step grid: 1.25 on
// a 0.05 grid, 1.2 on a 0.1 grid.
func FormatOnStep(f, step float64) string {
	return strconv.FormatFloat(f, 'f', StepDecimals(step), 64)
}
