package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// largeStore makes a store of n runs with two measurements and a label
// each, made by SQL (far faster than an ingest).
func largeStore(t testing.TB, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "large.db")
	s, err := Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	sqlExec(t, path,
		fmt.Sprintf(`WITH RECURSIVE i(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM i WHERE x < %d)
			INSERT INTO runs (seq, id, source, baseline, candidate, digest, ingested_at)
			SELECT x, printf('run-%%07d', x), 'generated', 'b', 'c', 'none', '2026-12-01T08:00:00Z' FROM i`, n),
		`INSERT INTO labels (run_seq, key, value) SELECT seq, 'os', 'linux' FROM runs`,
		`INSERT INTO series (id, variant, benchmark, unit) VALUES (1, 'b', 'x', 'ns/op'), (2, 'c', 'x', 'ns/op')`,
		`INSERT INTO measurements (run_seq, series, sample, value) SELECT r.seq, s.id, 0, 1.5 FROM runs r, series s ORDER BY r.seq, s.id`)
	return path
}

// TestReadInterrupted: a read of a large store (100,000 runs, 200,000
// measurements: a read of some hundreds of milliseconds) whose context is
// cancelled while it runs returns context.Canceled within 100 ms of the
// cancel, rather than after the rest of the read.
func TestReadInterrupted(t *testing.T) {
	const n = 100000
	s, err := Open(largeStore(t, n), store.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		runs int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		runs, err := s.Runs(ctx, store.Query{})
		done <- result{len(runs), err}
	}()
	time.Sleep(50 * time.Millisecond)
	cancelled := time.Now()
	cancel()
	res := <-done
	late := time.Since(cancelled)
	if !errors.Is(res.err, context.Canceled) {
		t.Fatalf("read cancelled 50ms in: %d runs, %v; want context.Canceled", res.runs, res.err)
	}
	if late > 100*time.Millisecond {
		t.Errorf("the read returned %v after its context was cancelled, want under 100ms", late)
	}
}

// TestIngestInterrupted: an ingest whose context is cancelled while it
// writes returns context.Canceled within 100 ms of the cancel, and the
// store holds none of its runs (one transaction, rolled back).
func TestIngestInterrupted(t *testing.T) {
	s, _ := openTestStore(t)
	if _, err := s.Ingest(context.Background(), []data.Run{storetest.NewRun("before", 1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	endless := func(yield func(store.StoredRun, error) bool) {
		for i := 0; ; i++ {
			if !yield(store.StoredRun{Run: storetest.NewRun(fmt.Sprintf("endless-%07d", i), 1, map[string]string{"os": "linux"})}, nil) {
				return
			}
		}
	}
	writing := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := s.IngestEach(ctx, endless, store.IngestOptions{Progress: func(n, _ int) {
			if n == 1000 {
				close(writing)
			}
		}})
		done <- err
	}()
	<-writing
	cancelled := time.Now()
	cancel()
	err := <-done
	late := time.Since(cancelled)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ingest: %v, want context.Canceled", err)
	}
	if late > 100*time.Millisecond {
		t.Errorf("the ingest returned %v after its context was cancelled, want under 100ms", late)
	}
	runs, err := s.Runs(context.Background(), store.Query{})
	if err != nil || len(runs) != 1 || runs[0].ID != "before" {
		t.Errorf("after the cancelled ingest the store holds %d runs (%v), want only the run ingested before", len(runs), err)
	}
}

// TestIngestInterruptedWaiting: an ingest that waits for the store's
// write lock, which another connection holds, returns context.Canceled
// within 100 ms of its context's cancel, rather than waiting on for up to
// BusyTimeout.
func TestIngestInterruptedWaiting(t *testing.T) {
	s, path := openTestStore(t)
	other := sqlConn(t, path)
	defer other.Close()
	if err := execute(other, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Ingest(ctx, []data.Run{storetest.NewRun("r1", 1, nil)}, store.IngestOptions{})
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancelled := time.Now()
	cancel()
	err := <-done
	late := time.Since(cancelled)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ingest: %v, want context.Canceled", err)
	}
	if late > 100*time.Millisecond {
		t.Errorf("the ingest returned %v after its context was cancelled, want under 100ms", late)
	}
	if err := execute(other, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Ingest(context.Background(), []data.Run{storetest.NewRun("r1", 1, nil)}, store.IngestOptions{}); err != nil || res.Added != 1 {
		t.Errorf("the next ingest: %+v, %v", res, err)
	}
}
