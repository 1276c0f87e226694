package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// Vector keys as in stats_test.go (numpy 1.24.2 / scipy 1.10.1,
// testdata/make_vectors.py).

// fiveRuns are the worked example's calibration scores.
var fiveRuns = []float64{1.55, 1.54, 1.65, 1.59, 1.44}

func fiveRunMS() (m, s float64) {
	l, _ := Logs(fiveRuns)
	return Mean(l), SD(l)
}

func TestFloorStepsVector(t *testing.T) {
	var v struct {
		Vectors []struct {
			Inputs struct {
				Min, Margin, Step string
			} `json:"inputs"`
			Expected struct {
				Steps int64   `json:"floor_steps"`
				Floor string  `json:"floor"`
				Naive float64 `json:"naive_float_floor_result"`
				Wrong bool    `json:"naive_float_is_wrong"`
			} `json:"expected"`
		} `json:"vectors"`
	}
	loadVectors(t).get(t, "floor_margin_rule", &v)
	traps := 0
	for _, c := range v.Vectors {
		min, _ := strconv.ParseFloat(c.Inputs.Min, 64)
		margin, _ := strconv.ParseFloat(c.Inputs.Margin, 64)
		step, _ := strconv.ParseFloat(c.Inputs.Step, 64)
		got := FloorSteps(min*(1-margin), step)
		if got != c.Expected.Steps {
			t.Errorf("floor_margin_rule %+v: %d steps, want %d", c.Inputs, got, c.Expected.Steps)
		}
		if s := fmt.Sprintf("%.2f", float64(got)*step); s != c.Expected.Floor {
			t.Errorf("floor_margin_rule %+v: floor %s, want %s", c.Inputs, s, c.Expected.Floor)
		}
		if c.Expected.Wrong {
			traps++
			// The naive computation really does fall into the trap.
			if naive := math.Floor(min*(1-margin)/step) * step; math.Abs(naive-c.Expected.Naive) > 1e-12 {
				t.Errorf("naive floor %v, vector says %v", naive, c.Expected.Naive)
			}
		}
	}
	if traps < 2 {
		t.Errorf("only %d float traps in the vectors", traps)
	}
}

func TestPredictionBoundVector(t *testing.T) {
	var v struct {
		Expected struct {
			Bounds []struct {
				Alpha float64 `json:"alpha"`
				F     float64 `json:"lower_prediction_bound"`
			} `json:"bounds"`
		} `json:"expected"`
	}
	loadVectors(t).get(t, "lognormal_prediction_bound", &v)
	m, s := fiveRunMS()
	for _, b := range v.Expected.Bounds {
		check(t, fmt.Sprintf("lognormal_prediction_bound[α=%v]", b.Alpha), PredictionBound(m, s, 5, b.Alpha), b.F, relSpecial)
	}
}

func TestToleranceKVector(t *testing.T) {
	var v struct {
		Table []struct {
			N     int     `json:"n"`
			P     float64 `json:"p_coverage"`
			Gamma float64 `json:"gamma_confidence"`
			K     float64 `json:"k_exact_nct"`
			Pub   float64 `json:"published_montgomery_runger_tableXII"`
		} `json:"table"`
		Conf []struct {
			K, P, Confidence float64
			N                int
		} `json:"confidence_of_k_vectors"`
		Five []struct {
			P, Gamma float64
			Bound    float64 `json:"lower_tolerance_bound"`
		} `json:"five_run_lower_tolerance_bounds"`
	}
	loadVectors(t).get(t, "tolerance_k_factors", &v)
	if len(v.Table) < 15 {
		t.Fatalf("%d k vectors", len(v.Table))
	}
	for _, c := range v.Table {
		k, err := ToleranceK(c.N, c.P, c.Gamma)
		if err != nil {
			t.Fatal(err)
		}
		check(t, fmt.Sprintf("tolerance_k_factors.table[n=%d p=%v γ=%v]", c.N, c.P, c.Gamma), k, c.K, relSpecial)
		if c.Pub != 0 && math.Abs(k-c.Pub) > 0.0005 {
			t.Errorf("n=%d p=%v γ=%v: k %.4f is not Montgomery & Runger Table XII's %.3f", c.N, c.P, c.Gamma, k, c.Pub)
		}
	}
	for _, c := range v.Conf {
		check(t, fmt.Sprintf("tolerance_k_factors.confidence_of_k_vectors[k=%v n=%d]", c.K, c.N), ToleranceConfidence(c.K, c.N, NormalQuantile(c.P)), c.Confidence, relSpecial)
	}
	m, s := fiveRunMS()
	for _, c := range v.Five {
		k, _ := ToleranceK(5, c.P, c.Gamma)
		check(t, fmt.Sprintf("tolerance_k_factors.five_run_lower_tolerance_bounds[p=%v γ=%v]", c.P, c.Gamma), math.Exp(m-k*s), c.Bound, relSpecial)
	}
}

