package stats

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"
)

// The vectors in testdata/stats_vectors.json were computed independently
// with numpy 1.24.2 and scipy 1.10.1 by testdata/make_vectors.py (Debian's
// python3-numpy and python3-scipy: python3 testdata/make_vectors.py), with
// one correction: t(0.95, 4 df) is the exact 2.13184678632665 (see
// TestDistributions). Each test
// names the vector key it checks. Closed forms are compared to 1e-9
// relative, special functions to 1e-7 (STATS.md section 6).

type vectors map[string]json.RawMessage

func loadVectors(t *testing.T) vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/stats_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func (v vectors) get(t *testing.T, key string, into any) {
	t.Helper()
	raw, ok := v[key]
	if !ok {
		t.Fatalf("no vector %q", key)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		t.Fatalf("vector %q: %v", key, err)
	}
}

// close reports whether got is within rel of want (relative to |want|, or
// absolute when want is 0).
func close(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) <= rel
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func check(t *testing.T, name string, got, want, rel float64) {
	t.Helper()
	if !close(got, want, rel) {
		t.Errorf("%s = %.17g, want %.17g (rel %.1e)", name, got, want, rel)
	}
}

const relClosed = 1e-9
const relSpecial = 1e-7

func TestGeoMeanExampleRun(t *testing.T) {
	var v struct {
		Expected struct {
			Ratios     []float64 `json:"ratios"`
			Geomean    float64   `json:"geomean"`
			GSD        float64   `json:"gsd"`
			SDLog      float64   `json:"sd_log_ratio"`
			MeanLog    float64   `json:"mean_log_ratio"`
			T          float64   `json:"t_0.975_df9"`
			CI         []float64 `json:"ci95_geomean_over_benchmarks"`
			LogsWanted []float64 `json:"log_ratios"`
		} `json:"expected"`
	}
	loadVectors(t).get(t, "example_run_geomean", &v)
	e := v.Expected
	in := append([]float64(nil), e.Ratios...)
	gm, err := GeoMean(in)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "example_run_geomean.geomean", gm, e.Geomean, relClosed)
	gsd, _ := GSD(in)
	check(t, "example_run_geomean.gsd", gsd, e.GSD, relClosed)
	logs, _ := Logs(in)
	for i := range logs {
		check(t, "example_run_geomean.log_ratios", logs[i], e.LogsWanted[i], relClosed)
	}
	check(t, "example_run_geomean.mean_log_ratio", Mean(logs), e.MeanLog, relClosed)
	check(t, "example_run_geomean.sd_log_ratio", SD(logs), e.SDLog, relClosed)
	check(t, "example_run_geomean.t_0.975_df9", TQuantile(0.975, 9), e.T, relSpecial)
	lo, hi, err := GeoMeanCI(in, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "example_run_geomean.ci95[0]", lo, e.CI[0], relSpecial)
	check(t, "example_run_geomean.ci95[1]", hi, e.CI[1], relSpecial)
	for i := range in {
		if in[i] != e.Ratios[i] {
			t.Fatal("GeoMean modified its input")
		}
	}
}

func TestGeoMeanLowerIsBetter(t *testing.T) {
	var v struct {
		Expected struct {
			Ratios  []float64 `json:"ratios"`
			Geomean float64   `json:"geomean"`
		} `json:"expected"`
	}
	loadVectors(t).get(t, "lower_is_better_ratio", &v)
	gm, _ := GeoMean(v.Expected.Ratios)
	check(t, "lower_is_better_ratio.geomean", gm, v.Expected.Geomean, relClosed)
}

func TestGeoMeanDomain(t *testing.T) {
	for _, x := range [][]float64{{1, 0, 2}, {1, -1}, {math.NaN()}, {math.Inf(1)}} {
		_, err := GeoMean(x)
		var de *DomainError
		if !errors.As(err, &de) {
			t.Errorf("GeoMean(%v) error %v, want a DomainError", x, err)
		}
	}
	if _, err := GeoMean(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("GeoMean(nil) error %v", err)
	}
	// A long product would overflow; the mean of logs does not.
	big := make([]float64, 1000)
	for i := range big {
		big[i] = 1e300
	}
	if gm, err := GeoMean(big); err != nil || !close(gm, 1e300, 1e-12) {
		t.Errorf("GeoMean of 1000 × 1e300 = %v, %v", gm, err)
	}
}

