package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/postgres"
	"github.com/qoscal/qoscal/data/store/sqlite"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// benchRuns makes n runs of 10 benchmarks × 2 variants, one sample each
// (20 measurements a run), labelled os=linux and os=mac in turn, from a
// seeded source.
func benchRuns(n int) []data.Run {
	rng := rand.New(rand.NewPCG(1, 2))
	runs := make([]data.Run, n)
	for i := range runs {
		os := "linux"
		if i%2 == 1 {
			os = "mac"
		}
		r := data.Run{ID: fmt.Sprintf("run-%07d", i), Source: "bench", Labels: map[string]string{"os": os, "runner": fmt.Sprintf("r-%d", i%8)},
			Baseline: "glibc", Candidate: "mimalloc"}
		for b := range 10 {
			base := 1000 * float64(b+1)
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: fmt.Sprintf("bench-%02d", b), Variant: "glibc", Value: base * (1 + 0.03*rng.NormFloat64()), Unit: "ops/sec"},
				data.Measurement{Benchmark: fmt.Sprintf("bench-%02d", b), Variant: "mimalloc", Value: 1.2 * base * (1 + 0.03*rng.NormFloat64()), Unit: "ops/sec"})
		}
		runs[i] = r
	}
	return runs
}

// BenchmarkIngest stores runs in one Ingest call into a new store of each
// backend and reports measurements/s. $QOSCAL_BENCH_RUNS sets the number
// of runs (default 1000: 20,000 measurements); scripts/bench-pg.sh runs it
// at 100,000 (2 million measurements). The PostgreSQL half needs the test
// server of $QOSCAL_TEST_PG.
func BenchmarkIngest(b *testing.B) {
	n := 1000
	if s := os.Getenv("QOSCAL_BENCH_RUNS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("QOSCAL_BENCH_RUNS=%q: expected a positive number of runs", s)
		}
		n = v
	}
	runs := benchRuns(n)
	for _, backend := range benchBackends {
		b.Run(fmt.Sprintf("%s/runs=%d", backend.name, n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s := backend.open(b)
				b.StartTimer()
				res, err := s.Ingest(context.Background(), runs, store.IngestOptions{})
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				if res.Measurements != 20*n {
					b.Fatalf("%d measurements written, want %d", res.Measurements, 20*n)
				}
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(20*n*b.N)/b.Elapsed().Seconds(), "measurements/s")
		})
	}
}

// benchBackends opens a fresh store of each backend for a benchmark
// (PostgreSQL on the server of $QOSCAL_TEST_PG, else skipped).
var benchBackends = []struct {
	name string
	open func(b *testing.B) store.Store
}{
	{"SQLite", func(b *testing.B) store.Store {
		s, err := sqlite.Open(filepath.Join(b.TempDir(), "q.db"), store.ReadWrite)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}},
	{"PostgreSQL", func(b *testing.B) store.Store {
		s, err := postgres.Open(context.Background(), storetest.PostgresURL(b), store.ReadWrite)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}},
}

// BenchmarkRunsByLabel reads half of a store's runs, selected by label,
// from each backend: the read an analysis command does with --label.
func BenchmarkRunsByLabel(b *testing.B) {
	runs := benchRuns(1000)
	for _, backend := range benchBackends {
		b.Run(backend.name, func(b *testing.B) {
			s := backend.open(b)
			defer s.Close()
			if _, err := s.Ingest(context.Background(), runs, store.IngestOptions{}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				got, err := s.Runs(context.Background(), store.Query{Labels: map[string]string{"os": "linux"}})
				if err != nil {
					b.Fatal(err)
				}
				if len(got) != 500 {
					b.Fatalf("%d runs, want 500", len(got))
				}
			}
		})
	}
}
