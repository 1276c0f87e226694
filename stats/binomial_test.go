package stats

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// testdata/binomial_vectors.json is made by testdata/make_binomial.py
// (Debian's python3-scipy 1.10.1): the Clopper–Pearson bounds are
// scipy.stats.beta.ppf, cross-checked there against scipy's binomtest;
// the tails are scipy.stats.binom.sf.

type binomialVectors struct {
	ScipyVersion string `json:"scipy_version"`
	CP           []struct {
		X, N   int
		Conf   float64
		Lo, Hi float64
	} `json:"clopper_pearson"`
	AtLeast []struct {
		X, N    int
		P       float64
		AtLeast float64 `json:"at_least"`
	} `json:"at_least"`
}

func loadBinomial(t *testing.T) binomialVectors {
	t.Helper()
	b, err := os.ReadFile("testdata/binomial_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v binomialVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.CP) < 100 || len(v.AtLeast) < 100 {
		t.Fatalf("only %d interval and %d tail vectors", len(v.CP), len(v.AtLeast))
	}
	return v
}

// relDiff is |got − want| relative to want, absolute below 1e-300.
func relDiff(got, want float64) float64 {
	return math.Abs(got-want) / math.Max(math.Abs(want), 1e-300)
}

// TestClopperPearsonScipy: every bound agrees with scipy's beta.ppf to
// 1e-9 relative, from 1 trial to 100,000, at 90%, 95% and 99%.
func TestClopperPearsonScipy(t *testing.T) {
	v := loadBinomial(t)
	worst := 0.0
	for _, c := range v.CP {
		lo, hi := ClopperPearson(c.X, c.N, c.Conf)
		for _, b := range []struct {
			name      string
			got, want float64
		}{{"lo", lo, c.Lo}, {"hi", hi, c.Hi}} {
			d := relDiff(b.got, b.want)
			worst = math.Max(worst, d)
			if d > 1e-9 {
				t.Errorf("ClopperPearson(%d, %d, %v) %s = %.17g, scipy %.17g (relative %.2g)", c.X, c.N, c.Conf, b.name, b.got, b.want, d)
			}
		}
	}
	t.Logf("worst relative difference from scipy %s: %.2g", v.ScipyVersion, worst)
}

// TestBinomialAtLeastScipy: P(X ≥ x) agrees with scipy's binom.sf to
// 1e-9 relative (tails down to 1e-300 and below included).
func TestBinomialAtLeastScipy(t *testing.T) {
	v := loadBinomial(t)
	for _, c := range v.AtLeast {
		got := BinomialAtLeast(c.X, c.N, c.P)
		if c.AtLeast < 1e-300 {
			if got > 1e-290 {
				t.Errorf("BinomialAtLeast(%d, %d, %v) = %g, scipy %g", c.X, c.N, c.P, got, c.AtLeast)
			}
			continue
		}
		if d := relDiff(got, c.AtLeast); d > 1e-9 {
			t.Errorf("BinomialAtLeast(%d, %d, %v) = %.17g, scipy %.17g (relative %.2g)", c.X, c.N, c.P, got, c.AtLeast, d)
		}
	}
}

// TestClopperPearsonProperties: the bounds' closed forms and edges, and
// the duality with the exact test that defines them: at the lower bound,
// x or more events have chance α/2.
func TestClopperPearsonProperties(t *testing.T) {
	for _, c := range []struct {
		x, n   int
		conf   float64
		reason string
	}{
		{0, 10, 0.95, "no event: lo 0, hi 1 − 0.025^(1/10)"},
		{10, 10, 0.95, "every trial: lo 0.025^(1/10), hi 1"},
		{3, 300, 0.95, "a few events"},
		{150, 300, 0.9, "half"},
	} {
		lo, hi := ClopperPearson(c.x, c.n, c.conf)
		if !(lo >= 0 && lo < hi && hi <= 1) {
			t.Errorf("%s: [%v, %v] is not an interval in [0, 1]", c.reason, lo, hi)
		}
		half := (1 - c.conf) / 2
		if c.x == 0 && (lo != 0 || relDiff(hi, 1-math.Pow(half, 1/float64(c.n))) > 1e-14) {
			t.Errorf("%s: [%v, %v]", c.reason, lo, hi)
		}
		if c.x == c.n && (hi != 1 || relDiff(lo, math.Pow(half, 1/float64(c.n))) > 1e-14) {
			t.Errorf("%s: [%v, %v]", c.reason, lo, hi)
		}
		if c.x > 0 && c.x < c.n {
			if p := BinomialAtLeast(c.x, c.n, lo); relDiff(p, half) > 1e-8 {
				t.Errorf("%s: P(X ≥ %d) at lo %v is %v, want %v", c.reason, c.x, lo, p, half)
			}
			if p := 1 - BinomialAtLeast(c.x+1, c.n, hi); relDiff(p, half) > 1e-8 {
				t.Errorf("%s: P(X ≤ %d) at hi %v is %v, want %v", c.reason, c.x, hi, p, half)
			}
		}
	}
	for _, bad := range [][3]float64{{-1, 10, 0.95}, {11, 10, 0.95}, {1, 0, 0.95}, {1, 10, 1}, {1, 10, 0}} {
		if lo, hi := ClopperPearson(int(bad[0]), int(bad[1]), bad[2]); !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("ClopperPearson(%v) = [%v, %v], want NaN", bad, lo, hi)
		}
	}
}
