package load

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
)

// TestLoadEach: Runs yields the runs All returns, in the same order,
// from folders of run folders and from a CSV file; an error from fn stops
// it; a run id seen twice is refused before the second run is yielded.
func TestLoadEach(t *testing.T) {
	folders := filepath.Join("..", "samples", "linux-glibc-vs-mimalloc")
	opt := Options{Baseline: VariantSpec{Name: "glibc", File: "baseline.txt"}, Candidate: VariantSpec{Name: "mimalloc", File: "mimalloc.txt"}}
	csvFile := filepath.Join("..", "samples", "windows-hoard-worked-example", "five-runs.csv")
	for _, tt := range []struct {
		name  string
		paths []string
		opt   Options
	}{
		{"run folders", []string{filepath.Join(folders, "healthy")}, func() Options { o := opt; o.IDPrefix = "x/"; return o }()},
		{"csv", []string{csvFile}, Options{}},
	} {
		want, err := All(tt.paths, tt.opt)
		if err != nil {
			t.Fatalf("%s: All: %v", tt.name, err)
		}
		var got []data.Run
		if err := loadEach(tt.paths, tt.opt, func(r data.Run) error { got = append(got, r); return nil }); err != nil {
			t.Fatalf("%s: Runs: %v", tt.name, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Runs (-All +Runs):\n%s", tt.name, diff)
		}
		stop := errors.New("stop")
		n := 0
		err = loadEach(tt.paths, tt.opt, func(data.Run) error { n++; return stop })
		if err != stop || n != 1 {
			t.Errorf("%s: fn's error: got %v after %d runs, want stop after 1", tt.name, err, n)
		}
	}
	healthy := filepath.Join(folders, "healthy")
	n := 0
	err := loadEach([]string{healthy, healthy}, opt, func(data.Run) error { n++; return nil })
	if err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("the same folder twice: %v, want a run id that appears twice", err)
	}
	runs, _ := All([]string{healthy}, opt)
	if n != len(runs) {
		t.Errorf("fn saw %d runs before the duplicate, want %d", n, len(runs))
	}
}
