package source

import (
	"context"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/sqlite"
	"github.com/qoscal/qoscal/data/store/storetest"
)

func seq(runs []data.Run, fail error) iter.Seq2[data.Run, error] {
	return func(yield func(data.Run, error) bool) {
		for _, r := range runs {
			if !yield(r, nil) {
				return
			}
		}
		if fail != nil {
			yield(data.Run{}, fail)
		}
	}
}

var clock = func() (time.Time, error) { return time.Unix(1e9, 0).UTC(), nil }

// TestIngestCopyUpgrade: Ingest stores a stream of runs; input that fails
// at once makes no store and is the input's error; Copy copies a store
// into a new one, and a copy that fails leaves no file behind; Upgrade
// of a store up to date changes nothing.
func TestIngestCopyUpgrade(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bad := errors.New("bad input")
	none := filepath.Join(dir, "none.db")
	if _, _, in, err := Ingest(ctx, none, seq(nil, bad), store.IngestOptions{}, clock); !in || err != bad {
		t.Errorf("input failing at once: input %v, %v", in, err)
	}
	if _, err := os.Lstat(none); err == nil {
		t.Error("input failing at once made a store")
	}
	a := filepath.Join(dir, "a.db")
	runs := []data.Run{storetest.NewRun("r1", 1, nil), storetest.NewRun("r2", 1, nil)}
	loc, res, in, err := Ingest(ctx, a, seq(runs, nil), store.IngestOptions{}, clock)
	if err != nil || in || loc != a || res.Added != 2 {
		t.Fatalf("Ingest: %s, %+v, input %v, %v", loc, res, in, err)
	}
	if _, _, in, err := Ingest(ctx, a, seq([]data.Run{storetest.NewRun("r3", 1, nil)}, bad), store.IngestOptions{}, clock); !in || !errors.Is(err, bad) {
		t.Errorf("input failing later: input %v, %v", in, err)
	}
	b := filepath.Join(dir, "b.db")
	c, err := Copy(ctx, a, b, time.Unix(2e9, 0))
	if err != nil || c.From != a || c.To != b || c.Result.Added != 2 || c.HasLedger {
		t.Fatalf("Copy: %+v, %v", c, err)
	}
	if c, err := Copy(ctx, a, b, time.Unix(2e9, 0)); err != nil || c.Result.Added != 0 || c.Result.Unchanged != 2 {
		t.Errorf("Copy again: %+v, %v", c, err)
	}
	if _, err := Copy(ctx, none, filepath.Join(dir, "c.db"), time.Unix(2e9, 0)); err == nil {
		t.Error("Copy from a missing store")
	}
	if _, err := os.Lstat(filepath.Join(dir, "c.db")); err == nil {
		t.Error("a failed copy left its store")
	}
	up, err := Upgrade(ctx, b)
	if err != nil || up.From != sqlite.SchemaVersion || up.To != sqlite.SchemaVersion || up.Compacted {
		t.Errorf("Upgrade of a store up to date: %+v, %v", up, err)
	}
	if up, err := Upgrade(ctx, none); err == nil || up != nil {
		t.Errorf("Upgrade of a missing store: %+v, %v", up, err)
	}
	if _, err := os.Lstat(none); err == nil {
		t.Error("Upgrade made a store")
	}
}