func TestFalsePositiveRateVector(t *testing.T) {
	var v struct {
		Vectors []struct {
			Floor      float64 `json:"floor"`
			KObs       float64 `json:"k_obs_(m-lnF)/s"`
			Plugin     float64 `json:"fpr_plugin_normal"`
			Predictive float64 `json:"fpr_predictive_t_df4"`
			Up50       float64 `json:"fpr_upper_conf_0.50"`
			Up90       float64 `json:"fpr_upper_conf_0.90"`
			Up95       float64 `json:"fpr_upper_conf_0.95"`
		} `json:"vectors"`
	}
	loadVectors(t).get(t, "false_positive_rate", &v)
	m, s := fiveRunMS()
	for _, c := range v.Vectors {
		key := fmt.Sprintf("false_positive_rate[F=%v]", c.Floor)
		check(t, key+".k_obs", KObs(m, s, c.Floor), c.KObs, relClosed)
		check(t, key+".fpr_plugin_normal", FPRPlugin(m, s, c.Floor), c.Plugin, relSpecial)
		check(t, key+".fpr_predictive_t_df4", FPRPredictive(m, s, 5, c.Floor), c.Predictive, relSpecial)
		check(t, key+".fpr_upper_conf_0.50", FPRUpper(m, s, 5, c.Floor, 0.50), c.Up50, 1e-6)
		check(t, key+".fpr_upper_conf_0.90", FPRUpper(m, s, 5, c.Floor, 0.90), c.Up90, 1e-6)
		check(t, key+".fpr_upper_conf_0.95", FPRUpper(m, s, 5, c.Floor, 0.95), c.Up95, 1e-6)
	}
}

func TestDetectionPowerVector(t *testing.T) {
	var v struct {
		Vectors []struct {
			Floor     float64                       `json:"floor"`
			R50       float64                       `json:"r50"`
			R90Plugin float64                       `json:"r90_plugin"`
			R90Pred   float64                       `json:"r90_predictive"`
			Power     map[string]map[string]float64 `json:"power_at_uniform_factor_r"`
			Q50       float64                       `json:"single_benchmark_factor_equivalent_r50_k10"`
		} `json:"vectors"`
	}
	loadVectors(t).get(t, "detection_power", &v)
	m, s := fiveRunMS()
	for _, c := range v.Vectors {
		key := fmt.Sprintf("detection_power[F=%v]", c.Floor)
		check(t, key+".r50", DetectPredictive(m, s, 5, c.Floor, 0.5), c.R50, relSpecial)
		check(t, key+".r50 plug-in", DetectPlugin(m, s, c.Floor, 0.5), c.R50, relSpecial)
		check(t, key+".r90_plugin", DetectPlugin(m, s, c.Floor, 0.9), c.R90Plugin, relSpecial)
		check(t, key+".r90_predictive", DetectPredictive(m, s, 5, c.Floor, 0.9), c.R90Pred, relSpecial)
		check(t, key+".single_benchmark_factor_equivalent_r50_k10", math.Pow(c.R50, 10), c.Q50, relClosed)
		for rs, p := range c.Power {
			r, _ := strconv.ParseFloat(rs, 64)
			check(t, key+".power["+rs+"].predictive", PowerPredictive(m, s, 5, c.Floor, r), p["predictive"], relSpecial)
		}
	}
}

