package spread_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
)

func TestExampleRunScore(t *testing.T) {
	var v calibtest.ExampleRun
	calibtest.Vector(t, "example_run_geomean", &v)
	run := calibtest.MakeRun("first", v.Inputs.Names, v.Inputs.Base, v.Inputs.Cand)
	rr, err := calibrate.Ratios(&run, "system", "hoard", calibrate.Auto, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range v.Inputs.Names {
		calibtest.Near(t, "example_run_geomean.ratios["+n+"]", rr.Ratios[n].Ratio, v.Expected.Ratios[i], 1e-12)
		if rr.Ratios[n].Direction != calibrate.HigherIsBetter {
			t.Errorf("%s direction %v", n, rr.Ratios[n].Direction)
		}
	}
	score, err := rr.Score(rr.Names())
	if err != nil {
		t.Fatal(err)
	}
	calibtest.Near(t, "example_run_geomean.geomean", score, v.Expected.Geomean, 1e-9)
	if got := fmt.Sprintf("%.2f", score); got != "1.55" {
		t.Errorf("score prints as %s, want 1.55", got)
	}
}

func TestLowerIsBetter(t *testing.T) {
	var v struct {
		Inputs struct {
			Base []float64 `json:"baseline_seconds"`
			Cand []float64 `json:"candidate_seconds"`
		} `json:"inputs"`
		Expected struct {
			Ratios  []float64 `json:"ratios"`
			Geomean float64   `json:"geomean"`
		} `json:"expected"`
	}
	calibtest.Vector(t, "lower_is_better_ratio", &v)
	run := data.Run{ID: "r"}
	names := []string{"a", "b", "c"}
	for i, n := range names {
		run.Measurements = append(run.Measurements,
			data.Measurement{Benchmark: n, Variant: "old", Value: v.Inputs.Base[i], Unit: "sec/op"},
			data.Measurement{Benchmark: n, Variant: "new", Value: v.Inputs.Cand[i], Unit: "sec/op"})
	}
	rr, err := calibrate.Ratios(&run, "old", "new", calibrate.Auto, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		calibtest.Near(t, "lower_is_better_ratio.ratios", rr.Ratios[n].Ratio, v.Expected.Ratios[i], 1e-12)
	}
	score, _ := rr.Score(names)
	calibtest.Near(t, "lower_is_better_ratio.geomean", score, v.Expected.Geomean, 1e-9)
	// The same numbers forced to higher-is-better invert every ratio.
	rr, _ = calibrate.Ratios(&run, "old", "new", calibrate.HigherIsBetter, "")
	calibtest.Near(t, "override", rr.Ratios["a"].Ratio, 1/v.Expected.Ratios[0], 1e-12)
}

func TestMedianOfSamples(t *testing.T) {
	run := data.Run{ID: "r", Measurements: []data.Measurement{
		{Benchmark: "a", Variant: "b", Sample: 0, Value: 10, Unit: "ops/sec"},
		{Benchmark: "a", Variant: "b", Sample: 1, Value: 30, Unit: "ops/sec"},
		{Benchmark: "a", Variant: "b", Sample: 2, Value: 12, Unit: "ops/sec"},
		{Benchmark: "a", Variant: "c", Sample: 0, Value: 24, Unit: "ops/sec"},
		{Benchmark: "a", Variant: "c", Sample: 1, Value: 18, Unit: "ops/sec"},
	}}
	rr, err := calibrate.Ratios(&run, "b", "c", calibrate.Auto, "")
	if err != nil {
		t.Fatal(err)
	}
	got := rr.Ratios["a"]
	if got.Baseline != 12 || got.Candidate != 21 || got.Ratio != 21.0/12 || got.BaselineSamples != 3 || got.CandidateSamples != 2 {
		t.Errorf("%+v: want medians 12 and 21", got)
	}
}

func TestAnalyzeWorkedExample(t *testing.T) {
	var v struct {
		Expected struct {
			Min, Max, Median, Mean float64
			RangePct               float64   `json:"range_pct_of_median"`
			CV                     float64   `json:"cv"`
			CI                     []float64 `json:"ci95_expected_run_score_geomean"`
			Log                    struct {
				Mean    float64 `json:"mean_log"`
				SD      float64 `json:"sd_log"`
				Geomean float64 `json:"geomean"`
				GSD     float64 `json:"gsd"`
			} `json:"log"`
		} `json:"expected"`
	}
	calibtest.Vector(t, "example_runs_spread", &v)
	a, err := calspread.Analyze(calibtest.FiveRuns(t), calspread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, e := a.Score, v.Expected
	if s.N != 5 || a.Baseline != "system" || a.Candidate != "hoard" || len(a.Suite) != 10 {
		t.Fatalf("n %d, roles %s/%s, suite %v", s.N, a.Baseline, a.Candidate, a.Suite)
	}
	const rel = 1e-9
	calibtest.Near(t, "example_runs_spread.min", s.Min, e.Min, rel)
	calibtest.Near(t, "example_runs_spread.max", s.Max, e.Max, rel)
	calibtest.Near(t, "example_runs_spread.median", s.Median, e.Median, rel)
	calibtest.Near(t, "example_runs_spread.mean", s.Mean, e.Mean, rel)
	calibtest.Near(t, "example_runs_spread.range_pct_of_median", s.RangePct, e.RangePct, 1e-7)
	calibtest.Near(t, "example_runs_spread.cv", s.CV, e.CV, 1e-7)
	calibtest.Near(t, "example_runs_spread.log.mean_log", s.MeanLog, e.Log.Mean, rel)
	calibtest.Near(t, "example_runs_spread.log.sd_log", s.SDLog, e.Log.SD, 1e-7)
	calibtest.Near(t, "example_runs_spread.log.geomean", s.GeoMean, e.Log.Geomean, rel)
	calibtest.Near(t, "example_runs_spread.log.gsd", s.GSD, e.Log.GSD, 1e-9)
	calibtest.Near(t, "example_runs_spread.ci95[0]", s.CILow, e.CI[0], 1e-7)
	calibtest.Near(t, "example_runs_spread.ci95[1]", s.CIHigh, e.CI[1], 1e-7)
	if s.LowestRun != "run-5" {
		t.Errorf("lowest run %s", s.LowestRun)
	}
	wantWarn := []calibrate.Warning{
		{Kind: calibrate.WarnFewRuns, Figures: calibrate.FewRunsFigures{Runs: 5, Enough: 10}},
		{Kind: calibrate.WarnThinShares, Figures: calibrate.SharesFigures{Runs: 5, Benchmarks: 10, Settle: 30}},
	}
	if diff := cmp.Diff(wantWarn, a.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// matrixRuns builds runs whose ratios are the rows of the synthetic 6 × 4
// matrix of the vectors.
func matrixRuns(t *testing.T, rows [][]float64, names []string) []data.Run {
	var runs []data.Run
	for i, row := range rows {
		base := make([]float64, len(row))
		cand := make([]float64, len(row))
		for j, r := range row {
			base[j] = 1000 * float64(j+1)
			cand[j] = base[j] * r
		}
		runs = append(runs, calibtest.MakeRun(fmt.Sprintf("run-%d", i+1), names, base, cand))
	}
	return runs
}

func TestAnalyzeVarianceShares(t *testing.T) {
	var v struct {
		Inputs struct {
			Names []string    `json:"benchmarks"`
			Rows  [][]float64 `json:"ratios_runs_by_benchmark"`
		} `json:"inputs"`
		Expected struct {
			Var     float64   `json:"var_log_score_direct"`
			Contrib []float64 `json:"contribution_rowsum_over_k2"`
			Share   []float64 `json:"contribution_share"`
			Scores  []float64 `json:"run_geomeans"`
		} `json:"expected"`
	}
	calibtest.Vector(t, "variance_decomposition_and_weighting", &v)
	var spread map[string]struct {
		Min, Max, Median float64
		RangePct         float64 `json:"range_pct_of_median"`
		CV               float64 `json:"cv"`
		IQR              float64 `json:"iqr_type7"`
		MAD              float64 `json:"mad_scaled"`
		Log              struct {
			SD float64 `json:"sd_log"`
		} `json:"log"`
	}
	var sv struct {
		Expected json.RawMessage `json:"expected"`
	}
	calibtest.Vector(t, "synthetic_matrix_per_benchmark_spread", &sv)
	if err := json.Unmarshal(sv.Expected, &spread); err != nil {
		t.Fatal(err)
	}
	a, err := calspread.Analyze(matrixRuns(t, v.Inputs.Rows, v.Inputs.Names), calspread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range a.Runs {
		calibtest.Near(t, "variance_decomposition_and_weighting.run_geomeans", r.Score, v.Expected.Scores[i], 1e-12)
	}
	calibtest.Near(t, "variance_decomposition_and_weighting.var_log_score_direct", a.Score.VarLog, v.Expected.Var, 1e-9)
	byName := map[string]calspread.BenchmarkSpread{}
	var sum float64
	for _, b := range a.Benchmarks {
		byName[b.Name] = b
		sum += b.Contribution
	}
	calibtest.Near(t, "contributions add up to Var(ln S)", sum, a.Score.VarLog, 1e-12)
	for j, n := range v.Inputs.Names {
		b := byName[n]
		calibtest.Near(t, "variance_decomposition_and_weighting.contribution_rowsum_over_k2["+n+"]", b.Contribution, v.Expected.Contrib[j], 1e-9)
		calibtest.Near(t, "variance_decomposition_and_weighting.contribution_share["+n+"]", b.VarianceShare, v.Expected.Share[j], 1e-9)
		e := spread[n]
		calibtest.Near(t, "synthetic_matrix_per_benchmark_spread."+n+".min", b.Min, e.Min, 1e-12)
		calibtest.Near(t, "synthetic_matrix_per_benchmark_spread."+n+".median", b.Median, e.Median, 1e-12)
		calibtest.Near(t, "synthetic_matrix_per_benchmark_spread."+n+".max", b.Max, e.Max, 1e-12)
		calibtest.Near(t, "synthetic_matrix_per_benchmark_spread."+n+".range_pct", b.RangePct, e.RangePct, 1e-9)
		calibtest.Near(t, "synthetic_matrix_per_benchmark_spread."+n+".cv", b.CV, e.CV, 1e-9)
		calibtest.Near(t, "synthetic_matrix_per_benchmark_spread."+n+".iqr_type7", b.IQR, e.IQR, 1e-9)
		calibtest.Near(t, "synthetic_matrix_per_benchmark_spread."+n+".mad_scaled", b.MAD, e.MAD, 1e-9)
		calibtest.Near(t, "synthetic_matrix_per_benchmark_spread."+n+".log.sd_log", b.CVLog, e.Log.SD, 1e-9)
	}
	// Noisiest first: B carries 83% of the variance.
	if a.Benchmarks[0].Name != "B" {
		t.Errorf("noisiest first: got %s", a.Benchmarks[0].Name)
	}
}

func TestAnalyzeLeaveOneOut(t *testing.T) {
	var v calibtest.ExampleRun
	calibtest.Vector(t, "example_run_geomean", &v)
	var loo struct {
		Expected []struct {
			Name    string  `json:"left_out"`
			Geomean float64 `json:"geomean"`
		} `json:"expected"`
	}
	calibtest.Vector(t, "leave_one_benchmark_out", &loo)
	// Two runs with the same ratios: the median leave-one-out score is the
	// example run's own.
	r := calibtest.MakeRun("a", v.Inputs.Names, v.Inputs.Base, v.Inputs.Cand)
	r2 := calibtest.MakeRun("b", v.Inputs.Names, v.Inputs.Base, v.Inputs.Cand)
	a, err := calspread.Analyze([]data.Run{r, r2}, calspread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, b := range a.Benchmarks {
		got[b.Name] = b.LOOScore
	}
	for _, e := range loo.Expected {
		calibtest.Near(t, "leave_one_benchmark_out["+e.Name+"].geomean", got[e.Name], e.Geomean, 1e-9)
	}
}

func TestAnalyzePartialSuite(t *testing.T) {
	names := []string{"a", "b", "c"}
	var runs []data.Run
	for i := 0; i < 4; i++ {
		runs = append(runs, calibtest.MakeRun(fmt.Sprintf("run-%d", i+1), names, []float64{10, 20, 30}, []float64{12 + float64(i), 22, 33}))
	}
	// run-3 crashed in c; run-4 has an extra benchmark only it measured.
	runs[2].Measurements = runs[2].Measurements[:4]
	runs[3].Measurements = append(runs[3].Measurements,
		data.Measurement{Benchmark: "d", Variant: "system", Value: 5, Unit: "ops/sec"},
		data.Measurement{Benchmark: "d", Variant: "hoard", Value: 6, Unit: "ops/sec"})
	a, err := calspread.Analyze(runs, calspread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, a.Suite); diff != "" {
		t.Errorf("suite (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]calspread.Excluded{{ID: "run-3", Missing: []string{"c"}}}, a.Excluded); diff != "" {
		t.Errorf("excluded (-want +got):\n%s", diff)
	}
	if a.Score.N != 3 {
		t.Errorf("n = %d, want 3", a.Score.N)
	}
	// Warnings are values tied to what they concern, with their figures
	// (package present words them).
	wantWarn := []calibrate.Warning{
		{Kind: calibrate.WarnDroppedBench, Benchmarks: []string{"d"}, Figures: calibrate.DroppedFigures{In: []int{1}, Runs: 4}},
		{Kind: calibrate.WarnRunExcluded, Run: "run-3", Benchmarks: []string{"c"}},
	}
	if diff := cmp.Diff(wantWarn, a.Warnings[:2]); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	p, err := calspread.Analyze(runs, calspread.Options{AllowPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b"}, p.Suite); diff != "" || p.Score.N != 4 || len(p.Excluded) != 0 {
		t.Errorf("partial: suite %v n %d excluded %v", p.Suite, p.Score.N, p.Excluded)
	}
	if diff := cmp.Diff(calibrate.Warning{Kind: calibrate.WarnCommonSuite, Benchmarks: []string{"c", "d"}, Figures: calibrate.SuiteFigures{Suite: 2}}, p.Warnings[0]); diff != "" {
		t.Errorf("partial warning (-want +got):\n%s", diff)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	names := []string{"a"}
	r1 := calibtest.MakeRun("r1", names, []float64{1}, []float64{2})
	r2 := calibtest.MakeRun("r2", names, []float64{1}, []float64{2})
	r2.Baseline = ""
	tests := []struct {
		name string
		runs []data.Run
		opt  calspread.Options
		want string
	}{
		{"no roles", []data.Run{r1, r2}, calspread.Options{}, "run r2 does not say which variant is the baseline"},
		{"one run", []data.Run{r1}, calspread.Options{}, "only 1 run with the whole suite: a spread needs at least 2 runs of unchanged code (to judge one run, use qoscal gate)"},
		{"absent variant", []data.Run{r1, r1}, calspread.Options{Baseline: "glibc"}, `run r1 has no measurements of variant "glibc" (it has hoard, system)`},
		{"same variant", []data.Run{r1}, calspread.Options{Baseline: "hoard"}, "hoard is both the baseline and the candidate"},
	}
	for _, tt := range tests {
		_, err := calspread.Analyze(tt.runs, tt.opt)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v\nwant %s", tt.name, err, tt.want)
		}
	}
	r3 := calibtest.MakeRun("r3", names, []float64{1}, []float64{2})
	r3.Measurements[0].Unit = "widgets"
	r3.Measurements[1].Unit = "widgets"
	_, err := calspread.Analyze([]data.Run{r3, r3}, calspread.Options{})
	if err == nil || !strings.Contains(err.Error(), `run r3, benchmark a: unit "widgets" is unknown`) {
		t.Errorf("unknown unit: %v", err)
	}
	if _, err := calspread.Analyze([]data.Run{r3, r3}, calspread.Options{Direction: calibrate.HigherIsBetter}); err != nil {
		t.Errorf("unknown unit with an override: %v", err)
	}
}

func TestAnalyzeOutlier(t *testing.T) {
	var runs []data.Run
	for i, s := range []float64{1.30, 1.31, 1.29, 1.30, 1.32, 1.28, 1.30, 1.31, 1.29, 1.30, 0.90} {
		runs = append(runs, calibtest.MakeRun(fmt.Sprintf("r%d", i), []string{"a"}, []float64{100}, []float64{100 * s}))
	}
	a, err := calspread.Analyze(runs, calspread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"r10"}, a.Score.Outliers); diff != "" {
		t.Errorf("outliers (-want +got):\n%s", diff)
	}
	// One outlier among tight scores: the outlier warning, and the
	// normality check and the tail model that the outlier fails.
	if len(a.Warnings) != 3 || a.Warnings[0].Kind != calibrate.WarnNotNormal || a.Warnings[1].Kind != calibrate.WarnHeavyTail || a.Warnings[2].Run != "r10" || a.Warnings[2].Kind != calibrate.WarnOutlierRun {
		t.Errorf("warnings %+v", a.Warnings)
	}
	if f, ok := a.Warnings[2].Figures.(calibrate.OutlierFigures); !ok || math.Round(f.Score*100) != 90 || f.Cut != calspread.OutlierZ || !(math.Abs(f.Z) > calspread.OutlierZ) {
		t.Errorf("the outlier's figures %+v: want its score 0.90 and its z beyond the cut-off", a.Warnings[2].Figures)
	}
}

// BenchmarkAnalyze10000Runs: 10,000 runs × 10 benchmarks × 2 variants.
func BenchmarkAnalyze10000Runs(b *testing.B) {
	names := []string{"b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9"}
	runs := make([]data.Run, 10000)
	for i := range runs {
		base := make([]float64, 10)
		cand := make([]float64, 10)
		for j := range base {
			base[j] = 1000 + float64((i*7+j*13)%101)
			cand[j] = base[j] * (1.2 + 0.01*math.Sin(float64(i*10+j)))
		}
		runs[i] = calibtest.MakeRun(fmt.Sprintf("run-%d", i), names, base, cand)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := calspread.Analyze(runs, calspread.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRatiosMetricSelection(t *testing.T) {
	run := data.Run{ID: "r", Measurements: []data.Measurement{
		{Benchmark: "BenchmarkX-8", Variant: "old", Value: 2e-6, Unit: "sec/op"},
		{Benchmark: "BenchmarkX-8", Variant: "old", Value: 64, Unit: "B/op"},
		{Benchmark: "BenchmarkX-8", Variant: "new", Value: 1e-6, Unit: "sec/op"},
		{Benchmark: "BenchmarkX-8", Variant: "new", Value: 32, Unit: "B/op"},
		{Benchmark: "BenchmarkY-8", Variant: "old", Value: 5, Unit: "widgets"},
		{Benchmark: "BenchmarkY-8", Variant: "old", Value: 6, Unit: "gadgets"},
		{Benchmark: "BenchmarkY-8", Variant: "new", Value: 5, Unit: "widgets"},
	}}
	run.Measurements = run.Measurements[:4]
	rr, err := calibrate.Ratios(&run, "old", "new", calibrate.Auto, "")
	if err != nil || rr.Ratios["BenchmarkX-8"].Ratio != 2 || rr.Ratios["BenchmarkX-8"].Unit != "sec/op" {
		t.Errorf("default metric sec/op: %+v %v", rr.Ratios, err)
	}
	rr, err = calibrate.Ratios(&run, "old", "new", calibrate.Auto, "B/op")
	if err != nil || rr.Ratios["BenchmarkX-8"].Ratio != 2 || rr.Ratios["BenchmarkX-8"].Unit != "B/op" {
		t.Errorf("--metric B/op: %+v %v", rr.Ratios, err)
	}
	_, err = calibrate.Ratios(&run, "old", "new", calibrate.Auto, "allocs/op")
	if want := (&calibrate.NoMetricError{Run: "r", Unit: "allocs/op", Metric: "allocs/op", Has: []string{"B/op", "sec/op"}}); cmp.Diff(want, err) != "" {
		t.Errorf("absent metric: %v", err)
	}
	run.Measurements = append(run.Measurements,
		data.Measurement{Benchmark: "BenchmarkY-8", Variant: "old", Value: 5, Unit: "widgets"},
		data.Measurement{Benchmark: "BenchmarkY-8", Variant: "old", Value: 6, Unit: "gadgets"})
	_, err = calibrate.Ratios(&run, "old", "new", calibrate.HigherIsBetter, "")
	if want := (&calibrate.MetricsError{Run: "r", Benchmark: "BenchmarkY-8", Variant: "old", Metrics: []string{"gadgets", "widgets"}}); cmp.Diff(want, err) != "" {
		t.Errorf("ambiguous metrics: %v", err)
	}
	// Several such benchmarks, in both variants: the error names the same
	// one every time (the baseline's first by name), as every output of
	// the same input is the same; it named whichever a map gave first.
	for _, v := range []string{"old", "new"} {
		for _, b := range []string{"BenchmarkZ-8", "BenchmarkA-8", "BenchmarkM-8"} {
			run.Measurements = append(run.Measurements,
				data.Measurement{Benchmark: b, Variant: v, Value: 5, Unit: "widgets"},
				data.Measurement{Benchmark: b, Variant: v, Value: 6, Unit: "gadgets"})
		}
	}
	for range 20 {
		_, err = calibrate.Ratios(&run, "old", "new", calibrate.HigherIsBetter, "")
		if want := (&calibrate.MetricsError{Run: "r", Benchmark: "BenchmarkA-8", Variant: "old", Metrics: []string{"gadgets", "widgets"}}); cmp.Diff(want, err) != "" {
			t.Fatalf("several ambiguous benchmarks: %v, want the error of BenchmarkA-8 of old", err)
		}
	}
}
