package gate

import (
	"math"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
)

func scorerMeasurements(rep int, a, b float64) []data.Measurement {
	return []data.Measurement{
		{Benchmark: "x", Variant: "base", Value: 100, Unit: "ops/s", Repetition: rep},
		{Benchmark: "x", Variant: "cand", Value: a, Unit: "ops/s", Repetition: rep},
		{Benchmark: "y", Variant: "base", Value: 100, Unit: "ops/s", Repetition: rep},
		{Benchmark: "y", Variant: "cand", Value: b, Unit: "ops/s", Repetition: rep},
	}
}

func TestScorer(t *testing.T) {
	s := &Scorer{Run: "r", Baseline: "base", Candidate: "cand", Direction: func() (calibrate.Direction, error) { return calibrate.HigherIsBetter, nil }}
	s.Progress(0, "warm-up", 9) // not counted
	s.Progress(1, "x:base", 0.25)
	s.Progress(1, "x:cand", 0.5)
	s.Observe(1, scorerMeasurements(1, 200, 50)) // geomean of 2 and 0.5: 1
	s.Progress(2, "cand", 1.0004)
	s.Observe(2, scorerMeasurements(2, 400, 100)) // geomean of 4 and 1: 2
	if len(s.Repetitions) != 2 || len(s.Warnings) != 0 {
		t.Fatalf("got %+v, warnings %q", s.Repetitions, s.Warnings)
	}
	r1, r2 := s.Repetitions[0], s.Repetitions[1]
	if r1.N != 1 || strings.Join(r1.Order, ",") != "x:base,x:cand" || r1.Seconds != 0.75 || math.Abs(r1.Score-1) > 1e-12 {
		t.Errorf("repetition 1: %+v, want x:base,x:cand in 0.75 s, score 1", r1)
	}
	if r2.N != 2 || r2.Seconds != 1 || math.Abs(r2.Score-2) > 1e-12 {
		t.Errorf("repetition 2: %+v, want 1 s (rounded to ms), score 2", r2)
	}
	if got := s.Score(); math.Abs(got-math.Sqrt2) > 1e-12 {
		t.Errorf("score %v, want the geometric mean of 1 and 2, √2", got)
	}
	// A repetition without the candidate has no score: NaN, said once,
	// and the job has no score.
	s.Observe(3, scorerMeasurements(3, 100, 100)[:1])
	s.Observe(4, nil)
	if !math.IsNaN(s.Repetitions[2].Score) || len(s.Warnings) != 1 || !strings.HasPrefix(s.Warnings[0], "repetition 3 has no score: ") || !math.IsNaN(s.Score()) {
		t.Errorf("unscored: %+v, warnings %q, score %v", s.Repetitions, s.Warnings, s.Score())
	}
}

func TestScorerFromRun(t *testing.T) {
	s := &Scorer{Baseline: "base", Candidate: "cand", Direction: func() (calibrate.Direction, error) { return calibrate.HigherIsBetter, nil }}
	run := data.Run{ID: "r", Measurements: append(scorerMeasurements(1, 200, 50), scorerMeasurements(2, 400, 100)...)}
	if err := s.FromRun(&run); err != nil {
		t.Fatal(err)
	}
	if len(s.Repetitions) != 2 || s.Repetitions[1].N != 2 || s.Repetitions[1].Order[0] != "(blocks)" || math.Abs(s.Repetitions[1].Score-2) > 1e-12 {
		t.Errorf("blocks: %+v", s.Repetitions)
	}
	if got := s.Score(); math.Abs(got-math.Sqrt2) > 1e-12 {
		t.Errorf("score %v, want √2", got)
	}
	s.Direction = func() (calibrate.Direction, error) { return 0, &calibrate.DirectionError{} }
	if err := s.FromRun(&run); err == nil {
		t.Error("no direction: no error")
	}
}
