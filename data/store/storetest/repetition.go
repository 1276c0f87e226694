package storetest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// NewRepetitionRun makes a run measured in three repetitions of the suite
// ('qoscal measure', or a CSV file's repetition column): two variants,
// two benchmarks, two samples of each in each repetition, samples
// numbered across the repetitions; scale moves the candidate. Its
// measurements come in measure's order (repetition by repetition), not
// in the store's.
func NewRepetitionRun(id string, scale float64) data.Run {
	r := data.Run{ID: id, Source: "runs/" + id, Labels: map[string]string{"os": "linux"}, Baseline: "system", Candidate: "hoard"}
	for rep := 1; rep <= 3; rep++ {
		for i, b := range []string{"larson", "alloc-test"} {
			for s := 0; s < 2; s++ {
				sample := 2*(rep-1) + s
				r.Measurements = append(r.Measurements,
					data.Measurement{Benchmark: b, Variant: "system", Sample: sample, Value: float64(1000*(i+1)+10*rep+s) + 0.25, Unit: "ops/sec", Repetition: rep},
					data.Measurement{Benchmark: b, Variant: "hoard", Sample: sample, Value: scale * float64(1500*(i+1)+20*rep+s), Unit: "ops/sec", Repetition: rep})
			}
		}
	}
	return r
}

// withoutRepetitions is r with every measurement's repetition 0 (the
// same samples, as a store before schema version 5 kept them).
func withoutRepetitions(r data.Run) data.Run {
	r.Measurements = append([]data.Measurement(nil), r.Measurements...)
	for i := range r.Measurements {
		r.Measurements[i].Repetition = 0
	}
	return r
}

// testRepetitions: a run measured in repetitions reads back with each
// measurement's repetition, by every read (Runs, EachRun, RunByID), and
// beside a run without them (repetition 0); ingesting it again finds it
// unchanged; the same samples without their repetitions are other
// content (a conflict, and with Replace they replace it); a run whose
// repetition numbers alone differ is other content too. And a run stored
// without its repetitions (as a qoscal before schema version 5 stored
// every run) is given them by an ingest of the run with them, without
// Replace (IngestResult.Completed): the same samples, each with its
// repetition, not a conflict.
func testRepetitions(t *testing.T, s store.Store) {
	reps, plain := NewRepetitionRun("reps", 1.2), NewRun("plain", 1, nil)
	res := ingest(t, s, store.IngestOptions{}, reps, plain)
	if res.Added != 2 || res.Measurements != len(reps.Measurements)+len(plain.Measurements) {
		t.Errorf("ingest result %+v, want 2 added, %d measurements", res, len(reps.Measurements)+len(plain.Measurements))
	}
	want := []data.Run{canonical(reps), canonical(plain)}
	check := func(how string, got []data.Run) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d runs, want %d", how, len(got), len(want))
		}
		for i := range want {
			if diff := cmp.Diff(want[i], got[i]); diff != "" {
				t.Errorf("%s: run %s (-stored +read):\n%s", how, want[i].ID, diff)
			}
		}
	}
	var all, each []data.Run
	for _, r := range runs(t, s, store.Query{}) {
		all = append(all, r.Run)
	}
	check("Runs", all)
	for r, err := range s.EachRun(ctx, store.Query{Order: store.IngestOrder}) {
		if err != nil {
			t.Fatal(err)
		}
		each = append(each, r.Run)
	}
	check("EachRun", each)
	one, err := s.RunByID(ctx, "reps")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[0], one.Run); diff != "" {
		t.Errorf("RunByID(reps) (-stored +read):\n%s", diff)
	}
	if res := ingest(t, s, store.IngestOptions{}, reps, plain); res.Unchanged != 2 {
		t.Errorf("ingesting the runs again: %+v, want both unchanged", res)
	}

	// The repetitions are part of the run's content.
	bare := withoutRepetitions(reps)
	_, err = s.Ingest(ctx, []data.Run{bare}, store.IngestOptions{Now: now})
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.ID != "reps" {
		t.Errorf("the same samples without their repetitions: %v, want a *store.ConflictError for reps", err)
	}
	renumbered := NewRepetitionRun("reps", 1.2)
	for i := range renumbered.Measurements {
		renumbered.Measurements[i].Repetition += 10
	}
	_, err = s.Ingest(ctx, []data.Run{renumbered}, store.IngestOptions{Now: now})
	if !errors.As(err, &ce) || ce.ID != "reps" {
		t.Errorf("the same samples in other repetitions: %v, want a *store.ConflictError for reps", err)
	}
	if res := ingest(t, s, store.IngestOptions{Replace: true}, bare); res.Replaced != 1 {
		t.Errorf("replacing the run by its samples without repetitions: %+v, want 1 replaced", res)
	}
	got, err := s.RunByID(ctx, "reps")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(canonical(bare), got.Run); diff != "" {
		t.Errorf("the replaced run (-stored +read):\n%s", diff)
	}

	res = ingest(t, s, store.IngestOptions{}, plain, reps)
	if want := (store.IngestResult{Unchanged: 1, Completed: 1, AlreadyStored: []string{"plain"}, Measurements: len(reps.Measurements)}); !cmp.Equal(res, want) {
		t.Errorf("the run with repetitions over the same run stored without them: %+v, want %+v", res, want)
	}
	if got, err = s.RunByID(ctx, "reps"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(canonical(reps), got.Run); diff != "" {
		t.Errorf("the run given its repetitions (-stored +read):\n%s", diff)
	}
	if res := ingest(t, s, store.IngestOptions{}, reps); res.Unchanged != 1 || res.Completed != 0 {
		t.Errorf("the run given its repetitions, again: %+v, want unchanged", res)
	}
}
