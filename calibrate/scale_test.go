package calibrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qoscal/qoscal/data"
)

// noiseRuns returns n runs of unchanged code, 10 benchmarks × 2 variants,
// with seeded log-normal noise (the shape of scripts/benchgen's data).
func noiseRuns(n int) []data.Run {
	rng := rand.New(rand.NewPCG(1, 19))
	names := make([]string, 10)
	for j := range names {
		names[j] = fmt.Sprintf("bench-%02d", j)
	}
	runs := make([]data.Run, n)
	base, cand := make([]float64, 10), make([]float64, 10)
	for i := range runs {
		for j := range base {
			base[j] = math.Round(1e7 * float64(j+1) * math.Exp(0.01*rng.NormFloat64()))
			cand[j] = math.Round(base[j] * (1 + 0.1*float64(j)) * math.Exp(0.02*rng.NormFloat64()))
		}
		runs[i] = makeRun(fmt.Sprintf("run-%06d", i+1), names, base, cand)
	}
	return runs
}

// benchRecommend times Recommend (with its defaults: bootstrap, two-stage
// figures, candidate table) on an analysis of n synthetic runs; the
// analysis itself is outside the loop.
func benchRecommend(b *testing.B, n int) {
	a, err := Analyze(noiseRuns(n), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recommend(a, DefaultRecommendOptions); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecommend1000(b *testing.B)   { benchRecommend(b, 1000) }
func BenchmarkRecommend10000(b *testing.B)  { benchRecommend(b, 10000) }
func BenchmarkRecommend100000(b *testing.B) { benchRecommend(b, 100000) }

// TestRegimesAllRuns: a 10% slide of every benchmark from run 1,200 of
// 2,000 is a change of regime of the score at run 1,200 (index 1200);
// before, only the latest 300 runs were searched and it went unseen.
func TestRegimesAllRuns(t *testing.T) {
	runs := noiseRuns(2000)
	for i := 1200; i < len(runs); i++ {
		for j := range runs[i].Measurements {
			if m := &runs[i].Measurements[j]; m.Variant == "hoard" {
				m.Value *= 0.9
			}
		}
	}
	a, err := Analyze(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	starts := map[int]bool{}
	for _, r := range a.Regimes {
		starts[r.Start] = true
	}
	if !starts[1200] {
		t.Errorf("score regimes %+v: none starts at run 1200", a.Regimes)
	}
}
