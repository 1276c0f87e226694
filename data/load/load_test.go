package load

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func specs(t *testing.T) Options {
	b, _ := ParseVariantSpec("system=base.txt")
	c, _ := ParseVariantSpec("hoard.txt")
	return Options{Baseline: b, Candidate: c}
}

func ids(runs []data.Run) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.ID)
	}
	return out
}

func TestParseVariantSpec(t *testing.T) {
	tests := []struct {
		in   string
		want VariantSpec
		err  string
	}{
		{"hoard.txt", VariantSpec{"hoard", "hoard.txt"}, ""},
		{"results/hoard.txt", VariantSpec{"hoard", "results/hoard.txt"}, ""},
		{"system=baseline.txt", VariantSpec{"system", "baseline.txt"}, ""},
		{"dir=x/base.txt", VariantSpec{"dir", "x/base.txt"}, ""},
		{"a/b=c.txt", VariantSpec{"b=c", "a/b=c.txt"}, ""},
		{"=x.txt", VariantSpec{}, `variant "=x.txt": expected NAME=FILE with both parts non-empty`},
		{"", VariantSpec{}, "empty variant: expected [NAME=]FILE"},
	}
	for _, tt := range tests {
		got, err := ParseVariantSpec(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ParseVariantSpec(%q) error %v, want %s", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseVariantSpec(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestLoadFolderOfRunFolders(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"run-10", "run-2", "run-1"} {
		write(t, filepath.Join(dir, n, "base.txt"), "a: x=1 (10 ops/sec)\nb: x=1 (20 ops/sec)\n")
		write(t, filepath.Join(dir, n, "hoard.txt"), "a: x=1 (15 ops/sec)\nb: x=1 (18 ops/sec)\na: x=1 (16 ops/sec)\n")
	}
	os.MkdirAll(filepath.Join(dir, "logs"), 0o755) // not a run folder: ignored
	runs, err := All([]string{dir}, specs(t))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"run-1", "run-2", "run-10"}, ids(runs)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	r := runs[0]
	if r.Baseline != "system" || r.Candidate != "hoard" || len(r.Measurements) != 5 || r.Source != filepath.Join(dir, "run-1") {
		t.Errorf("run %+v", r)
	}
	if got := r.BenchmarkCount(); got["system"] != 2 || got["hoard"] != 2 {
		t.Errorf("benchmark counts %v", got)
	}

	// One run folder as PATH, and the same with --run.
	one, err := All([]string{filepath.Join(dir, "run-2")}, specs(t))
	if err != nil || len(one) != 1 || one[0].ID != "run-2" {
		t.Errorf("single run folder: %v %v", ids(one), err)
	}
	opt := specs(t)
	opt.RunID = "job-7"
	one, err = All([]string{filepath.Join(dir, "run-2")}, opt)
	if err != nil || one[0].ID != "job-7" {
		t.Errorf("single run folder with --run: %v %v", ids(one), err)
	}

	// The same run twice is refused.
	_, err = All([]string{dir, filepath.Join(dir, "run-2")}, specs(t))
	if err == nil || !strings.Contains(err.Error(), `run id "run-2" appears twice`) {
		t.Errorf("duplicate ids: %v", err)
	}
}

func TestLoadIncomplete(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "run-1", "base.txt"), "a: x=1 (10 ops/sec)\n")
	write(t, filepath.Join(dir, "run-1", "hoard.txt"), "a: x=1 (12 ops/sec)\n")
	write(t, filepath.Join(dir, "run-2", "base.txt"), "a: x=1 (10 ops/sec)\n")
	_, err := All([]string{dir}, specs(t))
	want := "run folder " + filepath.Join(dir, "run-2") + " lacks hoard.txt (use --skip-incomplete to skip such folders)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	opt := specs(t)
	opt.SkipIncomplete = true
	var warnings []string
	opt.Warn = func(s string) { warnings = append(warnings, s) }
	runs, err := All([]string{dir}, opt)
	if err != nil || len(runs) != 1 {
		t.Fatalf("skip-incomplete: %v %v", ids(runs), err)
	}
	if want := []string{"skipped incomplete run folder " + filepath.Join(dir, "run-2") + ": it lacks hoard.txt"}; !cmp.Equal(want, warnings) {
		t.Errorf("warnings %q", warnings)
	}
	_, err = All([]string{filepath.Join(dir, "nope")}, specs(t))
	if err == nil || err.Error() != filepath.Join(dir, "nope")+": no such file or folder" {
		t.Errorf("missing path: %v", err)
	}
}

func TestLoadBadFileNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "r", "base.txt"), "a: x=1 (10 ops/sec)\nb: x=1 (0 ops/sec)\n")
	write(t, filepath.Join(dir, "r", "hoard.txt"), "")
	_, err := All([]string{filepath.Join(dir, "r")}, specs(t))
	var ie *formats.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("got %T %v", err, err)
	}
	want := filepath.Join(dir, "r", "base.txt") + ":2: benchmark b: value 0 is not positive: measurements must be > 0\n" +
		filepath.Join(dir, "r", "hoard.txt") + ": empty file: expected benchmark results"
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
}

