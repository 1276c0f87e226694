package model_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// withEnvironments is the worked example's file with environments set from
// labels: run i's labels are labels(i).
func withEnvironments(t *testing.T, labels func(i int) map[string]string) (*model.File, []byte) {
	t.Helper()
	f, err := model.ParseFile("c.json", validFile(t))
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, id := range f.Matrix.Runs {
		index[id] = i
	}
	f.SetEnvironments(func(id string) map[string]string { return labels(index[id]) })
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return f, buf.Bytes()
}

// TestSetEnvironments: the environments are the distinct (cpu, image)
// pairs of the runs, counted, sorted by cpu then image; a run with
// neither label is not counted; the file is version 4 and reads back the
// same. Without either label on any run, the file has no environments
// field and keeps its version.
func TestSetEnvironments(t *testing.T) {
	cpus := []string{"B", "A", "B", "A", ""}
	f, b := withEnvironments(t, func(i int) map[string]string {
		l := map[string]string{"cpu": cpus[i]}
		if i == 2 {
			l["image"] = "ubuntu24 20261124.1"
		}
		return l
	})
	want := "[{A  2} {B  1} {B ubuntu24 20261124.1 1}]"
	if got := fmt.Sprint(f.Environments); got != want {
		t.Errorf("environments %s, want %s", got, want)
	}
	back, err := model.ParseFile("c.json", b)
	if err != nil {
		t.Fatalf("a file with environments is refused: %v", err)
	}
	if back.Version != 4 || fmt.Sprint(back.Environments) != want {
		t.Errorf("read back: version %d, environments %v", back.Version, back.Environments)
	}
	if got := fmt.Sprint(back.EnvironmentValues("cpu"), back.EnvironmentValues("image")); got != "[A B] [ubuntu24 20261124.1]" {
		t.Errorf("values %s", got)
	}
	none, b := withEnvironments(t, func(int) map[string]string { return map[string]string{"os": "linux"} })
	if none.Environments != nil || none.Version != 2 || bytes.Contains(b, []byte("environments")) {
		t.Errorf("no cpu or image labels: version %d, environments %v", none.Version, none.Environments)
	}
}

// TestParseFileEnvironmentsRefused: the environments field is checked on
// read: version 4, each entry a cpu or an image, counted, sorted, no
// unknown or doubled key.
func TestParseFileEnvironmentsRefused(t *testing.T) {
	_, good := withEnvironments(t, func(i int) map[string]string { return map[string]string{"cpu": []string{"A", "B"}[i%2]} })
	for _, c := range []struct {
		reason string
		change func(m map[string]any)
		want   string
	}{
		{"an older version", func(m map[string]any) { m["version"] = 2 }, "field environments is a field of version 4, and this file says version 2"},
		{"an empty entry", func(m map[string]any) { m["environments"].([]any)[0] = map[string]any{"runs": 1} }, "field environments[0] names neither a cpu nor an image"},
		{"no runs", func(m map[string]any) { m["environments"].([]any)[1].(map[string]any)["runs"] = 0 }, "field environments[1].runs 0: expected 1 to the 5 calibration runs"},
		{"more runs than the file's", func(m map[string]any) { m["environments"].([]any)[1].(map[string]any)["runs"] = 5 }, "field environments counts 8 runs, more than the calibration's 5"},
		{"out of order", func(m map[string]any) {
			e := m["environments"].([]any)
			e[0], e[1] = e[1], e[0]
		}, "field environments[1]: expected the environments sorted by cpu, then image, each once"},
		{"an unknown key", func(m map[string]any) { m["environments"].([]any)[0].(map[string]any)["gpu"] = "x" }, "field environments[0].gpu is unknown"},
		{"a line break", func(m map[string]any) { m["environments"].([]any)[0].(map[string]any)["cpu"] = "A\n::error::x" }, "field environments[0].cpu"},
	} {
		_, err := model.ParseFile("c.json", edit(t, good, c.change))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant ...%s", c.reason, err, c.want)
		}
	}
	doubled := strings.Replace(string(good), `"cpu": "A",`, `"cpu": "A", "cpu": "B",`, 1)
	if _, err := model.ParseFile("c.json", []byte(doubled)); err == nil || !strings.Contains(err.Error(), "field environments[0].cpu appears twice") {
		t.Errorf("a doubled key: %v", err)
	}
}

// TestEnvironmentWarnings: a run's CPU model, or image, that none of the
// calibration's runs had gives one warning each, naming what the runs
// had; a known one, an unknown one (no label), or a calibration without
// environments gives none.
func TestEnvironmentWarnings(t *testing.T) {
	f, _ := withEnvironments(t, func(i int) map[string]string {
		return map[string]string{"cpu": []string{"A", "B"}[i%2], "image": "ubuntu24 1"}
	})
	for _, c := range []struct {
		labels map[string]string
		want   string
	}{
		{map[string]string{"cpu": "A", "image": "ubuntu24 1"}, "[]"},
		{map[string]string{}, "[]"},
		{map[string]string{"cpu": "C"}, "[{unseen-environment  [] [] {cpu C [A B]}}]"},
		{map[string]string{"cpu": "C", "image": "ubuntu22 1"}, "[{unseen-environment  [] [] {cpu C [A B]}} {unseen-environment  [] [] {image ubuntu22 1 [ubuntu24 1]}}]"},
	} {
		if got := fmt.Sprint(f.EnvironmentWarnings(c.labels)); got != c.want {
			t.Errorf("%v: %s, want %s", c.labels, got, c.want)
		}
	}
	none, _ := withEnvironments(t, func(int) map[string]string { return nil })
	if ws := none.EnvironmentWarnings(map[string]string{"cpu": "C", "image": "x"}); len(ws) != 0 {
		t.Errorf("a calibration without environments warns: %v", ws)
	}
}

