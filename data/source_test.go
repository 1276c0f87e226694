package data

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestSource: runs from a store through the one source type, with the
// errors a command turns into hints.
func TestSource(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := Source{Store: filepath.Join(dir, "none.db")}
	var oe *OpenError
	if _, err := missing.Runs(ctx); !errors.As(err, &oe) {
		t.Errorf("a missing store: %v, want an *OpenError", err)
	}
	path := filepath.Join(dir, "q.db")
	s, err := OpenSQLite(path, ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ingest(ctx, []Run{testRun("r1", 1, map[string]string{"os": "linux"}), testRun("r2", 1, nil)}, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var ne *NoRunsError
	src := Source{Store: path, Labels: map[string]string{"os": "windows"}}
	if _, err := src.Runs(ctx); !errors.As(err, &ne) || err.Error() != "no runs in "+path+" with labels os=windows" {
		t.Errorf("no matching runs: %v", err)
	}
	src.Labels = map[string]string{"os": "linux"}
	if runs, err := src.Runs(ctx); err != nil || len(runs) != 1 || runs[0].ID != "r1" {
		t.Errorf("runs with os=linux: %v, %v", runs, err)
	}
	one := Source{Store: path, ID: "r2"}
	if runs, err := one.Runs(ctx); err != nil || len(runs) != 1 || runs[0].ID != "r2" {
		t.Errorf("run r2: %v, %v", runs, err)
	}
}
