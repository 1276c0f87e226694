package sqlite

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// TestReadBackMany: 1,000 runs of 21 measurements, more than two of the
// read's chunks (8,192 measurements, which 21 does not divide, so runs
// straddle them), read back whole, a page at a time, and by a label that
// picks every third run (not a range of seqs), each equal to what was
// stored, with its measurements in name order.
func TestReadBackMany(t *testing.T) {
	ctx := context.Background()
	s, path := openTestStore(t)
	var runs []data.Run
	for i := range 1000 {
		r := data.Run{ID: fmt.Sprintf("run-%04d", i), Source: "s", Labels: map[string]string{"third": fmt.Sprint(i%3 == 0)}, Baseline: "b", Candidate: "c"}
		for j := range 7 {
			// Written in reverse name order, with a series per run that
			// sorts first and is new to the store every 100 runs.
			name := fmt.Sprintf("bench-%d", 6-j)
			if j == 6 {
				name = fmt.Sprintf("a-%d", i/100)
			}
			for _, v := range []string{"c", "b"} {
				r.Measurements = append(r.Measurements, data.Measurement{Benchmark: name, Variant: v, Value: float64(i*100 + j), Unit: "ns/op"})
			}
			r.Measurements = append(r.Measurements, data.Measurement{Benchmark: name, Variant: "b", Sample: 1, Value: float64(i*100+j) + 0.5, Unit: "ns/op"})
		}
		runs = append(runs, r)
	}
	if _, err := s.Ingest(ctx, runs, store.IngestOptions{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	want := func(i int) data.Run {
		r := runs[i]
		r.Measurements = append([]data.Measurement(nil), r.Measurements...)
		r.Sort()
		return r
	}
	check := func(how string, got []store.StoredRun, ids []int) {
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
	all, err := s.Runs(ctx, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	check("Runs", all, every)
	var paged []store.StoredRun
	for r, err := range s.EachRun(ctx, store.Query{}) {
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, r)
	}
	check("EachRun", paged, every)
	third, err := s.Runs(ctx, store.Query{Labels: map[string]string{"third": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	check("Runs by label", third, thirds)
	checkForeignKeys(t, path)
}

// TestReadSparseSeries: a store whose series numbers are far apart (never
// written so by qoscal, but a valid store) reads back the same runs as
// one numbered from 1, through the read's map of series rather than its
// slice; and seriesTable finds no series it was not given, in either form.
func TestReadSparseSeries(t *testing.T) {
	ctx := context.Background()
	s, path := openTestStore(t)
	in := []data.Run{storetest.NewRun("r1", 1, map[string]string{"os": "linux"}), storetest.NewRun("r2", 1.1, nil)}
	if _, err := s.Ingest(ctx, in, store.IngestOptions{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	before, err := s.Runs(ctx, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	sqlExec(t, path,
		`UPDATE series SET id = id * 1000000000000 + 7`,
		`UPDATE measurements SET series = series * 1000000000000 + 7`)
	after, err := s.Runs(ctx, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("renumbered series read back as\n%+v\nwant\n%+v", after, before)
	}
	keys := map[int64]seriesKey{1: {"b", "x", "ns"}, 2: {"a", "x", "ns"}, 1e12: {"a", "a", "ns"}}
	for _, tc := range []struct {
		name  string
		keys  map[int64]seriesKey
		dense bool
	}{
		{"dense", map[int64]seriesKey{1: keys[1], 2: keys[2]}, true},
		{"sparse", keys, false},
		{"negative", map[int64]seriesKey{-1: keys[1], 2: keys[2]}, false},
	} {
		table := newSeriesTable(tc.keys)
		if got := table.dense != nil; got != tc.dense {
			t.Errorf("%s: dense = %v, want %v", tc.name, got, tc.dense)
		}
		for _, id := range []int64{-1, 0, 1, 2, 3, 1e12, 1e12 + 1, -1 << 63} {
			e, ok := table.get(id)
			k, want := tc.keys[id]
			if ok != want || ok && e.seriesKey != k {
				t.Errorf("%s: get(%d) = %v, %v; want %v, %v", tc.name, id, e, ok, k, want)
			}
		}
	}
	// Ranks are in name order: variant, then benchmark, then unit.
	table := newSeriesTable(keys)
	for id, rank := range map[int64]int{1e12: 0, 2: 1, 1: 2} {
		if e, _ := table.get(id); e.rank != rank {
			t.Errorf("series %d ranks %d, want %d", id, e.rank, rank)
		}
	}
}

// TestReadDamagedTypes: a store whose rows hold values of another type
// than their column's (text for a number, a blob for text) is reported
// damaged, naming the store, instead of being read as zeros.
func TestReadDamagedTypes(t *testing.T) {
	for _, q := range []string{
		`UPDATE measurements SET value = 'fast' WHERE sample = 0`,
		`UPDATE measurements SET sample = 'one' || sample`,
		`UPDATE runs SET id = CAST(id AS BLOB)`,
		`UPDATE labels SET value = CAST(value AS BLOB)`,
		`UPDATE series SET benchmark = CAST(benchmark AS BLOB)`,
	} {
		t.Run(q, func(t *testing.T) {
			ctx := context.Background()
			s, path := openTestStore(t)
			if _, err := s.Ingest(ctx, []data.Run{storetest.NewRun("r1", 1, map[string]string{"os": "linux"})}, store.IngestOptions{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			sqlExec(t, path, q)
			_, err := s.Runs(ctx, store.Query{})
			if err == nil || !strings.HasPrefix(err.Error(), "store "+path+" is damaged: column ") {
				t.Errorf("read: %v, want the store named damaged", err)
			}
		})
	}
}

// TestReadCancelled: a read whose context is cancelled stops with the
// context's error.
func TestReadCancelled(t *testing.T) {
	s, _ := openTestStore(t)
	if _, err := s.Ingest(context.Background(), []data.Run{storetest.NewRun("r1", 1, nil)}, store.IngestOptions{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Runs(ctx, store.Query{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Runs: %v, want context.Canceled", err)
	}
	for _, err := range s.EachRun(ctx, store.Query{}) {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("EachRun: %v, want context.Canceled", err)
		}
	}
}

// TestConcurrentReads: goroutines reading one open store at once, whole
// and a page at a time, each get every run (each read takes a connection
// of its own), and nested reads (one inside another's loop) do too.
func TestConcurrentReads(t *testing.T) {
	ctx := context.Background()
	s, _ := openTestStore(t)
	var in []data.Run
	for i := range 50 {
		in = append(in, storetest.NewRun(fmt.Sprintf("r%02d", i), 1+float64(i)/100, map[string]string{"os": "linux"}))
	}
	if _, err := s.Ingest(ctx, in, store.IngestOptions{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	defer func(n int) { store.ReadPage = n }(store.ReadPage)
	store.ReadPage = 7
	count := func() (int, error) {
		n := 0
		for _, err := range s.EachRun(ctx, store.Query{}) {
			if err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for range 5 {
				var n int
				var err error
				if g%2 == 0 {
					var runs []store.StoredRun
					runs, err = s.Runs(ctx, store.Query{})
					n = len(runs)
				} else {
					n, err = count()
				}
				if err == nil && n != len(in) {
					err = fmt.Errorf("read %d runs, want %d", n, len(in))
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	outer := 0
	for _, err := range s.EachRun(ctx, store.Query{}) {
		if err != nil {
			t.Fatal(err)
		}
		if outer++; outer == 3 {
			if n, err := count(); err != nil || n != len(in) {
				t.Errorf("a read inside another: %d runs, %v", n, err)
			}
		}
	}
}
