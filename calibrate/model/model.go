package model

import (
	"errors"
	"fmt"
	"math"

	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/stats"
)

// Matrix is the calibration as a model: for every calibration run and
// every suite benchmark, the log ratio ln r. From it the gate derives
// each benchmark's band and the floor of any sub-suite, by the same
// method as the calibrated floor. It is what the calibration file
// (version 2) carries.
type Matrix struct {
	Runs       []string    `json:"runs"`
	Benchmarks []string    `json:"benchmarks"`
	LogRatio   [][]float64 `json:"log_ratio"` // [run][benchmark]
}

// MatrixOf returns the analysis' matrix: its runs in order, its suite in
// order.
func MatrixOf(a *spread.Analysis) *Matrix {
	m := &Matrix{Benchmarks: append([]string(nil), a.Suite...)}
	for _, r := range a.Runs {
		m.Runs = append(m.Runs, r.ID)
		row := make([]float64, len(r.Ratios))
		for j, x := range r.Ratios {
			row[j] = math.Log(x)
		}
		m.LogRatio = append(m.LogRatio, row)
	}
	return m
}

// column returns the log ratios of benchmark j over the runs.
func (m *Matrix) column(j int) []float64 {
	c := make([]float64, len(m.LogRatio))
	for i, row := range m.LogRatio {
		c[i] = row[j]
	}
	return c
}

// index returns the column of each named benchmark, or an error naming
// one the matrix lacks.
func (m *Matrix) index(names []string) ([]int, error) {
	at := make(map[string]int, len(m.Benchmarks))
	for j, b := range m.Benchmarks {
		at[b] = j
	}
	idx := make([]int, len(names))
	for i, n := range names {
		j, ok := at[n]
		if !ok {
			return nil, fmt.Errorf("benchmark %s is not in the calibration's matrix", n)
		}
		idx[i] = j
	}
	return idx, nil
}

// Scores returns each calibration run's score over the sub-suite sub: the
// geomean of its ratios over those benchmarks, computed as ScoreOver
// computes a run's score, so that over the whole suite it is bit for bit
// the calibrated score.
func (m *Matrix) Scores(sub []string) ([]float64, error) {
	if len(sub) == 0 {
		return nil, errors.New("an empty sub-suite has no score")
	}
	idx, err := m.index(sub)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(m.LogRatio))
	logs := make([]float64, len(idx))
	for i, row := range m.LogRatio {
		for k, j := range idx {
			logs[k] = row[j]
		}
		out[i] = math.Exp(stats.Mean(logs))
	}
	return out, nil
}

// FloorOf applies a floor method to calibration scores: the method's raw
// bound, that bound rounded down to the step grid, and for the tolerance
// method its k factor. When the log-normal model of the scores is in
// doubt (ModelInDoubt), the target method's floor, whose guarantee rests
// on that model, is capped at the lowest score rounded down, where the
// model-free bound 1/(n+1) holds (docs/STATS.md 2.11). It is the one rule
// behind the recommended floor, the floor the calibration file's reader
// checks, and the gate's sub-suite floors (docs/STATS.md 2.9): each calls
// it on the same scores.
func FloorOf(scores []float64, opt RecommendOptions) (raw, floor, k float64, err error) {
	raw, floor, k, _, err = FloorWithCap(scores, opt)
	return raw, floor, k, err
}

// MinFloorShare is the lowest floor a model gives that a calibration may
// hold, as a share of its lowest calibration score (docs/STATS.md 2.11):
// a floor below half the lowest run passes a candidate more than twice as
// slow as every calibration run, which is no gate. The model methods
// (target-fpr, prediction, tolerance) put the floor that far down when the
// runs are too few to say where healthy runs end (two runs gave 0.01);
// the margin method puts it where its margin says, by the user's choice.
const MinFloorShare = 0.5

// CheckFloorUseful returns a FloorTooLowError when a floor that the
// method opt.Method gave on scores lies below MinFloorShare of the lowest
// of them, and nil otherwise or for the margin method. It sits beside
// FloorOf, and everything that takes a floor from FloorOf calls it on the
// same scores: recommend before it writes a file, the calibration file's
// reader, and the gate for the floor of a sub-suite.
func CheckFloorUseful(scores []float64, floor float64, opt RecommendOptions) error {
	if opt.Method == MethodMargin || len(scores) == 0 {
		return nil
	}
	lo, _ := stats.MinMax(scores)
	if floor >= MinFloorShare*lo {
		return nil
	}
	return &FloorTooLowError{Method: opt.Method, Floor: floor, Step: opt.Step, Lowest: lo, Runs: len(scores)}
}

