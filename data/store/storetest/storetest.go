// Package storetest is the conformance suite of store.Store: the behaviour
// every store backend must share, so that every command works the same on
// each. A backend's test calls Run with a function that opens a new, empty
// store for writing.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// Opener opens a new, empty store for writing; the suite closes it.
type Opener func(t *testing.T) store.Store

// Run runs the conformance suite against the stores open makes.
func Run(t *testing.T, open Opener) {
	for _, c := range []struct {
		name string
		test func(t *testing.T, s store.Store)
	}{
		{"RoundTrip", testRoundTrip},
		{"Repetitions", testRepetitions},
		{"ExactValues", testExactValues},
		{"Idempotent", testIdempotent},
		{"Conflict", testConflict},
		{"AllOrNothing", testAllOrNothing},
		{"Replace", testReplace},
		{"Labels", testLabels},
		{"TimeOrder", testTimeOrder},
		{"RunByID", testRunByID},
		{"ConcurrentSameRun", testConcurrentSameRun},
		{"ConcurrentConflict", testConcurrentConflict},
		{"ConcurrentDistinct", testConcurrentDistinct},
		{"RepeatInOneCall", testRepeatInOneCall},
		{"KeepIngestTimes", testKeepIngestTimes},
		{"Canceled", testCanceled},
		{"Stream", testStream},
		{"StreamFails", testStreamFails},
		{"ConcurrentOverlap", testConcurrentOverlap},
		{"LedgerRoundTrip", testLedgerRoundTrip},
		{"LedgerQuery", testLedgerQuery},
		{"LedgerProfile", testLedgerProfile},
		{"LedgerAgain", testLedgerAgain},
		{"LedgerMissingRun", testLedgerMissingRun},
		{"LedgerMany", testLedgerMany},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			c.test(t, s)
		})
	}
}

var ctx = context.Background()

// now is the ingest time the suite records.
var now = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

// NewRun makes a run of two variants, three benchmarks and two samples each
// (the suite's runs, which other tests of the stores use too);
// scale moves the candidate.
func NewRun(id string, scale float64, labels map[string]string) data.Run {
	r := data.Run{ID: id, Source: "src/" + id, Labels: labels, Baseline: "system", Candidate: "hoard"}
	for i, b := range []string{"alloc-test", "larson", "sh8bench"} {
		for s := 0; s < 2; s++ {
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: b, Variant: "system", Sample: s, Value: float64(1000*(i+1) + s), Unit: "ops/sec"},
				data.Measurement{Benchmark: b, Variant: "hoard", Sample: s, Value: scale * float64(1500*(i+1)+s), Unit: "ops/sec"})
		}
	}
	return r
}

