package spread

import (
	"fmt"
	"slices"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// Repetitions are the repetitions a run's measurements of two variants
// carry (data.Measurement.Repetition), in order; nil when they carry none
// (every one 0). A run with some measurements of a repetition and some
// without is an error: its repetitions cannot be told apart.
func Repetitions(run *data.Run, baseline, candidate string) ([]int, error) {
	seen := map[int]bool{}
	without := 0
	for _, m := range run.Measurements {
		if m.Variant != baseline && m.Variant != candidate {
			continue
		}
		if m.Repetition == 0 {
			without++
			continue
		}
		seen[m.Repetition] = true
	}
	if len(seen) == 0 {
		return nil, nil
	}
	if without > 0 {
		return nil, fmt.Errorf("%s: %d measurements carry no repetition while others do: expected a repetition on every row of the run, or on none", calibrate.RunName(run), without)
	}
	reps := make([]int, 0, len(seen))
	for r := range seen {
		reps = append(reps, r)
	}
	slices.Sort(reps)
	return reps, nil
}

// RepetitionRuns splits a run into one run per repetition (in the order
// of reps), each holding that repetition's measurements.
func RepetitionRuns(run *data.Run, reps []int) []data.Run {
	at := make(map[int]int, len(reps))
	out := make([]data.Run, len(reps))
	for i, r := range reps {
		at[r] = i
		out[i] = data.Run{ID: fmt.Sprintf("%s repetition %d", run.ID, r), Labels: run.Labels, Baseline: run.Baseline, Candidate: run.Candidate}
	}
	for _, m := range run.Measurements {
		if i, ok := at[m.Repetition]; ok {
			out[i].Measurements = append(out[i].Measurements, m)
		}
	}
	return out
}

// VarianceModel is the variance components of the log score over
// calibration runs measured with repetitions (stats.VarianceComponents):
// its SDs between jobs and between the repetitions inside one, the mean
// of the runs' mean log scores, and how many runs and repetitions it
// rests on.
type VarianceModel struct {
	stats.VarComp
	// Runs are the runs with repetitions it rests on (others are left
	// out of it, not of the score distribution).
	Runs []string
}
