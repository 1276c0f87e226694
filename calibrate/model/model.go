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

// Band is a benchmark's calibrated band: where its ratio lies on healthy
// runs, under the log-normal model of its own calibration values
// (docs/STATS.md 2.8).
type Band struct {
	Name string
	// N is the number of calibration runs; MeanLog and SDLog the mean and
	// n−1 SD of the benchmark's log ratio over them.
	N              int
	MeanLog, SDLog float64
	// Usual is the benchmark's median ratio over the calibration runs.
	Usual float64
	// Lower and Upper are the prediction bounds of its ratio at the level
	// alpha/k of the first step of Holm's procedure over the k suite
	// benchmarks: a healthy ratio falls below Lower with probability
	// alpha/k. NaN when the benchmark never varied.
	Lower, Upper float64
	// R50 is how far the benchmark alone must fall, as a factor of its
	// ratio, to be below its band half the time: Lower/exp(MeanLog).
	R50 float64
	// DF is the tail of the bands: the heaviest tail that every suite
	// benchmark's standardised log ratios, pooled, do not rule out
	// (Matrix.BandTail), +Inf for the normal.
	DF float64
}

// BandTail is the tail the bands use (docs/STATS.md 5d): the tail model
// fitted to the log ratios of every suite benchmark that varied, each
// standardised by its own mean and SD, pooled. A benchmark's band rests
// on n runs, too few to see its tail, but the suite's n·k standardised
// values see a shared heavy tail most of the time (t5 noise, 4 benchmarks,
// 30 runs: 120 values). The values of one run are correlated (a runner
// slows every benchmark), so the pool is worth fewer than n·k independent
// values, and the test favours a heavy tail somewhat more often than its
// level on normal noise: that widens the bands, which errs on the side of
// fewer false alarms.
//
// The bands take the heaviest tail within BandLowerCrit of the best fit
// (Tail.DFLower), not the one the pool favours: a band is set at the α/k
// quantile, far into the tail, and there a tail judged too light and a
// scale estimated from heavy-tailed values (whose SD is a poorer guide to
// σ) compound. On Student-t(5) noise (4 benchmarks, 30 runs) the favoured
// tail left the family-wise rate at 2.1% a side against the claimed 1%;
// this one gives 1.7%, and 0.8% on normal noise (Monte Carlo through the
// command, cmd/qoscal/claims_mc_test.go).
func (m *Matrix) BandTail() stats.Tail {
	var z []float64
	for j := range m.Benchmarks {
		col := m.column(j)
		mean, sd := stats.Mean(col), stats.SD(col)
		if !(sd > 0) {
			continue
		}
		for _, x := range col {
			z = append(z, (x-mean)/sd)
		}
	}
	return stats.FitTailAt(z, stats.TailCrit, BandLowerCrit)
}

// BandLowerCrit bounds the tails the bands take: the heaviest ν whose
// likelihood ratio against the best is at most χ²₁'s median (a 50%
// likelihood interval for 1/ν). With the one-sided 95% bound of the
// score's upper bound (stats.TailLowerCrit) the bands were wider than
// they need be on normal noise (0.4% a side against the claimed 1%);
// with the tail the pool favours, too narrow on Student-t(5) noise (2.1%).
const BandLowerCrit = 0.454936423119572

// scipy.stats.chi2.ppf(0.5, 1)

// Bands returns every benchmark's band for a family-wise false-positive
// rate of alpha per healthy run, in the matrix's benchmark order.
func (m *Matrix) Bands(alpha float64) []Band {
	return m.bandsWith(alpha, m.BandTail().DFLower)
}

// bandsWith is Bands under the tail with df degrees of freedom (+Inf: the
// normal).
func (m *Matrix) bandsWith(alpha, df float64) []Band {
	n, k := len(m.LogRatio), len(m.Benchmarks)
	out := make([]Band, k)
	// Every band's edge is its mean plus the same multiple of its SD: the
	// multiple is found once.
	var q float64
	if n >= 2 {
		q = stats.TailBound(0, 1, n, alpha/float64(k), df)
	}
	for j, name := range m.Benchmarks {
		col := m.column(j)
		b := Band{Name: name, N: n, MeanLog: stats.Mean(col), SDLog: stats.SD(col), Lower: math.NaN(), Upper: math.NaN(), R50: math.NaN(), DF: df}
		ratios := make([]float64, n)
		for i, x := range col {
			ratios[i] = math.Exp(x)
		}
		b.Usual = stats.Median(ratios)
		if b.SDLog > 0 && n >= 2 {
			if math.IsInf(df, 1) {
				b.Lower = stats.PredictionBound(b.MeanLog, b.SDLog, n, alpha/float64(k))
			} else {
				b.Lower = math.Exp(b.MeanLog + q*b.SDLog)
			}
			b.Upper = math.Exp(2*b.MeanLog) / b.Lower // the same distance above the mean, in log space
			b.R50 = b.Lower / math.Exp(b.MeanLog)
		}
		out[j] = b
	}
	return out
}

// BandJudgement is a run's benchmarks against their bands: those below
// and above, each found by Holm's step-down over the benchmarks judged, at
// the family-wise rate alpha per side.
type BandJudgement struct {
	Below, Above map[string]bool
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
		p := stats.PredictiveP(b.MeanLog, b.SDLog, b.N, x)
		var up float64
		if b.DF != 0 && !math.IsInf(b.DF, 1) {
			// The tail is symmetric: the chance of a value above x is that
			// of one below the mirror image, computed without 1 − p's
			// loss of digits.
			p, up = stats.TailP(b.MeanLog, b.SDLog, b.N, x, b.DF), stats.TailP(b.MeanLog, b.SDLog, b.N, 2*b.MeanLog-x, b.DF)
		} else {
			up = 1 - p // NaN stays NaN
		}
		names = append(names, b.Name)
		lower = append(lower, p)
		upper = append(upper, up)
	}
	j := BandJudgement{Below: map[string]bool{}, Above: map[string]bool{}, P: map[string]float64{}}
	lo, hi := stats.Holm(lower, alpha), stats.Holm(upper, alpha)
	for i, n := range names {
		j.P[n] = lower[i]
		if lo[i] {
			j.Below[n] = true
		}
		if hi[i] {
			j.Above[n] = true
		}
	}
	return j
}
