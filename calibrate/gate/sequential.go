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
	// Repetitions that drift inside the job (variance_components.rho)
	// are not the independent ones the design's recursion follows: it is
	// given the within-job SD that makes the mean of M repetitions'
	// variance exact (IIDWithin), which overstates an earlier look's, so
	// that the early boundaries are wider than they need be, not
	// narrower (docs/STATS.md 2.17 checks the rate it keeps).
	d, err := stats.NewSequential(v.EffectiveBetween(cal.Observed.SDLog), v.IIDWithin(M), slide, alpha, 0.1, M)
	if err != nil {
		return nil, err
	}
	return &Sequential{cal: cal, design: d, mu: v.MeanLog}, nil
}

// DesignRepetitions is the most repetitions the sequential gate takes
// when the user does not say: the fewest at which the mean of a job's
// repetitions holds 90% of the information that unlimited repetitions
// would give against the calibration, I_M = 1/(b² + W_M) ≥ 0.9/b², that
// is W_M ≤ b²/9 (b the job's effect against the calibration's mean,
// model.FileVariance.EffectiveBetween; W_M the within-job variance of a
// mean of M, WithinVar: w²/M, so M ≥ 9·w²/b², for independent
// repetitions): repetitions past it buy little, since b never averages
// out. At least 2, and at most 10, the fixed default it replaces (issue
// 35: with a job effect as large as CI runners have, 10 repetitions cost
// five times what 2 or 3 do for almost the same judgement).
func DesignRepetitions(cal *model.File) int {
	v := cal.Variance
	b := v.EffectiveBetween(cal.Observed.SDLog)
	m := 2
	for ; m < 10 && !(v.WithinVar(m) <= b*b/9*(1+1e-12)); m++ {
	}
	return m
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
