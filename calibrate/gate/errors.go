package gate

import (
	"fmt"
)

// VariantsError is a run gated against a calibration of other variants.
type VariantsError struct {
	Baseline, Candidate       string // the run's
	CalBaseline, CalCandidate string // the calibration's
}

func (e *VariantsError) Error() string {
	return fmt.Sprintf("this run compares %s (candidate) with %s (baseline), but the calibration compares %s with %s",
		e.Candidate, e.Baseline, e.CalCandidate, e.CalBaseline)
}

// UnitError is a suite benchmark the run measured in another unit than
// the calibration's: Msg says so; gating the metric Unit would judge it.
type UnitError struct {
	Msg  string
	Unit string // the calibration's unit of the benchmark
}

func (e *UnitError) Error() string { return e.Msg }

// PartialError is a run that lacks benchmarks of the suite it is gated
// on: Msg says which, and the gate could judge Part, the benchmarks it
// has (GateOptions.AllowPartial).
type PartialError struct {
	Msg  string
	Part string // "the common part", "the benchmarks both measured", ...
}

func (e *PartialError) Error() string {
	return e.Msg + "; rerun, or gate on " + e.Part + " (GateOptions.AllowPartial)"
}