// spreadVector is the layout of the spread vectors
// (example_runs_spread.expected and each benchmark of
// synthetic_matrix_per_benchmark_spread.expected).
type spreadVector struct {
	N        int     `json:"n"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	Median   float64 `json:"median"`
	Mean     float64 `json:"mean"`
	SD       float64 `json:"sd"`
	RangePct float64 `json:"range_pct_of_median"`
	CV       float64 `json:"cv"`
	Q1       float64 `json:"q1_type7"`
	Q3       float64 `json:"q3_type7"`
	IQR      float64 `json:"iqr_type7"`
	MADRaw   float64 `json:"mad_raw"`
	MAD      float64 `json:"mad_scaled"`
	Log      struct {
		MeanLog  float64 `json:"mean_log"`
		SDLog    float64 `json:"sd_log"`
		Geomean  float64 `json:"geomean"`
		GSD      float64 `json:"gsd"`
		Median   float64 `json:"median_log"`
		IQR      float64 `json:"iqr_log_type7"`
		MAD      float64 `json:"mad_log_scaled"`
		LogNorCV float64 `json:"cv_lognormal_sqrt_exp_s2_minus_1"`
	} `json:"log"`
}

func checkSpread(t *testing.T, key string, x []float64, e spreadVector) {
	t.Helper()
	lo, hi := MinMax(x)
	check(t, key+".min", lo, e.Min, relClosed)
	check(t, key+".max", hi, e.Max, relClosed)
	check(t, key+".median", Median(x), e.Median, relClosed)
	check(t, key+".mean", Mean(x), e.Mean, relClosed)
	check(t, key+".sd", SD(x), e.SD, relClosed)
	check(t, key+".range_pct_of_median", RangePct(x), e.RangePct, relClosed)
	check(t, key+".cv", CV(x), e.CV, relClosed)
	check(t, key+".q1_type7", Quantile(x, 0.25), e.Q1, relClosed)
	check(t, key+".q3_type7", Quantile(x, 0.75), e.Q3, relClosed)
	check(t, key+".iqr_type7", IQR(x), e.IQR, 1e-9) // a difference: compared with its own size
	check(t, key+".mad_raw", RawMAD(x), e.MADRaw, relClosed)
	check(t, key+".mad_scaled", MAD(x), e.MAD, relClosed)
	l, err := Logs(x)
	if err != nil {
		t.Fatal(err)
	}
	check(t, key+".log.mean_log", Mean(l), e.Log.MeanLog, relClosed)
	check(t, key+".log.sd_log", SD(l), e.Log.SDLog, relClosed)
	gm, _ := GeoMean(x)
	check(t, key+".log.geomean", gm, e.Log.Geomean, relClosed)
	gsd, _ := GSD(x)
	check(t, key+".log.gsd", gsd, e.Log.GSD, relClosed)
	check(t, key+".log.median_log", Median(l), e.Log.Median, relClosed)
	check(t, key+".log.iqr_log_type7", IQR(l), e.Log.IQR, relClosed)
	check(t, key+".log.mad_log_scaled", MAD(l), e.Log.MAD, relClosed)
	check(t, key+".log.cv_lognormal", LogNormalCV(SD(l)), e.Log.LogNorCV, relClosed)
}

func TestSpreadExampleRuns(t *testing.T) {
	var v struct {
		Inputs struct {
			Scores []float64 `json:"run_geomeans"`
		} `json:"inputs"`
		Expected struct {
			spreadVector
			T  float64   `json:"t_0.975_df4"`
			CI []float64 `json:"ci95_expected_run_score_geomean"`
			Q4 float64   `json:"iqr_type4_gonum_lininterp"`
		} `json:"expected"`
	}
	loadVectors(t).get(t, "example_runs_spread", &v)
	x := v.Inputs.Scores
	checkSpread(t, "example_runs_spread", x, v.Expected.spreadVector)
	check(t, "example_runs_spread.t_0.975_df4", TQuantile(0.975, 4), v.Expected.T, relSpecial)
	lo, hi, _ := GeoMeanCI(x, 0.95)
	check(t, "example_runs_spread.ci95[0]", lo, v.Expected.CI[0], relSpecial)
	check(t, "example_runs_spread.ci95[1]", hi, v.Expected.CI[1], relSpecial)
	// The type-4 IQR (gonum's LinInterp) is 0.115, not type 7's 0.05: the
	// quantile type is pinned.
	if close(IQR(x), v.Expected.Q4, 1e-3) {
		t.Errorf("IQR = %v matches the type-4 value", IQR(x))
	}
}

func TestSpreadSyntheticMatrix(t *testing.T) {
	var v struct {
		Inputs struct {
			Names []string    `json:"benchmarks"`
			Rows  [][]float64 `json:"ratios_runs_by_benchmark"`
		} `json:"inputs"`
		Expected map[string]spreadVector `json:"expected"`
	}
	loadVectors(t).get(t, "synthetic_matrix_per_benchmark_spread", &v)
	for j, name := range v.Inputs.Names {
		col := make([]float64, len(v.Inputs.Rows))
		for i, row := range v.Inputs.Rows {
			col[i] = row[j]
		}
		checkSpread(t, "synthetic_matrix_per_benchmark_spread."+name, col, v.Expected[name])
	}
}

func TestQuantileType7Edges(t *testing.T) {
	x := []float64{3, 1, 2}
	cases := []struct {
		p, want float64
		reason  string
	}{
		{0, 1, "p = 0 is the minimum"},
		{1, 3, "p = 1 is the maximum"},
		{0.5, 2, "odd n: the middle value"},
		{0.25, 1.5, "h = 0.5: halfway between x[0] and x[1]"},
	}
	for _, c := range cases {
		if got := Quantile(x, c.p); got != c.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v (%s)", x, c.p, got, c.want, c.reason)
		}
	}
	if x[0] != 3 {
		t.Error("Quantile sorted its input in place")
	}
	if !math.IsNaN(Quantile(nil, 0.5)) || !math.IsNaN(Quantile(x, 1.5)) {
		t.Error("Quantile outside its domain is not NaN")
	}
	if got := Median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("even median = %v", got)
	}
}

func TestCovarianceVector(t *testing.T) {
	var v struct {
		Inputs struct {
			Rows [][]float64 `json:"ratios_runs_by_benchmark"`
		} `json:"inputs"`
		Expected struct {
			Cov [][]float64 `json:"cov_log_ratios_ddof1"`
		} `json:"expected"`
	}
	loadVectors(t).get(t, "variance_decomposition_and_weighting", &v)
	k := len(v.Inputs.Rows[0])
	cols := make([][]float64, k)
	for j := range cols {
		for _, row := range v.Inputs.Rows {
			cols[j] = append(cols[j], math.Log(row[j]))
		}
	}
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			check(t, "variance_decomposition_and_weighting.cov_log_ratios_ddof1", Covariance(cols[i], cols[j]), v.Expected.Cov[i][j], relClosed)
		}
	}
}

func TestRobustZVector(t *testing.T) {
	var v struct {
		Inputs struct {
			Hist [][]float64 `json:"history_baselines_runs_by_benchmark"`
		} `json:"inputs"`
		Expected struct {
			MedianLog []float64 `json:"median_log_hist"`
			MADLog    []float64 `json:"mad_scaled_log_hist"`
		} `json:"expected"`
	}
	loadVectors(t).get(t, "runner_degradation_robust_z", &v)
	for j := range v.Expected.MedianLog {
		var col []float64
		for _, row := range v.Inputs.Hist {
			col = append(col, row[j])
		}
		l, _ := Logs(col)
		check(t, "runner_degradation_robust_z.median_log_hist", Median(l), v.Expected.MedianLog[j], relClosed)
		check(t, "runner_degradation_robust_z.mad_scaled_log_hist", MAD(l), v.Expected.MADLog[j], relClosed)
	}
	z := RobustZ([]float64{1, 1, 1, 1})
	for _, v := range z {
		if v != 0 {
			t.Errorf("RobustZ of equal values = %v, want zeros", z)
		}
	}
	// MAD 0 but not all equal: the mean-absolute-deviation fallback.
	z = RobustZ([]float64{1, 1, 1, 5})
	if want := 4 / (1.2533141 * 1); !close(z[3], want, 1e-12) {
		t.Errorf("RobustZ fallback z = %v, want %v", z[3], want)
	}
}

func TestDistributions(t *testing.T) {
	// Φ and Φ⁻¹ round trip, and the t quantile against the five-run
	// prediction-bound vector (lognormal_prediction_bound: t_{4,1−α}).
	var pb struct {
		Expected struct {
			Rows []struct {
				Alpha float64 `json:"alpha"`
				T     float64 `json:"t_quantile_df4"`
			} `json:"bounds"`
		} `json:"expected"`
	}
	loadVectors(t).get(t, "lognormal_prediction_bound", &pb)
	if len(pb.Expected.Rows) == 0 {
		t.Fatal("lognormal_prediction_bound has no bounds rows")
	}
	for _, r := range pb.Expected.Rows {
		check(t, "lognormal_prediction_bound.t_quantile", TQuantile(1-r.Alpha, 4), r.T, relSpecial)
		check(t, "TCDF(TQuantile)", TCDF(r.T, 4), 1-r.Alpha, relSpecial)
	}
	for _, p := range []float64{1e-10, 0.025, 0.5, 0.975} {
		check(t, "NormalCDF(NormalQuantile(p))", NormalCDF(NormalQuantile(p)), p, relSpecial)
	}
	check(t, "NormalQuantile(0.75)", 1/NormalQuantile(0.75), MADScale, relSpecial)
	// The 4-df t distribution has a closed-form CDF,
	// F(t) = 1/2 + t(t² + 6) / (2 (t² + 4)^{3/2}), so its 95% quantile is
	// known exactly: 2.13184678632665 (scipy 1.10 gave 2.13184678133629, off
	// by 2e-9; the vectors carry the exact value).
	cdf4 := func(x float64) float64 { return 0.5 + x*(x*x+6)/(2*math.Pow(x*x+4, 1.5)) }
	if q := TQuantile(0.95, 4); math.Abs(cdf4(q)-0.95) > 1e-13 || math.Abs(q-2.13184678632665) > 1e-12 {
		t.Errorf("TQuantile(0.95, 4) = %.15g (closed-form CDF %.15g), want 2.13184678632665", q, cdf4(q))
	}
}

func TestLogNormalPDF(t *testing.T) {
	// The vectors hold no density values; check the defining properties:
	// it integrates to 1 and peaks at the log-normal mode exp(m − s²).
	m, s := 0.44, 0.05
	var sum float64
	const h = 1e-4
	for x := h / 2; x < 5; x += h {
		sum += LogNormalPDF(x, m, s) * h
	}
	if math.Abs(sum-1) > 1e-6 {
		t.Errorf("integral %v, want 1", sum)
	}
	mode := math.Exp(m - s*s)
	if LogNormalPDF(mode, m, s) < LogNormalPDF(mode*1.001, m, s) || LogNormalPDF(mode, m, s) < LogNormalPDF(mode*0.999, m, s) {
		t.Error("density does not peak at exp(m − s²)")
	}
	if LogNormalPDF(0, m, s) != 0 || LogNormalPDF(1, m, 0) != 0 {
		t.Error("outside the domain the density is 0")
	}
}
