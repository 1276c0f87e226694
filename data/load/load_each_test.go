package load

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"qoscal/data"
)

// TestLoadEach: LoadEach passes the runs Load returns, in the same order,
// from folders of run folders and from a CSV file; an error from fn stops
// it; a run id seen twice is refused before fn sees the second run.
func TestLoadEach(t *testing.T) {
	folders := filepath.Join("..", "samples", "linux-glibc-vs-mimalloc")
	opt := LoadOptions{Baseline: VariantSpec{Name: "glibc", File: "baseline.txt"}, Candidate: VariantSpec{Name: "mimalloc", File: "mimalloc.txt"}}
	csvFile := filepath.Join("..", "samples", "windows-hoard-worked-example", "five-runs.csv")
	for _, tt := range []struct {
		name  string
		paths []string
		opt   LoadOptions
	}{
		{"run folders", []string{filepath.Join(folders, "healthy")}, func() LoadOptions { o := opt; o.IDPrefix = "x/"; return o }()},
		{"csv", []string{csvFile}, LoadOptions{}},
	} {
		want, err := Load(tt.paths, tt.opt)
		if err != nil {
			t.Fatalf("%s: Load: %v", tt.name, err)
		}
		var got []data.Run
		if err := LoadEach(tt.paths, tt.opt, func(r data.Run) error { got = append(got, r); return nil }); err != nil {
			t.Fatalf("%s: LoadEach: %v", tt.name, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: LoadEach (-Load +LoadEach):\n%s", tt.name, diff)
		}
		stop := errors.New("stop")
		n := 0
		err = LoadEach(tt.paths, tt.opt, func(data.Run) error { n++; return stop })
		if err != stop || n != 1 {
			t.Errorf("%s: fn's error: got %v after %d runs, want stop after 1", tt.name, err, n)
		}
	}
	healthy := filepath.Join(folders, "healthy")
	n := 0
	err := LoadEach([]string{healthy, healthy}, opt, func(data.Run) error { n++; return nil })
	if err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("the same folder twice: %v, want a run id that appears twice", err)
	}
	runs, _ := Load([]string{healthy}, opt)
	if n != len(runs) {
		t.Errorf("fn saw %d runs before the duplicate, want %d", n, len(runs))
	}
}
