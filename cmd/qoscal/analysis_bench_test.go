package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/sqlite"
)

// syntheticRuns returns n runs of unchanged code, 10 benchmarks × 2
// variants each, with clean seeded log-normal noise (the shape of
// scripts/benchgen's data).
func syntheticRuns(n int) []data.Run {
	rng := rand.New(rand.NewPCG(1, 19))
	runs := make([]data.Run, n)
	for i := range runs {
		r := data.Run{ID: fmt.Sprintf("run-%06d", i+1), Source: "synthetic", Labels: map[string]string{"os": "linux"}, Baseline: "system", Candidate: "hoard"}
		for j := range 10 {
			name := fmt.Sprintf("bench-%02d", j)
			base := math.Round(1e7 * float64(j+1) * math.Exp(0.01*rng.NormFloat64()))
			cand := math.Round(base * (1 + 0.1*float64(j)) * math.Exp(0.02*rng.NormFloat64()))
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: name, Variant: "hoard", Value: cand, Unit: "ops/sec"},
				data.Measurement{Benchmark: name, Variant: "system", Value: base, Unit: "ops/sec"})
		}
		runs[i] = r
	}
	return runs
}

// benchAnalysisFromStore runs one analysis command on a store of n
// synthetic runs: what `qoscal spread --db` and `qoscal recommend --db`
// cost, less process start-up.
func benchAnalysisFromStore(b *testing.B, cmd string, n int) {
	db := filepath.Join(b.TempDir(), "runs.db")
	s, err := sqlite.Open(db, store.ReadWrite)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Ingest(context.Background(), syntheticRuns(n), store.IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	s.Close()
	args := []string{cmd, "--db", db, "--format", "json"}
	var errs strings.Builder
	b.ReportAllocs()
	for b.Loop() {
		errs.Reset()
		if code := run(args, nil, io.Discard, &errs); code != 0 {
			b.Fatalf("exit %d: %s", code, errs.String())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n*20), "ns/measurement")
}

func BenchmarkSpreadStore1000(b *testing.B)     { benchAnalysisFromStore(b, "spread", 1000) }
func BenchmarkSpreadStore10000(b *testing.B)    { benchAnalysisFromStore(b, "spread", 10000) }
func BenchmarkRecommendStore1000(b *testing.B)  { benchAnalysisFromStore(b, "recommend", 1000) }
func BenchmarkRecommendStore10000(b *testing.B) { benchAnalysisFromStore(b, "recommend", 10000) }
