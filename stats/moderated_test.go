package stats

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// moderatedVectors are testdata/moderated_vectors.json, computed with
// scipy by testdata/make_moderated.py (other routes: scipy's polygamma,
// Brent's method for the inverse).
type moderatedVectors struct {
	Trigamma []struct {
		X, Trigamma float64
	} `json:"trigamma"`
	TrigammaInverse []struct {
		Y, X float64
	} `json:"trigamma_inverse"`
	Fits []struct {
		D    float64   `json:"d"`
		S2   []float64 `json:"s2"`
		D0   any       `json:"d0"`
		S02  float64   `json:"s02"`
		Post []float64 `json:"post"`
	} `json:"fits"`
}

func TestModeratedAgainstScipy(t *testing.T) {
	b, err := os.ReadFile("testdata/moderated_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v moderatedVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	rel := func(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }
	for _, c := range v.Trigamma {
		if got := Trigamma(c.X); rel(got, c.Trigamma) > 1e-13 {
			t.Errorf("Trigamma(%v) = %v, scipy %v (rel %.1e)", c.X, got, c.Trigamma, rel(got, c.Trigamma))
		}
		// ψ₂ against a central difference of ψ₁.
		h := 1e-4 * c.X
		if num := (Trigamma(c.X+h) - Trigamma(c.X-h)) / (2 * h); rel(tetragamma(c.X), num) > 1e-6 {
			t.Errorf("tetragamma(%v) = %v, central difference %v", c.X, tetragamma(c.X), num)
		}
	}
	for _, c := range v.TrigammaInverse {
		if got := TrigammaInverse(c.Y); rel(got, c.X) > 1e-10 {
			t.Errorf("TrigammaInverse(%v) = %v, scipy %v (rel %.1e)", c.Y, got, c.X, rel(got, c.X))
		}
	}
	if len(v.Fits) == 0 {
		t.Fatal("no fits in the vectors")
	}
	for i, c := range v.Fits {
		p := FitVariancePrior(c.S2, c.D)
		wantD0 := math.Inf(1)
		if f, ok := c.D0.(float64); ok {
			wantD0 = f
		}
		if math.IsInf(wantD0, 1) != math.IsInf(p.D0, 1) || (!math.IsInf(wantD0, 1) && rel(p.D0, wantD0) > 1e-9) {
			t.Errorf("fit %d: d0 %v, scipy %v", i, p.D0, wantD0)
		}
		if rel(p.S02, c.S02) > 1e-9 {
			t.Errorf("fit %d: s0² %v, scipy %v", i, p.S02, c.S02)
		}
		for j, s2 := range c.S2 {
			if post, _ := p.Moderate(s2, c.D); rel(post, c.Post[j]) > 1e-9 {
				t.Errorf("fit %d, variance %d: moderated %v, scipy %v", i, j, post, c.Post[j])
			}
		}
	}
}

func TestFitVariancePriorEdges(t *testing.T) {
	if p := FitVariancePrior([]float64{0.01}, 9); p.D0 != 0 || !math.IsNaN(p.S02) {
		t.Errorf("one variance: %+v, want no prior", p)
	}
	if p := FitVariancePrior([]float64{0, math.Inf(1), 0.01}, 9); p.D0 != 0 {
		t.Errorf("one usable variance: %+v, want no prior", p)
	}
	if post, df := (VariancePrior{}).Moderate(0.02, 9); post != 0.02 || df != 9 {
		t.Errorf("no prior moderates to %v on %v, want the variance itself", post, df)
	}
	if post, df := (VariancePrior{D0: math.Inf(1), S02: 0.01}).Moderate(0.02, 9); post != 0.01 || !math.IsInf(df, 1) {
		t.Errorf("an infinite prior moderates to %v on %v, want s0²", post, df)
	}
	if !math.IsNaN(TrigammaInverse(0)) || !math.IsNaN(Trigamma(-1)) {
		t.Error("out-of-domain arguments must give NaN")
	}
}