// profiledFile is the worked example's calibration with two profiles by
// the label cpu: its first three runs ("A") and its last two ("B"), each
// recommended on alone by the same options, as recommend --by makes it.
func profiledFile(t *testing.T) []byte {
	t.Helper()
	runs := calibtest.FiveRuns(t)
	opt := calibtest.WorkedOptions()
	a, r := calibtest.WorkedRecommendation(t)
	f := floor.NewFile(a, r, nil, time.Unix(1796112000, 0), "qoscal test")
	var ps []model.FileProfile
	for _, g := range []struct {
		value string
		from  int
		to    int
	}{{"B", 3, 5}, {"A", 0, 3}} {
		sub, err := spread.Analyze(runs[g.from:g.to], spread.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := floor.Recommend(sub, opt)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, model.NewProfile(g.value, floor.NewFile(sub, rec, nil, time.Unix(1796112000, 0), "")))
	}
	f.SetProfiles("cpu", ps)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestParseFileProfiles: a file with profiles reads back whole: version
// 4, by, the profiles sorted by value; Profile gives the calibration of
// a value (its floor, runs and matrix; the suite and method the file's)
// and nothing for a value without one; the profile's floor follows from
// its runs alone.
func TestParseFileProfiles(t *testing.T) {
	f, err := model.ParseFile("c.json", profiledFile(t))
	if err != nil {
		t.Fatalf("a file with profiles is refused: %v", err)
	}
	if f.Version != 4 || f.By != "cpu" || fmt.Sprint(f.ProfileValues()) != "[A B]" {
		t.Fatalf("version %d, by %q, profiles %v", f.Version, f.By, f.ProfileValues())
	}
	a, ok := f.Profile("A")
	if !ok || a.Runs != 3 || len(a.Matrix.Runs) != 3 || a.Floor != f.Profiles[0].Floor || a.Method != f.Method || len(a.Profiles) != 0 {
		t.Fatalf("profile A: %v %+v", ok, a)
	}
	scores, err := a.Matrix.Scores(a.Suite)
	if err != nil {
		t.Fatal(err)
	}
	if _, floor, _, err := model.FloorOf(scores, a.RecommendOptions()); err != nil || floor != a.Floor {
		t.Errorf("profile A's floor %v, its runs alone give %v (%v)", a.Floor, floor, err)
	}
	if _, ok := f.Profile("C"); ok {
		t.Error("a value without a profile has one")
	}
	if _, ok := f.Profile(""); ok {
		t.Error("no value has a profile")
	}
}

// TestParseFileProfilesRefused: each profile is checked as a calibration
// is: a tampered floor, its runs not the file's, a missing field, an
// unknown key, the profiles out of order, by without profiles; each is
// refused with the profile and the field named.
func TestParseFileProfilesRefused(t *testing.T) {
	good := profiledFile(t)
	prof := func(m map[string]any, i int) map[string]any { return m["profiles"].([]any)[i].(map[string]any) }
	for _, c := range []struct {
		reason string
		change func(m map[string]any)
		want   string
	}{
		{"a profile's floor lowered by hand", func(m map[string]any) {
			prof(m, 0)["floor"] = 0.5
			prof(m, 0)["floor_text"] = "0.50"
		}, "field profiles[0] (cpu A): field floor 0.5 is not what the margin method gives on the matrix"},
		{"a profile's floor text only", func(m map[string]any) { prof(m, 1)["floor_text"] = "0.50" }, "field profiles[1] (cpu B): field floor_text \"0.50\" disagrees"},
		{"a profile's log ratio changed, and its observed scores with it", func(m map[string]any) {
			lr := obj(prof(m, 1), "matrix")["log_ratio"].([]any)
			lr[0], lr[1] = lr[1], lr[0]
		}, "field profiles[1] (cpu B): the log ratios of run"},
		{"a run in no profile's calibration", func(m map[string]any) {
			obj(prof(m, 1), "matrix")["runs"].([]any)[0] = "run-99"
		}, "field profiles[1] (cpu B): run run-99 is not among the calibration's runs"},
		{"a missing field", func(m map[string]any) { delete(prof(m, 0), "detection") }, "field profiles[0].detection is missing"},
		{"an unknown key", func(m map[string]any) { prof(m, 0)["note"] = "x" }, "field profiles[0].note is unknown"},
		{"an unknown key in a profile's observed", func(m map[string]any) { obj(prof(m, 0), "observed")["floor"] = 1 }, "field profiles[0].observed.floor is unknown"},
		{"out of order", func(m map[string]any) {
			p := m["profiles"].([]any)
			p[0], p[1] = p[1], p[0]
		}, "field profiles[1].value \"A\": expected the profiles sorted by value, each once"},
		{"by without profiles", func(m map[string]any) { delete(m, "profiles") }, "field by \"cpu\" without profiles"},
		{"profiles without by", func(m map[string]any) { delete(m, "by") }, "field profiles without field by"},
		{"an older version", func(m map[string]any) { m["version"] = 3 }, "fields by and profiles are fields of version 4, and this file says version 3"},
	} {
		_, err := model.ParseFile("c.json", edit(t, good, c.change))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant ...%s", c.reason, err, c.want)
		}
	}
}
