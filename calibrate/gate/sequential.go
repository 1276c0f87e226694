package gate

import (
	"fmt"
	"math"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// MaxRepetitions is the most repetitions a sequential gate decides
// within (stats.MaxLooks).
const MaxRepetitions = stats.MaxLooks

// Sequential is the sequential design of a calibration and the state of a
// job judged by it: the running sum of its repetitions' log scores.
type Sequential struct {
	cal    *model.File
	design *stats.Sequential
	mu     float64 // the model's healthy mean log score
	sum    float64
	k      int
	last   string // the last look's decision
}

// NewSequential designs the sequential gate of a calibration for at most
// maxReps repetitions (or reps when maxReps is 0): the calibration's
// claimed false-alarm rate spent over them, and the slide that a job of
// that many repetitions judged once at that rate catches nine times in ten
// passed at most one time in ten (docs/STATS.md 2.16).
func NewSequential(cal *model.File, maxReps, reps int) (*Sequential, error) {
	M := maxReps
	if M == 0 {
		M = reps
	}
	alpha := float64(cal.FPR.Predictive)
	if !(alpha > 0 && alpha < 0.5) {
		return nil, fmt.Errorf("calibration file %s claims no false-alarm rate to spend (false_positive_rate.predictive %v)", cal.Path, alpha)
	}
	v := cal.Variance
	if !(v.Within > 0) {
		return nil, fmt.Errorf("calibration file %s: its repetitions never varied (variance_components.within 0): a sequential gate has nothing to decide by", cal.Path)
	}
	// The job effect the design allows for includes the error of the
	// calibration's mean, which every job is compared with
	// (model.FileVariance.MeanVar).
	slide := (stats.NormalQuantile(1-alpha) + stats.NormalQuantile(0.9)) * v.SDOfMeanVsCalibration(M, cal.Observed.SDLog)
	d, err := stats.NewSequential(v.EffectiveBetween(cal.Observed.SDLog), v.Within, slide, alpha, 0.1, M)
	if err != nil {
		return nil, err
	}
	return &Sequential{cal: cal, design: d, mu: v.MeanLog}, nil
}

// Last is the repetition at which the design decides at the latest.
func (s *Sequential) Last() int { return s.design.Last }

// Look is the decision after repetition rep, whose measurements are ms
// (of the run id, baseline and candidate given): its log score over the
// calibration's suite joins the running mean, and the design decides
// whether to stop.
func (s *Sequential) Look(id, baseline, candidate string, rep int, ms []data.Measurement) (stop bool, err error) {
	run := data.Run{ID: fmt.Sprintf("%s repetition %d", id, rep), Measurements: ms}
	rr, err := calibrate.Ratios(&run, baseline, candidate, calibrate.Auto, "")
	if err != nil {
		return false, err
	}
	sc := rr.ScoreOver(s.cal.Suite)
	if len(sc.Missing) > 0 {
		return false, fmt.Errorf("repetition %d lacks %s of the suite of %s: the sequential gate judges the calibrated suite", rep, sc.Missing[0], s.cal.Path)
	}
	s.k, s.sum = rep, s.sum+sc.LogScore
	s.last = s.design.Decide(rep, s.sum/float64(rep)-s.mu)
	return s.last != stats.SeqContinue, nil
}

// Verdict is the design's decision where the measurement stopped.
func (s *Sequential) Verdict() SequentialVerdict {
	d, k := s.design, s.k
	v := SequentialVerdict{Repetitions: k, MaxRepetitions: d.Looks, Decision: s.last, Stopped: "decided",
		FailFloor: math.Exp(s.mu - d.Fail[k-1]), PassFloor: math.Exp(s.mu - d.Slide + d.Pass[k-1]),
		Alpha: d.SpentAlpha, Slide: -math.Expm1(-d.Slide)}
	if s.last == stats.SeqOpen {
		v.Stopped = "limit"
	}
	return v
}

// Design is the sequential design itself: its looks and boundaries.
func (s *Sequential) Design() *stats.Sequential { return s.design }
