package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// TestIngestRepeatedIDsInOneCall: a run id given twice in one call is
// looked up among the runs the call stored, whether the store was empty
// when the call began (the ids are then remembered, not queried) or not.
func TestIngestRepeatedIDsInOneCall(t *testing.T) {
	ctx := context.Background()
	same := storetest.NewRun("r1", 1, map[string]string{"os": "linux"})
	changed := storetest.NewRun("r1", 2, map[string]string{"os": "linux"})
	for _, prefilled := range []bool{false, true} {
		s, path := openTestStore(t)
		if prefilled {
			if _, err := s.Ingest(ctx, []data.Run{storetest.NewRun("r0", 1, nil)}, store.IngestOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		res, err := s.Ingest(ctx, []data.Run{same, same}, store.IngestOptions{})
		if err != nil || res.Added != 1 || res.Unchanged != 1 {
			t.Errorf("prefilled %v: the same run twice: %+v, %v; want 1 added, 1 unchanged", prefilled, res, err)
		}
		var ce *store.ConflictError
		if _, err := s.Ingest(ctx, []data.Run{storetest.NewRun("r2", 1, nil), storetest.NewRun("r2", 3, nil)}, store.IngestOptions{}); !errors.As(err, &ce) {
			t.Errorf("prefilled %v: a run id twice with other content: %v, want a conflict", prefilled, err)
		}
		res, err = s.Ingest(ctx, []data.Run{storetest.NewRun("r3", 1, nil), storetest.NewRun("r3", 3, nil)}, store.IngestOptions{Replace: true})
		if err != nil || res.Added != 1 || res.Replaced != 1 {
			t.Errorf("prefilled %v: replaced in the same call: %+v, %v; want 1 added, 1 replaced", prefilled, res, err)
		}
		got, err := s.RunByID(ctx, "r3")
		if err != nil {
			t.Fatal(err)
		}
		want := storetest.NewRun("r3", 3, nil)
		want.Sort()
		if diff := cmp.Diff(want.Measurements, got.Measurements); diff != "" {
			t.Errorf("prefilled %v: the replaced run (-want +got):\n%s", prefilled, diff)
		}
		if _, err := s.Ingest(ctx, []data.Run{changed}, store.IngestOptions{}); !errors.As(err, &ce) {
			t.Errorf("prefilled %v: a stored id with other content in a later call: %v, want a conflict", prefilled, err)
		}
		checkForeignKeys(t, path)
	}
}

// TestIngestDuplicateMeasurement: a run that holds one measurement twice
// (same variant, benchmark, unit and sample; the loaders refuse such a
// run, Ingest is handed it directly) fails the ingest with an error that
// names the store, the run and the measurement, whether the duplicate is
// in the first statement of 100 rows or a later one, and the runs of the
// same call before it are not stored (one transaction); the store then
// takes the next ingest.
func TestIngestDuplicateMeasurement(t *testing.T) {
	ctx := context.Background()
	for _, at := range []int{1, 150} {
		s, path := openTestStore(t)
		bad := data.Run{ID: "bad", Source: "s"}
		for i := range 200 {
			bad.Measurements = append(bad.Measurements, data.Measurement{Variant: "b", Benchmark: fmt.Sprintf("bench-%03d", i), Value: 1, Unit: "ns/op"})
		}
		bad.Measurements[at].Benchmark = bad.Measurements[at-1].Benchmark
		_, err := s.Ingest(ctx, []data.Run{storetest.NewRun("good", 1, nil), bad}, store.IngestOptions{})
		want := fmt.Sprintf("store %s: run bad: b bench-%03d sample 0: UNIQUE constraint failed: measurements.run_seq, measurements.series, measurements.sample", path, at-1)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("duplicate at %d: %v\nwant %s", at, err, want)
		}
		runs, err := s.Runs(ctx, store.Query{})
		if err != nil || len(runs) != 0 {
			t.Errorf("duplicate at %d: the store holds %d runs (%v), want none", at, len(runs), err)
		}
		if res, err := s.Ingest(ctx, []data.Run{storetest.NewRun("good", 1, nil)}, store.IngestOptions{}); err != nil || res.Added != 1 {
			t.Errorf("duplicate at %d: the next ingest: %+v, %v", at, res, err)
		}
		checkForeignKeys(t, path)
	}
}

// checkForeignKeys fails the test when a row of the store at path refers
// to a run or series the store lacks: the ingest writes with SQLite's own
// checks off, and must keep them itself.
func checkForeignKeys(t *testing.T, path string) {
	t.Helper()
	for _, p := range foreignKeyProblems(t, path) {
		t.Errorf("store %s: %s", path, p)
	}
}

// foreignKeyProblems lists the rows of the store at path that refer to a
// row the store lacks (PRAGMA foreign_key_check).
func foreignKeyProblems(t *testing.T, path string) []string {
	t.Helper()
	c := sqlConn(t, path)
	defer c.Close()
	st, _, err := c.PrepareTransient(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Finalize()
	var problems []string
	for {
		row, err := st.Step()
		if err != nil {
			t.Fatal(err)
		}
		if !row {
			return problems
		}
		// The columns: table, rowid, parent table, foreign key number.
		problems = append(problems, fmt.Sprintf("a row of %s refers to a missing row of %s", st.ColumnText(0), st.ColumnText(2)))
	}
}

// TestCheckForeignKeys: foreignKeyProblems sees a measurement of a run
// the store lacks.
func TestCheckForeignKeys(t *testing.T) {
	s, path := openTestStore(t)
	if _, err := s.Ingest(context.Background(), []data.Run{storetest.NewRun("r1", 1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	checkForeignKeys(t, path)
	sqlExec(t, path, `INSERT INTO measurements (run_seq, series, sample, value) VALUES (99, 1, 0, 1.5)`)
	if problems := foreignKeyProblems(t, path); len(problems) != 1 || problems[0] != "a row of measurements refers to a missing row of runs" {
		t.Errorf("an orphan measurement: %q", problems)
	}
}
