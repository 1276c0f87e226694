package gate

import (
	"fmt"
	"math"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// RepetitionScores scores each repetition of a run on its own over suite
// (every benchmark must be in every repetition): the log scores in the
// order of the repetitions, which Repetitions lists. A run without
// repetitions gives none. Each repetition's variant value is the median
// of its samples, as a run's is (Ratios).
func RepetitionScores(run *data.Run, baseline, candidate string, dir calibrate.Direction, metric string, suite []string) (reps []int, logs []float64, err error) {
	reps, err = spread.Repetitions(run, baseline, candidate)
	if err != nil || reps == nil {
		return nil, nil, err
	}
	for i, sub := range spread.RepetitionRuns(run, reps) {
		rr, err := calibrate.Ratios(&sub, baseline, candidate, dir, metric)
		if err != nil {
			return nil, nil, err
		}
		s := rr.ScoreOver(suite)
		if len(s.Missing) > 0 {
			return nil, nil, fmt.Errorf("%s: repetition %d lacks %s of the suite", calibrate.RunName(run), reps[i], s.Missing[0])
		}
		logs = append(logs, s.LogScore)
	}
	return reps, logs, nil
}

// DetectPlan is how many repetitions (and jobs) catch a slide nine times
// in ten (Power) at the least CI time, under the variance components and
// the floor's distance below the mean (docs/STATS.md 2.15).
type DetectPlan struct {
	// Slide is the regression to catch (0.05: every ratio 5% lower),
	// Power the chance to catch it.
	Slide, Power float64
	// RepSeconds is the time of one repetition, JobSeconds a job's fixed
	// cost (checkout, build, runner start).
	RepSeconds, JobSeconds float64
	// Z is the floor's distance below the calibration's mean log score
	// in SDs of a run's score, (mean_log − ln floor)/sd_log: the gate
	// keeps it for a mean of m repetitions (GateResult.RepetitionFloor).
	Z float64
	// MaxSD is the largest SD of the mean log score that catches the
	// slide with Power: ln(1/(1−Slide))/(Z + Φ⁻¹(Power)).
	MaxSD float64
	// Best is the cheapest plan of up to MaxDetectJobs jobs judged by
	// their mean; OneJob the cheapest within one job. ok false: none
	// within MaxDetectRepetitions repetitions a job.
	Best, OneJob     stats.Plan
	BestOK, OneJobOK bool
	// OneJobLimit is the smallest slide one job catches with Power at
	// MaxDetectRepetitions repetitions.
	OneJobLimit float64
}

// The limits of a DetectPlan's search.
const (
	MaxDetectRepetitions = 1000
	MaxDetectJobs        = 20
)

// Detect plans the repetitions per job that catch a slide with power at
// the recommended floor's rate, given the time of a repetition and a
// job's fixed cost. It needs the variance components (runs measured with
// repetitions) and a floor below the mean.
func Detect(a *spread.Analysis, rec *floor.Recommendation, slide, power, repSeconds, jobSeconds float64) (DetectPlan, error) {
	p := DetectPlan{Slide: slide, Power: power, RepSeconds: repSeconds, JobSeconds: jobSeconds}
	v := a.Variance
	if v == nil {
		return p, fmt.Errorf("planning repetitions needs the variance components: calibration runs measured with repetitions (qoscal measure)")
	}
	s := a.Score
	if !(s.SDLog > 0) || !(rec.Floor > 0) {
		return p, fmt.Errorf("planning repetitions needs scores with a spread and a floor")
	}
	p.Z = (s.MeanLog - math.Log(rec.Floor)) / s.SDLog
	zp := stats.NormalQuantile(power)
	if p.Z+zp <= 0 {
		return p, fmt.Errorf("the floor is above the scores' mean: no repetitions make it catch a slide")
	}
	l := -math.Log1p(-slide)
	p.MaxSD = l / (p.Z + zp)
	p.Best, p.BestOK = v.Cheapest(p.MaxSD, repSeconds, jobSeconds, MaxDetectRepetitions, MaxDetectJobs)
	p.OneJob, p.OneJobOK = v.Cheapest(p.MaxSD, repSeconds, jobSeconds, MaxDetectRepetitions, 1)
	p.OneJobLimit = -math.Expm1(-(p.Z + zp) * v.SDOfMean(MaxDetectRepetitions))
	return p, nil
}

// SequentialVerdict is what a sequential gate ('qoscal measure
// --calibration') decided after each repetition, with its boundaries at
// the repetition it stopped at, as score floors.
type SequentialVerdict struct {
	// Repetitions is how many ran, MaxRepetitions the limit.
	Repetitions, MaxRepetitions int
	// Decision is stats.SeqFail, stats.SeqPass or stats.SeqOpen (the
	// limit reached between the boundaries).
	Decision string
	// Stopped is "decided" (a boundary crossed) or "limit".
	Stopped string
	// FailFloor and PassFloor are the boundaries at the last repetition
	// run: the score below which it fails and above which it passes.
	FailFloor, PassFloor float64
	// Alpha is the false-alarm rate per healthy job the design spends
	// (the calibration's claimed rate), Slide the regression (a fraction,
	// 0.05 for 5% slower) it passes at most one time in ten.
	Alpha, Slide float64
}

// GateSequential is the gate's verdict on a run that a sequential gate
// measured: Gate's result (the table, the bands, the runner's health),
// with the score the mean of the repetitions' log scores and the verdict
// the sequential decision's: fail below the fail boundary, pass above the
// pass boundary, rerun between them at the limit. A benchmark below its
// band with PerBenchmark fail still fails a pass, report-only turns a
// fail into a warning, and a degraded runner with OnDegraded fail makes
// the run inconclusive, as in Gate.
func GateSequential(run *data.Run, opt GateOptions, seq SequentialVerdict) (*GateResult, error) {
	res, err := Gate(run, opt)
	if err != nil {
		return nil, err
	}
	res.Sequential = &seq
	res.Floor, res.RepetitionFloor = seq.FailFloor, seq.FailFloor
	res.CarriedBy, res.CappedScore = nil, math.NaN()
	var v string
	switch seq.Decision {
	case stats.SeqFail:
		v = VerdictFail
	case stats.SeqPass:
		v = VerdictPass
		if res.PerBenchmark == PerBenchmarkFail && len(res.Below) > 0 {
			v = VerdictFail
		}
	default:
		v = VerdictRerun
	}
	if v == VerdictFail && opt.ReportOnly {
		v = VerdictWarn
	}
	if res.RunnerDegraded && opt.OnDegraded == "fail" {
		v = VerdictInconclusive
	}
	res.Verdict, res.VerdictDetail = v, v
	if res.RunnerDegraded && v != VerdictInconclusive {
		res.VerdictDetail += " on a degraded runner"
	}
	return res, nil
}

// JobScore is the score of a job measured in repetitions: the geometric
// mean of its repetitions' scores, from their logs.
func JobScore(logs []float64) float64 { return math.Exp(stats.Mean(logs)) }

// TypicalSeconds is the time of a repetition that Detect plans with: the
// median of the times measured.
func TypicalSeconds(times []float64) float64 { return stats.Median(times) }
