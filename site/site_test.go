package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// hostile are benchmark names and a note that try to end the data's
// script, open a tag or a comment, or end a line in a string.
var hostile = []string{`</script><script>alert(1)</script>`, `<img src=x onerror=alert(2)>`, `<!-- a::b`}

// testRuns makes n runs of the suite names, the i-th with its ratios
// times exp(shift(i)).
func testRuns(n int, names []string, shift func(i int) float64) []data.Run {
	rng := rand.New(rand.NewPCG(1, 2))
	var runs []data.Run
	for i := 0; i < n; i++ {
		r := data.Run{ID: fmt.Sprintf("run-%03d", i), Labels: map[string]string{"branch": "main", "commit": fmt.Sprintf("%040x", i+1), "github_run": fmt.Sprint(100 + i)},
			Baseline: "base", Candidate: "cand"}
		for j, b := range names {
			l := 0.1*float64(j) + 0.02*rng.NormFloat64() + shift(i)
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: b, Variant: "base", Value: 100, Unit: "ops/sec"},
				data.Measurement{Benchmark: b, Variant: "cand", Value: 100 * math.Exp(l), Unit: "ops/sec"})
		}
		runs = append(runs, r)
	}
	return runs
}

// testCalibration is the calibration of runs, as recommend writes it.
func testCalibration(t *testing.T, runs []data.Run) *model.File {
	t.Helper()
	a, err := spread.Analyze(runs, spread.Options{Baseline: "base", Candidate: "cand"})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := floor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	f := floor.NewFile(a, rec, map[string]string{"branch": "main"}, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "test")
	f.Path, f.SHA256 = "dir/gate.json", strings.Repeat("ab", 32)
	return f
}

func decode(t *testing.T, s *Site) *Doc {
	t.Helper()
	b := bytes.TrimSuffix(bytes.TrimPrefix(s.Data, []byte("\"use strict\";\nwindow.QOSCAL_SITE = ")), []byte(";\n"))
	var d Doc
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("data.js is not the document: %v\n%.300s", err, s.Data)
	}
	return &d
}

// TestBuild: the document holds each run of the branch in order, its
// score and ratios at Scale (to within rounding), the verdicts by letter,
// the marks, the calibration's runs, and what changed at the latest
// gated run, the largest fall first.
func TestBuild(t *testing.T) {
	names := append([]string{"alpha", "beta", "gamma"}, hostile...)
	cal := testRuns(12, names, func(int) float64 { return 0 })
	later := testRuns(6, names, func(i int) float64 { return -0.01 * float64(i) })
	for i := range later {
		later[i].ID = fmt.Sprintf("new-%d", i)
	}
	// A run of another branch is not shown.
	other := testRuns(1, names, func(int) float64 { return 0 })
	other[0].ID, other[0].Labels["branch"] = "pr-1", "feature"
	f := testCalibration(t, cal)
	runs := append(append(append([]data.Run{}, cal...), later...), other...)
	ref := store.CalibrationRef{SHA256: f.SHA256, Name: "gate.json"}
	v := func(run, verdict string) store.Verdict {
		return store.Verdict{Run: run, Calibration: ref, Verdict: verdict, Kind: store.KindRun, Score: 1.2, Floor: f.Floor, FloorSource: "calibration"}
	}
	ledger := store.Ledger{
		Verdicts: []store.Verdict{v("new-0", "pass"), v("new-1", "fail"), v("new-2", "warn"), v("new-3", "inconclusive"), v("new-4", "rerun"), v("pr-1", "fail")},
		Marks:    []store.Mark{{Run: "new-1", Truth: "regressed", Note: "line\u2028sep </script>"}},
	}
	ledger.Verdicts[4].Bands = []store.BandOutcome{{Benchmark: "alpha", Band: "below"}}
	s, err := Build(Input{Runs: runs, Ledger: ledger, Calibrations: []Calibration{{File: f}}, Store: "q.db", Repository: "https://github.com/o/r/"})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"</", "<!--", "<img", "\u2028"} {
		if bytes.Contains(s.Data, []byte(bad)) {
			t.Errorf("data.js holds %q", bad)
		}
	}
	d := decode(t, s)
	if d.Repository != "https://github.com/o/r" {
		t.Errorf("repository %q", d.Repository)
	}
	c := d.Cals[0]
	if len(c.Runs) != 18 || c.Runs[12] != "new-0" {
		t.Fatalf("runs %v: want the 12 calibration runs and the 6 after, not pr-1", c.Runs)
	}
	if c.Verdicts != "------------pfwir-" {
		t.Errorf("verdicts %q", c.Verdicts)
	}
	if c.Latest != 16 || c.LatestVerdict != "rerun" {
		t.Errorf("latest %d %q, want 16 rerun", c.Latest, c.LatestVerdict)
	}
	if len(c.InCal) != 12 || c.InCal[11] != 11 {
		t.Errorf("calibration runs %v", c.InCal)
	}
	if len(c.Marks) != 1 || c.Marks[0][1] != "regressed" || c.Marks[0][2] != "line\u2028sep </script>" {
		t.Errorf("marks %v", c.Marks)
	}
	if c.Commits[0] != "000000000000" || c.GHRuns[0] != "100" {
		t.Errorf("commit %q, run %q", c.Commits[0], c.GHRuns[0])
	}
	// Scores and ratios, against calibrate's.
	for i, r := range runs[:18] {
		rr, err := calibrate.Ratios(&r, "base", "cand", calibrate.Auto, "")
		if err != nil {
			t.Fatal(err)
		}
		sc := rr.ScoreOver(f.Suite)
		if got := float64(*c.Scores[i]+c.ScoreBase) / Scale; math.Abs(got-sc.LogScore) > 1.0/Scale {
			t.Errorf("run %s: log score %v, calibrate's %v", r.ID, got, sc.LogScore)
		}
		for j, b := range c.Benchmarks {
			got := float64(*c.Ratios[j][i]+c.Bands[j][2]) / Scale
			if want := math.Log(rr.Ratios[b].Ratio); math.Abs(got-want) > 1.0/Scale {
				t.Errorf("run %s, %s: log ratio %v, calibrate's %v", r.ID, b, got, want)
			}
		}
	}
	// What changed: new-4 against new-3, the largest fall first.
	ch := c.Changed
	if ch.Latest != 16 || ch.Prev != 15 || len(ch.Rows) != len(names) {
		t.Fatalf("changed %+v", ch)
	}
	prev := math.Inf(-1)
	for _, row := range ch.Rows {
		x := row[1].(float64)
		if x < prev {
			t.Errorf("what changed is not sorted by change: %v", ch.Rows)
		}
		prev = x
		if c.Benchmarks[int(row[0].(float64))] == "alpha" && row[3] != "below" {
			t.Errorf("alpha's band outcome %v, want below (the ledger's)", row[3])
		}
	}
}

