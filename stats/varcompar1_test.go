package stats

import (
	"encoding/json"
	"os"
	"testing"
)

// TestVarianceComponentsAR1 checks the estimators under drift inside a job
// against numpy's (testdata/varcomp_ar1_vectors.json, made by
// testdata/make_varcomp_ar1.py with numpy 1.24.2: every expectation a trace
// of a quadratic form's matrix times the AR(1) correlation matrix, the von
// Neumann variance from traces, balanced jobs' positions taken out by
// Kronecker products, not the closed forms the Go code uses).
func TestVarianceComponentsAR1(t *testing.T) {
	b, err := os.ReadFile("testdata/varcomp_ar1_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		AR1 []struct {
			Reason               string
			Groups               [][]float64
			Between, Within, Rho float64
			RhoZ                 float64 `json:"rho_z"`
			Truncated            bool
		}
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.AR1) == 0 {
		t.Fatal("no vectors")
	}
	for _, c := range v.AR1 {
		got, err := VarianceComponentsAR1(c.Groups)
		if err != nil {
			t.Errorf("%s: %v", c.Reason, err)
			continue
		}
		check(t, c.Reason+": rho", got.Rho, c.Rho, 1e-9)
		check(t, c.Reason+": rho_z", got.RhoZ, c.RhoZ, 1e-9)
		check(t, c.Reason+": between", got.Between, c.Between, 1e-8)
		check(t, c.Reason+": within", got.Within, c.Within, 1e-9)
		if got.Truncated != c.Truncated {
			t.Errorf("%s: truncated %v, want %v", c.Reason, got.Truncated, c.Truncated)
		}
		if c.RhoZ <= 1.645 {
			// No drift seen: the ANOVA's figures exactly.
			a, _ := VarianceComponents(c.Groups)
			if a.RhoZ = got.RhoZ; a != got {
				t.Errorf("%s: %+v, want the ANOVA's %+v", c.Reason, got, a)
			}
		}
	}
}

// TestVarCompAR1Mean: with ρ the within part of a mean of m repetitions is
// σ_w²·AR1MeanVar(ρ, m), and Cheapest plans with it (the least m found by
// bisection equals the least found by counting up).
func TestVarCompAR1Mean(t *testing.T) {
	v := VarComp{Between: 0.01, Within: 0.02, Rho: 0.7}
	// Box, Jenkins and Reinsel's 1ᵀΣ1/m² at m = 10, ρ = 0.7, from
	// python3: 1 + 2·sum((1 - h/10)*0.7**h for h in range(1, 10)) = 4.1550517054.
	want := 0.0001 + 0.0004*4.1550517054/10
	check(t, "SDOfMean(10)²", v.SDOfMean(10)*v.SDOfMean(10), want, 1e-9)
	for _, maxSD := range []float64{0.011, 0.013, 0.016, 0.02} {
		p, ok := v.Cheapest(maxSD, 10, 60, 1000, 1)
		m := 1
		for ; m <= 1000 && v.SDOfMean(m) > maxSD*(1+1e-9); m++ {
		}
		if m > 1000 {
			if ok {
				t.Errorf("max SD %g: plan %+v, want none", maxSD, p)
			}
			continue
		}
		if !ok || p.Repetitions != m {
			t.Errorf("max SD %g: plan %+v (ok %v), want %d repetitions", maxSD, p, ok, m)
		}
	}
}
