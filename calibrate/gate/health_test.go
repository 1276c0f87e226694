package gate

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/internal/testenv"
	"github.com/qoscal/qoscal/stats"
)

// flagRate simulates the runner-health check: R calibrations of n runs of
// k benchmarks, each benchmark's ln baseline = μ_j + σ_j(√ρ·c_i + √(1−ρ)·e_ij)
// (c_i the runner's speed shared by every benchmark of run i, e_ij its own
// noise, all N(0,1)), then one more run scaled by factor, and returns the
// share of the new runs whose median z is below the cut-off.
func flagRate(rng *rand.Rand, R, n, k int, rho, factor, sd float64) float64 {
	flagged := 0
	hist := make([][]float64, k)
	for j := range hist {
		hist[j] = make([]float64, n)
	}
	zs := make([]float64, k)
	cut := RunnerCutoff(n)
	a, b := math.Sqrt(rho), math.Sqrt(1-rho)
	for r := 0; r < R; r++ {
		for i := 0; i < n; i++ {
			c := rng.NormFloat64()
			for j := 0; j < k; j++ {
				hist[j][i] = 10 + sd*float64(j+1)*(a*c+b*rng.NormFloat64())
			}
		}
		c := rng.NormFloat64()
		for j := 0; j < k; j++ {
			h := model.Health{MedianLog: stats.Median(hist[j]), MADLog: stats.MAD(hist[j])}
			x := 10 + sd*float64(j+1)*(a*c+b*rng.NormFloat64()) + math.Log(factor)
			zs[j], _ = h.Z(x)
		}
		if stats.Median(zs) < cut {
			flagged++
		}
	}
	return float64(flagged) / float64(R)
}

// TestRunnerHealthNull is the Monte Carlo of STATS.md 3.4: a healthy run
// is flagged at most 0.5% of the time at n = 3, 5, 10, 30 runs, for one
// benchmark, and for 5 and 15 benchmarks independent (ρ = 0), half shared
// (ρ = 0.5) or moved together by the runner (ρ = 1); and every baseline
// at 0.6× is still flagged from 10 runs on. The realised rates are
// logged.
func TestRunnerHealthNull(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 35))
	// 40,000 calibrations a cell with QOSCAL_SLOW_TESTS=1, 2,000 in the
	// quick run.
	R := testenv.Size(40000, 2000)
	// 0.5% with R = 40,000: the binomial SE is 0.035%; allow 3 SE.
	limit := RunnerFalseFlag + 3*math.Sqrt(RunnerFalseFlag*(1-RunnerFalseFlag)/float64(R))
	for _, n := range []int{3, 5, 10, 30} {
		for _, c := range []struct {
			k   int
			rho float64
		}{{1, 0}, {5, 0}, {5, 0.5}, {5, 1}, {15, 0}, {15, 0.5}, {15, 1}} {
			rate := flagRate(rng, R, n, c.k, c.rho, 1, 0.02)
			t.Logf("n=%2d k=%2d ρ=%.1f: healthy flagged %.4f (cut-off %.3f)", n, c.k, c.rho, rate, RunnerCutoff(n))
			if rate > limit {
				t.Errorf("n=%d k=%d ρ=%v: a healthy run is flagged %.4f of the time, more than %.4f", n, c.k, c.rho, rate, RunnerFalseFlag)
			}
		}
		// A real degradation: every baseline at 0.6×, with baseline noise
		// σ_j = 1%…5% (k = 5, ρ = 0.5), and, logged only, 2%…10%.
		deg := flagRate(rng, R/10, n, 5, 0.5, 0.6, 0.01)
		wide := flagRate(rng, R/10, n, 5, 0.5, 0.6, 0.02)
		t.Logf("n=%2d k=5 ρ=0.5, every baseline 0.6×: flagged %.4f (σ 1–5%%), %.4f (σ 2–10%%)", n, deg, wide)
		// A MAD of 3 or 5 values is too unstable for a 0.5% cut-off to
		// leave power (4% and 87% here; STATS.md 3.4): asserted from 10
		// runs on.
		if n >= 10 && deg < 0.95 {
			t.Errorf("n=%d: a runner at 0.6× is flagged only %.4f of the time", n, deg)
		}
	}
	// The table is the Monte Carlo's (runner_health_robust_table.py).
	for _, c := range []struct {
		n    int
		want float64
	}{{1, math.NaN()}, {3, -138.9}, {5, -16.23}, {10, -5.26}, {21, -3.676}, {22, -3.5}, {30, -3.5}} {
		if got := RunnerCutoff(c.n); !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("RunnerCutoff(%d) = %v, want %v", c.n, got, c.want)
		}
	}
}
