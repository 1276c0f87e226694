package floor_test

import (
	"testing"

	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// benchRecommend times Recommend (with its defaults: bootstrap, two-stage
// figures, candidate table) on an analysis of n synthetic runs; the
// analysis itself is outside the loop.
func benchRecommend(b *testing.B, n int) {
	a, err := spread.Analyze(calibtest.NoiseRuns(n), spread.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := floor.Recommend(a, model.DefaultRecommendOptions); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecommend1000(b *testing.B) { benchRecommend(b, 1000) }

func BenchmarkRecommend10000(b *testing.B) { benchRecommend(b, 10000) }

func BenchmarkRecommend100000(b *testing.B) { benchRecommend(b, 100000) }

// TestRegimesAllRuns: a 10% slide of every benchmark from run 1,200 of
// 2,000 is a change of regime of the score at run 1,200 (index 1200);
// before, only the latest 300 runs were searched and it went unseen.
func TestRegimesAllRuns(t *testing.T) {
	runs := calibtest.NoiseRuns(2000)
	for i := 1200; i < len(runs); i++ {
		for j := range runs[i].Measurements {
			if m := &runs[i].Measurements[j]; m.Variant == "hoard" {
				m.Value *= 0.9
			}
		}
	}
	a, err := spread.Analyze(runs, spread.Options{})
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
