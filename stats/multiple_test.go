package stats

import (
	"math"
	"testing"
)

// TestHolm: the step-down rule on a worked example. With alpha 0.05 and
// four p-values 0.01, 0.04, 0.03, 0.005 the ordered values 0.005, 0.01,
// 0.03, 0.04 meet the thresholds 0.0125, 0.01667, 0.025, 0.05 for the
// first two only (0.03 > 0.025 stops the procedure), so the tests with p
// 0.005 and 0.01 are rejected (worked by hand from Holm 1979's
// definition).
func TestHolm(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03, 0.005}, 0.05)
	want := []bool{true, false, false, true}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Holm: %v, want %v", got, want)
			break
		}
	}
	// Nothing rejected when the smallest misses alpha/k; NaN is no test
	// and does not count in k.
	if got := Holm([]float64{0.03, 0.04, math.NaN()}, 0.05); got[0] || got[1] || got[2] {
		t.Errorf("Holm with p_(1) = 0.03 > 0.05/2: %v", got)
	}
	if got := Holm([]float64{0.02, 0.03, math.NaN()}, 0.05); !got[0] || !got[1] || got[2] {
		t.Errorf("Holm with 0.02 <= 0.05/2 and then 0.03 <= 0.05/1: %v, want [true true false]", got)
	}
	if got := Holm([]float64{0.024, math.NaN()}, 0.05); !got[0] || got[1] {
		t.Errorf("Holm with one test at 0.024 and a NaN: %v, want [true false]", got)
	}
}

// TestPredictiveP: the p-value of the prediction bound at alpha is alpha,
// on the worked example's five runs (lognormal_prediction_bound vector).
func TestPredictiveP(t *testing.T) {
	m, s := math.Log(1.546235215), 0.0494
	for _, alpha := range []float64{0.1, 0.05, 0.01, 0.001} {
		x := math.Log(PredictionBound(m, s, 5, alpha))
		if p := PredictiveP(m, s, 5, x); math.Abs(p-alpha) > 1e-9*alpha+1e-12 {
			t.Errorf("PredictiveP at the %v bound = %v", alpha, p)
		}
	}
	if p := PredictiveP(0, 0, 5, -1); !math.IsNaN(p) {
		t.Errorf("PredictiveP with s = 0: %v, want NaN", p)
	}
}
