package data

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIngestRepeatedIDsInOneCall: a run id given twice in one call is
// looked up among the runs the call stored, whether the store was empty
// when the call began (the ids are then remembered, not queried) or not.
func TestIngestRepeatedIDsInOneCall(t *testing.T) {
	ctx := context.Background()
	same := testRun("r1", 1, map[string]string{"os": "linux"})
	changed := testRun("r1", 2, map[string]string{"os": "linux"})
	for _, prefilled := range []bool{false, true} {
		s, _ := openTestStore(t)
		if prefilled {
			if _, err := s.Ingest(ctx, []Run{testRun("r0", 1, nil)}, IngestOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		res, err := s.Ingest(ctx, []Run{same, same}, IngestOptions{})
		if err != nil || res.Added != 1 || res.Unchanged != 1 {
			t.Errorf("prefilled %v: the same run twice: %+v, %v; want 1 added, 1 unchanged", prefilled, res, err)
		}
		var ce *ConflictError
		if _, err := s.Ingest(ctx, []Run{testRun("r2", 1, nil), testRun("r2", 3, nil)}, IngestOptions{}); !errors.As(err, &ce) {
			t.Errorf("prefilled %v: a run id twice with other content: %v, want a conflict", prefilled, err)
		}
		res, err = s.Ingest(ctx, []Run{testRun("r3", 1, nil), testRun("r3", 3, nil)}, IngestOptions{Replace: true})
		if err != nil || res.Added != 1 || res.Replaced != 1 {
			t.Errorf("prefilled %v: replaced in the same call: %+v, %v; want 1 added, 1 replaced", prefilled, res, err)
		}
		got, err := s.RunByID(ctx, "r3")
		if err != nil {
			t.Fatal(err)
		}
		want := testRun("r3", 3, nil)
		want.Sort()
		if diff := cmp.Diff(want.Measurements, got.Measurements); diff != "" {
			t.Errorf("prefilled %v: the replaced run (-want +got):\n%s", prefilled, diff)
		}
		if _, err := s.Ingest(ctx, []Run{changed}, IngestOptions{}); !errors.As(err, &ce) {
			t.Errorf("prefilled %v: a stored id with other content in a later call: %v, want a conflict", prefilled, err)
		}
	}
}
