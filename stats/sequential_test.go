package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"
)

// simulateSequential runs the design on n jobs whose mean log score is
// shifted by mu (0 healthy, −Slide slid), each drawn from the model, and
// returns the shares failed and passed and the mean number of looks.
func simulateSequential(s *Sequential, mu float64, n int, seed uint64) (fail, pass, looks float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var nf, np, nl int
	for range n {
		b := s.Between * rng.NormFloat64()
		sum := 0.0
		for k := 1; k <= s.Last; k++ {
			sum += s.Within * rng.NormFloat64()
			nl++
			if d := s.Decide(k, mu+b+sum/float64(k)); d == SeqFail {
				nf++
				break
			} else if d == SeqPass {
				np++
				break
			}
		}
	}
	return float64(nf) / float64(n), float64(np) / float64(n), float64(nl) / float64(n)
}

// TestSequentialMonteCarlo: jobs drawn from the model the design assumes
// fail (healthy) and pass (slid by the design's slide) at the rates it
// spends, within 4 standard errors of the simulation, and stop early on
// average. The slide is the r90 of a test of the same rate on a fixed
// number of repetitions, (z_{1−α} + z_{0.9})·√(σ_b² + σ_w²/M), as qoscal
// measure designs it.
func TestSequentialMonteCarlo(t *testing.T) {
	n := testenv.Size(2000000, 200000)
	for i, c := range []struct {
		sb, sw, alpha float64
		m             int
	}{
		{0.01, 0.03, 0.05, 8},
		{0.01, 0.03, 0.001, 8},
		{0.005, 0.03, 0.01, 20},
		{0.0, 0.02, 0.01, 5},
		{0.03, 0.01, 0.05, 6},
	} {
		slide := (NormalQuantile(1-c.alpha) + NormalQuantile(0.9)) * math.Sqrt(c.sb*c.sb+c.sw*c.sw/float64(c.m))
		s, err := NewSequential(c.sb, c.sw, slide, c.alpha, 0.1, c.m)
		if err != nil {
			t.Fatal(err)
		}
		f0, p0, l0 := simulateSequential(s, 0, n, uint64(2*i+1))
		f1, p1, l1 := simulateSequential(s, -slide, n, uint64(2*i+2))
		se := func(p float64) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }
		t.Logf("σb %g σw %g α %g M %d: healthy fail %.5f (spent %.5f), pass %.4f, %.2f repetitions; slid fail %.4f, pass %.4f (spent %.4f), %.2f repetitions",
			c.sb, c.sw, c.alpha, c.m, f0, s.SpentAlpha, p0, l0, f1, p1, s.SpentBeta, l1)
		if math.Abs(f0-s.SpentAlpha) > 4*se(s.SpentAlpha) || s.SpentAlpha > c.alpha*(1+1e-6) {
			t.Errorf("healthy jobs fail %.5f of the time, the design spends %.5f (α %g)", f0, s.SpentAlpha, c.alpha)
		}
		if math.Abs(p1-s.SpentBeta) > 4*se(s.SpentBeta) || s.SpentBeta > 0.1*(1+1e-6) {
			t.Errorf("slid jobs pass %.5f of the time, the design spends %.5f", p1, s.SpentBeta)
		}
		if !(l0 < float64(c.m)) || !(l1 < float64(c.m)) {
			t.Errorf("mean repetitions %.2f (healthy) and %.2f (slid): no earlier than %d", l0, l1, c.m)
		}
	}
}

// TestSequentialRefuses: what NewSequential cannot design for.
func TestSequentialRefuses(t *testing.T) {
	for _, c := range [][6]float64{
		{0.01, 0, 0.05, 0.05, 0.1, 5},
		{0.01, 0.02, 0, 0.05, 0.1, 5},
		{0.01, 0.02, 0.05, 0.5, 0.1, 5},
		{0.01, 0.02, 0.05, 0.05, 0.1, 0},
		{-1, 0.02, 0.05, 0.05, 0.1, 5},
	} {
		if _, err := NewSequential(c[0], c[1], c[2], c[3], c[4], int(c[5])); err == nil {
			t.Errorf("NewSequential%v: no error", c)
		}
	}
}