// FloorWithCap is FloorOf, and says whether the cap lowered the floor.
func FloorWithCap(scores []float64, opt RecommendOptions) (raw, floor, k float64, capped bool, err error) {
	if len(scores) < 2 {
		return 0, 0, 0, false, fmt.Errorf("a floor needs at least 2 calibration scores, got %d", len(scores))
	}
	logs, err := stats.Logs(scores)
	if err != nil {
		return 0, 0, 0, false, err
	}
	lo, _ := stats.MinMax(scores)
	r, se := stats.Lag1Autocorrelation(logs)
	m, s := stats.Mean(logs), stats.SD(logs)
	if raw, floor, k, err = FloorFrom(lo, m, s, stats.AR1(len(scores), stats.ShrinkRho(r, se, len(scores))), opt); err != nil {
		return 0, 0, 0, false, err
	}
	if opt.Method == MethodTargetFPR {
		_, p, err := stats.ShapiroWilk(logs)
		if err != nil {
			p = math.NaN()
		}
		tail := stats.NormalTail
		if s >= spread.NoSpreadSD {
			tail = stats.FitTail(logs)
		}
		if spread.ModelInDoubt(p, tail) {
			if c := RoundDown(lo, opt.Step); c < floor {
				floor, capped = c, true
			}
		}
	}
	return raw, floor, k, capped, nil
}

// FloorFrom is FloorOf on the summary of the scores: the lowest, the mean
// and n−1 SD of their logs, and the effective model of the runs (their
// number, or fewer when they are autocorrelated: docs/STATS.md 5b).
func FloorFrom(lo, meanLog, sdLog float64, e stats.Effective, opt RecommendOptions) (raw, floor, k float64, err error) {
	n := int(math.Round(e.DF + 1))
	switch opt.Method {
	case MethodTargetFPR:
		// The predictive rate of a floor F is T_{n−1}((ln F − m)/(s·√(1+1/n)))
		// (STATS.md 2.5), which equals the target exactly at the prediction
		// bound at alpha = target; rounding down keeps it at most the target.
		raw = stats.PredictionBoundEff(meanLog, sdLog, e, opt.TargetFPR)
	case MethodMargin:
		raw = lo * (1 - opt.Margin)
	case MethodPrediction:
		raw = stats.PredictionBoundEff(meanLog, sdLog, e, opt.Alpha)
	case MethodTolerance:
		if k, err = stats.ToleranceK(n, opt.Coverage, opt.Confidence); err != nil {
			return 0, 0, 0, err
		}
		raw = math.Exp(meanLog - k*sdLog)
	default:
		return 0, 0, 0, fmt.Errorf("unknown method %q", opt.Method)
	}
	if math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 0, 0, 0, fmt.Errorf("the %s method gives no floor for these scores (%v)", opt.Method, raw)
	}
	return raw, RoundDown(raw, opt.Step), k, nil
}

// DefaultFamilyAlpha is the family-wise false-positive rate per healthy
// run of the per-benchmark bands.
const DefaultFamilyAlpha = 0.01

// AdvisoryFamilyAlpha is the family-wise rate per healthy run of the
// bands' advisory level: a benchmark below its band at this looser rate,
// but not at the failing rate, is named as advisory (it fails nothing).
// It applies when the failing rate is below it.
const AdvisoryFamilyAlpha = 0.05

// Band is a benchmark's calibrated band: where its ratio lies on healthy
// runs, under the log-normal model of its calibration values with its
// scale moderated toward the suite's (docs/STATS.md 2.8).
type Band struct {
	Name string
	// N is the number of calibration runs; MeanLog and SDLog the mean and
	// n−1 SD of the benchmark's log ratio over them.
	N              int
	MeanLog, SDLog float64
	// SDPost is the moderated SD the band uses: the benchmark's variance
	// shrunk toward the suite's pooled one, (d0·s0² + d·s²)/(d0 + d)
	// (Smyth 2004), on DFPost = d0 + d degrees of freedom, d the tail's
	// allowance for n − 1 (stats.Effective.Tail). PriorDF is d0, the
	// worth of the suite's variance in runs' degrees of freedom, fitted
	// across the suite (0: none, every band on its own SD).
	SDPost, DFPost, PriorDF float64
	// Usual is the benchmark's median ratio over the calibration runs.
	Usual float64
	// Lower and Upper are the prediction bounds of its ratio at the level
	// alpha/k of the first step of Holm's procedure over the k suite
	// benchmarks: a healthy ratio falls below Lower with probability
	// alpha/k. NaN when the benchmark never varied.
	Lower, Upper float64
	// Advisory is the lower bound at AdvisoryFamilyAlpha/k, the advisory
	// level's edge; NaN when the benchmark never varied or the failing
	// rate is not below AdvisoryFamilyAlpha.
	Advisory float64
	// R50 is how far the benchmark alone must fall, as a factor of its
	// ratio, to be below its band half the time: Lower/exp(MeanLog).
	R50 float64
	// DF is the tail of the bands: the heaviest tail that every suite
	// benchmark's standardised log ratios, pooled, do not rule out
	// (Matrix.BandTail), +Inf for the normal.
	DF float64
}

