package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeAheadFolders writes n run folders of ops files into dir, with what
// a load must say in order: every 7th folder's baseline has a
// benchmark-like line without a figure (a note), folder 11 lacks its
// candidate file, folder 20 holds no result file (not a run folder), and
// folder bad (if >= 0) has a malformed result line.
func writeAheadFolders(t *testing.T, dir string, n, bad int) {
	t.Helper()
	for i := range n {
		run := filepath.Join(dir, fmt.Sprintf("run-%d", i))
		if err := os.MkdirAll(run, 0o755); err != nil {
			t.Fatal(err)
		}
		for v, name := range []string{"base.txt", "cand.txt"} {
			if i == 20 || i == 11 && v == 1 {
				continue
			}
			text := fmt.Sprintf("=== run %d ===\nlarson: threads=4 (%d ops/sec)\ncfrac: x=1 (%d ops/sec)\n", i, 1000+i, 2000+v)
			if i%7 == 0 && v == 0 {
				text += fmt.Sprintf("xmalloc-test: threads=4 time=0.%d sec\n", i)
			}
			if i == bad && v == 1 {
				text += "espresso: threads=4 (fast ops/sec)\n"
			}
			if err := os.WriteFile(filepath.Join(run, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestFoldersAhead: run folders read ahead by workers (readFoldersAhead)
// give the same runs, in the same order, with the same warnings and notes
// in the same order, and the same error, as run folders read one by one
// in the loop; and no worker outlives its load, however it ends.
func TestFoldersAhead(t *testing.T) {
	defer func(w, m int) { aheadWorkers, aheadMin = w, m }(aheadWorkers, aheadMin)
	opt := LoadOptions{Baseline: VariantSpec{Name: "b", File: "base.txt"}, Candidate: VariantSpec{Name: "c", File: "cand.txt"}, SkipIncomplete: true}
	type result struct {
		Runs  []Run
		Warns []string
		Err   string
	}
	load := func(paths []string, workers int) result {
		aheadWorkers, aheadMin = workers, 1
		var r result
		o := opt
		o.Warn = func(s string) { r.Warns = append(r.Warns, s) }
		runs, err := Load(paths, o)
		r.Runs = runs
		if err != nil {
			r.Err = err.Error()
		}
		if n := aheadLive.Load(); n != 0 {
			t.Fatalf("%d workers still running after Load returned", n)
		}
		return r
	}
	for _, tt := range []struct {
		name   string
		n, bad int
	}{
		{"clean", 150, -1},
		{"an error in folder 37", 150, 37},
		{"an error in the last folder", 70, 69},
		{"fewer folders than a block", 25, -1},
	} {
		dir := t.TempDir()
		writeAheadFolders(t, dir, tt.n, tt.bad)
		want := load([]string{dir}, 0)
		if len(want.Warns) < 2 || (tt.bad < 0) != (want.Err == "") {
			t.Fatalf("%s: the loop alone: %d warnings, error %q", tt.name, len(want.Warns), want.Err)
		}
		for _, w := range []int{1, 2, 3} {
			got := load([]string{dir}, w)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %d workers (-loop +workers):\n%s", tt.name, w, diff)
			}
		}
	}

	// A consumer that stops early (LoadSeq's loop left, an ingest that
	// failed) stops the workers before LoadSeq returns.
	dir := t.TempDir()
	writeAheadFolders(t, dir, 300, -1)
	aheadWorkers, aheadMin = 2, 1
	n := 0
	for _, err := range LoadSeq([]string{dir}, opt) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 5 {
			break
		}
	}
	if live := aheadLive.Load(); live != 0 {
		t.Errorf("%d workers still running after LoadSeq's consumer stopped", live)
	}
	stop := errors.New("stop")
	if err := LoadEach([]string{dir}, opt, func(Run) error { return stop }); err != stop {
		t.Errorf("LoadEach: %v, want fn's error", err)
	}
	if live := aheadLive.Load(); live != 0 {
		t.Errorf("%d workers still running after fn's error", live)
	}
	if !strings.Contains(load([]string{dir}, 2).Warns[0], "skipped incomplete run folder") {
		t.Errorf("no warning of the incomplete folder")
	}
}
