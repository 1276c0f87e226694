package drift

import (
	"errors"
	"fmt"
	"math"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// DriftResult says whether runs gated since a calibration have moved away
// from it: a scan of their log scores for a shift of level against the
// calibration's, with the runs modelled as AR(1) (stats.ShiftCheck),
// checked after every run at a stated false-alarm rate per so many runs
// (docs/STATS.md 5, "Drift").
type DriftResult struct {
	// Runs are the new runs scored, in order; Scores their scores.
	Runs   []string
	Scores []float64
	// Skipped are new runs that lack a suite benchmark; Foreign, runs that
	// lack the calibration's baseline or candidate (another pair's runs in
	// a shared store).
	Skipped, Foreign []string
	// TooFew is set when the new runs are fewer than MinNewRuns: no drift
	// is reported, whatever their scores.
	TooFew bool
	// Median is the median score of Runs. CalibrationMedian is the
	// median score of the calibration's runs, CalibrationRuns their
	// number.
	Median            float64
	CalibrationMedian float64
	CalibrationRuns   int
	// FalseAlarm is the chance that steady runs raise a false drift in
	// the checks after each of PerRuns runs (DriftOptions): the rate the
	// check runs at, over calibrations of CalibrationRuns runs.
	FalseAlarm float64
	PerRuns    int
	// H is the scan's decision value for the score (the (1 − FalseAlarm)
	// quantile of its null, for the record: the decision is
	// P ≤ FalseAlarm); Lag1 the calibration's lag-1 autocorrelation r₁ of
	// its log scores (NaN for constant scores), Rho the autocorrelation
	// the check allows for: r₁'s 80% upper confidence point
	// (stats.ShiftBeta); Clip the most SDs one run counts.
	H, Lag1, Rho, Clip float64
	// RhoConfidence is the confidence of that upper point (0.80), for
	// the words and JSON that state it.
	RhoConfidence float64
	// Drift is set when the score has drifted: Direction "down" (the
	// score fell) or "up"; FromRun is the first run of the scan's window
	// (the shift's start); BeforeMedian the median score of the calibration and the
	// new runs before FromRun, AfterMedian that of FromRun and the runs
	// after it; P the chance that steady runs, checked after each of
	// PerRuns runs, would look at least this far off at some check.
	Drift                     bool
	Direction                 string
	FromRun                   string
	BeforeMedian, AfterMedian float64
	P                         float64
	// LastRun is the last run scored: with drift, the runs that moved are
	// FromRun..LastRun.
	LastRun string
	// Advice is what a drift calls for (AdviceInvestigate for a fall,
	// AdviceRecalibrate for a rise; "" without drift). A fall is never
	// advice to recalibrate: a regression that slipped past the gate
	// lowers the score too, and a floor calibrated on such runs would sit
	// under it.
	Advice string
	// PassedBelow are, after a fall, the runs from FromRun on that score
	// below every calibration run (below CalibrationMin, its lowest
	// score) yet not below the calibration's Floor: the runs the gate
	// passes although they score lower than anything the floor was
	// calibrated on, in run order; nil otherwise.
	PassedBelow []string
	// CalibrationMin and Floor are the calibration's lowest score and its
	// floor.
	CalibrationMin, Floor float64
	// Benchmarks are the suite benchmarks whose ratio drifted, in suite
	// order: each checked the same way, Holm's step-down over the suite
	// keeping the family-wise rate at FalseAlarm per PerRuns runs.
	Benchmarks []BenchmarkDrift
}

// BenchmarkDrift is one benchmark's drift.
type BenchmarkDrift struct {
	Name                      string
	Direction                 string
	FromRun                   string
	BeforeMedian, AfterMedian float64
	P                         float64
}

// DriftOptions are the parameters of Drift; the zero value of a field
// means its default.
type DriftOptions struct {
	// FalseAlarm is the chance that steady runs raise a false drift when
	// checked after each of PerRuns runs (default
	// DefaultDriftFalseAlarm).
	FalseAlarm float64
	// PerRuns is the number of runs FalseAlarm covers (default
	// DefaultDriftRuns; the gate's drift window).
	PerRuns int
	// Seed seeds the simulation of the check's null (default 1).
	Seed uint64
	// ScoreOnly checks the score alone and leaves Benchmarks empty: for
	// a caller that reads only the score's result (the gate's note, the
	// watch's replay), whom the benchmarks' checks would cost a
	// simulated null of 40,000 sequences or more for each distinct ρ.
	ScoreOnly bool
}

// The drift check's defaults and constants (docs/STATS.md 5, "Drift").
const (
	// DefaultDriftFalseAlarm and DefaultDriftRuns: 5% of steady runs
	// raise a false drift in 20 runs checked after each.
	DefaultDriftFalseAlarm = 0.05
	DefaultDriftRuns       = 20
	// DriftK and DriftClip are the audit's CUSUM's reference value and
	// clip, in SDs of the calibration's log scores (it dates changes of
	// level, docs/STATS.md 5e; the drift check was this CUSUM until issue
	// 33): k = 1 detects a shift of 2 SDs fastest; the clip keeps one
	// outlying run (a degraded runner) from moving it by more than 3.
	DriftK    = 1.0
	DriftClip = 4
	// DriftDraws is the number of simulated steady sequences behind the
	// score's null (the rate's Monte Carlo SE: 0.15% at 5%).
	DriftDraws = 20000
)

// benchmarkDraws is the number of simulated steady sequences behind the
// benchmarks' nulls: 200 draws at the rate Holm's first step tests each of
// k benchmarks at, falseAlarm/k, so that the null's tail there is known to
// 7% (with 40 the family-wise rate over ten independent benchmarks was
// 6.5% for 5%, with 200, 4.2%: TestDriftClaims); from DriftDraws to
// 100,000.
func benchmarkDraws(k int, falseAlarm float64) int {
	return min(100000, max(DriftDraws, int(math.Ceil(200*float64(k)/falseAlarm))))
}

// What a drift calls for (DriftResult.Advice).
const (
	// AdviceInvestigate: the score fell. Find out why before anything
	// else; recalibrate only if the change was intended.
	AdviceInvestigate = "investigate"
	// AdviceRecalibrate: the score rose. A floor calibrated on the lower
	// runs catches less than one calibrated on these would.
	AdviceRecalibrate = "recalibrate"
)

// MaxDriftRuns is the most runs a false-alarm rate may cover: the
// simulation of the check's null draws that many runs 20,000 times (and
// 40,000 or more for each benchmark), scanning every window after each,
// so its cost grows with the square of the runs: at 1,000 a drift check
// of 14 benchmarks took about 15 minutes, at 200 under a minute.
const MaxDriftRuns = 200

func (o DriftOptions) WithDefaults() DriftOptions {
	if o.FalseAlarm == 0 {
		o.FalseAlarm = DefaultDriftFalseAlarm
	}
	if o.PerRuns == 0 {
		o.PerRuns = DefaultDriftRuns
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// Drift compares runs gated since the calibration cal with it. The runs
// are scored as the gate scores them (the calibration's variants, suite
// and units); runs that are in the calibration itself are left out. It
// needs the calibration's model (a version 2 file).
func Drift(cal *model.File, runs []data.Run, dir calibrate.Direction, opt DriftOptions) (*DriftResult, error) {
	opt = opt.WithDefaults()
	if opt.PerRuns < MinNewRuns || opt.PerRuns > MaxDriftRuns {
		return nil, fmt.Errorf("a false-alarm rate per %d runs: the runs it covers must be from %d to %d", opt.PerRuns, MinNewRuns, MaxDriftRuns)
	}
	if !(opt.FalseAlarm > 0 && opt.FalseAlarm <= 0.5) {
		return nil, fmt.Errorf("a false-alarm rate of %v: it must be in (0, 0.5]", opt.FalseAlarm)
	}
	if cal.Matrix == nil {
		return nil, fmt.Errorf("the calibration file (version %d) has no matrix, so there is nothing to compare the runs with: write it again with this qoscal", cal.Version)
	}
	calScores, err := cal.Matrix.Scores(cal.Suite)
	if err != nil {
		return nil, err
	}
	inCal := map[string]bool{}
	for _, id := range cal.Matrix.Runs {
		inCal[id] = true
	}
	res := &DriftResult{RhoConfidence: 1 - stats.ShiftBeta, CalibrationMedian: stats.Median(calScores), CalibrationRuns: len(calScores),
		FalseAlarm: opt.FalseAlarm, PerRuns: opt.PerRuns, Clip: stats.ShiftClip, CalibrationMin: cal.Observed.Min, Floor: cal.Floor}
	cols := make([][]float64, len(cal.Suite)) // log ratios per benchmark: calibration, then new runs
	for j := range cal.Suite {
		for _, row := range cal.Matrix.LogRatio {
			cols[j] = append(cols[j], row[j])
		}
	}
	metric := cal.SoleUnit()
	for i := range runs {
		r := &runs[i]
		if inCal[r.ID] {
			continue
		}
		if !hasVariants(r, cal.Baseline, cal.Candidate) {
			res.Foreign = append(res.Foreign, r.ID)
			continue
		}
		rr, err := calibrate.Ratios(r, cal.Baseline, cal.Candidate, dir, metric)
		if err != nil {
			return nil, err
		}
		s := rr.ScoreOver(cal.Suite)
		if len(s.Missing) > 0 {
			res.Skipped = append(res.Skipped, r.ID)
			continue
		}
		for j, b := range cal.Suite {
			cols[j] = append(cols[j], math.Log(rr.Ratios[b].Ratio))
		}
		res.Runs = append(res.Runs, r.ID)
		res.Scores = append(res.Scores, s.Score)
	}
	if len(res.Runs) == 0 {
		msg := fmt.Sprintf("no run to compare with the calibration: of the %d runs given, %d are in the calibration itself and %d lack a suite benchmark", len(runs), len(runs)-len(res.Skipped)-len(res.Foreign), len(res.Skipped))
		if len(res.Foreign) > 0 {
			msg += fmt.Sprintf("; %d lack the variants %s and %s", len(res.Foreign), cal.Baseline, cal.Candidate)
		}
		return nil, errors.New(msg)
	}
	res.TooFew = len(res.Runs) < MinNewRuns
	res.LastRun = res.Runs[len(res.Runs)-1]
	res.Median = stats.Median(res.Scores)
	n := len(calScores)
	all := append(append([]float64(nil), calScores...), res.Scores...)
	logs := make([]float64, len(all))
	for i, v := range all {
		logs[i] = math.Log(v)
	}
	shift := stats.NewShiftCheck(n, opt.PerRuns, MinNewRuns, opt.Seed)
	c := driftCheckOf(shift.Check(logs[:n], logs[n:], DriftDraws))
	res.H, res.Lag1, res.Rho = stats.UpperCritical(shift.Null(c.rho, DriftDraws), opt.FalseAlarm), c.r, c.rho
	if !res.TooFew && c.p <= opt.FalseAlarm {
		at := n + c.start
		res.Drift, res.Direction, res.FromRun, res.P = true, c.direction(), res.Runs[c.start], c.p
		res.BeforeMedian, res.AfterMedian = stats.Median(all[:at]), stats.Median(all[at:])
		res.Advice = AdviceRecalibrate
		if c.down {
			res.Advice = AdviceInvestigate
			for i := c.start; i < len(res.Runs); i++ {
				if sc := res.Scores[i]; sc < res.CalibrationMin && sc >= res.Floor {
					res.PassedBelow = append(res.PassedBelow, res.Runs[i])
				}
			}
		}
	}
	if res.TooFew || opt.ScoreOnly {
		return res, nil
	}
	// Each benchmark at the family-wise rate: Holm over the suite, with
	// draws enough to resolve FalseAlarm/k.
	k := len(cal.Suite)
	draws := benchmarkDraws(k, opt.FalseAlarm)
	checks := make([]driftCheck, k)
	ps := make([]float64, k)
	for j := range cal.Suite {
		checks[j] = driftCheckOf(shift.Check(cols[j][:n], cols[j][n:], draws))
		ps[j] = checks[j].p
	}
	for j, drifted := range stats.Holm(ps, opt.FalseAlarm) {
		if !drifted {
			continue
		}
		at := n + checks[j].start
		ratios := make([]float64, len(cols[j]))
		for i, x := range cols[j] {
			ratios[i] = math.Exp(x)
		}
		res.Benchmarks = append(res.Benchmarks, BenchmarkDrift{Name: cal.Suite[j], Direction: checks[j].direction(),
			FromRun: res.Runs[checks[j].start], BeforeMedian: stats.Median(ratios[:at]), AfterMedian: stats.Median(ratios[at:]), P: checks[j].p})
	}
	return res, nil
}

// driftCheck is the check of one series of new log values against its
// calibration's: the drift check's (stats.ShiftCheck), or the audit's
// CUSUM (driftNulls).
type driftCheck struct {
	// stat is the statistic after the last new value (the scan, or
	// max(S⁺, S⁻)), p its Monte Carlo p-value; down says the level fell,
	// start is the index (among the new values) of the first value of
	// the shift (the scan's window, or the CUSUM side's current excursion).
	stat, p float64
	down    bool
	start   int
	// r is the calibration's lag-1 autocorrelation (the drift check's),
	// rho the autocorrelation the null allows for.
	r, rho float64
}

// driftCheckOf is the drift check's result as a driftCheck.
func driftCheckOf(r stats.ShiftResult) driftCheck {
	return driftCheck{stat: r.Stat, p: r.P, down: r.Down, start: r.Start, r: r.R, rho: r.Rho}
}

func (c driftCheck) direction() string {
	if c.down {
		return "down"
	}
	return "up"
}

// DriftNulls holds the nulls of the audit's CUSUM checks against one
// calibration (of N runs), one per autocorrelation allowed for (the audit
// dates changes of level with the CUSUM, stats.CUSUMChanges; the drift
// check itself is stats.ShiftCheck).
type DriftNulls struct {
	N     int
	Opt   DriftOptions
	Draws int
	null  map[[2]float64][]float64
}

// get is the null of a check allowing for autocorrelation rho.
func (d *DriftNulls) Get(rho float64) []float64 {
	key := [2]float64{rho, float64(d.Draws)}
	if v, ok := d.null[key]; ok {
		return v
	}
	if d.null == nil {
		d.null = map[[2]float64][]float64{}
	}
	v := stats.CUSUMNull(d.N, d.Opt.PerRuns, MinNewRuns, rho, DriftK, DriftClip, d.Draws, d.Opt.Seed)
	d.null[key] = v
	return v
}

// AllowedRho is the autocorrelation the audit's CUSUM null allows for,
// from the calibration's log values cal: its lag-1 autocorrelation as the
// 95% upper bounds of the floors take it (stats.AR1Upper: 0 unless more
// than one SE above 0, then bias-corrected plus one SE), rounded up to a
// multiple of 0.05.
func AllowedRho(cal []float64) float64 {
	r, se := stats.Lag1Autocorrelation(cal)
	if up := stats.AR1Upper(len(cal), r, se).Rho; up > 0 {
		return math.Min(0.9, math.Ceil(up*20-1e-9)/20)
	}
	return 0
}

// MinNewRuns is the fewest new runs a drift is reported on: one or two
// runs far off are the gate's business (a degraded runner, a regression
// the gate fails), not a stale calibration.
const MinNewRuns = 3

// hasVariants says whether run r has measurements of both variants.
func hasVariants(r *data.Run, baseline, candidate string) bool {
	var b, c bool
	for _, v := range r.Variants() {
		b = b || v == baseline
		c = c || v == candidate
	}
	return b && c
}

// Recent are the last window runs of runs (in the order given) that are
// not in the calibration cal: what the gate's drift note checks (Drift),
// after each gated run. None when fewer than MinNewRuns are, too few for
// a change to show.
func Recent(cal *model.File, runs []data.Run, window int) []data.Run {
	inCal := map[string]bool{}
	if cal.Matrix != nil {
		for _, id := range cal.Matrix.Runs {
			inCal[id] = true
		}
	}
	var recent []data.Run
	for _, r := range runs {
		if !inCal[r.ID] {
			recent = append(recent, r)
		}
	}
	if len(recent) > window {
		recent = recent[len(recent)-window:]
	}
	if len(recent) < MinNewRuns {
		return nil
	}
	return recent
}