// TestBuildNothingCompared: a calibration whose branch has one run: no
// run before it, no verdict; and one with no run at all.
func TestBuildNothingCompared(t *testing.T) {
	names := []string{"a", "b"}
	cal := testRuns(10, names, func(int) float64 { return 0 })
	f := testCalibration(t, cal)
	one := testRuns(1, names, func(int) float64 { return 0 })
	one[0].ID = "only"
	s, err := Build(Input{Runs: one, Calibrations: []Calibration{{File: f}}})
	if err != nil {
		t.Fatal(err)
	}
	c := decode(t, s).Cals[0]
	if c.Latest != -1 || c.Verdicts != "-" || c.Changed.Latest != 0 || c.Changed.Prev != -1 {
		t.Errorf("latest %d, verdicts %q, changed %d/%d: want no verdict, the one run, nothing before it", c.Latest, c.Verdicts, c.Changed.Latest, c.Changed.Prev)
	}
	for _, row := range c.Changed.Rows {
		if row[1] != nil {
			t.Errorf("a change since the run before with no run before: %v", row)
		}
	}
	s, err = Build(Input{Calibrations: []Calibration{{File: f}}})
	if err != nil {
		t.Fatal(err)
	}
	if c := decode(t, s).Cals[0]; len(c.Runs) != 0 || c.Changed.Latest != -1 {
		t.Errorf("no runs: %+v", c.Changed)
	}
}

// TestFiles: the page loads its data and script from its own folder, and
// nothing in the page, style or script refers to another host.
func TestFiles(t *testing.T) {
	s := &Site{Data: []byte("x")}
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		if f.Name == DataFile {
			continue
		}
		// The SVG namespace is a name, not a request.
		text := bytes.ReplaceAll(f.Data, []byte(`"http://www.w3.org/2000/svg"`), nil)
		for _, bad := range []string{"http://", "//cdn", "@import", "url(", "fetch(", "XMLHttpRequest", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("} {
			if bytes.Contains(text, []byte(bad)) {
				t.Errorf("%s holds %q", f.Name, bad)
			}
		}
	}
	if strings.Join(names, " ") != "index.html site.css site.js data.js" {
		t.Errorf("files %v", names)
	}
}
