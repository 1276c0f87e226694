package model_test

import (
	"math"
	"testing"

	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/stats"
)

// TestMarginRuleRateIndependent: on scores whose lag-1 autocorrelation is
// negative (so the fitted model is independent runs, σ their SD), the
// margin rule's own rate is E[Φ(Z₍₁₎ + ln(1 − margin)/σ)] over the lowest
// Z₍₁₎ of n standard normals, an integral against its density
// n·φ(z)·(1 − Φ(z))^(n−1), computed here by the trapezoid rule on a fine
// grid, independently of the simulation (a step of 1e-6 makes rounding
// negligible). The simulation's 2,000 draws agree within 8% (about 3.5
// of its standard errors); the same scores give the same rate bit for
// bit; fewer than MarginRuleMinRuns or constant scores give NaN.
func TestMarginRuleRateIndependent(t *testing.T) {
	const n, margin = 12, 0.05
	scores := make([]float64, n)
	for i := range scores {
		d := 0.03
		if i%2 == 1 {
			d = -0.03
		}
		scores[i] = math.Exp(0.2 + d + 0.001*float64(i%3))
	}
	logs, _ := stats.Logs(scores)
	if r, _ := stats.Lag1Autocorrelation(logs); r >= 0 {
		t.Fatalf("r1 %v: the fixture needs negative autocorrelation", r)
	}
	sigma := stats.SD(logs)
	shift := math.Log1p(-margin) / sigma
	var want float64
	const lo, hi, steps = -9.0, 9.0, 180000
	h := (hi - lo) / steps
	for i := 0; i <= steps; i++ {
		z := lo + float64(i)*h
		f := float64(n) * math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) * math.Pow(1-stats.NormalCDF(z), n-1) * stats.NormalCDF(z+shift)
		if i == 0 || i == steps {
			f /= 2
		}
		want += f * h
	}
	got := model.MarginRuleRate(scores, margin, 1e-6, 1)
	if math.Abs(got/want-1) > 0.08 {
		t.Errorf("MarginRuleRate %.5g, the integral %.5g (ratio %.3f)", got, want, got/want)
	}
	t.Logf("rule rate %.5g, integral %.5g", got, want)
	if again := model.MarginRuleRate(scores, margin, 1e-6, 1); again != got {
		t.Errorf("not deterministic: %v then %v", got, again)
	}
	for _, bad := range [][]float64{{1.2}, {1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2}, {1.2, 1.3, 1.25, 1.22, 1.28, 1.21, 1.27, 1.24, 1.26}} {
		if r := model.MarginRuleRate(bad, margin, 0.01, 1); !math.IsNaN(r) {
			t.Errorf("MarginRuleRate(%v) = %v, want NaN", bad, r)
		}
	}
}
