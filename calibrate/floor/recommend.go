package floor

import (
	"math"
	"strconv"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// FloorCost is what a floor costs and buys, given the calibration.
type FloorCost struct {
	Floor float64
	// BelowMinPct is how far below the lowest calibration score the floor
	// is, in % of that score (negative: above it).
	BelowMinPct float64
	// KObs is (m − ln F)/s: the floor's distance below the mean log score
	// in log-space SDs.
	KObs float64
	// False-positive rates per healthy run (STATS.md 2.5): Predictive is
	// the headline; Upper95 its 95% upper confidence bound; Plugin the
	// optimistic plug-in figure; DistributionFree the model-free bound
	// (j+1)/(n+1) (STATS.md 2.2).
	Predictive, Upper95, Plugin, DistributionFree float64
	// DistributionFreeUpper95 is the model-free 95% upper confidence bound
	// of the true rate (stats.DistributionFreeUpper: 1 − 0.05^(1/n) for a
	// floor below every calibration run).
	DistributionFreeUpper95 float64
	// Claimed and ClaimedUpper95 are the rate and its 95% upper bound that
	// qoscal stands behind (docs/STATS.md 5a): the model's, Predictive and
	// Upper95, while the log scores pass the normality check; when they
	// fail it, the larger of the model's and the model-free figure, since
	// a log-normal fit understates the lower tail of a mixture (a runner
	// that is sometimes degraded), which is what real CI noise is.
	Claimed, ClaimedUpper95 float64
	// RuleRate is the margin rule's own rate (model.MarginRuleRate:
	// docs/STATS.md 2.1) for the floor the margin rule placed on these
	// runs, NaN for any other floor. The predictive rate treats the floor
	// as given; the margin rule's floor moves with the lowest run, and
	// RuleRate is what the rule delivers, so it is the claim (Claimed)
	// of a margin floor, with the model-free figure when the model is in
	// doubt, as for the predictive rate.
	RuleRate float64
	// Horizon is the predictive chance of at least one false alarm over
	// the next HorizonRuns healthy runs: 1 − (1 − rate)^m averaged over the
	// posterior of the rate, as Predictive averages the rate (STATS.md
	// 2.5; NaN when Predictive is); not 1 − (1 − Predictive)^m, which
	// takes the estimated rate as the truth for all m runs;
	// HorizonFree the distribution-free chance that one of them falls below
	// the lowest calibration run, m/(n+m) (STATS.md 2.2).
	HorizonRuns          int
	Horizon, HorizonFree float64
	// R50 and R90 are the mildest uniform regressions caught half the time
	// and 90% of the time (predictive; STATS.md 2.6); SingleQ50 is how far
	// one benchmark of k alone must fall to move the score by R50: R50^k.
	R50, R90, SingleQ50 float64
	// Pair is the same floor judging the mean of the log scores of two
	// runs (a job measured twice, or a rerun): its predictive rate and
	// r90 (r50 is the same as one run's) (STATS.md 2.13).
	PairPredictive, PairR90 float64
	// Backtest: calibration runs scoring below the floor.
	CalibrationBelow int
	// Rule is the method that gives this floor, with the other options
	// of the recommendation, for a candidate that one does; "" for a grid
	// floor.
	Rule model.Method
}

// Recommendation is a recommended floor and what it costs.
type Recommendation struct {
	Options  model.RecommendOptions
	Raw      float64 // the method's bound before rounding down
	Floor    float64
	Decimals int
	Cost     FloorCost
	// Candidates are snugger floors between the recommendation and the
	// lowest observed score, with the same figures.
	Candidates []FloorCost
	// MoreRunsForOnePct is how many more calibration runs would bring the
	// distribution-free bound 1/(n+1) below 1%.
	MoreRunsForOnePct int
	// ToleranceK is the k factor of the tolerance method (0 otherwise).
	ToleranceK float64
	// PredictionBound is the log-normal lower prediction bound at the
	// options' Alpha, whatever the method (for charts and comparison).
	PredictionBound float64
	Bootstrap       stats.BootstrapFPR
	// Bands are the per-benchmark bands at Options.FamilyAlpha, in suite
	// order.
	Bands []model.Band
	// WithoutOutliers is the floor the same method gives without the
	// outlier runs (Analysis.Score.Outliers), which stay in the
	// calibration; 0 when there are none.
	WithoutOutliers float64
	// Window says which runs the floor was calibrated on, and Regimes are
	// the regimes of the scores of every run given (the caller chooses the
	// window and sets both).
	Window  spread.Window
	Regimes []calibrate.Regime
	// CombinedFPR bounds the false-positive rate per healthy run of the
	// combined rule "the score is below the floor, or a benchmark is below
	// its band": by the union bound, the floor's predictive rate plus the
	// bands' family-wise rate (docs/STATS.md 2.10). NaN when the floor's
	// rate is undefined.
	CombinedFPR float64
	// Repetitions are how many times each job would have to repeat the
	// suite, averaging the scores, for a floor at this false-positive rate
	// to catch given slides (STATS.md 2.12).
	Repetitions []Repetition
	// TwoStage is the gate with Options.RerunBand: a first run below the
	// floor by more than the band fails, one within it is measured again
	// and the pair judged by its mean; FPR per healthy job and the chance
	// of a rerun, both predictive (STATS.md 2.14). NaN when undefined.
	TwoStageFPR, TwoStageRerun float64
	// TwoStagePower is the same rule's predictive chance of failing a job
	// slid to one run's r90 (Cost.R90), which one run against the floor
	// fails nine times in ten: what the rerun band costs in power
	// (stats.TwoStagePower). NaN when undefined.
	TwoStagePower float64
	// Claim says why the claimed rate (Cost.Claimed) does not hold per
	// calibration on these runs (ClaimCheck); nil when nothing says so.
	Claim    *calibrate.ClaimFigures
	Warnings []calibrate.Warning
}

// Repetition is the number of repetitions per run M that makes a floor at
// false-positive rate Alpha catch a uniform slide to Slide (0.95: 5%
// slower) with probability Power:
// M = ⌈((t_{df,1−α} + t_{df,π})·s / ln(1/Slide))²⌉, assuming the run-to-run
// noise is what repetitions average away.
type Repetition struct {
	Slide, Power float64
	M            int
}

// FormatFloor prints a floor with the decimals of the step grid.
func (r *Recommendation) FormatFloor(f float64) string {
	return strconv.FormatFloat(f, 'f', r.Decimals, 64)
}

// Recommend recommends a floor for the analysed calibration runs.
func Recommend(a *spread.Analysis, opt model.RecommendOptions) (*Recommendation, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	s := a.Score
	rec := &Recommendation{Options: opt, Decimals: model.StepDecimals(opt.Step)}
	var err error
	var capped bool
	if rec.Raw, rec.Floor, rec.ToleranceK, capped, err = model.FloorWithCap(a.Scores(), opt); err != nil {
		return nil, err
	}
	if rec.Floor <= 0 {
		return nil, &NoFloorError{Method: opt.Method, Raw: rec.Raw, Floor: rec.Floor, Step: opt.Step}
	}
	if capped {
		_, uncapped, _, _ := model.FloorFrom(s.Min, s.MeanLog, s.SDLog, s.Effective, opt)
		rec.warn(calibrate.Warning{Kind: calibrate.WarnNotNormal, Figures: calibrate.CapFigures{NotNormal: s.ShapiroP < spread.NormalityAlpha, ShapiroP: s.ShapiroP,
			HeavyTail: !s.Tail.Normal(), TailDF: s.Tail.DF, Uncapped: uncapped, Floor: rec.Floor, Step: opt.Step}})
	}
	rec.Cost = Cost(a, rec.Floor, opt.Horizon)
	if opt.Method == model.MethodMargin {
		rec.Cost.setRule(a, opt)
	}
	rec.PredictionBound = stats.PredictionBoundEff(s.MeanLog, s.SDLog, s.Effective, opt.Alpha)
	rec.Candidates = candidates(a, rec.Cost, opt)
	rec.Bands = model.MatrixOf(a).Bands(opt.FamilyAlpha)
	rec.CombinedFPR = math.Min(1, rec.Cost.Predictive+opt.FamilyAlpha)
	if s.N < 100 {
		rec.MoreRunsForOnePct = 100 - s.N
	}
	rec.TwoStageFPR, rec.TwoStageRerun, rec.TwoStagePower = math.NaN(), math.NaN(), math.NaN()
	if opt.RerunBand > 0 && s.SDLog > 0 {
		// The rates and the power share their posterior draws: one pass.
		if r := rec.Cost.R90; r > 0 && !math.IsInf(r, 0) {
			rec.TwoStageFPR, rec.TwoStageRerun, rec.TwoStagePower = stats.TwoStage(s.MeanLog, s.SDLog, s.Effective, rec.Floor, opt.RerunBand, r, 20000, opt.Seed)
		} else {
			rec.TwoStageFPR, rec.TwoStageRerun = stats.TwoStageFPR(s.MeanLog, s.SDLog, s.Effective, rec.Floor, opt.RerunBand, 20000, opt.Seed)
		}
	}
	if p := rec.Cost.Predictive; p > 0 && p < 0.5 && s.SDLog > 0 {
		df := s.Effective.DF
		for _, slide := range []float64{0.95, 0.90} {
			for _, power := range []float64{0.5, 0.9} {
				m := math.Pow((stats.TQuantile(1-p, df)+stats.TQuantile(power, df))*s.SDLog*s.Effective.SDScale/math.Log(1/slide), 2)
				rec.Repetitions = append(rec.Repetitions, Repetition{Slide: slide, Power: power, M: max(1, int(math.Ceil(m)))})
			}
		}
	}
	if opt.Bootstrap > 0 {
		logs := make([]float64, len(a.Runs))
		for i, r := range a.Runs {
			logs[i] = r.LogScore
		}
		rec.Bootstrap = stats.BootstrapFloorFPR(logs, rec.Floor, opt.Bootstrap, opt.Seed)
	}
	if e := s.Effective; e.Rho > 0 {
		_, indep, _, _ := model.FloorFrom(s.Min, s.MeanLog, s.SDLog, stats.Independent(s.N), opt)
		rec.warn(calibrate.Warning{Kind: calibrate.WarnAutocorrelated, Figures: calibrate.EffectiveFigures{Rho: e.Rho, Runs: s.N, Effective: e.N, Independent: indep, Floor: rec.Floor, Step: opt.Step}})
	}
	if rec.Claim = ClaimCheck(s, rec.Cost.Claimed); rec.Claim != nil {
		rec.warn(calibrate.Warning{Kind: WarnClaimUnsure, Figures: *rec.Claim})
	}
	if rec.Floor < 1 {
		rec.warn(calibrate.Warning{Kind: calibrate.WarnFloorBelowOne, Figures: calibrate.FloorFigures{Floor: rec.Floor, Step: opt.Step, Min: s.Min}})
	}
	if len(s.Outliers) > 0 {
		out := map[string]bool{}
		for _, id := range s.Outliers {
			out[id] = true
		}
		var kept []float64
		for _, r := range a.Runs {
			if !out[r.ID] {
				kept = append(kept, r.Score)
			}
		}
		if _, f, _, err := model.FloorOf(kept, opt); err == nil {
			rec.WithoutOutliers = f
		}
		rec.warn(calibrate.Warning{Kind: calibrate.WarnOutliers, Runs: s.Outliers})
	}
	if rec.Floor > s.Min {
		rec.warn(calibrate.Warning{Kind: calibrate.WarnFloorAboveMin, Figures: calibrate.FloorFigures{Floor: rec.Floor, Step: opt.Step, Min: s.Min}})
	}
	return rec, nil
}

func (r *Recommendation) warn(w calibrate.Warning) { r.Warnings = append(r.Warnings, w) }

// Floor applies the options' method to the calibration: FloorOf on its
// scores.
func Floor(a *spread.Analysis, opt model.RecommendOptions) (raw, floor, k float64, err error) {
	return model.FloorOf(a.Scores(), opt)
}

// CheckUseful is CheckFloorUseful on the calibration's scores: a
// FloorTooLowError for a floor too far below them to be written.
func CheckUseful(a *spread.Analysis, floor float64, opt model.RecommendOptions) error {
	return model.CheckFloorUseful(a.Scores(), floor, opt)
}

// Cost computes what floor F costs for this calibration.
func Cost(a *spread.Analysis, floor float64, horizon int) FloorCost {
	s := a.Score
	scores := make([]float64, len(a.Runs))
	for i, r := range a.Runs {
		scores[i] = r.Score
	}
	c := FloorCost{
		Floor:            floor,
		BelowMinPct:      (s.Min - floor) / s.Min * 100,
		KObs:             stats.KObs(s.MeanLog, s.SDLog, floor),
		Predictive:       stats.TailPredictive(s.MeanLog, s.SDLog, s.Effective, floor, s.Tail.DF),
		Upper95:          upper95(s, floor),
		Plugin:           stats.FPRPlugin(s.MeanLog, s.SDLog, floor),
		DistributionFree: stats.DistributionFreeFPR(scores, floor),
		// The bound at the lowest run is the confidence 1 − (1 − p)^n that
		// the minimum covers p, solved for p.
		DistributionFreeUpper95: stats.DistributionFreeUpper(scores, floor, 0.95),
		HorizonRuns:             horizon,
		R50:                     stats.DetectPredictiveEff(s.MeanLog, s.SDLog, s.Effective, floor, 0.5),
		R90:                     stats.DetectPredictiveEff(s.MeanLog, s.SDLog, s.Effective, floor, 0.9),
	}
	if !(s.SDLog > 0) {
		// Scores that never varied give the log-normal model nothing to
		// fit: its rates would claim 0. Only the model-free bound holds.
		nan := math.NaN()
		c.Predictive, c.Upper95, c.Plugin, c.R90 = nan, nan, nan, nan
	}
	c.Claimed, c.ClaimedUpper95 = c.Predictive, c.Upper95
	if s.InDoubt() || !(s.SDLog > 0) {
		// Not normal: the model may understate the tail, so claim no less
		// than the model-free figures; no spread: the model has nothing to
		// say (its figures are NaN) and the model-free ones are the claim.
		c.Claimed, c.ClaimedUpper95 = maxKnown(c.Predictive, c.DistributionFree), maxKnown(c.Upper95, c.DistributionFreeUpper95)
	}
	c.RuleRate = math.NaN()
	c.Horizon = math.NaN()
	if s.SDLog > 0 {
		c.Horizon = stats.FalseAlarmHorizonEff(s.MeanLog, s.SDLog, s.Effective, floor, horizon)
	}
	c.HorizonFree = float64(horizon) / float64(s.N+horizon)
	c.SingleQ50 = math.Pow(c.R50, float64(len(a.Suite)))
	c.PairPredictive = stats.FPRPredictiveMean(s.MeanLog, s.SDLog, s.Effective, floor, 2)
	c.PairR90 = stats.DetectPredictiveMean(s.MeanLog, s.SDLog, s.Effective, floor, 0.9, 2)
	if !(s.SDLog > 0) {
		c.PairPredictive, c.PairR90 = math.NaN(), math.NaN()
	}
	for _, sc := range scores {
		if sc < floor {
			c.CalibrationBelow++
		}
	}
	return c
}

// setRule makes c, the cost of the floor the margin rule (opt.Margin,
// opt.Step) placed on a's runs, claim the rule's own rate
// (model.MarginRuleRate) instead of the predictive rate of the floor taken
// as given; when the model is in doubt, no less than the model-free
// figure, as Cost does for the predictive rate.
func (c *FloorCost) setRule(a *spread.Analysis, opt model.RecommendOptions) {
	c.RuleRate = model.MarginRuleRate(a.Scores(), opt.Margin, opt.Step, opt.Seed)
	if math.IsNaN(c.RuleRate) {
		return
	}
	c.Claimed = c.RuleRate
	if a.Score.InDoubt() {
		c.Claimed = maxKnown(c.RuleRate, c.DistributionFree)
	}
}

// upper95 is the 95% upper bound of a floor's true rate (docs/STATS.md
// 5d): the larger of two bounds, one for each way the log-normal model
// can understate the rate. The first allows for the autocorrelation of
// the runs the data cannot rule out (ρ one standard error above its
// estimate: UpperEffective) under the normal tail, at 95%; the second for
// the heaviest tail the runs do not rule out (Tail.DFLower, a one-sided
// 95% bound on 1/ν) with (μ, σ) at their 97.5% bound, since with a heavy
// tail the runs' SD is a poorer measure of σ than the normal model says.
func upper95(s spread.ScoreStats, floor float64) float64 {
	ar := stats.FPRUpperEff(s.MeanLog, s.SDLog, s.UpperEffective, floor, 0.95)
	lo := s.Tail.DFLower
	tail := stats.TailUpper(stats.FPRUpperEff(s.MeanLog, s.SDLog, s.Effective.Tail(lo), floor, 0.95), lo)
	return maxKnown(ar, tail)
}

// maxKnown is the larger of a and b, a NaN counting as unknown: the other
// is returned.
func maxKnown(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return math.Max(a, b)
}

// candidates lists floors from the recommendation up to the lowest
// observed score: the recommendation, the multiples of the candidate step
// above it, and the minimum itself (at most about a dozen rows).
//
// fc is the cost of the recommended floor, computed once (a cost's
// predictive bounds integrate numerically, and more slowly the more runs).
func candidates(a *spread.Analysis, fc FloorCost, opt model.RecommendOptions) []FloorCost {
	out := gridCandidates(a, fc, opt)
	out[0].Rule = opt.Method
	// The other default rule's floor, side by side: the margin rule's when
	// the floor came from a target, the target's otherwise.
	other := opt
	if opt.Method == model.MethodTargetFPR {
		other.Method = model.MethodMargin
	} else {
		other.Method = model.MethodTargetFPR
	}
	if _, f, _, err := Floor(a, other); err == nil && f > 0 {
		rule := other.Method
		// cost is the other floor's row, computed only when it is not in
		// the table already.
		cost := func() FloorCost {
			c := Cost(a, f, opt.Horizon)
			c.Rule = rule
			if rule == model.MethodMargin {
				c.setRule(a, other)
			}
			return c
		}
		placed := false
		for i := range out {
			if out[i].Floor == f {
				if out[i].Rule == "" {
					out[i].Rule = rule
					if rule == model.MethodMargin {
						out[i].setRule(a, other)
					}
				}
				placed = true
				break
			}
			if out[i].Floor > f {
				out = append(out[:i], append([]FloorCost{cost()}, out[i:]...)...)
				placed = true
				break
			}
		}
		if !placed {
			out = append(out, cost())
		}
	}
	return out
}

// gridCandidates are the floor (whose cost is fc) and snugger floors on
// the candidate grid up to the lowest score.
func gridCandidates(a *spread.Analysis, fc FloorCost, opt model.RecommendOptions) []FloorCost {
	min, floor := a.Score.Min, fc.Floor
	out := []FloorCost{fc}
	step := opt.CandidateStep
	if step <= 0 {
		return out
	}
	for (min-floor)/step > 12 {
		step *= 2
	}
	dec := model.StepDecimals(step)
	for i := stats.FloorSteps(floor, step) + 1; float64(i)*step < min-1e-9; i++ {
		out = append(out, Cost(a, roundTo(float64(i)*step, dec), opt.Horizon))
	}
	// The lowest score closes the table, unless it prints as the last
	// grid floor does (1.205 shown as 1.20 next to 1.20).
	last := out[len(out)-1].Floor
	if min > floor+1e-9 && model.FormatOnStep(min, opt.Step) != model.FormatOnStep(last, opt.Step) {
		out = append(out, Cost(a, min, opt.Horizon))
	}
	return out
}

func roundTo(x float64, dec int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', dec, 64), 64)
	return v
}

// CatchAll is the least strict floor on the step grid that every scored
// backtest run falls below (the grid value just above the highest of
// their scores), with its cost; ok is false without a scored run.
func CatchAll(a *spread.Analysis, runs []BacktestRun, opt model.RecommendOptions) (FloorCost, bool) {
	hi := math.Inf(-1)
	for _, r := range runs {
		if !math.IsNaN(r.Score) && r.Score > hi {
			hi = r.Score
		}
	}
	if math.IsInf(hi, -1) {
		return FloorCost{}, false
	}
	f := model.RoundDown(hi, opt.Step)
	for f <= hi {
		f = roundTo(f+opt.Step, model.StepDecimals(opt.Step))
	}
	return Cost(a, f, opt.Horizon), true
}

// BacktestRun is a run outside the calibration (a known regression, runs
// from another runner) scored on the calibrated suite against a floor, as
// the gate would score it.
type BacktestRun struct {
	ID    string
	Score float64 // NaN when the run lacks a suite benchmark
	// Below is whether the gate would have failed the run.
	Below bool
	// Missing are the suite benchmarks the run lacks: such a run is not
	// scored.
	Missing []string
}

// Backtest scores runs on a's suite, with a's variants, the direction dir
// and the metric, against floor.
func Backtest(a *spread.Analysis, floor float64, runs []data.Run, dir calibrate.Direction, metric string) ([]BacktestRun, error) {
	out := make([]BacktestRun, 0, len(runs))
	for i := range runs {
		rr, err := calibrate.Ratios(&runs[i], a.Baseline, a.Candidate, dir, metric)
		if err != nil {
			return nil, err
		}
		s := rr.ScoreOver(a.Suite)
		out = append(out, BacktestRun{ID: runs[i].ID, Score: s.Score, Below: s.Score < floor, Missing: s.Missing})
	}
	return out, nil
}
