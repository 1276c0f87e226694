package stats

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestSequentialScipy checks the boundaries of NewSequential, computed by
// recursive numerical integration over a grid and Gauss–Hermite nodes,
// against scipy's (testdata/sequential_vectors.json, made by
// testdata/make_sequential.py with scipy 1.10.1's multivariate normal
// rectangle probabilities, Genz's algorithm, on the means' joint
// distribution): every boundary within 2e-5 in log score (0.002% of a
// score), and the information fractions to 1e-12.
func TestSequentialScipy(t *testing.T) {
	b, err := os.ReadFile("testdata/sequential_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Designs []struct {
			Between, Within, Slide, Alpha, Beta float64
			Looks                               int
			Fail, Pass, Info                    []float64
		}
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Designs) == 0 {
		t.Fatal("no designs")
	}
	for _, d := range v.Designs {
		s, err := NewSequential(d.Between, d.Within, d.Slide, d.Alpha, d.Beta, d.Looks)
		if err != nil {
			t.Fatal(err)
		}
		if s.Last != d.Looks {
			t.Errorf("σb %g σw %g: the design ends at look %d of %d", d.Between, d.Within, s.Last, d.Looks)
			continue
		}
		for k := range d.Looks {
			if math.Abs(s.Fail[k]-d.Fail[k]) > 2e-5 || math.Abs(s.Pass[k]-d.Pass[k]) > 2e-5 || math.Abs(s.Info[k]-d.Info[k]) > 1e-12 {
				t.Errorf("σb %g σw %g α %g, look %d: fail %.7f pass %.7f info %.7f; scipy %.7f %.7f %.7f", d.Between, d.Within, d.Alpha, k+1, s.Fail[k], s.Pass[k], s.Info[k], d.Fail[k], d.Pass[k], d.Info[k])
			}
		}
		if math.Abs(s.SpentAlpha-d.Alpha) > 1e-6*math.Max(1, d.Alpha*100) || math.Abs(s.SpentBeta-d.Beta) > 1e-5 {
			t.Errorf("spent α %v β %v, want %v %v", s.SpentAlpha, s.SpentBeta, d.Alpha, d.Beta)
		}
	}
}
