package calibtest

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
)

// MixtureCalibration analyses n one-benchmark runs whose log score is
// N(0, σ²), except that each run, with probability eps, comes from a
// degraded runner and scores shift× lower.
func MixtureCalibration(t testing.TB, rng *rand.Rand, n int, eps, shift, sigma float64) *spread.Analysis {
	runs := make([]data.Run, n)
	for i := range runs {
		l := sigma * rng.NormFloat64()
		if rng.Float64() < eps {
			l += math.Log(shift)
		}
		runs[i] = data.Run{ID: fmt.Sprint(i), Baseline: "b", Candidate: "c", Measurements: []data.Measurement{
			{Benchmark: "x", Variant: "b", Value: 1000, Unit: "ops/sec"},
			{Benchmark: "x", Variant: "c", Value: 1000 * math.Exp(l), Unit: "ops/sec"},
		}}
	}
	a, err := spread.Analyze(runs, spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// DriftFile is a calibration file made as recommend --write makes it, from
// one-benchmark runs whose log scores are logs.
func DriftFile(t *testing.T, logs []float64) *model.File {
	t.Helper()
	a, err := spread.Analyze(OneBenchmarkRuns(logs), spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := floor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	return floor.NewFile(a, rec, nil, time.Unix(0, 0).UTC(), "test")
}

// WorkedRecommendation is the worked example's analysis and its
// recommendation: five runs, margin 13%, step 0.05 (floor 1.25, STATS.md
// 2.1).
func WorkedRecommendation(t testing.TB) (*spread.Analysis, *floor.Recommendation) {
	t.Helper()
	a, err := spread.Analyze(FiveRuns(t), spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := floor.Recommend(a, WorkedOptions())
	if err != nil {
		t.Fatal(err)
	}
	return a, r
}

// WorkedOptions are the worked example's options: margin 13%, step 0.05.
func WorkedOptions() model.RecommendOptions {
	opt := model.DefaultRecommendOptions
	opt.Method, opt.Margin, opt.Step = model.MethodMargin, 0.13, 0.05
	return opt
}

// OneBenchmarkRuns are runs of one benchmark whose log scores are logs.
func OneBenchmarkRuns(logs []float64) []data.Run {
	runs := make([]data.Run, len(logs))
	for i, l := range logs {
		runs[i] = data.Run{ID: fmt.Sprintf("run-%03d", i+1), Baseline: "b", Candidate: "c", Measurements: []data.Measurement{
			{Benchmark: "x", Variant: "b", Value: 1000, Unit: "ops/sec"},
			{Benchmark: "x", Variant: "c", Value: 1000 * math.Exp(l), Unit: "ops/sec"},
		}}
	}
	return runs
}

// NoiseRuns returns n runs of unchanged code, 10 benchmarks × 2 variants,
// with seeded log-normal noise (the shape of scripts/benchgen's data).
func NoiseRuns(n int) []data.Run {
	rng := rand.New(rand.NewPCG(1, 19))
	names := make([]string, 10)
	for j := range names {
		names[j] = fmt.Sprintf("bench-%02d", j)
	}
	runs := make([]data.Run, n)
	base, cand := make([]float64, 10), make([]float64, 10)
	for i := range runs {
		for j := range base {
			base[j] = math.Round(1e7 * float64(j+1) * math.Exp(0.01*rng.NormFloat64()))
			cand[j] = math.Round(base[j] * (1 + 0.1*float64(j)) * math.Exp(0.02*rng.NormFloat64()))
		}
		runs[i] = MakeRun(fmt.Sprintf("run-%06d", i+1), names, base, cand)
	}
	return runs
}

// Vectors: stats/testdata/stats_vectors.json (numpy 1.24.2 / scipy
// 1.10.1, made by stats/testdata/make_vectors.py). Each check names its
// key.

func Vector(t testing.TB, key string, into any) {
	t.Helper()
	b, err := os.ReadFile("../../stats/testdata/stats_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(all[key], into); err != nil {
		t.Fatalf("vector %s: %v", key, err)
	}
}

func Near(t *testing.T, name string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Abs(want) {
		t.Errorf("%s = %.15g, want %.15g (rel %.0e)", name, got, want, rel)
	}
}

type ExampleRun struct {
	Inputs struct {
		Names []string  `json:"benchmarks"`
		Base  []float64 `json:"baseline_ops_per_sec"`
		Cand  []float64 `json:"candidate_ops_per_sec"`
	} `json:"inputs"`
	Expected struct {
		Ratios  []float64 `json:"ratios"`
		Geomean float64   `json:"geomean"`
	} `json:"expected"`
}

// MakeRun builds a run of ops/sec results from per-benchmark values.
func MakeRun(id string, names []string, base, cand []float64) data.Run {
	r := data.Run{ID: id, Baseline: "system", Candidate: "hoard"}
	for i, n := range names {
		r.Measurements = append(r.Measurements,
			data.Measurement{Benchmark: n, Variant: "system", Value: base[i], Unit: "ops/sec"},
			data.Measurement{Benchmark: n, Variant: "hoard", Value: cand[i], Unit: "ops/sec"})
	}
	return r
}

// FiveRuns builds the worked example's five calibration runs: the example
// run's ratios, scaled so that the scores are exactly 1.55, 1.54, 1.65,
// 1.59 and 1.44.
func FiveRuns(t testing.TB) []data.Run {
	var v ExampleRun
	Vector(t, "example_run_geomean", &v)
	var runs []data.Run
	for i, target := range []float64{1.55, 1.54, 1.65, 1.59, 1.44} {
		f := target / v.Expected.Geomean
		cand := make([]float64, len(v.Inputs.Cand))
		for j := range cand {
			cand[j] = v.Inputs.Cand[j] * f
		}
		runs = append(runs, MakeRun(fmt.Sprintf("run-%d", i+1), v.Inputs.Names, v.Inputs.Base, cand))
	}
	return runs
}
