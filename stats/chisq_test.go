package stats

import (
	"math"
	"testing"
)

// TestChiSquaredQuantile: against the NIST/SEMATECH e-Handbook's table of
// χ² critical values (section 1.3.6.7.4; 6 significant figures there) and
// the exact quantile of 2 degrees of freedom, −2·ln(1 − p) (χ²₂ is the
// exponential distribution of mean 2).
func TestChiSquaredQuantile(t *testing.T) {
	for _, c := range []struct {
		p, df, want, tol float64
	}{
		{0.95, 1, 3.841, 1e-3},
		{0.05, 10, 3.940, 1e-3},
		{0.95, 10, 18.307, 1e-3},
		{0.999, 29, 58.301, 1e-3},
		{0.0005, 2, -2 * math.Log1p(-0.0005), 1e-12},
		{0.9995, 2, -2 * math.Log(0.0005), 1e-9},
	} {
		if got := ChiSquaredQuantile(c.p, c.df); math.Abs(got-c.want) > c.tol*math.Max(1, c.want) {
			t.Errorf("χ² quantile p %v, df %v: %v, want %v", c.p, c.df, got, c.want)
		}
	}
}