func TestLoadCSV(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "runs.csv")
	write(t, path, "run,benchmark,variant,value,role,label.os\nr2,a,sys,1,baseline,linux\nr2,a,hoard,2,candidate,linux\nr1,a,sys,1,baseline,linux\nr1,a,hoard,3,,linux\n")
	runs, err := All([]string{path}, Options{Labels: map[string]string{"ci": "gha"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"r2", "r1"}, ids(runs)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if r := runs[1]; r.Baseline != "sys" || r.Candidate != "" || r.Labels["os"] != "linux" || r.Labels["ci"] != "gha" {
		t.Errorf("run r1 %+v", r)
	}
	// Roles named by the caller override the file's.
	runs, err = All([]string{path}, Options{Baseline: VariantSpec{Name: "hoard"}, Candidate: VariantSpec{Name: "sys"}})
	if err != nil || runs[0].Baseline != "hoard" || runs[0].Candidate != "sys" {
		t.Errorf("role override: %+v %v", runs, err)
	}
	// Rows of one run must agree on labels, roles and not repeat a sample.
	write(t, path, "run,benchmark,variant,value,role,label.os,sample\nr1,a,sys,1,baseline,linux,0\nr1,b,sys,1,baseline,windows,0\nr1,a,hoard,2,baseline,linux,0\nr1,a,sys,1,,linux,0\n")
	_, err = All([]string{path}, Options{})
	want := path + ":3: run r1: label os=windows differs from os=linux on line 2\n" +
		path + ":4: run r1: baseline is hoard here but sys elsewhere\n" +
		path + ":5: run r1: sys sample 0 of a already given on line 2"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

func TestLoadFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "base.txt"), "a: x=1 (10 ops/sec)\n")
	write(t, filepath.Join(dir, "hoard.txt"), "a: x=1 (12 ops/sec)\n")
	b, _ := ParseVariantSpec("system=" + filepath.Join(dir, "base.txt"))
	c, _ := ParseVariantSpec(filepath.Join(dir, "hoard.txt"))
	r, err := Files(Options{Baseline: b, Candidate: c, RunID: "job"})
	if err != nil || r.ID != "job" || r.Candidate != "hoard" || len(r.Measurements) != 2 {
		t.Errorf("%+v %v", r, err)
	}
	// A result file given as PATH is not a run.
	_, err = All([]string{filepath.Join(dir, "base.txt")}, Options{Baseline: b, Candidate: c})
	if err == nil || !strings.Contains(err.Error(), "is a single ops result file, not a run") {
		t.Errorf("result file as PATH: %v", err)
	}
}

// TestLoadEmptyPath: an empty PATH (an unset variable) is refused before
// any PATH is read, naming which; os.Stat's error for it named no path
// (": no such file or folder").
func TestLoadEmptyPath(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "r1", "b.txt"), "a: x=1 (5 ops/sec)\n")
	writeFile(t, filepath.Join(dir, "r1", "c.txt"), "a: x=1 (5 ops/sec)\n")
	opt := Options{Baseline: VariantSpec{"b", "b.txt"}, Candidate: VariantSpec{"c", "c.txt"}}
	want := "PATH 2 is empty (an unset variable?): expected a run folder, a folder of run folders, a CSV file or a zip artifact"
	if _, err := All([]string{dir, ""}, opt); err == nil || err.Error() != want {
		t.Errorf("All: %v\nwant %s", err, want)
	}
	read := 0
	err := loadEach([]string{dir, ""}, opt, func(data.Run) error { read++; return nil })
	if err == nil || err.Error() != want || read != 0 {
		t.Errorf("Runs: %v, %d runs read before it\nwant %s, none read", err, read, want)
	}
}

// TestLoadSkipped: Options.Skipped hears, for each run as it is yielded
// (its id prefixed), the benchmark-like lines its files printed without a
// figure, both variants' together; the note names only those not in
// Options.ExpectedSkips. Files (one run given by its files) does the same.
func TestLoadSkipped(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "run-1", "base.txt"), "a: x=1 (10 ops/sec)\nx: n=1 time=1 sec\n")
	write(t, filepath.Join(dir, "run-1", "hoard.txt"), "a: x=1 (12 ops/sec)\nx: n=1 time=1 sec\ny: n=1 time=1 sec\n")
	write(t, filepath.Join(dir, "run-2", "base.txt"), "a: x=1 (10 ops/sec)\n")
	write(t, filepath.Join(dir, "run-2", "hoard.txt"), "a: x=1 (11 ops/sec)\n")
	opt := specs(t)
	opt.IDPrefix = "h/"
	opt.ExpectedSkips = []string{"x"}
	got := map[string][]string{}
	var yielded []string
	opt.Skipped = func(run string, names []string) {
		if len(yielded) != 0 && run == yielded[len(yielded)-1] {
			t.Errorf("Skipped called for %s after it was yielded", run)
		}
		got[run] = names
	}
	var warnings []string
	opt.Warn = func(s string) { warnings = append(warnings, s) }
	for r, err := range Runs([]string{dir}, opt) {
		if err != nil {
			t.Fatal(err)
		}
		yielded = append(yielded, r.ID)
	}
	if diff := cmp.Diff(map[string][]string{"h/run-1": {"x", "y"}}, got); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	want := []string{filepath.Join(dir, "run-1", "hoard.txt") + ": skipped 1 benchmark-like line without an ops/sec figure: line 3 y"}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}

	opt = specs(t)
	opt.Baseline.File = filepath.Join(dir, "run-1", "base.txt")
	opt.Candidate.File = filepath.Join(dir, "run-1", "hoard.txt")
	opt.RunID = "job-7"
	got = map[string][]string{}
	opt.Skipped = func(run string, names []string) { got[run] = names }
	if _, err := Files(opt); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]string{"job-7": {"x", "y"}}, got); diff != "" {
		t.Errorf("Files: skipped (-want +got):\n%s", diff)
	}
}
