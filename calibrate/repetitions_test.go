package calibrate

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"qoscal/data"
)

// TestVarianceModelNumpy: the variance components that Analyze finds in
// runs measured with repetitions (stats/testdata/varcomp_runs.csv, as
// 'qoscal measure' writes them) equal numpy's, computed from the same CSV
// by stats/testdata/make_varcomp.py (vector runs_csv): each repetition
// scored on its own, the jobs as the groups.
func TestVarianceModelNumpy(t *testing.T) {
	b, err := os.ReadFile("../stats/testdata/varcomp_vectors.json")
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
	runs, err := data.Load([]string{"../stats/testdata/" + v.RunsCSV.File}, data.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(runs, Options{NoRegimes: true})
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
	reps, logs, err := RepetitionScores(&run, "sys", "new", Auto, "", []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 || math.Abs(logs[0]-0) > 1e-15 || math.Abs(logs[1]-math.Log(2)) > 1e-15 {
		t.Errorf("repetitions %v, log scores %v: want 0 and ln 2", reps, logs)
	}
	run.Measurements = append(run.Measurements, ms(3, "a", 1, 1)...)
	if _, _, err := RepetitionScores(&run, "sys", "new", Auto, "", []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "repetition 3 lacks b") {
		t.Errorf("a repetition lacking b: %v", err)
	}
	run.Measurements = append(run.Measurements, ms(0, "c", 1, 1)...)
	if _, err := Repetitions(&run, "sys", "new"); err == nil || !strings.Contains(err.Error(), "2 measurements carry no repetition while others do") {
		t.Errorf("mixed rows: %v", err)
	}
}
