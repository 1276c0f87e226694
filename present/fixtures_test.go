package present

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
)

// The fixtures of the golden tests: the bundled samples (data/samples,
// real measurements) run through calibrate as the commands run them, and
// small literal runs for what the samples do not show (hostile names,
// warnings, verdicts).

// sampleDir is a folder of data/samples.
func sampleDir(parts ...string) string {
	return filepath.Join(append([]string{"..", "data", "samples"}, parts...)...)
}

// loadGlibc reads a set of the Linux sample (glibc vs mimalloc), each
// run's id behind prefix.
func loadGlibc(t *testing.T, set, prefix string) []data.Run {
	t.Helper()
	b, err := load.ParseVariantSpec("glibc=baseline.txt")
	if err != nil {
		t.Fatal(err)
	}
	c, err := load.ParseVariantSpec("mimalloc=mimalloc.txt")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := load.All([]string{sampleDir("linux-glibc-vs-mimalloc", set)}, load.Options{Baseline: b, Candidate: c, IDPrefix: prefix,
		Labels: map[string]string{"os": "linux"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		// The source as the command would show it, the same on every machine.
		rel, err := filepath.Rel(sampleDir(), runs[i].Source)
		if err != nil {
			t.Fatal(err)
		}
		runs[i].Source = filepath.ToSlash(filepath.Join("data", "samples", rel))
	}
	return runs
}

// calibration is an analysis, its recommendation and the calibration
// file recommend --write makes of them.
type calibration struct {
	runs []data.Run
	a    *calspread.Analysis
	rec  *calfloor.Recommendation
	file *model.File
}

func calibrateOn(t *testing.T, runs []data.Run, opt model.RecommendOptions, labels map[string]string) *calibration {
	t.Helper()
	a, err := calspread.Analyze(runs, calspread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := calfloor.Recommend(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	f := calfloor.NewFile(a, rec, labels, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "qoscal test")
	return &calibration{runs: runs, a: a, rec: rec, file: f}
}

// glibc is the Linux sample's twelve healthy runs, calibrated with the
// default options.
func glibc(t *testing.T) *calibration {
	return calibrateOn(t, loadGlibc(t, "healthy", ""), model.DefaultRecommendOptions, map[string]string{"os": "linux"})
}

// glibcLatest is the Linux sample as qoscal recommend calibrates it
// (--regime auto): on the latest regime of its scores, the nine runs
// after the change at run-04, with the regimes of all twelve.
func glibcLatest(t *testing.T) *calibration {
	t.Helper()
	runs := loadGlibc(t, "healthy", "")
	all, err := calspread.Analyze(runs, calspread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := all.Choose(calspread.WindowAuto, calspread.DefaultMinRuns)
	if err != nil {
		t.Fatal(err)
	}
	if w.Rule != calspread.WindowLatest {
		t.Fatalf("the sample's window is %q, want the latest regime", w.Rule)
	}
	ids := w.IDs(all)
	var sub []data.Run
	for _, r := range runs {
		if ids[r.ID] {
			sub = append(sub, r)
		}
	}
	c := calibrateOn(t, sub, model.DefaultRecommendOptions, map[string]string{"os": "linux"})
	c.rec.Window, c.rec.Regimes = w, all.Regimes
	calfloor.CheckWindow(all, w, c.rec)
	c.file = calfloor.NewFile(c.a, c.rec, map[string]string{"os": "linux"}, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "qoscal test")
	return c
}

// hoard is the Windows worked example: five runs of hoard against the
// system allocator.
func hoard(t *testing.T) *calibration {
	t.Helper()
	runs, err := load.All([]string{sampleDir("windows-hoard-worked-example", "five-runs.csv")}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		runs[i].Source = "data/samples/windows-hoard-worked-example/five-runs.csv"
	}
	return calibrateOn(t, runs, model.DefaultRecommendOptions, nil)
}

// The hostile names: each would do harm if printed as it is: a workflow
// command (::), a line of its own (CR, LF), markup (HTML), a mention
// that notifies someone (@), a table cell ended early (|).
const (
	evilCommand = "::error::pwned"
	evilCR      = "cr\r::warning::x"
	evilLF      = "lf\n::notice::y"
	evilHTML    = "<script>alert(1)</script>"
	evilMention = "@octocat"
	evilPipe    = "a|b"
)

var evilNames = []string{evilCommand, evilCR, evilLF, evilHTML, evilMention, evilPipe}

// hostileRuns are n literal runs of the hostile benchmarks, variants
// "<b>base</b>" and "@cand", with a seeded spread, the first run's id
// itself hostile.
func hostileRuns(n int) []data.Run {
	var runs []data.Run
	for i := range n {
		r := data.Run{ID: fmt.Sprintf("run-%02d", i+1), Baseline: "<b>base</b>", Candidate: "@cand",
			Labels: map[string]string{"runner": "ci::1", "cpu": "<i>Xeon</i>"}}
		if i == 0 {
			r.ID = "run::01\r"
		}
		for j, name := range evilNames {
			// A deterministic wobble: each benchmark's ratio about 1.2,
			// moving with the run and the benchmark.
			ratio := 1.2 * math.Exp(0.02*math.Sin(float64(7*i+3*j+1)))
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: name, Variant: r.Baseline, Value: 1000 * float64(j+1), Unit: "ops/sec"},
				data.Measurement{Benchmark: name, Variant: r.Candidate, Value: 1000 * float64(j+1) * ratio, Unit: "ops/sec"})
		}
		runs = append(runs, r)
	}
	return runs
}

// hostile is twelve hostile runs, calibrated with the default options.
func hostile(t *testing.T) *calibration {
	return calibrateOn(t, hostileRuns(12), model.DefaultRecommendOptions, map[string]string{"runner": "ci::1"})
}
