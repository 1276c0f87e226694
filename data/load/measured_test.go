package load

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// measuredCSV is a run as 'qoscal measure' writes it: two repetitions of
// a two-benchmark suite, samples numbered across them.
const measuredCSV = `run,benchmark,variant,role,repetition,sample,value,unit
job-7,a,system,baseline,1,0,10,ns/op
job-7,a,hoard,candidate,1,0,8,ns/op
job-7,b,system,baseline,1,0,20,ns/op
job-7,b,hoard,candidate,1,0,19,ns/op
job-7,a,hoard,candidate,2,1,9,ns/op
job-7,a,system,baseline,2,1,11,ns/op
job-7,b,hoard,candidate,2,1,18,ns/op
job-7,b,system,baseline,2,1,21,ns/op
`

const measuredMeta = `{"version": 2, "runner_os": "Linux", "labels": {"suite": "alloc"}, "environment": {"cpus": 2}, "measure": {"order": "random"}}`

// TestLoadMeasuredFolder: a run folder that 'qoscal measure' wrote
// (results.csv beside a version 2 qoscal.json) is a run without naming its
// variants' files, alone or among other run folders, with its roles, its
// repetitions and the labels of its qoscal.json; the files a command would
// read are listed.
func TestLoadMeasuredFolder(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"m-2", "m-10"} {
		write(t, filepath.Join(root, name, MeasuredFile), strings.ReplaceAll(measuredCSV, "job-7", "job-"+name))
		write(t, filepath.Join(root, name, MetaFile), measuredMeta)
	}
	write(t, filepath.Join(root, "notes", "readme.txt"), "not a run")
	one := filepath.Join(root, "m-2")

	runs, err := All([]string{one}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	r := runs[0]
	if r.ID != "job-m-2" || r.Baseline != "system" || r.Candidate != "hoard" || r.Source != one {
		t.Errorf("run %s (%s vs %s) from %s: want job-m-2, hoard vs system, from %s", r.ID, r.Candidate, r.Baseline, r.Source, one)
	}
	if r.Labels["suite"] != "alloc" || r.Labels["os"] != "linux" {
		t.Errorf("labels %v: want suite=alloc and os=linux from qoscal.json", r.Labels)
	}
	var reps []int
	for _, m := range r.Measurements {
		reps = append(reps, m.Repetition)
	}
	if want := []int{1, 1, 1, 1, 2, 2, 2, 2}; !slices.Equal(reps, want) {
		t.Errorf("repetitions %v, want %v", reps, want)
	}

	runs, err = All([]string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(runs); !slices.Equal(got, []string{"job-m-2", "job-m-10"}) {
		t.Errorf("a folder of measured run folders gave %v, want job-m-2 then job-m-10", got)
	}

	runs, err = All([]string{one}, Options{RunID: "mine", Baseline: VariantSpec{Name: "hoard"}, Candidate: VariantSpec{Name: "system"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := runs[0]; r.ID != "mine" || r.Baseline != "hoard" || r.Candidate != "system" {
		t.Errorf("run %s, %s vs %s: the options' id and roles should win", r.ID, r.Candidate, r.Baseline)
	}

	files := ReadFiles([]string{root}, Options{})
	var rel []string
	for _, f := range files {
		r, _ := filepath.Rel(root, f)
		rel = append(rel, filepath.ToSlash(r))
	}
	slices.Sort(rel)
	if want := []string{"m-10/qoscal.json", "m-10/results.csv", "m-2/qoscal.json", "m-2/results.csv"}; !slices.Equal(rel, want) {
		t.Errorf("ReadFiles listed %v, want %v", rel, want)
	}

	two := filepath.Join(root, "two")
	write(t, filepath.Join(two, MeasuredFile), measuredCSV+strings.ReplaceAll(measuredCSV[strings.Index(measuredCSV, "\n")+1:], "job-7", "job-8"))
	write(t, filepath.Join(two, MetaFile), measuredMeta)
	if _, err := All([]string{two}, Options{}); err == nil || !strings.Contains(err.Error(), "holds 2 runs: the results of a run folder that 'qoscal measure' wrote are one run") {
		t.Errorf("a measured folder of two runs: error %v", err)
	}
}
