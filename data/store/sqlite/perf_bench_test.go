package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// benchRuns returns n runs of 10 benchmarks × 2 variants, one sample each.
func benchRuns(n int) []data.Run {
	runs := make([]data.Run, n)
	for i := range runs {
		r := data.Run{ID: fmt.Sprintf("run-%06d", i), Source: "bench", Labels: map[string]string{"os": "linux"}, Baseline: "system", Candidate: "hoard"}
		for b := range 10 {
			name := fmt.Sprintf("bench-%02d", b)
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: name, Variant: "hoard", Value: float64(1500 + i%97 + b), Unit: "ops/sec"},
				data.Measurement{Benchmark: name, Variant: "system", Value: float64(1000 + i%89 + b), Unit: "ops/sec"})
		}
		runs[i] = r
	}
	return runs
}

// BenchmarkStoreRuns10000 reads 10,000 stored runs of 20 measurements:
// what every analysis command pays before it analyses (issue 19: half of
// spread's time).
func BenchmarkStoreRuns10000(b *testing.B) {
	path := filepath.Join(b.TempDir(), "b.db")
	s, err := Open(path, store.ReadWrite)
	if err != nil {
		b.Fatal(err)
	}
	const n = 10000
	if _, err := s.Ingest(context.Background(), benchRuns(n), store.IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	s.Close()
	r, err := Open(path, store.ReadOnly)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ReportAllocs()
	for b.Loop() {
		runs, err := r.Runs(context.Background(), store.Query{})
		if err != nil || len(runs) != n || len(runs[n-1].Measurements) != 20 {
			b.Fatalf("%d runs, %v", len(runs), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n*20), "ns/measurement")
}

// BenchmarkIngest10000 ingests 10,000 runs of 20 measurements into a new
// store, in one transaction.
func BenchmarkIngest10000(b *testing.B) {
	const n = 10000
	b.ReportAllocs()
	ingestIntoNew(b, benchRuns(n))
	b.ReportMetric(float64(b.N*n*20)/b.Elapsed().Seconds(), "measurements/s")
}

// ingestIntoNew times ingesting runs into a new SQLite store, once per
// iteration; opening and closing the store are not timed.
func ingestIntoNew(b *testing.B, runs []data.Run) {
	for b.Loop() {
		b.StopTimer()
		s, err := Open(filepath.Join(b.TempDir(), "b.db"), store.ReadWrite)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Ingest(context.Background(), runs, store.IngestOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}
