package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/stats"
)

// TestVarianceModelNumpy: the variance components that Analyze finds in
// runs measured with repetitions (stats/testdata/varcomp_runs.csv, as
// 'qoscal measure' writes them) equal numpy's, computed from the same CSV
// by stats/testdata/make_varcomp.py (vector runs_csv): each repetition
// scored on its own, the jobs as the groups.
func TestVarianceModelNumpy(t *testing.T) {
	b, err := os.ReadFile("../../stats/testdata/varcomp_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		RunsCSV struct {
			Between, Within, Mean float64
			N, A                  int
			File                  string
		} `json:"runs_csv"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	runs, err := load.All([]string{"../../stats/testdata/" + v.RunsCSV.File}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := spread.Analyze(runs, spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Variance
	if m == nil {
		t.Fatal("no variance components")
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"between", m.Between, v.RunsCSV.Between}, {"within", m.Within, v.RunsCSV.Within}, {"mean", m.Mean, v.RunsCSV.Mean}} {
		if math.Abs(c.got-c.want) > 1e-12*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s = %.17g, numpy %.17g", c.name, c.got, c.want)
		}
	}
	if m.Groups != v.RunsCSV.A || m.N != v.RunsCSV.N || len(m.Runs) != 6 {
		t.Errorf("%d runs, %d repetitions: want %d and %d", m.Groups, m.N, v.RunsCSV.A, v.RunsCSV.N)
	}
}

// TestRepetitionScores: a run's repetitions are scored each on its own; a
// run that mixes rows with and without a repetition is an error, and a
// repetition lacking a suite benchmark too.
func TestRepetitionScores(t *testing.T) {
	ms := func(rep int, bench string, b, c float64) []data.Measurement {
		return []data.Measurement{
			{Benchmark: bench, Variant: "sys", Value: b, Unit: "ops/sec", Repetition: rep, Sample: rep},
			{Benchmark: bench, Variant: "new", Value: c, Unit: "ops/sec", Repetition: rep, Sample: rep},
		}
	}
	run := data.Run{ID: "r"}
	run.Measurements = append(run.Measurements, ms(1, "a", 10, 20)...)
	run.Measurements = append(run.Measurements, ms(1, "b", 10, 5)...)
	run.Measurements = append(run.Measurements, ms(2, "a", 10, 40)...)
	run.Measurements = append(run.Measurements, ms(2, "b", 10, 10)...)
	reps, logs, err := RepetitionScores(&run, "sys", "new", calibrate.Auto, "", []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 || math.Abs(logs[0]-0) > 1e-15 || math.Abs(logs[1]-math.Log(2)) > 1e-15 {
		t.Errorf("repetitions %v, log scores %v: want 0 and ln 2", reps, logs)
	}
	run.Measurements = append(run.Measurements, ms(3, "a", 1, 1)...)
	if _, _, err := RepetitionScores(&run, "sys", "new", calibrate.Auto, "", []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "repetition 3 lacks b") {
		t.Errorf("a repetition lacking b: %v", err)
	}
	run.Measurements = append(run.Measurements, ms(0, "c", 1, 1)...)
	if _, err := spread.Repetitions(&run, "sys", "new"); err == nil || !strings.Contains(err.Error(), "2 measurements carry no repetition while others do") {
		t.Errorf("mixed rows: %v", err)
	}
}

// repRun is a run of two benchmarks measured in m repetitions, whose
// repetitions' log scores are logs (the candidate's ops/sec e^log times
// the baseline's on each benchmark).
func repRun(id string, logs []float64) data.Run {
	run := data.Run{ID: id, Baseline: "sys", Candidate: "new"}
	for r, l := range logs {
		for _, b := range []string{"a", "b"} {
			run.Measurements = append(run.Measurements,
				data.Measurement{Benchmark: b, Variant: "sys", Value: 100, Unit: "ops/sec", Repetition: r + 1, Sample: r},
				data.Measurement{Benchmark: b, Variant: "new", Value: 100 * math.Exp(l), Unit: "ops/sec", Repetition: r + 1, Sample: r})
		}
	}
	return run
}

// TestGateRepetitions: with a calibration that has variance components,
// the gate judges the mean of a run's repetitions' log scores against the
// floor moved to the same number of SDs of such a mean below the model's
// mean: a run of more repetitions gets a snugger floor. Without the
// model, a run's repetitions are counted and its samples pooled as ever.
// eightJobs are 8 calibration jobs of 3 repetitions: job effects and
// repetition noise of known size around a log score of 0.3.
func eightJobs() []data.Run {
	job := []float64{0.02, -0.01, 0.03, -0.02, 0.0, 0.015, -0.025, 0.01}
	rep := [][]float64{{0.01, -0.01, 0.0}, {0.005, 0.0, -0.005}, {-0.01, 0.01, 0.002}, {0.0, 0.004, -0.004},
		{0.012, -0.006, -0.006}, {-0.003, 0.003, 0.0}, {0.008, -0.008, 0.001}, {-0.002, 0.0, 0.002}}
	var runs []data.Run
	for i := range job {
		logs := make([]float64, 3)
		for j := range logs {
			logs[j] = 0.3 + job[i] + rep[i][j]
		}
		runs = append(runs, repRun(fmt.Sprintf("cal-%d", i+1), logs))
	}
	return runs
}

func TestGateRepetitions(t *testing.T) {
	// 8 calibration jobs of 3 repetitions: job effects and repetition
	// noise of known size.
	a, err := spread.Analyze(eightJobs(), spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Variance == nil {
		t.Fatal("no variance components")
	}
	r, err := floor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	f := floor.NewFile(a, r, nil, time.Unix(0, 0).UTC(), "test")
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	f, err = model.ParseFile("cal.json", buf.Bytes())
	if err != nil {
		t.Fatalf("the file with variance components does not read back: %v", err)
	}
	v := f.Variance
	if v == nil || v.Runs != 8 || v.Repetitions != 24 || math.Abs(v.Between-a.Variance.Between) > 0 {
		t.Fatalf("variance_components %+v", v)
	}
	// The rule of docs/STATS.md 2.15, written out: d SDs of a new run's
	// difference from the runs' mean, and the SD of a mean of m
	// repetitions' difference from the calibration's mean.
	sdl := f.Observed.SDLog
	d := (f.Observed.MeanLog - math.Log(f.Floor)) / (sdl * math.Sqrt(1+1.0/8))
	meanVar := math.Max(v.Between*v.Between+v.Within*v.Within/3, sdl*sdl) / 8
	for _, m := range []int{1, 3, 12} {
		logs := make([]float64, m)
		for j := range logs {
			logs[j] = 0.29 + 0.001*float64(j%3)
		}
		run := repRun("new", logs)
		res, err := Gate(&run, GateOptions{Baseline: "sys", Candidate: "new", Calibration: f})
		if err != nil {
			t.Fatal(err)
		}
		want := math.Exp(v.MeanLog - d*math.Sqrt(v.Between*v.Between+v.Within*v.Within/float64(m)+meanVar))
		if res.Repetitions != m || math.Abs(res.RepetitionFloor-want) > 1e-12 || res.Floor != res.RepetitionFloor {
			t.Errorf("%d repetitions: floor %v (repetition floor %v, %d repetitions), want %v", m, res.Floor, res.RepetitionFloor, res.Repetitions, want)
		}
		if w := math.Exp(stats.Mean(logs)); math.Abs(res.Score-w) > 1e-12 {
			t.Errorf("%d repetitions: score %v, want the mean of the repetitions' %v", m, res.Score, w)
		}
	}
	// More repetitions, a floor nearer the mean.
	r1, r12 := repRun("one", []float64{0.29}), repRun("twelve", make([]float64, 12))
	g1, _ := Gate(&r1, GateOptions{Baseline: "sys", Candidate: "new", Calibration: f})
	g12, _ := Gate(&r12, GateOptions{Baseline: "sys", Candidate: "new", Calibration: f})
	if !(g12.Floor > g1.Floor) {
		t.Errorf("12 repetitions' floor %v is not above one's %v", g12.Floor, g1.Floor)
	}
	// Without the model: counted, pooled.
	f.Variance = nil
	res, err := Gate(&r1, GateOptions{Baseline: "sys", Candidate: "new", Calibration: f})
	if err != nil || res.Repetitions != 1 || res.RepetitionFloor != 0 || res.Floor != f.Floor {
		t.Errorf("without variance components: %+v, %v", res, err)
	}
}

// TestGateManyRepetitionsHealthy: a fourth hostile sweep measured the
// calibrated code itself with up to 1,000 repetitions against a
// calibration whose between-job SD was estimated 0, and it failed: the
// floor for a mean of many repetitions closed in on the calibration's
// mean as if that mean were exact. Eight jobs with no job effect (their
// repetitions' noise alone); a new job of 400 repetitions whose mean is
// three standard errors of the calibration's mean below it passes. That
// is what every healthy job looks like under one calibration in 740, the
// one whose mean came out 3 SEs high: the floor must allow for that
// error, or that calibration fails them all (the rule before put this
// job's floor 2.6 SEs under the mean, and failed it).
func TestGateManyRepetitionsHealthy(t *testing.T) {
	noise := [][]float64{{0.01, -0.01, 0.0}, {0.005, 0.0, -0.005}, {-0.01, 0.01, 0.002}, {0.0, 0.004, -0.004},
		{0.012, -0.006, -0.006}, {-0.003, 0.003, 0.0}, {0.008, -0.008, 0.001}, {-0.002, 0.0, 0.002}}
	var runs []data.Run
	for i, n := range noise {
		logs := make([]float64, 3)
		for j := range logs {
			logs[j] = 0.3 + n[j]
		}
		runs = append(runs, repRun(fmt.Sprintf("cal-%d", i+1), logs))
	}
	a, err := spread.Analyze(runs, spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Variance == nil || a.Variance.Between != 0 {
		t.Fatalf("the test needs a between-job SD estimated 0: %+v", a.Variance)
	}
	r, err := floor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	f := floor.NewFile(a, r, nil, time.Unix(0, 0).UTC(), "test")
	se := f.Observed.SDLog / math.Sqrt(8)
	logs := make([]float64, 400)
	for j := range logs {
		logs[j] = f.Variance.MeanLog - 3*se + 0.005*float64(j%3-1)
	}
	run := repRun("new", logs)
	res, err := Gate(&run, GateOptions{Baseline: "sys", Candidate: "new", Calibration: f})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("calibration: mean_log %.5f, sd_log %.5f, within %.5f, floor %v; the job: score %.5f, floor %.5f (%d repetitions)", f.Variance.MeanLog, f.Observed.SDLog, f.Variance.Within, f.Floor, res.Score, res.Floor, res.Repetitions)
	if res.Verdict != VerdictPass {
		t.Errorf("a healthy job of 400 repetitions, 3 SEs of the calibration's mean below it: %v at %.5f against the floor %.5f, want a pass", res.Verdict, res.Score, res.Floor)
	}
}

// TestFileVarianceChecked: a calibration file's variance_components is
// checked as the rest of it is: SDs finite and not negative, runs within
// the calibration's, more repetitions than runs.
func TestFileVarianceChecked(t *testing.T) {
	a, err := spread.Analyze(eightJobs(), spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := floor.Recommend(a, func() model.RecommendOptions {
		o := model.DefaultRecommendOptions
		o.Method, o.Margin = model.MethodMargin, 0.1
		return o
	}())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit func(*model.FileVariance)
		want string
	}{
		{func(v *model.FileVariance) { v.Within = -1 }, "field variance_components: between"},
		{func(v *model.FileVariance) { v.Runs = 9 }, "field variance_components.runs 9: expected 2 to the 8 calibration runs"},
		{func(v *model.FileVariance) { v.Repetitions = 8 }, "field variance_components.repetitions 8: expected more than its 8 runs"},
		{nil, "field variance_components is a field of version 3, and this file says version 2"},
		// A fourth hostile sweep: mean_log or between edited alone moved
		// the sequential gate's and the repetition floor to 0.98 or 0.26
		// under a file whose floor is checked at 1.27, and a 23%
		// regression passed. They are checked against the runs' scores.
		{func(v *model.FileVariance) { v.MeanLog -= 1 }, "field variance_components.mean_log"},
		{func(v *model.FileVariance) { v.MeanLog = 0 }, "field variance_components.mean_log 0"},
		{func(v *model.FileVariance) { v.Between = 0.5 }, "field variance_components: between 0.5 and within"},
		{func(v *model.FileVariance) { v.Within *= 1000 }, "field variance_components: between"},
	} {
		f := floor.NewFile(a, r, nil, time.Unix(0, 0).UTC(), "test")
		if f.Version != 3 {
			t.Errorf("a file with variance components is version %d, want 3", f.Version)
		}
		if c.edit != nil {
			c.edit(f.Variance)
		} else {
			f.Version = 2
		}
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := model.ParseFile("cal.json", buf.Bytes()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %s", err, c.want)
		}
	}
	// The file as written reads, and so do edits within the checks'
	// reach: between 0 (an estimate of 0 is common with few runs; it
	// makes the gate stricter) and mean_log moved by a tenth of a run's
	// SD.
	for _, edit := range []func(*model.FileVariance){nil, func(v *model.FileVariance) { v.Between = 0 }, func(v *model.FileVariance) { v.MeanLog += 0.1 * a.Score.SDLog }} {
		f := floor.NewFile(a, r, nil, time.Unix(0, 0).UTC(), "test")
		if edit != nil {
			edit(f.Variance)
		}
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := model.ParseFile("cal.json", buf.Bytes()); err != nil {
			t.Errorf("a file within the checks is refused: %v", err)
		}
	}
	// observed.mean_log and sd_log are the matrix's: the floor for a
	// mean of repetitions is moved by them.
	for _, c := range []struct {
		edit func(*model.FileObserved)
		want string
	}{
		{func(o *model.FileObserved) { o.SDLog *= 0.01 }, "field observed.sd_log"},
		{func(o *model.FileObserved) { o.MeanLog += 1e-6 }, "field observed.mean_log"},
	} {
		f := floor.NewFile(a, r, nil, time.Unix(0, 0).UTC(), "test")
		c.edit(&f.Observed)
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := model.ParseFile("cal.json", buf.Bytes()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %s", err, c.want)
		}
	}
}