// effective is the model of the band's parameters: the mean over N runs,
// the scale on DFPost degrees of freedom.
func (b Band) effective() stats.Effective {
	return stats.Effective{N: float64(b.N), DF: b.DFPost, SDScale: 1}
}

// P is the predictive chance that a healthy log ratio falls below x.
func (b Band) P(x float64) float64 {
	return stats.PredictivePEff(b.MeanLog, b.SDPost, b.effective(), x, b.DF)
}

// BandTail is the tail model fitted to the pooled deleted residuals of
// every suite benchmark that varied (docs/STATS.md 2.8 and 5d); the bands
// take the tail it favours (Tail.DF). A benchmark's band rests on n runs,
// too few to see its tail, but the suite's n·k values see a shared heavy
// tail. Values standardised by their own column's mean and SD cannot
// show one at n = 10 (none lies beyond (n − 1)/√n = 2.85 SDs): the pool
// called Student-t(5) noise normal in a quarter of calibrations, and the
// bands flagged 3.4% of healthy runs against the claimed 1% (10
// benchmarks, 10 runs). Deleted residuals keep a far value far: on the
// same suites the family-wise rate is 1.7% on t5 noise and 0.96% on
// normal noise (calibrate/model/borrow_test.go). The values of one run
// are correlated (a runner slows every benchmark), so the pool is worth
// fewer than n·k independent values and favours a heavy tail somewhat
// more often than its level: that widens the bands, on the side of fewer
// false alarms.
func (m *Matrix) BandTail() stats.Tail {
	var z []float64
	for j := range m.Benchmarks {
		col := m.column(j)
		if !(stats.SD(col) > 0) {
			continue
		}
		z = append(z, deletedResiduals(col)...)
	}
	return stats.FitTailAt(z, stats.TailCrit, BandLowerCrit)
}

// deletedResiduals are a column's values each standardised by the mean
// and SD of the others, (x_i − m_(i))/(s_(i)·sqrt(1 + 1/(n−1))): unlike a
// value standardised by an SD that includes it (at most (n−1)/√n SDs
// from the mean, 2.85 at n = 10), a far value stays far, so that n = 10
// runs can show a heavy tail. Under normal noise they are Student-t on
// n − 2 degrees of freedom; nothing for fewer than 4 values, or when the
// others never varied.
func deletedResiduals(col []float64) []float64 {
	n := len(col)
	if n < 4 {
		return nil
	}
	var out []float64
	rest := make([]float64, 0, n-1)
	for i, x := range col {
		rest = append(rest[:0], col[:i]...)
		rest = append(rest, col[i+1:]...)
		if sd := stats.SD(rest); sd > 0 {
			out = append(out, (x-stats.Mean(rest))/(sd*math.Sqrt(1+1/float64(n-1))))
		}
	}
	return out
}

// BandLowerCrit is the likelihood-ratio distance of BandTail's DFLower,
// the heaviest ν within χ²₁'s median of the best fit (a 50% likelihood
// interval for 1/ν). The bands took that tail when they pooled
// self-standardised values; on deleted residuals, which under normal
// noise are already Student-t on n − 2, it made them too wide (0.47%
// family-wise against the claimed 1% on normal noise, 10 benchmarks, 10
// runs), and they take the favoured tail. DFLower is reported only.
const BandLowerCrit = 0.454936423119572

// scipy.stats.chi2.ppf(0.5, 1)

// Bands returns every benchmark's band for a family-wise false-positive
// rate of alpha per healthy run, in the matrix's benchmark order.
func (m *Matrix) Bands(alpha float64) []Band {
	return m.bandsWith(alpha, m.BandTail().DF)
}

