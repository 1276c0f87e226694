package stats

import (
	"encoding/json"
	"os"
	"testing"
)

// The vectors in testdata/varcomp_vectors.json were computed with numpy
// 1.24.2 by testdata/make_varcomp.py (python3 testdata/make_varcomp.py),
// the sums of squares as quadratic forms with projection matrices, not
// group by group as VarianceComponents does.
func loadVarcomp(t *testing.T) (v struct {
	Anova []struct {
		Reason                string
		Groups                [][]float64
		Between, Within, Mean float64
		MSB, MSW, N0          float64
		Truncated             bool
		N, A                  int
	}
	Cheapest []struct {
		B                 float64 `json:"between"`
		W                 float64 `json:"within"`
		Max               float64 `json:"max_sd"`
		RepSeconds        float64 `json:"rep_seconds"`
		JobSeconds        float64 `json:"job_seconds"`
		MaxReps           int     `json:"max_reps"`
		MaxJobs           int     `json:"max_jobs"`
		Jobs, Repetitions int
		Seconds, SD       float64
	}
}) {
	t.Helper()
	b, err := os.ReadFile("testdata/varcomp_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Anova) == 0 || len(v.Cheapest) == 0 {
		t.Fatal("no vectors")
	}
	return v
}

// TestVarianceComponents checks the ANOVA estimators against numpy's
// (vector anova): SDs, means, mean squares, n₀ and the truncation at 0.
func TestVarianceComponents(t *testing.T) {
	for _, c := range loadVarcomp(t).Anova {
		got, err := VarianceComponents(c.Groups)
		if err != nil {
			t.Errorf("%s: %v", c.Reason, err)
			continue
		}
		check(t, c.Reason+": between", got.Between, c.Between, 1e-9)
		check(t, c.Reason+": within", got.Within, c.Within, 1e-9)
		check(t, c.Reason+": mean", got.Mean, c.Mean, 1e-12)
		check(t, c.Reason+": MSB", got.MSB, c.MSB, 1e-9)
		check(t, c.Reason+": MSW", got.MSW, c.MSW, 1e-9)
		check(t, c.Reason+": n0", got.N0, c.N0, 1e-12)
		if got.Truncated != c.Truncated || got.N != c.N || got.Groups != c.A {
			t.Errorf("%s: truncated %v, %d values in %d groups; want %v, %d in %d", c.Reason, got.Truncated, got.N, got.Groups, c.Truncated, c.N, c.A)
		}
	}
	for _, bad := range [][][]float64{{{1, 2}}, {{1}, {2}}, {{1, 2}, {}}} {
		if _, err := VarianceComponents(bad); err == nil {
			t.Errorf("VarianceComponents(%v): no error", bad)
		}
	}
}

// TestCheapest checks the plan of least CI time against numpy's search of
// every (jobs, repetitions) (vector cheapest).
func TestCheapest(t *testing.T) {
	for _, c := range loadVarcomp(t).Cheapest {
		v := VarComp{Between: c.B, Within: c.W}
		p, ok := v.Cheapest(c.Max, c.RepSeconds, c.JobSeconds, c.MaxReps, c.MaxJobs)
		if !ok || p.Jobs != c.Jobs || p.Repetitions != c.Repetitions {
			t.Errorf("σb %g σw %g to SD %g: plan %+v (%v), want %d jobs of %d repetitions", c.B, c.W, c.Max, p, ok, c.Jobs, c.Repetitions)
			continue
		}
		check(t, "seconds", p.Seconds, c.Seconds, 1e-12)
		check(t, "sd", p.SD, c.SD, 1e-9)
	}
	if _, ok := (VarComp{Between: 0.05, Within: 0.01}).Cheapest(0.01, 1, 10, 100, 3); ok {
		t.Error("a between-job SD of 0.05 cannot reach 0.01 in 3 jobs: want no plan")
	}
}
