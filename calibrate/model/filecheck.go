package model

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// requiredFields are the fields every file has, besides those of params
// (checkParams), with a value other than null.
var requiredFields = []string{
	"schema", "version", "created", "floor", "floor_text", "method", "params", "baseline", "candidate",
	"suite", "units", "runs", "observed", "false_positive_rate", "detection", "baseline_health", "labels", "tool",
	"matrix", "matrix.runs", "matrix.benchmarks", "matrix.log_ratio",
}

// check validates the decoded fields; present holds the fields written
// with a value other than null (checkKeys), for the sub-fields that must
// be there.
func (f *File) check(present map[string]bool) error {
	if _, err := time.Parse(time.RFC3339, f.Created); err != nil {
		return fmt.Errorf("field created %q: expected an RFC 3339 time like 2026-12-01T08:00:00Z", clipText(f.Created))
	}
	switch f.Method {
	case MethodTargetFPR, MethodMargin, MethodPrediction, MethodTolerance:
	default:
		return fmt.Errorf("field method %q: expected target-fpr, margin, prediction or tolerance", clipText(string(f.Method)))
	}
	if err := f.checkParams(present); err != nil {
		return err
	}
	if err := checkName("baseline", f.Baseline); err != nil {
		return err
	}
	if err := checkName("candidate", f.Candidate); err != nil {
		return err
	}
	if f.Baseline == f.Candidate {
		return fmt.Errorf("fields baseline and candidate are both %q: expected two variants", f.Baseline)
	}
	if len(f.Suite) == 0 {
		return errors.New("field suite is empty: expected the benchmark names the floor was calibrated on")
	}
	inSuite := map[string]bool{}
	for i, name := range f.Suite {
		if err := checkName(fmt.Sprintf("suite[%d]", i), name); err != nil {
			return err
		}
		if inSuite[name] {
			return fmt.Errorf("field suite names %s twice", name)
		}
		inSuite[name] = true
		u, ok := f.Units[name]
		if !ok {
			return fmt.Errorf("field units has no entry for suite benchmark %s", name)
		}
		if err := checkName("units."+name+".unit", u.Unit); err != nil {
			return err
		}
		if u.Direction != "higher" && u.Direction != "lower" {
			return fmt.Errorf("field units.%s.direction %q: expected higher or lower", name, clipText(u.Direction))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(f.Units)) {
		if !inSuite[name] {
			return fmt.Errorf("field units names %s, which is not in the suite", clipText(name))
		}
	}
	if f.Runs < spread.MinCalibrationRuns {
		return fmt.Errorf("field runs %d: the %s method needs at least %d calibration runs, as qoscal recommend does", f.Runs, f.Method, spread.MinCalibrationRuns)
	}
	if err := f.checkObserved(); err != nil {
		return err
	}
	if err := f.checkFloor(); err != nil {
		return err
	}
	if err := f.checkModel(); err != nil {
		return err
	}
	if v := f.Variance; v != nil {
		switch {
		case f.Version < VarianceVersion:
			return fmt.Errorf("field variance_components is a field of version %d, and this file says version %d", VarianceVersion, f.Version)
		case !isFinite(v.Between) || !isFinite(v.Within) || v.Between < 0 || v.Within < 0:
			return fmt.Errorf("field variance_components: between %v and within %v: expected SDs, finite and >= 0", v.Between, v.Within)
		case !isFinite(v.MeanLog):
			return fmt.Errorf("field variance_components.mean_log %v: expected a finite log score", v.MeanLog)
		case v.Runs < 2 || v.Runs > f.Runs:
			return fmt.Errorf("field variance_components.runs %d: expected 2 to the %d calibration runs", v.Runs, f.Runs)
		case v.Repetitions <= v.Runs:
			return fmt.Errorf("field variance_components.repetitions %d: expected more than its %d runs (some run with 2 repetitions or more)", v.Repetitions, v.Runs)
		case v.Rho != 0 && f.Version < RhoVersion:
			return fmt.Errorf("field variance_components.rho is a field of version %d, and this file says version %d", RhoVersion, f.Version)
		case !(v.Rho >= 0 && v.Rho <= stats.RhoMax):
			return fmt.Errorf("field variance_components.rho %v: expected the repetitions' autocorrelation inside a job, in [0, %v]", v.Rho, stats.RhoMax)
		}
		if err := f.checkVariance(); err != nil {
			return err
		}
	}
	for _, r := range []struct {
		name string
		v    NullFloat
	}{{"predictive", f.FPR.Predictive}, {"upper95", f.FPR.Upper95}, {"distribution_free", f.FPR.DistributionFree}} {
		if v := float64(r.v); !math.IsNaN(v) && !(v >= 0 && v <= 1) {
			return fmt.Errorf("field false_positive_rate.%s %v: expected a rate in [0, 1] or null", r.name, v)
		}
	}
	for _, r := range []struct {
		name string
		v    NullFloat
	}{{"r50", f.Detection.R50}, {"r90", f.Detection.R90}} {
		if v := float64(r.v); !math.IsNaN(v) && !(v > 0 && !math.IsInf(v, 0)) {
			return fmt.Errorf("field detection.%s %v: expected a regression factor > 0 or null", r.name, v)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(f.Health)) {
		h := f.Health[name]
		if err := checkName("baseline_health key", name); err != nil {
			return err
		}
		if !isFinite(h.MedianLog) || !isFinite(h.MADLog) || h.MADLog < 0 {
			return fmt.Errorf("field baseline_health.%s: expected a finite median_log and a finite mad_log >= 0", name)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(f.Labels)) {
		if err := checkName("labels key", k); err != nil {
			return err
		}
		if err := checkText("labels."+k, f.Labels[k]); err != nil {
			return err
		}
	}
	for i, name := range f.ExpectedSkips {
		if err := checkName(fmt.Sprintf("expected_skips[%d]", i), name); err != nil {
			return err
		}
		if i > 0 && name <= f.ExpectedSkips[i-1] {
			return fmt.Errorf("field expected_skips: %s after %s: expected the names sorted, each once", clipText(name), clipText(f.ExpectedSkips[i-1]))
		}
	}
	if err := f.checkEnvironments(); err != nil {
		return err
	}
	if err := f.checkProfiles(present); err != nil {
		return err
	}
	return checkText("tool", f.Tool)
}

func (f *File) checkParams(present map[string]bool) error {
	for _, k := range []string{"margin", "step", "seed"} {
		if !present["params."+k] {
			return fmt.Errorf("field params.%s is missing", k)
		}
	}
	p := f.Params
	if !(p.Margin >= 0 && p.Margin < 1) {
		return fmt.Errorf("field params.margin %v: expected a fraction in [0, 1)", p.Margin)
	}
	if !(p.Step > 0 && p.Step <= 1) {
		return fmt.Errorf("field params.step %v: expected a step in (0, 1]", p.Step)
	}
	switch f.Method {
	case MethodTargetFPR:
		if !(p.TargetFPR > 0 && p.TargetFPR < 0.5) {
			return fmt.Errorf("field params.target_fpr %v: the target-fpr method needs a rate in (0, 0.5)", p.TargetFPR)
		}
	case MethodPrediction:
		if !(p.Alpha > 0 && p.Alpha < 0.5) {
			return fmt.Errorf("field params.alpha %v: the prediction method needs alpha in (0, 0.5)", p.Alpha)
		}
	case MethodTolerance:
		if !(p.Coverage > 0.5 && p.Coverage < 1) {
			return fmt.Errorf("field params.coverage %v: the tolerance method needs coverage in (0.5, 1)", p.Coverage)
		}
		if !(p.Confidence > 0 && p.Confidence < 1) {
			return fmt.Errorf("field params.confidence %v: the tolerance method needs confidence in (0, 1)", p.Confidence)
		}
	}
	return nil
}

// checkObserved checks the summary of the calibration scores: positive,
// finite, ordered, and a geometric mean exp(mean_log) between the lowest
// and the highest.
func (f *File) checkObserved() error {
	o := f.Observed
	for _, v := range []struct {
		name string
		v    float64
	}{{"min", o.Min}, {"median", o.Median}, {"max", o.Max}} {
		if !isFinite(v.v) || !(v.v > 0) {
			return fmt.Errorf("field observed.%s %v: expected a score > 0", v.name, v.v)
		}
	}
	if !(o.Min <= o.Median && o.Median <= o.Max) {
		return fmt.Errorf("fields observed.min %v, median %v and max %v: expected min <= median <= max", o.Min, o.Median, o.Max)
	}
	if !isFinite(o.MeanLog) || !isFinite(o.SDLog) || o.SDLog < 0 {
		return fmt.Errorf("fields observed.mean_log %v and sd_log %v: expected finite numbers, sd_log >= 0", o.MeanLog, o.SDLog)
	}
	if g := math.Exp(o.MeanLog); !(g >= o.Min*(1-1e-9) && g <= o.Max*(1+1e-9)) {
		return fmt.Errorf("field observed.mean_log %v: its geometric mean %v lies outside observed.min %v .. max %v", o.MeanLog, g, o.Min, o.Max)
	}
	return nil
}

// varianceCheckRate is the chance, under the model, that checkVariance
// refuses the variance components of a file recommend wrote, for each of
// its two checks: small, so that a real calibration is refused about
// never, since the checks are there for edits that move a floor by far.
const varianceCheckRate = 1e-6

// checkVariance checks variance_components against the runs' scores in
// the (already checked) matrix, from which it was estimated (the same
// runs' repetitions). The sequential gate and the floor for a mean of
// repetitions rest on it, and an edit of mean_log or between alone moved
// them far below the floor the matrix checks. (i) V = between² +
// within²/r̄ (r̄ the mean repetitions a run) is the variance of a run's
// log score under the model: it must not be so large that the n runs'
// sample variance s² falls below V·χ²(n−1; varianceCheckRate)/(n − 1). A
// V smaller than the runs' spread is allowed: it makes the gate stricter,
// not laxer, and the sequential gate uses max(V, s²) (an estimated
// between of 0 is common with few runs). (ii) mean_log is within
// z·√(max(V, s²)/runs) + within² of observed.mean_log, z the normal
// quantile at 1 − varianceCheckRate (within² allows for the gap between a
// mean of per-repetition scores and a score of pooled ratios).
func (f *File) checkVariance() error {
	v, o := f.Variance, f.Observed
	V := v.RunVar()
	s2 := o.SDLog * o.SDLog
	df := float64(f.Runs - 1)
	if V > 0 && s2*df/V < stats.ChiSquaredQuantile(varianceCheckRate, df) {
		return fmt.Errorf("field variance_components: between %v and within %v give a run's log score an SD of %.4g, which the %d runs' scores (sd_log %.4g) rule out", v.Between, v.Within, math.Sqrt(V), f.Runs, o.SDLog)
	}
	tol := stats.NormalQuantile(1-varianceCheckRate)*math.Sqrt(max(V, s2)/float64(v.Runs)) + v.Within*v.Within
	if math.Abs(v.MeanLog-o.MeanLog) > tol {
		return fmt.Errorf("field variance_components.mean_log %v: the runs' mean log score is %.6g (observed.mean_log), and the two estimate one mean (at most %.3g apart)", v.MeanLog, o.MeanLog, tol)
	}
	return nil
}

// checkModel checks the file's model against the rest of the file: the
// matrix has a row of finite log ratios for every run and a column for
// every suite benchmark in suite order, its scores give the observed min,
// median and max, and the method gives the floor on it (check has made
// sure there are runs enough for the method to give one). A file whose
// figures do not follow from its data is refused.
func (f *File) checkModel() error {
	m := f.Matrix
	if !(f.Params.FamilyAlpha > 0 && f.Params.FamilyAlpha < 0.5) {
		return fmt.Errorf("field params.family_alpha %v: expected a rate in (0, 0.5)", f.Params.FamilyAlpha)
	}
	if len(m.Runs) != f.Runs || len(m.LogRatio) != f.Runs {
		return fmt.Errorf("field matrix has %d run ids and %d rows, but runs is %d", len(m.Runs), len(m.LogRatio), f.Runs)
	}
	if len(m.Benchmarks) != len(f.Suite) {
		return fmt.Errorf("field matrix.benchmarks has %d names, but the suite %d", len(m.Benchmarks), len(f.Suite))
	}
	for j, b := range m.Benchmarks {
		if b != f.Suite[j] {
			return fmt.Errorf("field matrix.benchmarks[%d] is %q, but suite[%d] is %q: expected the suite, in order", j, clipText(b), j, f.Suite[j])
		}
	}
	seen := map[string]bool{}
	for i, id := range m.Runs {
		if err := checkName(fmt.Sprintf("matrix.runs[%d]", i), id); err != nil {
			return err
		}
		if seen[id] {
			return fmt.Errorf("field matrix.runs names run %s twice", clipText(id))
		}
		seen[id] = true
	}
	for i, row := range m.LogRatio {
		if len(row) != len(m.Benchmarks) {
			return fmt.Errorf("field matrix.log_ratio[%d] has %d values, expected %d", i, len(row), len(m.Benchmarks))
		}
		for j, x := range row {
			if !isFinite(x) || math.Abs(x) > 700 {
				return fmt.Errorf("field matrix.log_ratio[%d][%d] %v: expected a finite log ratio", i, j, x)
			}
		}
	}
	scores, err := m.Scores(f.Suite)
	if err != nil {
		return fmt.Errorf("field matrix: %w", err)
	}
	lo, hi := stats.MinMax(scores)
	med := stats.Median(scores)
	for _, c := range []struct {
		name      string
		file, got float64
	}{{"min", f.Observed.Min, lo}, {"median", f.Observed.Median, med}, {"max", f.Observed.Max, hi}} {
		if math.Abs(c.file-c.got) > 1e-12*math.Abs(c.got) {
			return fmt.Errorf("field observed.%s %v is not the matrix's (%v)", c.name, c.file, c.got)
		}
	}
	// The gate moves the floor for a mean of repetitions by the runs'
	// mean and SD of log scores: they must be the matrix's too.
	logs, err := stats.Logs(scores)
	if err != nil {
		return fmt.Errorf("field matrix: %w", err)
	}
	for _, c := range []struct {
		name      string
		file, got float64
	}{{"mean_log", f.Observed.MeanLog, stats.Mean(logs)}, {"sd_log", f.Observed.SDLog, stats.SD(logs)}} {
		if math.Abs(c.file-c.got) > 1e-9*(1+math.Abs(c.got)) {
			return fmt.Errorf("field observed.%s %v is not the matrix's (%v)", c.name, c.file, c.got)
		}
	}
	_, floor, _, err := FloorOf(scores, f.RecommendOptions())
	if err != nil {
		return fmt.Errorf("field matrix: %w", err)
	}
	if floor != f.Floor {
		return &FloorMismatchError{Floor: f.Floor, Method: f.Method, Want: floor}
	}
	if err := CheckFloorUseful(scores, f.Floor, f.RecommendOptions()); err != nil {
		return fmt.Errorf("field floor %v: %w", f.Floor, err)
	}
	return f.checkRule(scores)
}

// checkFloor checks that the floor is a positive number on its step's
// grid, no higher than the highest calibration score, and that floor_text
// is that number with the step's decimals (the text is what the gate
// prints, the number what it compares: they must not disagree).
func (f *File) checkFloor() error {
	if !isFinite(f.Floor) || !(f.Floor > 0) {
		return fmt.Errorf("field floor %v: expected a number > 0", f.Floor)
	}
	if f.Floor < f.Params.Step {
		return fmt.Errorf("field floor %v: below one step (%v) of its grid: expected a floor >= %v", f.Floor, f.Params.Step, f.Params.Step)
	}
	if f.Floor > f.Observed.Max {
		return fmt.Errorf("field floor %v is above every calibration score (observed.max %v): every healthy run would fail", f.Floor, f.Observed.Max)
	}
	want := f.FormatFloor(f.Floor)
	if f.FloorText != want {
		return fmt.Errorf("field floor_text %q disagrees with field floor %v (expected %q)", clipText(f.FloorText), f.Floor, want)
	}
	if RoundDown(f.Floor, f.Params.Step) != f.Floor {
		return fmt.Errorf("field floor %v is not on the grid of params.step %v", f.Floor, f.Params.Step)
	}
	return nil
}

// checkName checks a name: non-empty, and as data.CheckName checks the
// names of result files.
func checkName(field, s string) error {
	if s == "" {
		return fmt.Errorf("field %s is empty: expected a name", field)
	}
	return checkText(field, s)
}

// checkText checks text that reaches output (a label value, the tool): at
// most data.MaxNameLen bytes of valid UTF-8 without control characters or
// line separators, which would break a line of output or forge one.
func checkText(field, s string) error { return data.CheckName("field "+field, s) }

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// clipText shortens s for an error message.
func clipText(s string) string {
	if len(s) <= 80 {
		return s
	}
	return s[:80] + "..."
}
