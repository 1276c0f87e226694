package spread_test

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
)

// seqOf yields runs, then err if it is not nil.
func seqOf(runs []data.Run, err error) iter.Seq2[data.Run, error] {
	return func(yield func(data.Run, error) bool) {
		for _, r := range runs {
			if !yield(r, nil) {
				return
			}
		}
		if err != nil {
			yield(data.Run{}, err)
		}
	}
}

// TestCollectedWindow: analysing a selection of collected runs is
// analysing a slice of those runs, with the selection's own suite (here a
// benchmark the latest runs added, left out of the whole), exclusions and
// warnings; and the whole collection again is Analyze of every run.
func TestCollectedWindow(t *testing.T) {
	var runs []data.Run
	for i := range 30 {
		names := []string{"a", "b"}
		base := []float64{100, 200}
		cand := []float64{100 * (1.2 + 0.01*float64(i%7)), 200 * (0.9 + 0.005*float64(i%5))}
		if i >= 20 {
			names = append(names, "c")
			base, cand = append(base, 50), append(cand, 50*(1+0.02*float64(i%3)))
		}
		r := calibtest.MakeRun(fmt.Sprintf("r%02d", i), names, base, cand)
		r.Labels = map[string]string{"i": fmt.Sprint(i % 2)}
		runs = append(runs, r)
	}
	runs[25].Measurements = runs[25].Measurements[:2] // r25 lacks b and c: excluded
	c, err := spread.Collect(seqOf(runs, nil), spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	show := func(a *spread.Analysis, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprintf("%+v", *a)
	}
	if got, want := show(c.Analyze(nil)), show(spread.Analyze(runs, spread.Options{})); got != want {
		t.Errorf("every run:\n got %s\nwant %s", got, want)
	}
	latest := func(id string) bool { return id >= "r20" }
	var sub []data.Run
	for _, r := range runs {
		if latest(r.ID) {
			sub = append(sub, r)
		}
	}
	got, want := show(c.Analyze(latest)), show(spread.Analyze(sub, spread.Options{}))
	if got != want {
		t.Errorf("the latest runs:\n got %s\nwant %s", got, want)
	}
	if w, err := c.Analyze(latest); err != nil || strings.Join(w.Suite, ",") != "a,b,c" || len(w.Excluded) != 1 {
		t.Errorf("the latest runs: %v, want the suite a,b,c and r25 excluded", err)
	}
	if _, err := c.Analyze(func(string) bool { return false }); err == nil || err.Error() != "no runs to analyse" {
		t.Errorf("no run kept: %v", err)
	}
}

// TestCollectErrors: the errors of runs taken one at a time are those of
// Analyze of them all, in the same precedence.
func TestCollectErrors(t *testing.T) {
	names := []string{"a"}
	good := calibtest.MakeRun("r1", names, []float64{1}, []float64{2})
	noGlibc := calibtest.MakeRun("r2", names, []float64{1}, []float64{2})
	other := calibtest.MakeRun("r3", names, []float64{1}, []float64{2})
	other.Baseline = "glibc"
	other.Measurements[0].Variant = "glibc"
	widgets := calibtest.MakeRun("r4", names, []float64{1}, []float64{2})
	widgets.Measurements[0].Unit, widgets.Measurements[1].Unit = "B/s", "B/s"
	readErr := errors.New("reading: broken")
	tests := []struct {
		name string
		runs []data.Run
		err  error
		opt  spread.Options
		want string
	}{
		{"nothing", nil, nil, spread.Options{}, "no runs to analyse"},
		// r2 lacks glibc, but the roles fail first, found at the last run.
		{"roles after a bad run", []data.Run{good, good, other}, nil, spread.Options{}, "the runs disagree on the baseline (glibc in r3, system in r1)"},
		{"a bad run before a sound one", []data.Run{other, noGlibc, other}, nil, spread.Options{Baseline: "glibc"}, `run r2 has no measurements of variant "glibc" (it has hoard, system)`},
		{"units", []data.Run{good, widgets, good}, nil, spread.Options{}, `benchmark a is in "ops/sec" in some runs and "B/s" in run r4`},
		{"reading fails after a bad run", []data.Run{good, widgets}, readErr, spread.Options{}, "reading: broken"},
	}
	for _, tt := range tests {
		_, err := spread.Collect(seqOf(tt.runs, tt.err), tt.opt)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v\nwant %s", tt.name, err, tt.want)
		}
		if tt.err == nil && tt.runs != nil {
			if _, err := spread.Analyze(tt.runs, tt.opt); err == nil || err.Error() != tt.want {
				t.Errorf("%s: Analyze says %v\nwant %s", tt.name, err, tt.want)
			}
		}
	}
}

// BenchmarkCollect10000 collects 10,000 runs of 10 benchmarks × 2 variants
// and reports the heap the collection keeps, and it with the analysis of
// it, per measurement: what an analysis command holds besides the page of
// runs being read (the aim: about 100 bytes a measurement; go test
// -run '^$' -bench Collect10000 ./calibrate reports it).
func BenchmarkCollect10000(b *testing.B) {
	runs := calibtest.NoiseRuns(10000)
	heap := func() int64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	before := heap()
	var c *spread.Collected
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if c, err = spread.Collect(spread.Each(runs), spread.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	measurements := float64(20 * len(runs))
	collected := heap()
	b.ReportMetric(float64(collected-before)/measurements, "kept-B/measurement")
	a, err := c.Analyze(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(heap()-before)/measurements, "kept+analysis-B/measurement")
	runtime.KeepAlive(a)
	runtime.KeepAlive(c)
	runtime.KeepAlive(runs)
}

// BenchmarkCollectedAnalyze10000: the analysis of 10,000 collected runs
// of 10 benchmarks × 2 variants alone, without the collection: the part
// of an analysis command that is not reading the runs.
func BenchmarkCollectedAnalyze10000(b *testing.B) {
	c, err := spread.Collect(spread.Each(calibtest.NoiseRuns(10000)), spread.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Analyze(nil); err != nil {
			b.Fatal(err)
		}
	}
}
