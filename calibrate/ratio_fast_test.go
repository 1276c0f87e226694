package calibrate

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/qoscal/qoscal/data"
)

// TestRatiosFastPathAgrees: the fast path of Ratios (ratioList) gives the
// same ratios, bit for bit, and the same lists of one-sided benchmarks as
// the map-based computation (ratiosByMaps), over seeded random runs with
// repeated samples, benchmarks that one variant lacks, other variants,
// several units and unknown units, in random order and in Run.Sort's;
// where the fast path declines, Ratios
// returns ratiosByMaps' result, error included.
func TestRatiosFastPathAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	units := []string{"ops/sec", "ops/sec", "ops/sec", "ns/op", "sec/op", "B/op", "widgets"}
	fast := 0
	for trial := range 3000 {
		run := data.Run{ID: fmt.Sprintf("r%d", trial)}
		for range 1 + rng.IntN(30) {
			m := data.Measurement{
				Benchmark: fmt.Sprintf("b%d", rng.IntN(6)),
				Variant:   []string{"base", "cand", "other"}[rng.IntN(3)],
				Sample:    rng.IntN(3),
				Value:     1 + rng.Float64()*1000,
				Unit:      "ops/sec",
			}
			if trial%3 == 0 {
				m.Unit = units[rng.IntN(len(units))]
			}
			run.Measurements = append(run.Measurements, m)
		}
		if trial%2 == 1 {
			// In Run.Sort's order, as a stored run comes: each variant's
			// measurements in benchmark order (the fast path merges them).
			run.Sort()
		}
		for _, dir := range []Direction{Auto, HigherIsBetter, LowerIsBetter} {
			want, wantErr := ratiosByMaps(&run, "base", "cand", dir, "")
			got, gotErr := Ratios(&run, "base", "cand", dir, "")
			var sc RatioScratch
			if _, _, _, ok := sc.ratioList(&run, "base", "cand", dir, ""); ok {
				fast++
				if wantErr != nil {
					t.Fatalf("run %v: the fast path accepted a run that is an error: %v", run, wantErr)
				}
			}
			if wantErr != nil {
				// The error is ratiosByMaps' own (which of several
				// ambiguous benchmarks it names follows map order).
				if gotErr == nil {
					t.Fatalf("run %v: no error, want %v", run, wantErr)
				}
				continue
			}
			if gotErr != nil {
				t.Fatalf("run %v: error %v, want none", run, gotErr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("run %v (-maps +fast):\n%s", run, diff)
			}
		}
	}
	if fast < 1000 {
		t.Errorf("the fast path took only %d of 9000 cases: the test does not exercise it", fast)
	}
}

// BenchmarkRatioList: the fast path of Ratios on a run as the store gives
// it (10 benchmarks × 2 variants, in Run.Sort's order).
func BenchmarkRatioList(b *testing.B) {
	run := data.Run{ID: "r"}
	for _, v := range []string{"system", "hoard"} {
		for k := range 10 {
			run.Measurements = append(run.Measurements, data.Measurement{Benchmark: fmt.Sprintf("bench-%02d", k), Variant: v, Value: float64(100 + k), Unit: "ops/sec"})
		}
	}
	run.Sort()
	var sc RatioScratch
	for b.Loop() {
		if _, _, _, ok := sc.ratioList(&run, "system", "hoard", Auto, ""); !ok {
			b.Fatal("the fast path declined")
		}
	}
}
