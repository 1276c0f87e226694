package gate

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
)

// TestOneScoring: Analyze, Backtest and Gate score a run through one
// function (ScoreOver), so the same run gets the same score, bit for bit,
// whichever path it takes.
func TestOneScoring(t *testing.T) {
	runs := calibtest.FiveRuns(t)
	a, err := spread.Analyze(runs, spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bt, err := floor.Backtest(a, 1.5, runs, calibrate.Auto, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range a.Runs {
		g, err := Gate(&runs[i], GateOptions{Baseline: a.Baseline, Candidate: a.Candidate, Floor: 1.5})
		if err != nil {
			t.Fatal(err)
		}
		if bt[i].Score != r.Score || g.Score != r.Score {
			t.Errorf("run %s: Analyze %v, Backtest %v, Gate %v", r.ID, r.Score, bt[i].Score, g.Score)
		}
		if bt[i].Below != (r.Score < 1.5) || len(bt[i].Missing) != 0 {
			t.Errorf("run %s: backtest %+v against the floor 1.5", r.ID, bt[i])
		}
	}
	// The worked example's scores are 1.55, 1.54, 1.65, 1.59, 1.44
	// (the worked example of README.md and docs/STATS.md; the sample's
	// README says how it was reconstructed).
	for i, want := range []float64{1.55, 1.54, 1.65, 1.59, 1.44} {
		if math.Abs(bt[i].Score-want) > 1e-9 {
			t.Errorf("run %d: score %v, want %v", i, bt[i].Score, want)
		}
	}
}

// TestScoreOverMissing: a run that lacks a suite benchmark is not scored
// on the rest (a smaller suite is another score), and says what it lacks.
func TestScoreOverMissing(t *testing.T) {
	rr := calibrate.RunRatios{ID: "r", Ratios: map[string]calibrate.BenchmarkRatio{
		"a": {Name: "a", Ratio: 2}, "c": {Name: "c", Ratio: 8},
	}}
	s := rr.ScoreOver([]string{"a", "b", "c"})
	if !math.IsNaN(s.Score) || len(s.Missing) != 1 || s.Missing[0] != "b" {
		t.Errorf("ScoreOver with b missing: %+v", s)
	}
	// geomean(2, 8) = 4, exactly in floating point: exp((ln 2 + ln 8)/2).
	s = rr.ScoreOver([]string{"a", "c"})
	if math.Abs(s.Score-4) > 1e-15 || len(s.Missing) != 0 {
		t.Errorf("ScoreOver(a, c) = %+v, want 4", s)
	}
}

// TestReading: the summary's decision rules on the worked example's five
// runs. Each benchmark's range and share are checked against the vectors
// in TestExampleRunsSpread; here, the rules over them.
func TestReading(t *testing.T) {
	a, err := spread.Analyze(calibtest.FiveRuns(t), spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := a.Reading()
	if len(r.Widest) != 3 {
		t.Fatalf("%d widest benchmarks, want 3", len(r.Widest))
	}
	for i := 1; i < len(r.Widest); i++ {
		if r.Widest[i].RangePct > r.Widest[i-1].RangePct {
			t.Errorf("widest not in order: %v", r.Widest)
		}
	}
	for _, b := range a.Benchmarks {
		if b.RangePct > r.Widest[2].RangePct && b.Name != r.Widest[0].Name && b.Name != r.Widest[1].Name && b.Name != r.Widest[2].Name {
			t.Errorf("%s (range %.2f%%) is wider than the third widest", b.Name, b.RangePct)
		}
	}
	if want := r.Widest[0].RangePct > spread.SteadierFactor*a.Score.RangePct; r.Steadier != want {
		t.Errorf("Steadier = %v, want %v (widest %.2f%%, score %.2f%%)", r.Steadier, want, r.Widest[0].RangePct, a.Score.RangePct)
	}
	if (r.Dominant != nil) != (a.Benchmarks[0].VarianceShare >= spread.DominantShare) {
		t.Errorf("Dominant %v with the largest share %.3f", r.Dominant, a.Benchmarks[0].VarianceShare)
	}
}

// TestRepetitions: the repetitions per run that make the worked example's
// floor (1.25, predictive rate 0.008373, s 0.0500151 over 5 runs, df 4)
// catch a 5% or 10% slide half the time or nine times in ten,
// ⌈((t_{4,1−p} + t_{4,π})·s/ln(1/slide))²⌉; reference values from
// scipy 1.10.1 (scipy.stats.t.ppf): 14.87, 28.64, 3.52, 6.79.
func TestRepetitions(t *testing.T) {
	_, r := calibtest.WorkedRecommendation(t)
	want := []floor.Repetition{{Slide: 0.95, Power: 0.5, M: 15}, {Slide: 0.95, Power: 0.9, M: 29}, {Slide: 0.90, Power: 0.5, M: 4}, {Slide: 0.90, Power: 0.9, M: 7}}
	if len(r.Repetitions) != len(want) {
		t.Fatalf("repetitions %+v, want %+v", r.Repetitions, want)
	}
	for i := range want {
		if r.Repetitions[i] != want[i] {
			t.Errorf("repetition %d: %+v, want %+v", i, r.Repetitions[i], want[i])
		}
	}
}

// TestGatePair: a pair's score is the geometric mean of its two runs'
// scores (each benchmark's value the geometric mean of the two), to
// rounding, and each run's own score is reported.
func TestGatePair(t *testing.T) {
	runs := calibtest.FiveRuns(t)
	opt := GateOptions{Baseline: runs[0].Baseline, Candidate: runs[0].Candidate, Floor: 1.5}
	res, err := GatePair(&runs[0], &runs[4], opt)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Gate(&runs[0], opt)
	b, _ := Gate(&runs[4], opt)
	if want := math.Sqrt(a.Score * b.Score); math.Abs(res.Score-want) > 1e-14*want {
		t.Errorf("pair score %v, want sqrt(%v × %v) = %v", res.Score, a.Score, b.Score, want)
	}
	if len(res.Pair) != 2 || res.Pair[0].Score != a.Score || res.Pair[1].Score != b.Score {
		t.Errorf("pair runs %+v, want the scores %v and %v", res.Pair, a.Score, b.Score)
	}
	// 1.55 and 1.44: the mean 1.494 is below 1.5, though 1.55 alone passes.
	if res.Verdict != VerdictFail || a.Verdict != VerdictPass {
		t.Errorf("verdicts: pair %s, first run %s", res.Verdict, a.Verdict)
	}
	if _, err := GatePair(&runs[0], &runs[0], opt); err == nil {
		t.Error("a pair of one run twice was judged")
	}
	// The pair is the rerun: it is judged against the floor with no band
	// (STATS.md 2.14), so a mean just below the floor fails; it is never
	// sent back for another rerun.
	opt.RerunBand = 0.05 // rerun from 1.425 up
	if res, err := GatePair(&runs[0], &runs[4], opt); err != nil || res.Verdict != VerdictFail {
		t.Errorf("pair with a rerun band: %v, %v; want fail (1.494 below 1.5, no band for a pair)", res.Verdict, err)
	}
	if a, _ := Gate(&runs[4], opt); a.Verdict != VerdictRerun {
		t.Errorf("one run 1.44 with a 5%% band under 1.5: %s, want rerun", a.Verdict)
	}
}

// TestNoSpreadRounding: runs whose scores are equal up to the rounding of
// their inputs (one benchmark up, another down by a part in ten million)
// have no spread: no variance shares in the hundreds of millions of
// percent, no outliers, no noisy benchmarks (found by the review).
func TestNoSpreadRounding(t *testing.T) {
	var runs []data.Run
	for i := range 8 {
		e := 1e-7 * float64(i%3-1)
		runs = append(runs, data.Run{ID: fmt.Sprint("r", i), Baseline: "b", Candidate: "c", Measurements: []data.Measurement{
			{Benchmark: "x", Variant: "b", Value: 100, Unit: "ops/sec"}, {Benchmark: "x", Variant: "c", Value: 120 * (1 + e), Unit: "ops/sec"},
			{Benchmark: "y", Variant: "b", Value: 100, Unit: "ops/sec"}, {Benchmark: "y", Variant: "c", Value: 90 * (1 - e), Unit: "ops/sec"},
		}})
	}
	a, err := spread.Analyze(runs, spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Score.SDLog != 0 || len(a.Score.Outliers) != 0 {
		t.Errorf("SD %v, outliers %v: want no spread", a.Score.SDLog, a.Score.Outliers)
	}
	for _, b := range a.Benchmarks {
		if !math.IsNaN(b.VarianceShare) {
			t.Errorf("%s: variance share %v, want undefined", b.Name, b.VarianceShare)
		}
	}
	for _, w := range a.Warnings {
		if w.Kind == calibrate.WarnNoisyBench || w.Kind == calibrate.WarnOutlierRun {
			t.Errorf("warning %+v on rounding noise", w)
		}
	}
}

// TestCandidatesDistinct: the lowest score closes the candidate table
// unless it would print as the grid floor before it (1.2049 shown as 1.20
// next to 1.20; found by the review).
func TestCandidatesDistinct(t *testing.T) {
	var runs []data.Run
	for i, s := range []float64{1.2049, 1.25, 1.30, 1.27, 1.22, 1.26} {
		runs = append(runs, data.Run{ID: fmt.Sprint("r", i), Baseline: "b", Candidate: "c", Measurements: []data.Measurement{
			{Benchmark: "x", Variant: "b", Value: 100, Unit: "ops/sec"}, {Benchmark: "x", Variant: "c", Value: 100 * s, Unit: "ops/sec"}}})
	}
	a, err := spread.Analyze(runs, spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	opt := model.DefaultRecommendOptions
	opt.Method, opt.Bootstrap = model.MethodMargin, 0
	r, err := floor.Recommend(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range r.Candidates {
		if s := r.FormatFloor(c.Floor); seen[s] {
			t.Errorf("candidate %s printed twice: %+v", s, r.Candidates)
		} else {
			seen[s] = true
		}
	}
	if !seen["1.20"] {
		t.Errorf("candidates %+v lack the grid floor 1.20", r.Candidates)
	}
}

// TestGateIgnore: a benchmark left out on purpose (GateOptions.Ignore) is
// dropped from the run and from the calibrated suite: the run is gated on
// the rest against the floor of that sub-suite recomputed from the
// matrix, as a partial run is (with --allow-partial and the benchmark
// missing), but with no partial-suite warning, and is named in Ignored.
func TestGateIgnore(t *testing.T) {
	a, r := calibtest.WorkedRecommendation(t)
	f, err := model.ParseFile("c.json", mustWrite(t, floor.NewFile(a, r, nil, time.Unix(1796112000, 0), "qoscal test")))
	if err != nil {
		t.Fatal(err)
	}
	runs := calibtest.FiveRuns(t)
	run := runs[2]
	opt := GateOptions{Baseline: run.Baseline, Candidate: run.Candidate, Calibration: f}
	ignored := opt
	ignored.Ignore = []string{"larson", "not-measured"}
	got, err := Gate(&run, ignored)
	if err != nil {
		t.Fatal(err)
	}
	// The same run with larson removed, gated with --allow-partial.
	partialRun := run
	partialRun.Measurements = nil
	for _, m := range run.Measurements {
		if m.Benchmark != "larson" {
			partialRun.Measurements = append(partialRun.Measurements, m)
		}
	}
	partial := opt
	partial.AllowPartial = true
	want, err := Gate(&partialRun, partial)
	if err != nil {
		t.Fatal(err)
	}
	if got.Score != want.Score || got.Floor != want.Floor || got.SubSuiteFloor != want.SubSuiteFloor || got.Verdict != want.Verdict {
		t.Errorf("ignored: score %v floor %v (sub-suite %v) %s; partial: score %v floor %v (sub-suite %v) %s",
			got.Score, got.Floor, got.SubSuiteFloor, got.Verdict, want.Score, want.Floor, want.SubSuiteFloor, want.Verdict)
	}
	if !(got.SubSuiteFloor > 0) || got.Partial || len(got.Missing) != 0 {
		t.Errorf("sub-suite floor %v, partial %v, missing %v: want a sub-suite floor, not partial, nothing missing", got.SubSuiteFloor, got.Partial, got.Missing)
	}
	if fmt.Sprint(got.Ignored) != "[larson]" {
		t.Errorf("Ignored = %q, want [larson] (not-measured is neither in the run nor in the suite)", got.Ignored)
	}
	for _, w := range got.Warnings {
		if w.Kind == calibrate.WarnPartialGate || w.Kind == calibrate.WarnNotCalibrated {
			t.Errorf("warning %+v for a benchmark ignored on purpose", w)
		}
	}
	for _, b := range got.Benchmarks {
		if b.Name == "larson" {
			t.Errorf("larson is in the table: %+v", b)
		}
	}
	all := opt
	all.Ignore = f.Suite
	if _, err := Gate(&run, all); err == nil || !strings.Contains(err.Error(), "the benchmarks ignored leave none of the suite") {
		t.Errorf("ignoring the whole suite: %v", err)
	}
}

func mustWrite(t *testing.T, f *model.File) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
