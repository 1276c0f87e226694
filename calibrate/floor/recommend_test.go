package floor_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/internal/testenv"
	"github.com/qoscal/qoscal/stats"
)

func TestRoundDown(t *testing.T) {
	cases := []struct {
		x, step, want float64
		reason        string
	}{
		{1.44 * 0.87, 0.05, 1.25, "the worked example"},
		{1.00 * (1 - 0.07), 0.01, 0.93, "float64 gives 92.999… steps (STATS.md 2.1)"},
		{2.00 * (1 - 0.30), 0.10, 1.4, "float64 gives 13.999… steps"},
		{1.35, 0.05, 1.35, "27 × 0.05 must not be 1.3500000000000001"},
		{1.2799, 0.01, 1.27, "plain rounding down"},
	}
	for _, c := range cases {
		if got := model.RoundDown(c.x, c.step); got != c.want {
			t.Errorf("RoundDown(%v, %v) = %v, want %v (%s)", c.x, c.step, got, c.want, c.reason)
		}
	}
	if model.StepDecimals(0.05) != 2 || model.StepDecimals(0.1) != 1 || model.StepDecimals(1) != 0 || model.StepDecimals(0.005) != 3 {
		t.Error("StepDecimals")
	}
}

func TestRecommendWorkedExample(t *testing.T) {
	a, r := calibtest.WorkedRecommendation(t)
	opt := calibtest.WorkedOptions()
	if r.Floor != 1.25 || r.FormatFloor(r.Floor) != "1.25" {
		t.Errorf("floor %v, want 1.25 (STATS.md 2.1)", r.Floor)
	}
	// false_positive_rate[F=1.25] and detection_power[F=1.25].
	calibtest.Near(t, "false_positive_rate[F=1.25].fpr_predictive_t_df4", r.Cost.Predictive, 0.008373223488399518, 1e-6)
	// The 95% bound of the normal tail is the vector's; the bound stated
	// allows for the heavier tails five runs cannot rule out, and is the
	// larger (docs/STATS.md 5d).
	calibtest.Near(t, "false_positive_rate[F=1.25].fpr_upper_conf_0.95", stats.FPRUpperEff(a.Score.MeanLog, a.Score.SDLog, a.Score.UpperEffective, 1.25, 0.95), 0.044260961151582276, 1e-5)
	if want := floor.Upper95(a.Score, 1.25); r.Cost.Upper95 != want || !(want > 0.044260961151582276) {
		t.Errorf("upper95 %v, want %v, above the normal tail's 0.04426", r.Cost.Upper95, want)
	}
	calibtest.Near(t, "detection_power[F=1.25].r50", r.Cost.R50, 0.8051759921224753, 1e-7)
	calibtest.Near(t, "detection_power[F=1.25].r90_predictive", r.Cost.R90, 0.7403020991118068, 1e-7)
	calibtest.Near(t, "detection_power[F=1.25].single_benchmark_factor_equivalent_r50_k10", r.Cost.SingleQ50, 0.11452707546066482, 1e-6)
	calibtest.Near(t, "distribution_free.p_next_below_min_of_n[5]", r.Cost.DistributionFree, 1.0/6, 1e-12)
	// The predictive horizon: 1 − (1 − p)^100 averaged over the posterior
	// (scipy dblquad, stats/testdata/horizon_reference.py), not
	// 1 − (1 − 0.008373)^100 = 0.5687.
	calibtest.Near(t, "predictive horizon over 100 runs", r.Cost.Horizon, 0.16619101537348405, 1e-6)
	if plugIn := 1 - math.Pow(1-r.Cost.Predictive, 100); r.Cost.Horizon > plugIn-0.3 {
		t.Errorf("horizon %v is not well below 1-(1-p)^100 = %v", r.Cost.Horizon, plugIn)
	}
	calibtest.Near(t, "distribution_free horizon m/(n+m)", r.Cost.HorizonFree, 100.0/105, 1e-12)
	if r.MoreRunsForOnePct != 95 {
		t.Errorf("more runs for 1%%: %d, want 95", r.MoreRunsForOnePct)
	}
	// The candidates: the target rule's floor side by side (1 in 1,000:
	// exp(m − t_{4,0.999}·s·√1.2) = 1.0479, 1.00 on the 0.05 grid), the
	// recommendation and the snugger grid floors up to the lowest run.
	var floors []float64
	var rules []model.Method
	for _, c := range r.Candidates {
		floors = append(floors, math.Round(c.Floor*100)/100)
		rules = append(rules, c.Rule)
	}
	if diff := cmp.Diff([]float64{1.00, 1.25, 1.30, 1.35, 1.40, 1.44}, floors); diff != "" {
		t.Errorf("candidate floors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]model.Method{model.MethodTargetFPR, model.MethodMargin, "", "", "", ""}, rules); diff != "" {
		t.Errorf("candidate rules (-want +got):\n%s", diff)
	}
	// false_positive_rate[F=1.40]: a snugger floor costs 8× the rate, and
	// is only 2.8% under the lowest healthy run.
	calibtest.Near(t, "false_positive_rate[F=1.4].fpr_predictive_t_df4", r.Candidates[4].Predictive, 0.06613279, 1e-6)
	calibtest.Near(t, "1.40 below 1.44", r.Candidates[4].BelowMinPct, 2.7777777777777777, 1e-6)

	opt.Method = model.MethodTolerance
	r, err := floor.Recommend(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	// tolerance_k_factors.five_run_lower_tolerance_bounds[p=0.95 γ=0.95]
	calibtest.Near(t, "five_run_lower_tolerance_bound", r.Raw, 1.2581475524758625, 1e-7)
	calibtest.Near(t, "k(5, .95, .95)", r.ToleranceK, 4.202680741256176, 1e-7)

	opt.Method, opt.Alpha = model.MethodPrediction, 0.01
	r, _ = floor.Recommend(a, opt)
	calibtest.Near(t, "lognormal_prediction_bound[α=0.01]", r.Raw, 1.2643361487712386, 1e-7)
	if r.Floor != 1.25 {
		t.Errorf("prediction floor %v rounds to 1.25 at step 0.05", r.Floor)
	}
}

func TestRecommendWarningsAndValidation(t *testing.T) {
	a, _ := spread.Analyze(calibtest.FiveRuns(t), spread.Options{})
	opt := model.DefaultRecommendOptions
	opt.Method, opt.Margin = model.MethodMargin, 0.40
	r, err := floor.Recommend(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []calibrate.Warning{
		{Kind: floor.WarnClaimUnsure, Figures: calibrate.ClaimFigures{FewRuns: true,
			Claimed: r.Cost.Claimed, Runs: 5, Lag1: a.Score.Lag1, RunsNeeded: floor.ClaimMinRuns}},
		{Kind: calibrate.WarnFloorBelowOne, Figures: calibrate.FloorFigures{Floor: 0.86, Step: 0.01, Min: a.Score.Min}},
	}
	if diff := cmp.Diff(want, r.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// An option out of its range is an *OptionError naming it as the
	// struct does, with the value given (package present words it as
	// the flag).
	for _, c := range []struct {
		mod  func(*model.RecommendOptions)
		want model.OptionError
	}{
		{func(o *model.RecommendOptions) { o.Margin = 1.3 }, model.OptionError{Option: model.OptMargin, Got: 1.3}},
		{func(o *model.RecommendOptions) { o.Margin = -0.1 }, model.OptionError{Option: model.OptMargin, Got: -0.1}},
		{func(o *model.RecommendOptions) { o.Step = 0 }, model.OptionError{Option: model.OptStep, Got: 0.0}},
		{func(o *model.RecommendOptions) { o.Step = 1e-300 }, model.OptionError{Option: model.OptStep, Got: 1e-300}},
		{func(o *model.RecommendOptions) { o.Step = 0.0001 }, model.OptionError{}},
		{func(o *model.RecommendOptions) { o.Bootstrap = 1 << 31 }, model.OptionError{Option: model.OptBootstrap, Got: 1 << 31}},
		{func(o *model.RecommendOptions) { o.Bootstrap = -1 }, model.OptionError{Option: model.OptBootstrap, Got: -1}},
		{func(o *model.RecommendOptions) { o.Bootstrap = model.MaxBootstrap }, model.OptionError{}},
		{func(o *model.RecommendOptions) { o.Method = "vibes" }, model.OptionError{Option: model.OptMethod, Got: model.Method("vibes")}},
		{func(o *model.RecommendOptions) { o.Alpha = 0.7 }, model.OptionError{Option: model.OptAlpha, Got: 0.7}},
		{func(o *model.RecommendOptions) { o.Alpha = 0 }, model.OptionError{Option: model.OptAlpha, Got: 0.0}},
		{func(o *model.RecommendOptions) { o.Coverage = 0.5 }, model.OptionError{Option: model.OptCoverage, Got: 0.5}},
		{func(o *model.RecommendOptions) { o.Confidence = math.NaN() }, model.OptionError{Option: model.OptConfidence, Got: math.NaN()}},
		{func(o *model.RecommendOptions) { o.RerunBand = 0.5 }, model.OptionError{Option: model.OptRerunBand, Got: 0.5}},
		{func(o *model.RecommendOptions) { o.RerunBand = 0 }, model.OptionError{}},
		{func(o *model.RecommendOptions) { o.TargetFPR = 0.5 }, model.OptionError{Option: model.OptTargetFPR, Got: 0.5}},
		{func(o *model.RecommendOptions) { o.FamilyAlpha = 0.5 }, model.OptionError{Option: model.OptFamilyAlpha, Got: 0.5}},
	} {
		o := model.DefaultRecommendOptions
		c.mod(&o)
		err := o.Validate()
		var got model.OptionError
		if oe := (*model.OptionError)(nil); errors.As(err, &oe) {
			got = *oe
		} else if err != nil {
			t.Errorf("%+v: error %v is no *OptionError", c.want, err)
		}
		if diff := cmp.Diff(c.want, got, cmpopts.EquateNaNs()); diff != "" {
			t.Errorf("Validate (-want +got):\n%s", diff)
		}
		if _, err := floor.Recommend(a, o); (err == nil) != (c.want.Option == "") {
			t.Errorf("%+v: Recommend's error %v is not Validate's", c.want, err)
		}
	}
}

func TestCalibrationFileRoundTrip(t *testing.T) {
	a, _ := spread.Analyze(calibtest.FiveRuns(t), spread.Options{})
	opt := model.DefaultRecommendOptions
	opt.Method, opt.Margin, opt.Step = model.MethodMargin, 0.13, 0.05
	r, _ := floor.Recommend(a, opt)
	f := floor.NewFile(a, r, map[string]string{"os": "windows"}, time.Unix(1796112000, 0), "qoscal test")
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := model.ParseFile("c.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if g.Path != "c.json" {
		t.Errorf("Path %q, want the name given to ParseFile", g.Path)
	}
	if diff := cmp.Diff(f, g, cmpopts.IgnoreFields(model.File{}, "Path")); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if g.FloorText != "1.25" || g.Created != "2026-12-01T08:00:00Z" || g.DirectionOf("larson") != calibrate.HigherIsBetter || len(g.Health) != 10 {
		t.Errorf("file %+v", g)
	}
	for _, c := range []struct{ in, want string }{
		{`{"schema": "qoscal-calibration", "version": 7}`, "calibration file c.json: version 7 is newer than this qoscal reads (6): upgrade qoscal"},
		{`{"schema": "other"}`, `calibration file c.json: schema is "other", expected "qoscal-calibration": not a qoscal calibration file`},
		{"{\n\"schema\": \"qoscal-calibration\",\n", "calibration file c.json: not valid JSON: line 3: unexpected end of JSON input"},
		{`{"schema": "qoscal-calibration", "version": 1, "floor": "high"}`, "calibration file c.json: field floor: expected a number, got string"},
		{`{"schema": "qoscal-calibration", "version": 2, "floor": 1.2, "baseline": "a", "candidate": "b", "suite": ["x"]}`, "calibration file c.json: field created is missing"},
	} {
		_, err := model.ParseFile("c.json", []byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseFile(%s):\n got %v\nwant %s", c.in, err, c.want)
		}
	}
}

// calibrationOf analyses n log-normal scores drawn with the given seed
// source, as one-benchmark runs.
func calibrationOf(t testing.TB, rng *rand.Rand, n int, mu, sigma float64) *spread.Analysis {
	runs := make([]data.Run, n)
	for i := range runs {
		s := math.Exp(mu + sigma*rng.NormFloat64())
		runs[i] = data.Run{ID: fmt.Sprint(i), Baseline: "b", Candidate: "c", Measurements: []data.Measurement{
			{Benchmark: "x", Variant: "b", Value: 1000, Unit: "ops/sec"},
			{Benchmark: "x", Variant: "c", Value: 1000 * s, Unit: "ops/sec"},
		}}
	}
	a, err := spread.Analyze(runs, spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestMonteCarloPredictionFPR checks that the prediction method's floor
// trips healthy runs at exactly α: draw a log-normal calibration set,
// recommend, then draw one fresh healthy run and see whether it falls
// below. Over R calibrations the count is Binomial(R, α) exactly (STATS.md
// 2.3), so the realized rate must be within 4 binomial standard errors.
// No rounding to a grid here (step 1e-9), since rounding lowers the floor.
func TestMonteCarloPredictionFPR(t *testing.T) {
	// 20,000 calibrations a cell with QOSCAL_SLOW_TESTS=1, 1,000 in the quick run.
	R := testenv.Size(20000, 1000)
	const alpha = 0.05
	const mu = 0.26 // ln 1.3
	rng := rand.New(rand.NewPCG(2026, 12))
	for _, n := range []int{5, 10, 30} {
		for _, sigma := range []float64{0.02, 0.10, 0.30} {
			opt := model.DefaultRecommendOptions
			opt.Method, opt.Alpha, opt.Step = model.MethodPrediction, alpha, 1e-9
			below := 0
			for i := 0; i < R; i++ {
				a := calibrationOf(t, rng, n, mu, sigma)
				_, floor, _, err := floor.Floor(a, opt)
				if err != nil {
					t.Fatal(err)
				}
				if math.Exp(mu+sigma*rng.NormFloat64()) < floor {
					below++
				}
			}
			rate := float64(below) / float64(R)
			se := math.Sqrt(alpha * (1 - alpha) / float64(R))
			t.Logf("prediction α=%.2f n=%2d σ=%.2f: realized %.4f (binomial SE %.4f)", alpha, n, sigma, rate, se)
			if math.Abs(rate-alpha) > 4*se {
				t.Errorf("n=%d σ=%v: realized rate %.4f, want %.2f ± %.4f", n, sigma, rate, alpha, 4*se)
			}
		}
	}
}

// TestMonteCarloMarginFPR checks that the margin rule's claimed predictive
// rate is honest: averaged over calibration sets, the true rate of the
// recommended floor (Φ((ln F − μ)/σ), known from the generating
// distribution) must not exceed the claimed predictive rate beyond Monte
// Carlo error. (It is conservative: the margin does not scale with the
// spread, so for small noise the claim is far above the truth.)
func TestMonteCarloMarginFPR(t *testing.T) {
	// 4,000 calibrations a cell with QOSCAL_SLOW_TESTS=1, 400 in the quick run.
	R := float64(testenv.Size(4000, 400))
	const mu = 0.26
	rng := rand.New(rand.NewPCG(7, 2026))
	for _, n := range []int{5, 10, 30} {
		for _, sigma := range []float64{0.02, 0.05, 0.10, 0.30} {
			opt := model.DefaultRecommendOptions // margin 10%, step 0.01
			var claimed, realized, d, d2 float64
			for i := 0; i < int(R); i++ {
				a := calibrationOf(t, rng, n, mu, sigma)
				_, floor, _, _ := floor.Floor(a, opt)
				if floor <= 0 {
					continue
				}
				c := stats.FPRPredictive(a.Score.MeanLog, a.Score.SDLog, a.Score.N, floor)
				r := stats.NormalCDF((math.Log(floor) - mu) / sigma)
				claimed += c
				realized += r
				d += r - c
				d2 += (r - c) * (r - c)
			}
			claimed, realized, d = claimed/R, realized/R, d/R
			se := math.Sqrt((d2/R - d*d) / R)
			t.Logf("margin 10%% n=%2d σ=%.2f: realized %.3g, claimed predictive %.3g", n, sigma, realized, claimed)
			if d > 4*se {
				t.Errorf("n=%d σ=%v: realized %.4g exceeds claimed %.4g by %.3g (> 4 SE = %.3g)", n, sigma, realized, claimed, d, 4*se)
			}
		}
	}
}

// TestCheckFloorUseful pins the rule that refuses a floor a model puts
// below half the lowest calibration score (docs/STATS.md 2.11), and that
// the default method gives such a floor on two runs of the second sweep.
func TestCheckFloorUseful(t *testing.T) {
	opt := func(m model.Method) model.RecommendOptions {
		o := model.DefaultRecommendOptions
		o.Method = m
		return o
	}
	two := []float64{1.2032, 1.2215}
	cases := []struct {
		scores  []float64
		floor   float64
		method  model.Method
		refused bool
		reason  string
	}{
		{two, 0.01, model.MethodTargetFPR, true, "two runs: the target floor 0.01 passes a candidate 120x slower"},
		{two, 0.60, model.MethodTargetFPR, true, "just below half the lowest (0.6016)"},
		{two, 0.61, model.MethodPrediction, false, "at or above half the lowest"},
		{two, 0.01, model.MethodTolerance, true, "every model method"},
		{two, 0.01, model.MethodMargin, false, "the margin method's distance is the user's choice"},
		{[]float64{2, 2}, 1, model.MethodTargetFPR, false, "exactly half is not below half"},
	}
	for _, c := range cases {
		err := model.CheckFloorUseful(c.scores, c.floor, opt(c.method))
		var low *model.FloorTooLowError
		if got := errors.As(err, &low); got != c.refused {
			t.Errorf("CheckFloorUseful(%v, %v, %s) = %v, refused %v (%s)", c.scores, c.floor, c.method, err, c.refused, c.reason)
		}
	}
	// The default method on two runs gives a floor the rule refuses.
	_, floor, _, err := model.FloorOf(two, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	var low *model.FloorTooLowError
	if err := model.CheckFloorUseful(two, floor, model.DefaultRecommendOptions); !errors.As(err, &low) {
		t.Errorf("the target floor %v of two runs at %v: %v, want a FloorTooLowError", floor, two, err)
	} else if want := (model.FloorTooLowError{Method: model.MethodTargetFPR, Floor: 0.01, Step: 0.01, Lowest: 1.2032, Runs: 2}); *low != want {
		t.Errorf("error %+v, want %+v", *low, want)
	}
}
