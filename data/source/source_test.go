package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/sqlite"
	"github.com/qoscal/qoscal/data/store/storetest"
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
	s, err := sqlite.Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ingest(ctx, []data.Run{storetest.NewRun("r1", 1, map[string]string{"os": "linux"}), storetest.NewRun("r2", 1, nil)}, store.IngestOptions{}); err != nil {
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

// TestSourceEach: Each yields what Runs returns, run by run, with the same
// errors, from a store and from paths.
func TestSourceEach(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	collect := func(src Source) ([]data.Run, error) {
		var runs []data.Run
		for r, err := range src.Each(ctx) {
			if err != nil {
				return runs, err
			}
			runs = append(runs, r)
		}
		return runs, nil
	}
	var oe *OpenError
	if _, err := collect(Source{Store: filepath.Join(dir, "none.db")}); !errors.As(err, &oe) {
		t.Errorf("a missing store: %v, want an *OpenError", err)
	}
	path := filepath.Join(dir, "q.db")
	s, err := sqlite.Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	var stored []data.Run
	for i := range 5 {
		stored = append(stored, storetest.NewRun(fmt.Sprintf("r%d", i+1), 2, map[string]string{"os": []string{"linux", "windows"}[i%2]}))
	}
	if _, err := s.Ingest(ctx, stored, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	defer func(n int) { store.ReadPage = n }(store.ReadPage)
	store.ReadPage = 2 // several pages
	for _, labels := range []map[string]string{nil, {"os": "linux"}} {
		src := Source{Store: path, Labels: labels}
		want, err := src.Runs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := collect(src)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" || len(got) == 0 {
			t.Errorf("labels %v: Each differs from Runs (-Runs +Each):\n%s", labels, diff)
		}
	}
	var ne *NoRunsError
	src := Source{Store: path, Labels: map[string]string{"os": "mac"}}
	if _, err := collect(src); !errors.As(err, &ne) || err.Error() != "no runs in "+path+" with labels os=mac" {
		t.Errorf("no matching runs: %v", err)
	}
	if got, err := collect(Source{Store: path, ID: "r2"}); err != nil || len(got) != 1 || got[0].ID != "r2" {
		t.Errorf("run r2: %v, %v", got, err)
	}
	if _, err := collect(Source{Store: path, ID: "r9"}); err == nil {
		t.Error("run r9, which the store lacks: no error")
	}
	// From paths: a CSV file of runs, and one that does not exist.
	csv := filepath.Join(dir, "runs.csv")
	if err := os.WriteFile(csv, []byte("run,benchmark,variant,value,unit\nr1,a,x,1,ops/sec\nr1,a,y,2,ops/sec\nr2,a,x,3,ops/sec\nr2,a,y,4,ops/sec\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := Source{Paths: []string{csv}}
	want, err := paths.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := collect(paths)
	if diff := cmp.Diff(want, got); err != nil || diff != "" {
		t.Errorf("from a CSV file: %v (-Runs +Each):\n%s", err, diff)
	}
	bad := Source{Paths: []string{csv, filepath.Join(dir, "none.csv")}}
	_, wantErr := bad.Runs(ctx)
	if _, err := collect(bad); err == nil || wantErr == nil || err.Error() != wantErr.Error() {
		t.Errorf("a missing path: %v, want %v", err, wantErr)
	}
}

// TestJudged: the runs the ledger judged against a calibration, in the
// order stored, with the labels asked; none when no verdict was.
func TestJudged(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "q.db")
	s, err := sqlite.Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	runs := []data.Run{storetest.NewRun("r1", 1, map[string]string{"os": "linux"}), storetest.NewRun("r2", 1, nil), storetest.NewRun("r3", 1, map[string]string{"os": "linux"})}
	cal := store.CalibrationRef{Name: "cal.json", SHA256: "5e7a"}
	ledger := &store.Ledger{Verdicts: []store.Verdict{{Run: "r3", Calibration: cal, Verdict: "pass", Kind: "run", Score: 1.1, Floor: 0.9, FloorSource: "calibration", Recorded: time.Unix(1e9, 0)}, {Run: "r2", Calibration: cal, Verdict: "fail", Kind: "run", Score: 0.8, Floor: 0.9, FloorSource: "calibration", Recorded: time.Unix(1e9, 0)}}}
	if _, err := s.Ingest(ctx, runs, store.IngestOptions{Ledger: ledger}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	ids := func(labels map[string]string, sha string) string {
		got, err := Judged(ctx, path, sha, labels)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, r := range got {
			s = append(s, r.ID)
		}
		return strings.Join(s, ",")
	}
	if got := ids(nil, "5e7a"); got != "r2,r3" {
		t.Errorf("judged runs %q, want r2,r3", got)
	}
	if got := ids(map[string]string{"os": "linux"}, "5e7a"); got != "r3" {
		t.Errorf("judged runs with os=linux %q, want r3", got)
	}
	if got := ids(nil, "0000"); got != "" {
		t.Errorf("judged against another calibration %q, want none", got)
	}
}

// TestMark: a mark of a stored run is added once, with the run's earlier
// marks returned; a run not stored, or a store that is missing, is an
// error, and the missing store is not made.
func TestMark(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "q.db")
	s, err := sqlite.Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ingest(ctx, []data.Run{storetest.NewRun("r1", 1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	at := time.Unix(1e9, 0).UTC()
	m := store.Mark{Run: "r1", Truth: store.TruthHealthy, Note: "noise", Marked: at}
	res, err := Mark(ctx, path, m)
	if err != nil || !res.Added || len(res.Earlier) != 0 || res.Location != path {
		t.Fatalf("the first mark: %+v, %v", res, err)
	}
	if res, err = Mark(ctx, path, m); err != nil || res.Added || len(res.Earlier) != 1 {
		t.Errorf("the same mark again: %+v, %v; want not added, one earlier", res, err)
	}
	m.Truth, m.Marked = store.TruthRegressed, at.Add(time.Hour)
	if res, err = Mark(ctx, path, m); err != nil || !res.Added || len(res.Earlier) != 1 || res.Earlier[0].Truth != store.TruthHealthy {
		t.Errorf("another mark: %+v, %v; want added, the healthy mark earlier", res, err)
	}
	m.Run = "r9"
	if _, err := Mark(ctx, path, m); err == nil {
		t.Error("a mark of a run not stored: no error")
	}
	missing := filepath.Join(dir, "none.db")
	if _, err := Mark(ctx, missing, store.Mark{Run: "r1", Truth: store.TruthHealthy, Marked: at}); err == nil || exists(missing) {
		t.Errorf("a mark in a missing store: %v (made: %v), want an error and no store", err, exists(missing))
	}
}

// TestRecord: the runs judged stored with their verdict in one ingest,
// the labels given added to a copy of each run's own.
func TestRecord(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "q.db")
	first := storetest.NewRun("r1", 1, map[string]string{"os": "linux", "cpu": "x"})
	runs := Labelled([]*data.Run{&first}, map[string]string{"cpu": "y", "branch": "main"})
	if first.Labels["cpu"] != "x" || len(first.Labels) != 2 {
		t.Errorf("Labelled changed the run's own labels: %v", first.Labels)
	}
	if got := data.FormatLabels(runs[0].Labels); got != "branch=main,cpu=y,os=linux" {
		t.Errorf("labelled %s, want branch=main,cpu=y,os=linux", got)
	}
	v := store.Verdict{Run: "r1", Calibration: store.CalibrationRef{Name: "cal.json", SHA256: "5e7a"}, Verdict: "pass", Kind: "run",
		Score: 1.1, Floor: 0.9, FloorSource: "calibration", Recorded: time.Unix(1e9, 0)}
	loc, res, err := Record(ctx, path, runs, v, time.Unix(1e9, 0))
	if err != nil || loc != path || res.Added != 1 || res.Ledger.VerdictsAdded != 1 {
		t.Fatalf("Record: %s, %+v, %v; want 1 run and its verdict added", loc, res, err)
	}
	if got, err := Judged(ctx, path, "5e7a", map[string]string{"branch": "main"}); err != nil || len(got) != 1 {
		t.Errorf("the recorded run, judged, with its label: %v, %v", got, err)
	}
}
