package data

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// TestReadBackMany: 1,000 runs of 21 measurements, more than two of the
// read's chunks (8,192 measurements, which 21 does not divide, so runs
// straddle them), read back whole, a page at a time, and by a label that
// picks every third run (not a range of seqs), each equal to what was
// stored, with its measurements in name order.
func TestReadBackMany(t *testing.T) {
	ctx := context.Background()
	s, _ := openTestStore(t)
	var runs []Run
	for i := range 1000 {
		r := Run{ID: fmt.Sprintf("run-%04d", i), Source: "s", Labels: map[string]string{"third": fmt.Sprint(i%3 == 0)}, Baseline: "b", Candidate: "c"}
		for j := range 7 {
			// Written in reverse name order, with a series per run that
			// sorts first and is new to the store every 100 runs.
			name := fmt.Sprintf("bench-%d", 6-j)
			if j == 6 {
				name = fmt.Sprintf("a-%d", i/100)
			}
			for _, v := range []string{"c", "b"} {
				r.Measurements = append(r.Measurements, Measurement{Benchmark: name, Variant: v, Value: float64(i*100 + j), Unit: "ns/op"})
			}
			r.Measurements = append(r.Measurements, Measurement{Benchmark: name, Variant: "b", Sample: 1, Value: float64(i*100+j) + 0.5, Unit: "ns/op"})
		}
		runs = append(runs, r)
	}
	if _, err := s.Ingest(ctx, runs, IngestOptions{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	want := func(i int) Run {
		r := runs[i]
		r.Measurements = append([]Measurement(nil), r.Measurements...)
		r.Sort()
		return r
	}
	check := func(how string, got []StoredRun, ids []int) {
		t.Helper()
		if len(got) != len(ids) {
			t.Fatalf("%s: %d runs, want %d", how, len(got), len(ids))
		}
		for k, i := range ids {
			if w := want(i); !reflect.DeepEqual(got[k].Run, w) {
				t.Fatalf("%s: run %d read back as\n%+v\nwant\n%+v", how, k, got[k].Run, w)
			}
		}
	}
	every, thirds := make([]int, 1000), []int{}
	for i := range every {
		every[i] = i
		if i%3 == 0 {
			thirds = append(thirds, i)
		}
	}
	all, err := s.Runs(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	check("Runs", all, every)
	var paged []StoredRun
	for r, err := range s.EachRun(ctx, Query{}) {
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, r)
	}
	check("EachRun", paged, every)
	third, err := s.Runs(ctx, Query{Labels: map[string]string{"third": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	check("Runs by label", third, thirds)
}
