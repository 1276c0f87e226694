package gate

import (
	"fmt"

	"github.com/qoscal/qoscal/data"
)

// Rerun measures a run again, once, after the first verdict on it was
// VerdictRerun, and returns the new run.
type Rerun func(first *GateResult) (*data.Run, error)

// Decision is the gate's verdict with the runs it is about.
type Decision struct {
	*GateResult
	// Run names what the verdict is about: the run, or the pair (its
	// PairID), or the run judged with its rerun (the run's id), with no
	// measurements of its own.
	Run *data.Run
	// Judged are the runs the verdict rests on: the run, the two of a
	// pair, or the run and its rerun.
	Judged []*data.Run
	// Reran is set when the run was judged with its rerun.
	Reran bool
}

// Decide is the gate's decision on a run, or on the pair of run and
// second (their mean against the floor, no band: GatePair); when the
// run's verdict is rerun and rerun is given, it measures again by it, once,
// and judges the run and its rerun as a pair.
func Decide(run, second *data.Run, opt GateOptions, rerun Rerun) (*Decision, error) {
	if second != nil {
		res, err := GatePair(run, second, opt)
		if err != nil {
			return nil, err
		}
		id := &data.Run{ID: PairID(run, second), Baseline: run.Baseline, Candidate: run.Candidate}
		return &Decision{GateResult: res, Run: id, Judged: []*data.Run{run, second}}, nil
	}
	res, err := Gate(run, opt)
	if err != nil {
		return nil, err
	}
	d := &Decision{GateResult: res, Run: run, Judged: []*data.Run{run}}
	if res.Verdict != VerdictRerun || rerun == nil {
		return d, nil
	}
	again, err := rerun(res)
	if err != nil {
		return nil, err
	}
	if d.GateResult, err = GatePair(run, again, opt); err != nil {
		return nil, fmt.Errorf("the run and its rerun: %w", err)
	}
	d.Judged = append(d.Judged, again)
	d.Run = &data.Run{ID: run.ID, Baseline: run.Baseline, Candidate: run.Candidate}
	d.Reran = true
	return d, nil
}