// bandsWith is Bands under the tail with df degrees of freedom (+Inf: the
// normal). The scales borrow strength across the suite (docs/STATS.md
// 2.8): the benchmarks' variances, each on d degrees of freedom (n − 1,
// less the tail's allowance), are fitted a scaled inverse-χ² prior
// (stats.FitVariancePrior), whose worth d0 is capped at the other
// benchmarks' (k − 1)·d: the suite cannot say more than all its runs.
func (m *Matrix) bandsWith(alpha, df float64) []Band {
	n, k := len(m.LogRatio), len(m.Benchmarks)
	out := make([]Band, k)
	var d float64
	if n >= 2 {
		d = stats.Independent(n).Tail(df).DF
	}
	var s2 []float64
	for j := range m.Benchmarks {
		if sd := stats.SD(m.column(j)); sd > 0 {
			s2 = append(s2, sd*sd)
		}
	}
	var prior stats.VariancePrior
	if n >= 2 && len(s2) >= 3 {
		// Fewer than three variances cannot tell their spread from their
		// sampling error.
		prior = stats.FitVariancePrior(s2, d)
		if lim := float64(len(s2)-1) * d; prior.D0 > lim {
			prior.D0 = lim
		}
	}
	advisory := alpha < AdvisoryFamilyAlpha
	for j, name := range m.Benchmarks {
		col := m.column(j)
		b := Band{Name: name, N: n, MeanLog: stats.Mean(col), SDLog: stats.SD(col), Lower: math.NaN(), Upper: math.NaN(), Advisory: math.NaN(), R50: math.NaN(), DF: df}
		ratios := make([]float64, n)
		for i, x := range col {
			ratios[i] = math.Exp(x)
		}
		b.Usual = stats.Median(ratios)
		if b.SDLog > 0 && n >= 2 {
			post, dfPost := prior.Moderate(b.SDLog*b.SDLog, d)
			b.SDPost, b.DFPost, b.PriorDF = math.Sqrt(post), dfPost, dfPost-d
			e := b.effective()
			b.Lower = math.Exp(stats.TailBoundEff(b.MeanLog, b.SDPost, e, alpha/float64(k), df))
			b.Upper = math.Exp(2*b.MeanLog) / b.Lower // the same distance above the mean, in log space
			b.R50 = b.Lower / math.Exp(b.MeanLog)
			if advisory {
				b.Advisory = math.Exp(stats.TailBoundEff(b.MeanLog, b.SDPost, e, AdvisoryFamilyAlpha/float64(k), df))
			}
		}
		out[j] = b
	}
	return out
}

// BandJudgement is a run's benchmarks against their bands: those below
// and above, each found by Holm's step-down over the benchmarks judged, at
// the family-wise rate alpha per side, and those below at the advisory
// rate (AdvisoryFamilyAlpha) but not at alpha.
type BandJudgement struct {
	Below, Above, Advisory map[string]bool
	// P are the predictive lower-tail p-values, by benchmark.
	P map[string]float64
}

// JudgeBands judges a run's log ratios (by benchmark; only those given
// are judged, so a partial run is a smaller family) against the bands.
func JudgeBands(bands []Band, logRatio map[string]float64, alpha float64) BandJudgement {
	var names []string
	var lower, upper []float64
	for _, b := range bands {
		x, ok := logRatio[b.Name]
		if !ok {
			continue
		}
		var p, up float64
		if b.SDPost > 0 {
			// The tail is symmetric: the chance of a value above x is that
			// of one below the mirror image, computed without 1 − p's
			// loss of digits.
			p, up = b.P(x), b.P(2*b.MeanLog-x)
		} else {
			p, up = math.NaN(), math.NaN()
		}
		names = append(names, b.Name)
		lower = append(lower, p)
		upper = append(upper, up)
	}
	j := BandJudgement{Below: map[string]bool{}, Above: map[string]bool{}, Advisory: map[string]bool{}, P: map[string]float64{}}
	lo, hi := stats.Holm(lower, alpha), stats.Holm(upper, alpha)
	var adv []bool
	if alpha < AdvisoryFamilyAlpha {
		adv = stats.Holm(lower, AdvisoryFamilyAlpha)
	}
	for i, n := range names {
		j.P[n] = lower[i]
		if lo[i] {
			j.Below[n] = true
		} else if adv != nil && adv[i] {
			j.Advisory[n] = true
		}
		if hi[i] {
			j.Above[n] = true
		}
	}
	return j
}