func TestDistributionFreeVector(t *testing.T) {
	var v struct {
		Next map[string]float64 `json:"p_next_below_min_of_n"`
	}
	loadVectors(t).get(t, "distribution_free", &v)
	for ns, want := range v.Next {
		n, _ := strconv.Atoi(ns)
		scores := make([]float64, n)
		for i := range scores {
			scores[i] = 1 + float64(i)/100
		}
		check(t, "distribution_free.p_next_below_min_of_n["+ns+"]", DistributionFreeFPR(scores, 0.5), want, relClosed)
	}
	// A floor above two of the scores: (2+1)/(n+1).
	if got := DistributionFreeFPR([]float64{1, 2, 3, 4, 5}, 2.5); got != 0.5 {
		t.Errorf("DistributionFreeFPR above two scores = %v, want 3/6", got)
	}
	check(t, "AtLeastOne(0.01, 100)", AtLeastOne(0.01, 100), 1-math.Pow(0.99, 100), 1e-12)
}

// TestToleranceKSmallN checks k at n = 2 and 3, where the factor is large
// and γ(k) turns sharply near w = z_p/k, against scipy's nct.ppf and an
// mpmath quadrature (testdata/make_tolerance_small_n.py), and all k
// vectors to 1e-9 relative.
func TestToleranceKSmallN(t *testing.T) {
	b, err := os.ReadFile("testdata/tolerance_small_n.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Table []struct {
			N     int     `json:"n"`
			P     float64 `json:"p_coverage"`
			Gamma float64 `json:"gamma_confidence"`
			K     float64 `json:"k_exact_nct"`
			KMP   float64 `json:"k_mpmath_quadrature"`
		} `json:"table"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Table) != 4 {
		t.Fatalf("%d small-n vectors, want 4", len(v.Table))
	}
	var all []struct {
		N        int
		P, Gamma float64
		K        float64
	}
	for _, c := range v.Table {
		if math.Abs(c.K-c.KMP) > 1e-12*c.KMP {
			t.Fatalf("the references disagree at n=%d p=%v: %v and %v", c.N, c.P, c.K, c.KMP)
		}
		all = append(all, struct {
			N        int
			P, Gamma float64
			K        float64
		}{c.N, c.P, c.Gamma, c.K})
	}
	var big struct {
		Table []struct {
			N     int     `json:"n"`
			P     float64 `json:"p_coverage"`
			Gamma float64 `json:"gamma_confidence"`
			K     float64 `json:"k_exact_nct"`
		} `json:"table"`
	}
	loadVectors(t).get(t, "tolerance_k_factors", &big)
	for _, c := range big.Table {
		all = append(all, struct {
			N        int
			P, Gamma float64
			K        float64
		}{c.N, c.P, c.Gamma, c.K})
	}
	for _, c := range all {
		k, err := ToleranceK(c.N, c.P, c.Gamma)
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(k-c.K) / c.K; !(rel <= 1e-9) {
			t.Errorf("ToleranceK(n=%d, p=%v, γ=%v) = %.12g, want %.12g (rel %.2g)", c.N, c.P, c.Gamma, k, c.K, rel)
		}
	}
}

// TestFalseAlarmHorizon checks the predictive chance of a false alarm in
// the next m runs against scipy's dblquad over the posterior of (μ, σ)
// written out in the original parametrisation
// (testdata/horizon_reference.py), against FPRPredictive at m = 1, and
// against a seeded Monte Carlo over posterior draws.
func TestFalseAlarmHorizon(t *testing.T) {
	three := []float64{1.55, 1.54, 1.65}
	l3, _ := Logs(three)
	m5, s5 := fiveRunMS()
	m3, s3 := Mean(l3), SD(l3)
	for _, c := range []struct {
		m, s  float64
		n     int
		floor float64
		runs  int
		want  float64 // scipy dblquad
		naive float64 // 1 − (1 − predictive)^runs, the old figure
	}{
		{m5, s5, 5, 1.25, 100, 0.16619101537348405, 0.5686552327370596},
		{m5, s5, 5, 1.25, 1, 0.008373223488399518, 0.008373223488399528},
		{m5, s5, 5, 1.35, 100, 0.4728583994901787, 0.9598471480514488},
		{m5, s5, 5, 1.25, 1000, 0.31661708279058554, 0.9997770305621801},
		{m3, s3, 3, 1.40, 100, 0.46101398188588505, 0.9967763073762674},
		{m3, s3, 3, 1.30, 100, 0.22204716871417632, 0.9096837271684944},
	} {
		got := FalseAlarmHorizon(c.m, c.s, c.n, c.floor, c.runs)
		if math.Abs(got-c.want) > 1e-6 {
			t.Errorf("FalseAlarmHorizon(n=%d, F=%v, m=%d) = %.9f, scipy %.9f", c.n, c.floor, c.runs, got, c.want)
		}
		if naive := AtLeastOne(FPRPredictive(c.m, c.s, c.n, c.floor), c.runs); math.Abs(naive-c.naive) > 1e-9 {
			t.Errorf("1-(1-p)^m = %v, scipy %v", naive, c.naive)
		}
	}
	if got, want := FalseAlarmHorizon(m5, s5, 5, 1.25, 1), FPRPredictive(m5, s5, 5, 1.25); math.Abs(got-want) > 1e-9 {
		t.Errorf("at m = 1 the horizon %v is not the predictive rate %v", got, want)
	}
	// Monte Carlo: σ² = s²ν/χ²_ν, μ ~ N(m, σ²/n), average 1 − (1 − Φ((ln F − μ)/σ))^m.
	rng := rand.New(rand.NewPCG(15, 2026))
	const draws = 400000
	for _, c := range []struct {
		m, s  float64
		n     int
		floor float64
	}{{m5, s5, 5, 1.25}, {m3, s3, 3, 1.30}} {
		nu := float64(c.n - 1)
		var sum, sum2 float64
		for i := 0; i < draws; i++ {
			var v float64
			for j := 0; j < c.n-1; j++ {
				z := rng.NormFloat64()
				v += z * z
			}
			sigma := c.s * math.Sqrt(nu/v)
			mu := c.m + sigma/math.Sqrt(float64(c.n))*rng.NormFloat64()
			x := AtLeastOne(NormalCDF((math.Log(c.floor)-mu)/sigma), 100)
			sum += x
			sum2 += x * x
		}
		mean := sum / draws
		se := math.Sqrt((sum2/draws - mean*mean) / draws)
		got := FalseAlarmHorizon(c.m, c.s, c.n, c.floor, 100)
		t.Logf("n=%d F=%v: quadrature %.5f, Monte Carlo %.5f ± %.5f (%d draws)", c.n, c.floor, got, mean, se, draws)
		if math.Abs(got-mean) > 4*se {
			t.Errorf("n=%d F=%v: quadrature %.5f, Monte Carlo %.5f ± %.5f", c.n, c.floor, got, mean, se)
		}
	}
}

// TestUndefinedRatesAreQuick checks that an undefined k (s = 0 and the
// floor at exp(m): 0/0) gives NaN at once, not a quadrature split to its
// depth limit (which took minutes).
func TestUndefinedRatesAreQuick(t *testing.T) {
	start := time.Now()
	if v := FPRUpper(0, 0, 3, 1, 0.95); !math.IsNaN(v) {
		t.Errorf("FPRUpper with k = 0/0: %v, want NaN", v)
	}
	if v := ToleranceConfidence(math.NaN(), 3, 2); !math.IsNaN(v) {
		t.Errorf("ToleranceConfidence(NaN): %v, want NaN", v)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}
