package store_test

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// digestPinRuns are runs whose digests TestDigestPinned holds fixed: a
// stored run carries its digest, and a store's runs must stay unchanged
// ("already stored") when read again by a later build.
func digestPinRuns() []data.Run {
	unsorted := storetest.NewRun("unsorted", 1.25, map[string]string{"os": "linux", "runner": "ci-7", "é": "ü=:\n"})
	unsorted.Measurements[0], unsorted.Measurements[5] = unsorted.Measurements[5], unsorted.Measurements[0]
	unsorted.Time = time.Date(2026, 11, 30, 7, 0, 0, 123456789, time.FixedZone("x", 3600))
	odd := data.Run{ID: "odd", Source: "ignored", Baseline: "", Candidate: "b",
		Measurements: []data.Measurement{
			{Benchmark: "b:1", Variant: "a", Sample: 10, Value: math.Copysign(0, -1), Unit: "ns/op"},
			{Benchmark: "b:1", Variant: "a", Sample: 2, Value: math.Inf(1), Unit: "ns/op"},
			{Benchmark: "", Variant: "b", Sample: -1, Value: math.SmallestNonzeroFloat64, Unit: ""},
			{Benchmark: "b:1", Variant: "a", Sample: 2, Value: 5514093, Unit: "B/op"},
		}}
	// large spans several of Digest's buffers.
	large := data.Run{ID: "large", Baseline: "a", Candidate: "b"}
	for i := range 400 {
		large.Measurements = append(large.Measurements, data.Measurement{Benchmark: "BenchmarkLongName/size=" + strconv.Itoa(i%37), Variant: string(rune('a' + i%2)), Sample: i, Value: float64(i) / 7, Unit: "ns/op"})
	}
	// reps was measured in repetitions (schema version 5): each
	// measurement's repetition is hashed with it; the runs above have
	// none, and keep the digests stores before version 5 hold.
	return []data.Run{storetest.NewRun("plain", 1, nil), unsorted, odd, {ID: "empty"}, large, storetest.NewRepetitionRun("reps", 1.2)}
}

func TestDigestPinned(t *testing.T) {
	want := map[string]string{
		"plain":    "1f87f6e5bc8b6528e4d9ceea430b8ab0eb50bea48bd1721fdbb2b48f98a44c5c",
		"unsorted": "e7a15995be4331df2b2d14db7bffe439bd623dbc1e6aec38d6ebec274bfdf4b4",
		"odd":      "c66ceb8a832474ab2cebbd5e3888232d3ddee5528b04d0ef4bcef416bb09819a",
		"empty":    "9425222201f92487fd4f854844cf12f4f37d4dd9bd4de291e295f755a5e408e6",
		"large":    "a0526e9049628a77cd682a4135ff5efbf209cfdeb0e52f5b274c425a0c5c1f64",
		// reps: also from a Python script that writes Digest's text
		// as its doc says (hashlib.sha256), the repetition a seventh
		// part of each measurement's line.
		"reps": "9d7ea8c81fe7f5e307ad8c7029e07180cdff3aa88268719c9faa5165730833fb",
	}
	for _, r := range digestPinRuns() {
		before := append([]data.Measurement(nil), r.Measurements...)
		if got := store.Digest(&r); got != want[r.ID] {
			t.Errorf("Digest(%s) = %s, want %s", r.ID, got, want[r.ID])
		}
		for i := range before {
			if r.Measurements[i] != before[i] {
				t.Errorf("Digest(%s) reordered the run's measurements", r.ID)
				break
			}
		}
	}
}

// BenchmarkDigest hashes a run of 20 measurements (10 benchmarks × 2
// variants, as scripts/benchgen makes), as every ingested run is.
func BenchmarkDigest(b *testing.B) {
	r := data.Run{ID: "run-000001", Labels: map[string]string{"os": "linux"}, Baseline: "system", Candidate: "hoard"}
	for i := range 10 {
		for _, v := range []string{"hoard", "system"} {
			r.Measurements = append(r.Measurements, data.Measurement{Benchmark: "bench-" + strconv.Itoa(i), Variant: v, Value: 1e6 + float64(i), Unit: "ops/sec"})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		store.Digest(&r)
	}
}
