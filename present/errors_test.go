package present

import (
	"errors"
	"fmt"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
)

// TestError: the errors of calibrate that a flag or a command puts right
// are worded with it, in place inside whatever wraps them, and stay the
// errors they were (errors.As); any other error is left as it is.
func TestError(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&model.OptionError{Option: model.OptMargin, Got: 1.3}, "--margin must be in [0, 1), got 1.3"},
		{&model.OptionError{Option: model.OptMargin, Got: -0.1}, "--margin must be in [0, 1), got -0.1"},
		{&model.OptionError{Option: model.OptStep, Got: 0.0}, "--step must be in [0.0001, 1], got 0: a floor is shown to the step's decimals"},
		{&model.OptionError{Option: model.OptStep, Got: 1e-300}, "--step must be in [0.0001, 1], got 1e-300: a floor is shown to the step's decimals"},
		{&model.OptionError{Option: model.OptBootstrap, Got: 1 << 31}, "--bootstrap must be in [0, 100000] (0: no bootstrap), got 2147483648: its time grows with the resamples times the runs"},
		{&model.OptionError{Option: model.OptBootstrap, Got: -1}, "--bootstrap must be in [0, 100000] (0: no bootstrap), got -1: its time grows with the resamples times the runs"},
		{&model.OptionError{Option: model.OptMethod, Got: model.Method("vibes")}, `--method must be target-fpr, margin, prediction or tolerance, got "vibes"`},
		{&model.OptionError{Option: model.OptAlpha, Got: 0.7}, "--alpha must be in (0, 0.5), got 0.7"},
		{&model.OptionError{Option: model.OptCoverage, Got: 0.3}, "--coverage must be in (0.5, 1), got 0.3"},
		{&model.OptionError{Option: model.OptConfidence, Got: 1.0}, "--confidence must be in (0, 1), got 1"},
		{&model.OptionError{Option: model.OptFamilyAlpha, Got: 0.6}, "--family-alpha must be in (0, 0.5), got 0.6"},
		{&model.OptionError{Option: model.OptRerunBand, Got: 0.6}, "--rerun-band must be in [0, 0.5), got 0.6"},
		{&model.OptionError{Option: model.OptTargetFPR, Got: 0.7}, "--target-fpr must be in (0, 0.5), got 0.7"},
		{&calspread.RoleError{Role: "baseline", Unnamed: "r2"}, "run r2 does not say which variant is the baseline: name it with --baseline NAME"},
		{&calspread.RoleError{Role: "baseline", Names: []calspread.RoleName{{Name: "system", Run: "r1"}, {Name: "glibc", Run: "r3"}}},
			"the runs disagree on the baseline (glibc in r3, system in r1): name it with --baseline NAME"},
		{fmt.Errorf("run r3, benchmark a: %w", &calibrate.DirectionError{Unit: "furlongs"}),
			`run r3, benchmark a: unit "furlongs" is unknown, so it is unknown whether higher is better: use --higher-is-better or --lower-is-better`},
		{&calibrate.DirectionError{}, "the measurements have no unit, so it is unknown whether higher is better: use --higher-is-better or --lower-is-better"},
		{&calibrate.MetricsError{Run: "r", Benchmark: "BenchmarkY-8", Variant: "old", Metrics: []string{"gadgets", "widgets"}},
			"run r: BenchmarkY-8 of old reports several metrics (gadgets, widgets): choose one with --metric"},
		{&calibrate.NoMetricError{Run: "r", Unit: "allocs/op", Metric: "allocs/op", Has: []string{"B/op", "sec/op"}},
			"run r has no allocs/op measurements (--metric allocs/op); it has B/op, sec/op"},
		{&gate.VariantsError{Baseline: "system", Candidate: "hoard", CalBaseline: "glibc", CalCandidate: "mimalloc"},
			"this run compares hoard (candidate) with system (baseline), but the calibration compares mimalloc with glibc: name the variants as the calibration does (--baseline glibc=FILE --candidate mimalloc=FILE)"},
		{&gate.UnitError{Msg: "benchmark a: run 1 measured it in B/op, but calibration file c.json has sec/op (field units.a.unit)", Unit: "sec/op"},
			"benchmark a: run 1 measured it in B/op, but calibration file c.json has sec/op (field units.a.unit): gate the metric the floor was calibrated on (--metric sec/op)"},
		{&gate.PartialError{Msg: "run 1 lacks x of the suite", Part: "the common part"}, "run 1 lacks x of the suite; rerun, or gate on the common part with --allow-partial"},
		{&calfloor.NoFloorError{Method: model.MethodMargin, Raw: 0.014412, Floor: 0, Step: 0.1},
			"the margin method gives a floor of 0.01441, which rounds to 0.0 at step 0.1: nothing to gate on; with so few or so spread runs, calibrate on more runs, or put the floor a margin below the lowest run instead"},
		{fmt.Errorf("calibration file c.json: %w", &model.FloorMismatchError{Floor: 1.3, Want: 1.25, Method: model.MethodMargin}),
			"calibration file c.json: field floor 1.3 is not what the margin method gives on the matrix (1.25): write the file again with qoscal recommend --write, or give the floor to the gate with --floor"},
		{fmt.Errorf("calibration file c.json: %w", &model.UnknownFieldError{Field: "comment"}),
			"calibration file c.json: field comment is unknown: expected only the fields qoscal recommend --write writes (docs/json.md)"},
		{fmt.Errorf("calibration file v1.json: %w", model.ErrVersion1),
			"calibration file v1.json: version 1 has no matrix (the calibration runs' log ratios), so its floor cannot be checked against the runs it came from: write it again with qoscal recommend --write on the same runs"},
		{errors.New("no such file"), "no such file"},
	} {
		got := Error(c.err)
		if got.Error() != c.want {
			t.Errorf("Error(%v):\n got %s\nwant %s", c.err, got, c.want)
		}
		if !errors.Is(got, c.err) {
			t.Errorf("Error(%v) is no longer the error it words", c.err)
		}
	}
	if Error(nil) != nil {
		t.Error("Error(nil) is not nil")
	}
}

// TestRuleName: each method with its parameter, as the candidate table
// names it.
func TestRuleName(t *testing.T) {
	o := model.DefaultRecommendOptions
	for _, c := range []struct {
		mod  func(*model.RecommendOptions)
		want string
	}{
		{func(o *model.RecommendOptions) { o.Method, o.TargetFPR = model.MethodTargetFPR, 0.001 }, "target 1 in 1,000"},
		{func(o *model.RecommendOptions) { o.Method, o.TargetFPR = model.MethodTargetFPR, 1.0/300 }, "target 1 in 300"},
		{func(o *model.RecommendOptions) { o.Method, o.Margin = model.MethodMargin, 0.13 }, "margin 13%"},
		{func(o *model.RecommendOptions) { o.Method, o.Alpha = model.MethodPrediction, 0.01 }, "prediction α 0.01"},
		{func(o *model.RecommendOptions) { o.Method = model.MethodTolerance }, "tolerance 0.95/0.95"},
	} {
		oc := o
		c.mod(&oc)
		if got := ruleName(oc); got != c.want {
			t.Errorf("RuleName(%s) = %q, want %q", oc.Method, got, c.want)
		}
	}
}
