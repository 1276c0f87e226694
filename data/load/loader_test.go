package load

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
)

// TestLoaderKeepsItsOwnState: what a Loader's fast paths learn (names held
// once, the last run's size) and the parsers' notes live in the Loader,
// not in the Options: reading with one Loader again gives the runs and the
// warnings a new Loader gives, the Options are the same after a read as
// before, and the notes of a read whose consumer stopped taking runs are
// not said by the Loader's next read.
func TestLoaderKeepsItsOwnState(t *testing.T) {
	dir := t.TempDir()
	for i := range 3 {
		run := filepath.Join(dir, fmt.Sprintf("run-%d", i))
		// y's line has no ops/sec figure: the parser notes it.
		writeFile(t, filepath.Join(run, "a.txt"), fmt.Sprintf("x: t=1 (%d ops/sec)\ny: threads=4\n", 10+i))
		writeFile(t, filepath.Join(run, "b.txt"), fmt.Sprintf("x: t=1 (%d ops/sec)\n", 20+i))
	}
	var warned []string
	opt := Options{Baseline: VariantSpec{"a", "a.txt"}, Candidate: VariantSpec{"b", "b.txt"}, Labels: map[string]string{"os": "linux"},
		Warn: func(s string) { warned = append(warned, s) }}
	read := func(l *Loader) ([]data.Run, []string) {
		t.Helper()
		warned = nil
		var runs []data.Run
		for r, err := range l.Runs([]string{dir}) {
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, r)
		}
		return runs, warned
	}
	want, wantWarned := read(New(opt))
	if len(want) != 3 || len(wantWarned) != 1 {
		t.Fatalf("%d runs, warnings %q: want 3 runs and one note", len(want), wantWarned)
	}
	before := opt
	l := New(opt)
	for i := range 2 {
		got, gotWarned := read(l)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("read %d with one Loader (-new Loader +same Loader):\n%s", i+1, diff)
		}
		if !reflect.DeepEqual(gotWarned, wantWarned) {
			t.Errorf("read %d with one Loader warned %q, want %q", i+1, gotWarned, wantWarned)
		}
	}
	if opt.Baseline != before.Baseline || opt.Candidate != before.Candidate || !reflect.DeepEqual(opt.Labels, before.Labels) || opt.Extra != nil {
		t.Errorf("the options changed with the reads: %+v, were %+v", opt, before)
	}
	warned = nil
	for range l.Runs([]string{dir}) {
		break
	}
	if len(warned) != 0 {
		t.Errorf("a read stopped at its first run warned %q, want nothing", warned)
	}
	if _, gotWarned := read(l); !reflect.DeepEqual(gotWarned, wantWarned) {
		t.Errorf("the read after a stopped one warned %q, want %q", gotWarned, wantWarned)
	}
	if err := os.RemoveAll(filepath.Join(dir, "run-1")); err != nil {
		t.Fatal(err)
	}
	if got, _ := read(l); len(got) != 2 {
		t.Errorf("after a run folder is removed, the Loader read %d runs, want 2", len(got))
	}
}