func ingest(t *testing.T, s store.Store, opt store.IngestOptions, runs ...data.Run) store.IngestResult {
	t.Helper()
	if opt.Now.IsZero() {
		opt.Now = now
	}
	res, err := s.Ingest(ctx, runs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func runs(t *testing.T, s store.Store, q store.Query) []store.StoredRun {
	t.Helper()
	got, err := s.Runs(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func ids(rs []store.StoredRun) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// canonical is what the store must give back for r: measurements in
// canonical order, labels never nil.
func canonical(r data.Run) data.Run {
	r.Measurements = append([]data.Measurement(nil), r.Measurements...)
	r.Sort()
	if r.Labels == nil {
		r.Labels = map[string]string{}
	}
	return r
}

func testRoundTrip(t *testing.T, s store.Store) {
	in := []data.Run{NewRun("r1", 1, map[string]string{"os": "windows", "runner": "w-1"}), NewRun("r2", 1.1, nil)}
	in[0].Time = time.Date(2026, 11, 30, 7, 0, 0, 123456789, time.UTC)
	// Measurements out of canonical order come back sorted.
	in[1].Measurements[0], in[1].Measurements[5] = in[1].Measurements[5], in[1].Measurements[0]
	res := ingest(t, s, store.IngestOptions{}, in...)
	if res.Added != 2 || res.Measurements != 24 || res.Unchanged != 0 {
		t.Errorf("ingest result %+v, want 2 added, 24 measurements", res)
	}
	got := runs(t, s, store.Query{})
	if len(got) != 2 {
		t.Fatalf("%d runs back, want 2", len(got))
	}
	for i := range in {
		if diff := cmp.Diff(canonical(in[i]), got[i].Run); diff != "" {
			t.Errorf("run %s (-stored +read):\n%s", in[i].ID, diff)
		}
		if !got[i].Ingested.Equal(now) {
			t.Errorf("run %s ingested %v, want %v", in[i].ID, got[i].Ingested, now)
		}
	}
}

// testExactValues: values are 8-byte floats, kept bit for bit, from the
// smallest normal to the largest values a parser lets in.
func testExactValues(t *testing.T, s store.Store) {
	r := data.Run{ID: "exact", Source: "x", Baseline: "a", Candidate: "b"}
	values := []float64{math.SmallestNonzeroFloat64 * (1 << 52), 0.1, 1.0 / 3, math.Nextafter(1, 2), 5514093, 1e299, math.Pi * 1e-200}
	for i, v := range values {
		r.Measurements = append(r.Measurements, data.Measurement{Benchmark: fmt.Sprintf("b%02d", i), Variant: "a", Value: v, Unit: "ns/op"})
	}
	ingest(t, s, store.IngestOptions{}, r)
	got, err := s.RunByID(ctx, "exact")
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range got.Measurements {
		if math.Float64bits(m.Value) != math.Float64bits(values[i]) {
			t.Errorf("%s: stored %v, read %v (bits %#x, want %#x)", m.Benchmark, values[i], m.Value, math.Float64bits(m.Value), math.Float64bits(values[i]))
		}
	}
}

func testIdempotent(t *testing.T, s store.Store) {
	ingest(t, s, store.IngestOptions{}, NewRun("r1", 1, nil))
	res := ingest(t, s, store.IngestOptions{}, NewRun("r1", 1, nil), NewRun("r2", 1, nil))
	if res.Added != 1 || res.Unchanged != 1 || len(res.AlreadyStored) != 1 || res.AlreadyStored[0] != "r1" {
		t.Errorf("second ingest %+v, want r2 added and r1 unchanged", res)
	}
	// The source is not part of a run's identity: the same run read from
	// another checkout is the same run.
	moved := NewRun("r1", 1, nil)
	moved.Source = "elsewhere/r1"
	if res := ingest(t, s, store.IngestOptions{}, moved); res.Unchanged != 1 {
		t.Errorf("the same run from another path: %+v, want unchanged", res)
	}
	if got := ids(runs(t, s, store.Query{})); !cmp.Equal(got, []string{"r1", "r2"}) {
		t.Errorf("runs %v, want [r1 r2]", got)
	}
}

func testConflict(t *testing.T, s store.Store) {
	ingest(t, s, store.IngestOptions{}, NewRun("r1", 1, nil))
	_, err := s.Ingest(ctx, []data.Run{NewRun("r1", 2, nil)}, store.IngestOptions{Now: now})
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.ID != "r1" {
		t.Fatalf("other content under a stored id: %v, want a *store.ConflictError for r1", err)
	}
	got, err := s.RunByID(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(canonical(NewRun("r1", 1, nil)), got.Run); diff != "" {
		t.Errorf("the first content must stay (-want +got):\n%s", diff)
	}
}

// testAllOrNothing: an ingest that fails part-way leaves nothing of its
// runs behind.
func testAllOrNothing(t *testing.T, s store.Store) {
	ingest(t, s, store.IngestOptions{}, NewRun("r1", 1, nil))
	_, err := s.Ingest(ctx, []data.Run{NewRun("r2", 1, nil), NewRun("r3", 1, nil), NewRun("r1", 3, nil)}, store.IngestOptions{Now: now})
	if err == nil {
		t.Fatal("an ingest with a conflicting run succeeded")
	}
	if got := ids(runs(t, s, store.Query{})); !cmp.Equal(got, []string{"r1"}) {
		t.Errorf("after a failed ingest the store holds %v, want only [r1]", got)
	}
}

func testReplace(t *testing.T, s store.Store) {
	ingest(t, s, store.IngestOptions{}, NewRun("r1", 1, nil), NewRun("r2", 1, nil))
	changed := NewRun("r1", 2, map[string]string{"os": "linux"})
	res := ingest(t, s, store.IngestOptions{Replace: true}, changed)
	if res.Replaced != 1 || res.Added != 0 {
		t.Errorf("replace result %+v, want 1 replaced", res)
	}
	got := runs(t, s, store.Query{})
	if !cmp.Equal(ids(got), []string{"r1", "r2"}) {
		t.Errorf("a replaced run keeps its place: %v, want [r1 r2]", ids(got))
	}
	if diff := cmp.Diff(canonical(changed), got[0].Run); diff != "" {
		t.Errorf("replaced run (-want +got):\n%s", diff)
	}
}

func testLabels(t *testing.T, s store.Store) {
	ingest(t, s, store.IngestOptions{},
		NewRun("w1", 1, map[string]string{"os": "windows", "runner": "a"}),
		NewRun("l1", 1, map[string]string{"os": "linux", "runner": "a"}),
		NewRun("l2", 1, map[string]string{"os": "linux", "runner": "b"}),
		NewRun("none", 1, nil))
	for _, c := range []struct {
		labels map[string]string
		want   []string
	}{
		{nil, []string{"w1", "l1", "l2", "none"}},
		{map[string]string{"os": "linux"}, []string{"l1", "l2"}},
		{map[string]string{"os": "linux", "runner": "b"}, []string{"l2"}},
		{map[string]string{"os": "linux", "runner": "c"}, []string{}},
		{map[string]string{"runner": "a"}, []string{"w1", "l1"}},
	} {
		if got := ids(runs(t, s, store.Query{Labels: c.labels})); !cmp.Equal(got, c.want) {
			t.Errorf("labels %v: %v, want %v", c.labels, got, c.want)
		}
	}
}

// testTimeOrder: by measured time, earliest first, runs without a time
// last in ingest order; sub-second times order correctly.
func testTimeOrder(t *testing.T, s store.Store) {
	at := func(id string, sec int, nsec int) data.Run {
		r := NewRun(id, 1, nil)
		if sec >= 0 {
			r.Time = time.Date(2026, 12, 1, 7, 0, sec, nsec, time.UTC)
		}
		return r
	}
	ingest(t, s, store.IngestOptions{}, at("c", 10, 0), at("untimed1", -1, 0), at("a", 9, 0), at("b", 9, 500000000), at("untimed2", -1, 0))
	if got := ids(runs(t, s, store.Query{Order: store.TimeOrder})); !cmp.Equal(got, []string{"a", "b", "c", "untimed1", "untimed2"}) {
		t.Errorf("time order %v, want [a b c untimed1 untimed2]", got)
	}
	if got := ids(runs(t, s, store.Query{})); !cmp.Equal(got, []string{"c", "untimed1", "a", "b", "untimed2"}) {
		t.Errorf("ingest order %v", got)
	}
}

func testRunByID(t *testing.T, s store.Store) {
	ingest(t, s, store.IngestOptions{}, NewRun("r1", 1, nil), NewRun("r2", 1.5, map[string]string{"os": "linux"}))
	got, err := s.RunByID(ctx, "r2")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(canonical(NewRun("r2", 1.5, map[string]string{"os": "linux"})), got.Run); diff != "" {
		t.Errorf("RunByID(r2) (-want +got):\n%s", diff)
	}
	if _, err := s.RunByID(ctx, "r9"); err == nil {
		t.Error("RunByID of a run the store lacks gave no error")
	}
}

// testConcurrentSameRun: CI jobs that store the same run at once leave one
// copy and no error.
func testConcurrentSameRun(t *testing.T, s store.Store) {
	const writers = 4
	errs := concurrently(writers, func(i int) error {
		_, err := s.Ingest(ctx, []data.Run{NewRun("same", 1, nil)}, store.IngestOptions{Now: now})
		return err
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if got := ids(runs(t, s, store.Query{})); !cmp.Equal(got, []string{"same"}) {
		t.Errorf("after %d writers of one run the store holds %v", writers, got)
	}
}

// testCanceled: a canceled context stops an ingest, and nothing lands.
func testCanceled(t *testing.T, s store.Store) {
	c, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Ingest(c, []data.Run{NewRun("r1", 1, nil)}, store.IngestOptions{Now: now}); err == nil {
		t.Error("an ingest with a canceled context succeeded")
	}
	if got := ids(runs(t, s, store.Query{})); len(got) != 0 {
		t.Errorf("a canceled ingest left %v", got)
	}
}

// testConcurrentConflict: CI jobs that store different content under one
// run id at once leave one of them whole, and every other fails with a
// *store.ConflictError.
func testConcurrentConflict(t *testing.T, s store.Store) {
	const writers = 4
	errs := concurrently(writers, func(i int) error {
		_, err := s.Ingest(ctx, []data.Run{NewRun("same", float64(i+1), nil)}, store.IngestOptions{Now: now})
		return err
	})
	winner := -1
	for i, err := range errs {
		var ce *store.ConflictError
		switch {
		case err == nil && winner < 0:
			winner = i
		case err == nil:
			t.Errorf("writers %d and %d both stored their run %q", winner, i, "same")
		case !errors.As(err, &ce):
			t.Errorf("writer %d: %v, want a *store.ConflictError", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no writer stored its run")
	}
	got, err := s.RunByID(ctx, "same")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(canonical(NewRun("same", float64(winner+1), nil)), got.Run); diff != "" {
		t.Errorf("the stored run is not the one that succeeded (writer %d) (-want +got):\n%s", winner, diff)
	}
}

// testConcurrentDistinct: CI jobs storing different runs at once lose none.
func testConcurrentDistinct(t *testing.T, s store.Store) {
	const writers, each = 4, 10
	errs := concurrently(writers, func(i int) error {
		var rs []data.Run
		for j := range each {
			rs = append(rs, NewRun(fmt.Sprintf("w%d-%02d", i, j), 1, map[string]string{"writer": fmt.Sprint(i)}))
		}
		_, err := s.Ingest(ctx, rs, store.IngestOptions{Now: now})
		return err
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if got := runs(t, s, store.Query{}); len(got) != writers*each {
		t.Errorf("%d runs stored, want %d", len(got), writers*each)
	}
	if got := runs(t, s, store.Query{Labels: map[string]string{"writer": "2"}}); len(got) != each {
		t.Errorf("writer 2 has %d runs, want %d", len(got), each)
	}
}

// testRepeatInOneCall: a run given twice in one call is stored once; an
// id given twice with other content is a conflict, or with Replace ends
// with the later content, counted as storing them one by one would.
func testRepeatInOneCall(t *testing.T, s store.Store) {
	res := ingest(t, s, store.IngestOptions{}, NewRun("r1", 1, nil), NewRun("r1", 1, nil))
	if res.Added != 1 || res.Unchanged != 1 || res.Measurements != 12 {
		t.Errorf("one run twice: %+v, want 1 added, 1 unchanged, 12 measurements", res)
	}
	_, err := s.Ingest(ctx, []data.Run{NewRun("r2", 1, nil), NewRun("r2", 2, nil)}, store.IngestOptions{Now: now})
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.ID != "r2" {
		t.Errorf("one id twice with other content: %v, want a *store.ConflictError for r2", err)
	}
	res = ingest(t, s, store.IngestOptions{Replace: true}, NewRun("r3", 1, nil), NewRun("r3", 3, nil))
	if res.Added != 1 || res.Replaced != 1 {
		t.Errorf("one id twice with other content, replacing: %+v, want 1 added, 1 replaced", res)
	}
	got := runs(t, s, store.Query{})
	if !cmp.Equal(ids(got), []string{"r1", "r3"}) {
		t.Fatalf("store holds %v, want [r1 r3]", ids(got))
	}
	if diff := cmp.Diff(canonical(NewRun("r3", 3, nil)), got[1].Run); diff != "" {
		t.Errorf("r3 (-want +got):\n%s", diff)
	}
}

// testKeepIngestTimes: IngestOptions.Ingested records each run's own
// ingest time (a copy between stores keeps them); a zero time means Now.
func testKeepIngestTimes(t *testing.T, s store.Store) {
	first := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	in := []store.StoredRun{{Run: NewRun("r1", 1, nil), Ingested: first}, {Run: NewRun("r2", 1, nil)}}
	if _, err := s.IngestEach(ctx, allStored(in), store.IngestOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	got := runs(t, s, store.Query{})
	if len(got) != 2 {
		t.Fatalf("%d runs, want 2", len(got))
	}
	if !got[0].Ingested.Equal(first) || !got[1].Ingested.Equal(now) {
		t.Errorf("ingest times %v and %v, want %v and %v", got[0].Ingested, got[1].Ingested, first, now)
	}
}

// streamRuns is how many runs the stream cases ingest: more than a
// PostgreSQL ingest stages at once, so that they span batches.
const streamRuns = 1100

// stream yields a run for each of ids, in order (NewRun(id, 1, …) labelled
// with its id); at index stop (when stop >= 0) it yields fail instead and
// ends.
func stream(ids []string, stop int, fail error) iter.Seq2[store.StoredRun, error] {
	return func(yield func(store.StoredRun, error) bool) {
		for i, id := range ids {
			if i == stop {
				yield(store.StoredRun{}, fail)
				return
			}
			if !yield(store.StoredRun{Run: NewRun(id, 1, map[string]string{"id": id})}, nil) {
				return
			}
		}
	}
}

// streamIDs names streamRuns runs: PREFIX0000, PREFIX0001, ...
func streamIDs(prefix string) []string {
	var out []string
	for i := range streamRuns {
		out = append(out, fmt.Sprintf("%s%04d", prefix, i))
	}
	return out
}

// testStream: runs taken one at a time land whole, in the order given,
// with progress told run by run (of an unknown total); a run given again
// later in the stream is unchanged.
func testStream(t *testing.T, s store.Store) {
	want := streamIDs("s")
	var progress []int
	in := append(slices.Clone(want), want[3])
	res, err := s.IngestEach(ctx, stream(in, -1, nil), store.IngestOptions{Now: now,
		Progress: func(done, total int) {
			if total != 0 {
				t.Errorf("progress of a stream gave total %d, want 0 (unknown)", total)
			}
			progress = append(progress, done)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != streamRuns || res.Unchanged != 1 || !cmp.Equal(res.AlreadyStored, []string{want[3]}) || res.Measurements != 12*streamRuns {
		t.Errorf("ingest result %+v, want %d added, %s unchanged, %d measurements", res, streamRuns, want[3], 12*streamRuns)
	}
	if len(progress) != len(in) || progress[len(progress)-1] != len(in) {
		t.Errorf("progress told %d times, last %v; want %d times, last %d", len(progress), progress[len(progress)-1:], len(in), len(in))
	}
	got := runs(t, s, store.Query{})
	if !cmp.Equal(ids(got), want) {
		t.Fatalf("stored %d runs, not the %d given in their order", len(got), len(want))
	}
	if diff := cmp.Diff(canonical(NewRun(want[1000], 1, map[string]string{"id": want[1000]})), got[1000].Run); diff != "" {
		t.Errorf("run %s (-want +got):\n%s", want[1000], diff)
	}
	// EachRun reads, a page at a time, what Runs reads at once.
	for _, q := range []store.Query{{}, {Labels: map[string]string{"id": want[1050]}}, {Order: store.TimeOrder}, {Labels: map[string]string{"id": "none"}}} {
		all := runs(t, s, q)
		var each []store.StoredRun
		for r, err := range s.EachRun(ctx, q) {
			if err != nil {
				t.Fatal(err)
			}
			each = append(each, r)
		}
		if diff := cmp.Diff(all, each); diff != "" {
			t.Errorf("EachRun(%+v) differs from Runs (-Runs +EachRun):\n%s", q, diff)
		}
	}
	// A reader may stop early.
	n := 0
	for _, err := range s.EachRun(ctx, store.Query{}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 3 {
			break
		}
	}
}

// testStreamFails: a stream of runs that fails part-way, after more runs
// than one batch, stores none of them and the error comes back as the
// stream gave it.
func testStreamFails(t *testing.T, s store.Store) {
	ingest(t, s, store.IngestOptions{}, NewRun("r1", 1, nil))
	fail := errors.New("result file 1050 does not parse")
	for _, stop := range []int{0, 1050} {
		_, err := s.IngestEach(ctx, stream(streamIDs("f"), stop, fail), store.IngestOptions{Now: now})
		if !errors.Is(err, fail) {
			t.Errorf("a stream failing at run %d: %v, want its error", stop, err)
		}
		if got := ids(runs(t, s, store.Query{})); !cmp.Equal(got, []string{"r1"}) {
			t.Errorf("after a stream failing at run %d the store holds %d runs, want only [r1]", stop, len(got))
		}
	}
}

// testConcurrentOverlap: CI jobs that stream overlapping runs at once, in
// different orders and more than one batch each, all succeed (no
// deadlock), and every run is stored once, whole.
func testConcurrentOverlap(t *testing.T, s store.Store) {
	const writers = 4
	all := streamIDs("o")
	errs := concurrently(writers, func(i int) error {
		// Writer i takes the runs from a different start, half of
		// them backwards.
		in := append(slices.Clone(all[i*streamRuns/writers:]), all[:i*streamRuns/writers]...)
		if i%2 == 1 {
			slices.Reverse(in)
		}
		_, err := s.IngestEach(ctx, stream(in, -1, nil), store.IngestOptions{Now: now})
		return err
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	got := runs(t, s, store.Query{})
	if len(got) != streamRuns {
		t.Fatalf("%d runs stored, want %d", len(got), streamRuns)
	}
	seen := map[string]bool{}
	for _, r := range got {
		if len(r.Measurements) != 12 || seen[r.ID] {
			t.Errorf("run %s: %d measurements (want 12), stored before: %v", r.ID, len(r.Measurements), seen[r.ID])
		}
		seen[r.ID] = true
	}
}

// allStored yields the runs of a slice.
func allStored(runs []store.StoredRun) iter.Seq2[store.StoredRun, error] {
	return func(yield func(store.StoredRun, error) bool) {
		for _, r := range runs {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// concurrently runs write(i) for i in 0..writers−1 at once, as that many
// CI jobs would, and returns each one's error.
func concurrently(writers int, write func(i int) error) []error {
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = write(i)
		}()
	}
	wg.Wait()
	return errs
}
