package spread

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// MinCalibrationRuns is the fewest calibration runs a floor rests on, by
// every method: Analyze refuses fewer, so recommend never writes a file
// from fewer, and the reader refuses one that says fewer, whose floor no
// matrix could check (one score has no spread to put a floor below).
const MinCalibrationRuns = 2

// Scores returns the calibration runs' scores, in run order.
func (a *Analysis) Scores() []float64 {
	out := make([]float64, len(a.Runs))
	for i, r := range a.Runs {
		out[i] = r.Score
	}
	return out
}

// Options say how to analyse calibration runs. The zero value is the
// default: roles as recorded in the runs, direction from the units, runs
// missing a suite benchmark left out.
type Options struct {
	// Baseline and Candidate name the compared variants; empty takes the
	// roles recorded in the runs (at ingest, or by a CSV's role column).
	Baseline, Candidate string
	// Direction overrides the direction the units give.
	Direction calibrate.Direction
	// Metric selects one of several metrics per benchmark (see Ratios).
	Metric string
	// AllowPartial makes the suite the benchmarks common to all runs
	// (with a warning listing those dropped) instead of leaving out runs
	// that lack a benchmark the others have.
	AllowPartial bool
	// Seed seeds the permutation test of the change points (default 1).
	Seed uint64
	// NoRegimes skips the change-point search: for simulations that need
	// only the score distribution. Regimes is then one regime of all runs.
	NoRegimes bool
}

// RunScore is one calibration run's score and the ratios behind it.
type RunScore struct {
	ID     string
	Labels map[string]string
	// Score is the geomean of Ratios; LogScore its natural log.
	Score, LogScore float64
	// Ratios, Baseline and Candidate are in suite order.
	Ratios, Baseline, Candidate []float64
}

// ScoreStats describe the distribution of run scores.
type ScoreStats struct {
	N                      int
	Min, Median, Mean, Max float64
	GeoMean, GSD           float64
	// CILow and CIHigh are the t interval at CILevel (0.95) of the
	// typical score, exp(m ± t·s/√n) (STATS.md 1.3).
	CILow, CIHigh, CILevel float64
	RangePct, CV           float64
	// MeanLog (m), SDLog (s, n−1 divisor), MedianLog and MADLog (scaled)
	// describe the log scores; VarLog = s².
	MeanLog, SDLog, MedianLog, MADLog, VarLog float64
	// OutlierZ are the runs' robust z-scores in log space; Outliers the
	// ids of runs with |z| > OutlierZ.
	OutlierZ              []float64
	Outliers              []string
	LowestRun, HighestRun string
	// ShapiroW and ShapiroP are the Shapiro–Wilk test of normality of the
	// log scores (Royston's AS R94; NaN when it cannot be computed), and
	// Lag1 and Lag1SE the lag-1 autocorrelation of the log scores in run
	// order with its null standard error 1/√n (docs/STATS.md 5a).
	ShapiroW, ShapiroP float64
	Lag1, Lag1SE       float64
	// Effective is the model the predictive figures use: the runs'
	// number, or fewer when they are significantly autocorrelated
	// (docs/STATS.md 5b).
	Effective stats.Effective
	// UpperEffective is the model the 95% upper bound of the true rate
	// uses: ρ one standard error above its bias-corrected estimate when
	// that is significant, so that the bound allows for how poorly a few
	// runs estimate ρ (stats.AR1Upper).
	UpperEffective stats.Effective
	// Tail is what the log scores say about their tail: the tail they
	// favour and the heaviest they do not rule out (docs/STATS.md 5d).
	Tail stats.Tail
	// NextBelowMin is 1/(n+1): the chance, with no model, that the next
	// healthy run scores below the lowest of these n (STATS.md 2.2).
	NextBelowMin float64
}

// InDoubt reports whether the log-normal model of the scores is in doubt:
// they fail the Shapiro–Wilk check, or favour a heavier tail than the
// normal (ModelInDoubt).
func (s *ScoreStats) InDoubt() bool { return ModelInDoubt(s.ShapiroP, s.Tail) }

// ModelInDoubt is the one rule for when the log-normal model of the
// scores is in doubt: the log scores fail the Shapiro–Wilk check at
// NormalityAlpha (a mixture, a skew), or the tail model favours a heavier
// tail than the normal (docs/STATS.md 5d). The target floor is then
// capped at the lowest calibration run, and the claimed rates are no
// lower than the model-free ones.
func ModelInDoubt(shapiroP float64, tail stats.Tail) bool {
	return shapiroP < NormalityAlpha || !tail.Normal()
}

// BenchmarkSpread is one benchmark's spread across the calibration runs.
type BenchmarkSpread struct {
	Name      string
	Unit      string
	Direction calibrate.Direction
	Min, Median, Max,
	RangePct, CV float64 // of the ratio
	CVLog    float64 // SD of the log ratio
	IQR, MAD float64 // type 7 IQR and scaled MAD of the ratio
	Q1, Q3   float64 // type 7 quartiles of the ratio
	// Contribution is the benchmark's part of Var(ln score): its row sum
	// of the covariance matrix of log ratios over k² (docs/STATS.md 3.2). The
	// contributions add up to the variance of the log scores;
	// VarianceShare is Contribution over that total (NaN if it is 0).
	Contribution, VarianceShare float64
	// LOOScore is the median over runs of the score without this
	// benchmark (NaN for a one-benchmark suite).
	LOOScore float64
	// Regimes are the stretches of runs between change points of the
	// benchmark's ratio, in run order (one when it never changed).
	Regimes []calibrate.Regime
}

// RawSpread is the spread of one benchmark's raw baseline values across
// runs: what a runner-health check compares a new run's baseline with.
type RawSpread struct {
	Name              string
	Unit              string
	Median, Min, Max  float64
	CV, RangePct      float64
	MedianLog, MADLog float64 // location and robust spread in log space
}

// Excluded is a run left out of the score distribution.
type Excluded struct {
	ID      string
	Missing []string
}

// Analysis is the calibration analysis of a set of runs of unchanged code.
type Analysis struct {
	Baseline, Candidate string
	Suite               []string // sorted benchmark names
	Units               map[string]string
	Directions          map[string]calibrate.Direction
	Runs                []RunScore // the runs in the distribution, in input order
	Excluded            []Excluded
	Dropped             []string // benchmarks left out of the suite
	Score               ScoreStats
	Benchmarks          []BenchmarkSpread // noisiest (largest share) first
	BaselineSpread      []RawSpread       // suite order
	// Regimes are the stretches of runs between change points of the
	// score, in run order (one when the score never changed).
	Regimes []calibrate.Regime
	// Variance is the variance components of the log score, for runs
	// measured with repetitions (two or more runs, and some run with two
	// or more repetitions); nil otherwise.
	Variance *VarianceModel
	Warnings []calibrate.Warning
}

// Thresholds used for warnings.
const (
	// FewRuns is the number of runs below which the analysis warns that
	// the data are thin.
	FewRuns = 10
	// OutlierZ is the robust z (log space) beyond which a run's score is
	// an outlier: the modified z-score cut-off of Iglewicz and Hoaglin.
	OutlierZ = 3.5
	// NoisyFactor: a benchmark whose ratio range (% of median) is this
	// many times the score's range is flagged as noisy.
	NoisyFactor = 3.0
	// NormalityAlpha is the level of the Shapiro–Wilk check of the log
	// scores.
	NormalityAlpha = 0.05
	// NoSpreadSD is the SD of the log scores below which the scores count
	// as equal: a relative spread of one part in a million is what
	// rounding inputs to six or seven significant digits leaves, and no
	// real benchmark score is that steady.
	NoSpreadSD = 1e-6
)

// Analyze computes the score distribution and per-benchmark spread of
// calibration runs. It needs at least 2 runs with the whole suite. It is
// Collect and Collected.Analyze of every run: a caller that reads its
// runs one at a time (from a store, say) calls those instead, so as never
// to hold every run's measurements.
func Analyze(runs []data.Run, opt Options) (*Analysis, error) {
	c, err := Collect(each(runs), opt)
	if err != nil {
		return nil, err
	}
	return c.Analyze(nil)
}

// Analyze analyses the collected runs for which keep is true (every run
// when keep is nil), in the order they were collected, as the package's
// Analyze analyses a slice of those runs: the suite, the warnings and
// every statistic are of these runs alone. It can be called again, on
// another selection (a window of the runs).
func (c *Collected) Analyze(keep func(id string) bool) (*Analysis, error) {
	runs := c.runs
	if keep != nil {
		runs = nil
		for i := range c.runs {
			if keep(c.runs[i].id) {
				runs = append(runs, c.runs[i])
			}
		}
	}
	if len(runs) == 0 {
		return nil, errors.New("no runs to analyse")
	}
	base, cand := c.base, c.cand
	a := &Analysis{Baseline: base, Candidate: cand, Units: map[string]string{}, Directions: map[string]calibrate.Direction{}}
	// Counted by benchmark id over every row, and put into the maps by
	// name once per benchmark (names and ids are one to one): a map
	// update per row was a tenth of the analysis at 100,000 runs. A
	// benchmark's direction is the one its last row gives, as before.
	byID := make([]int, len(c.names))
	lastDir := make([]int8, len(c.names))
	for i := range runs {
		for _, r := range runs[i].rows {
			byID[r.id]++
			lastDir[r.id] = r.dir
		}
	}
	count := map[string]int{}
	for id, n := range byID {
		if n > 0 {
			name := c.names[id]
			count[name] = n
			a.Units[name] = c.units[id]
			a.Directions[name] = calibrate.Direction(lastDir[id])
		}
	}
	a.Suite, a.Dropped = calibrate.SuiteOf(count, len(runs), c.opt.AllowPartial)
	if len(a.Suite) == 0 {
		return nil, fmt.Errorf("no benchmark is measured by both %s and %s in every run", base, cand)
	}
	if len(a.Dropped) > 0 {
		if c.opt.AllowPartial {
			a.warn(calibrate.Warning{Kind: calibrate.WarnCommonSuite, Benchmarks: a.Dropped, Figures: calibrate.SuiteFigures{Suite: len(a.Suite)}})
		} else {
			in := make([]int, len(a.Dropped))
			for i, name := range a.Dropped {
				in[i] = count[name]
			}
			a.warn(calibrate.Warning{Kind: calibrate.WarnDroppedBench, Benchmarks: a.Dropped, Figures: calibrate.DroppedFigures{In: in, Runs: len(runs)}})
		}
	}
	k := len(a.Suite)
	pos := make([]int, len(c.names)) // benchmark id -> its place in the suite, or -1
	for id := range pos {
		pos[id] = -1
	}
	for j, name := range a.Suite {
		pos[c.ids[name]] = j
	}
	a.Runs = make([]RunScore, 0, len(runs))
	inSuite := make([]ratioRow, k)
	has := make([]bool, k)
	ratio := func(j int) (float64, bool) { return inSuite[j].ratio, has[j] }
	var logs []float64
	for i := range runs {
		id := runs[i].id
		clear(has)
		for _, r := range runs[i].rows {
			if j := pos[r.id]; j >= 0 {
				inSuite[j], has[j] = r, true
			}
		}
		var sc calibrate.SuiteScore
		sc, logs = calibrate.ScoreOver(id, a.Suite, ratio, logs)
		if missing := sc.Missing; len(missing) > 0 {
			a.Excluded = append(a.Excluded, Excluded{ID: id, Missing: missing})
			a.warn(calibrate.Warning{Kind: calibrate.WarnRunExcluded, Run: id, Benchmarks: missing})
			continue
		}
		rs := RunScore{ID: id, Labels: runs[i].labels, LogScore: sc.LogScore, Score: sc.Score}
		// One array holds the run's ratios, baseline and candidate values.
		vals := make([]float64, 3*k)
		rs.Ratios, rs.Baseline, rs.Candidate = vals[:k:k], vals[k:2*k:2*k], vals[2*k:]
		for j := range a.Suite {
			r := &inSuite[j]
			rs.Ratios[j], rs.Baseline[j], rs.Candidate[j] = r.ratio, r.base, r.cand
		}
		a.Runs = append(a.Runs, rs)
	}
	if len(a.Runs) < MinCalibrationRuns {
		return nil, fmt.Errorf("only %d run with the whole suite: a spread needs at least %d runs of unchanged code (to judge one run, use qoscal gate)", len(a.Runs), MinCalibrationRuns)
	}
	a.varianceComponents(runs, pos)
	a.scoreStats()
	a.benchmarkSpread()
	seed := c.opt.Seed
	if seed == 0 {
		seed = 1
	}
	if c.opt.NoRegimes {
		a.Regimes = []calibrate.Regime{{First: a.Runs[0].ID, Last: a.Runs[len(a.Runs)-1].ID, N: len(a.Runs), Median: a.Score.Median}}
	} else {
		a.findRegimes(seed)
	}
	a.baselineSpread()
	a.weakDataWarnings()
	return a, nil
}

// ratioRow is one benchmark of one collected run: the benchmark's id
// (Collected.names), its direction, its ratio and the variants' values, in
// 32 bytes: not a map per run, nor a BenchmarkRatio (80 bytes).
type ratioRow struct {
	id                int32
	dir               int8 // the Direction of the benchmark in the run
	ratio, base, cand float64
}

func (a *Analysis) warn(w calibrate.Warning) { a.Warnings = append(a.Warnings, w) }

func (a *Analysis) scoreStats() {
	scores := make([]float64, len(a.Runs))
	logs := make([]float64, len(a.Runs))
	for i, r := range a.Runs {
		scores[i], logs[i] = r.Score, r.LogScore
	}
	s := &a.Score
	s.N = len(scores)
	s.Min, s.Max = stats.MinMax(scores)
	s.Median, s.Mean = stats.Median(scores), stats.Mean(scores)
	s.MeanLog, s.SDLog, s.MedianLog = stats.Mean(logs), stats.SD(logs), stats.Median(logs)
	if s.SDLog < NoSpreadSD {
		// Scores equal up to the rounding of their inputs: no spread to
		// fit, rather than a spread of rounding errors that every model
		// figure would then take at face value.
		s.SDLog = 0
	}
	s.VarLog = s.SDLog * s.SDLog
	s.MADLog = stats.MAD(logs)
	s.GeoMean, s.GSD = math.Exp(s.MeanLog), math.Exp(s.SDLog)
	s.CILevel = 0.95
	s.CILow, s.CIHigh, _ = stats.GeoMeanCI(scores, s.CILevel)
	s.RangePct, s.CV = stats.RangePct(scores), stats.CV(scores)
	s.NextBelowMin = 1 / float64(s.N+1)
	var err error
	if s.ShapiroW, s.ShapiroP, err = stats.ShapiroWilk(logs); err != nil {
		s.ShapiroW, s.ShapiroP = math.NaN(), math.NaN()
	}
	s.Lag1, s.Lag1SE = stats.Lag1Autocorrelation(logs)
	s.Effective = stats.AR1(s.N, stats.ShrinkRho(s.Lag1, s.Lag1SE, s.N))
	s.UpperEffective = stats.AR1Upper(s.N, s.Lag1, s.Lag1SE)
	s.Tail = stats.NormalTail
	if s.SDLog > 0 {
		s.Tail = stats.FitTail(logs)
	}
	lo, hi := 0, 0
	for i := range scores {
		if scores[i] < scores[lo] {
			lo = i
		}
		if scores[i] > scores[hi] {
			hi = i
		}
	}
	s.LowestRun, s.HighestRun = a.Runs[lo].ID, a.Runs[hi].ID
	s.OutlierZ = stats.RobustZ(logs)
	for i, z := range s.OutlierZ {
		if s.SDLog > 0 && math.Abs(z) > OutlierZ {
			s.Outliers = append(s.Outliers, a.Runs[i].ID)
		}
	}
}

func (a *Analysis) benchmarkSpread() {
	k := len(a.Suite)
	n := len(a.Runs)
	cols := make([][]float64, k)    // ratios
	logCols := make([][]float64, k) // log ratios
	for j := range a.Suite {
		cols[j] = make([]float64, n)
		logCols[j] = make([]float64, n)
		for i, r := range a.Runs {
			cols[j][i] = r.Ratios[j]
			logCols[j][i] = math.Log(r.Ratios[j])
		}
	}
	// Var(ln S) = (1/k²) Σ_j Σ_i Σ_ij; contribution c_j = row sum / k².
	// The covariance is symmetric bit for bit (stats.Covariance sums the
	// same products either way round), so each pair is computed once.
	cov := make([]float64, k*k)
	for j := 0; j < k; j++ {
		for i := j; i < k; i++ {
			cov[j*k+i] = stats.Covariance(logCols[j], logCols[i])
			cov[i*k+j] = cov[j*k+i]
		}
	}
	contrib := make([]float64, k)
	var total float64
	for j := 0; j < k; j++ {
		for i := 0; i < k; i++ {
			contrib[j] += cov[j*k+i]
		}
		contrib[j] /= float64(k * k)
		total += contrib[j]
	}
	sumLogs := make([]float64, n)
	for i, r := range a.Runs {
		sumLogs[i] = r.LogScore * float64(k)
	}
	a.Benchmarks = make([]BenchmarkSpread, k)
	// One buffer for the leave-one-out scores, reused: not an n-value
	// copy per benchmark.
	loo := make([]float64, n)
	for j, name := range a.Suite {
		b := BenchmarkSpread{Name: name, Unit: a.Units[name], Direction: a.Directions[name]}
		// The order statistics select what they need from the column in
		// run order (stats.Quantile), cheaper than sorting it; the mean
		// and SD see it in run order too, which their sums depend on.
		col := cols[j]
		o := stats.Order(col)
		b.Min, b.Max, b.Median = o.Min, o.Max, o.Median
		b.RangePct, b.CV = o.RangePct(), stats.CV(col)
		b.CVLog = stats.SD(logCols[j])
		b.IQR, b.MAD = o.IQR(), stats.MADAbout(col, o.Median)
		b.Q1, b.Q3 = o.Q1, o.Q3
		b.Contribution = contrib[j]
		b.VarianceShare = math.NaN()
		if total > 0 && a.Score.SDLog > 0 {
			b.VarianceShare = contrib[j] / total
		}
		b.LOOScore = math.NaN()
		if k > 1 {
			for i := range a.Runs {
				loo[i] = math.Exp((sumLogs[i] - logCols[j][i]) / float64(k-1))
			}
			b.LOOScore = stats.Median(loo)
		}
		a.Benchmarks[j] = b
	}
	sort.SliceStable(a.Benchmarks, func(x, y int) bool {
		bx, by := a.Benchmarks[x], a.Benchmarks[y]
		if bx.Contribution != by.Contribution {
			return bx.Contribution > by.Contribution
		}
		return bx.Name < by.Name
	})
}

func (a *Analysis) baselineSpread() {
	a.BaselineSpread = make([]RawSpread, len(a.Suite))
	col := make([]float64, len(a.Runs)) // reused: no statistic keeps it
	for j, name := range a.Suite {
		for i, r := range a.Runs {
			col[i] = r.Baseline[j]
		}
		rs := RawSpread{Name: name, Unit: a.Units[name]}
		rs.CV = stats.CV(col) // in run order, as its sums depend on it
		logs, _ := stats.Logs(col)
		o := stats.Order(col)
		rs.Min, rs.Max = o.Min, o.Max
		rs.Median, rs.RangePct = o.Median, o.RangePct()
		rs.MedianLog = stats.Median(logs)
		rs.MADLog = stats.MADAbout(logs, rs.MedianLog)
		a.BaselineSpread[j] = rs
	}
}

func (a *Analysis) weakDataWarnings() {
	s := &a.Score
	if !(s.SDLog > 0) {
		a.warn(calibrate.Warning{Kind: calibrate.WarnNoSpread, Figures: calibrate.NoSpreadFigures{Runs: s.N, Score: s.Min}})
	}
	if s.ShapiroP < NormalityAlpha {
		a.warn(calibrate.Warning{Kind: calibrate.WarnNotNormal, Figures: calibrate.NormalityFigures{W: s.ShapiroW, P: s.ShapiroP}})
	}
	if !s.Tail.Normal() {
		a.warn(calibrate.Warning{Kind: calibrate.WarnHeavyTail, Figures: calibrate.TailFigures{DF: s.Tail.DF, LR: s.Tail.LR}})
	}
	if s.Lag1 > 2*s.Lag1SE {
		a.warn(calibrate.Warning{Kind: calibrate.WarnAutocorrelated, Figures: calibrate.LagFigures{Lag1: s.Lag1, SE: s.Lag1SE}})
	}
	if s.N < FewRuns {
		a.warn(calibrate.Warning{Kind: calibrate.WarnFewRuns, Figures: calibrate.FewRunsFigures{Runs: s.N, Enough: FewRuns}})
	}
	for i, r := range a.Runs {
		if z := s.OutlierZ[i]; s.SDLog > 0 && math.Abs(z) > OutlierZ {
			a.warn(calibrate.Warning{Kind: calibrate.WarnOutlierRun, Run: r.ID, Figures: calibrate.OutlierFigures{Score: r.Score, Z: z, Cut: OutlierZ}})
		}
	}
	if s.RangePct > 0 && s.SDLog > 0 {
		var noisy []calibrate.NoisyRange
		var noisyNames []string
		for _, b := range a.Benchmarks {
			if f := b.RangePct / s.RangePct; f >= NoisyFactor {
				noisyNames = append(noisyNames, b.Name)
				noisy = append(noisy, calibrate.NoisyRange{Min: b.Min, Max: b.Max, Times: f})
			}
		}
		if len(noisy) > 0 {
			a.warn(calibrate.Warning{Kind: calibrate.WarnNoisyBench, Benchmarks: noisyNames, Figures: calibrate.NoisyFigures{Ranges: noisy, Factor: NoisyFactor, RangePct: s.RangePct}})
		}
	}
	if k := len(a.Suite); k > 1 && s.N < 3*k {
		a.warn(calibrate.Warning{Kind: calibrate.WarnThinShares, Figures: calibrate.SharesFigures{Runs: s.N, Benchmarks: k, Settle: 3 * k}})
	}
}

// Density is the fitted log-normal density of the scores at x > 0, with
// the log scores' mean m and SD s: exp(−(ln x − m)²/(2s²)) / (x·s·√(2π)).
func (s *ScoreStats) Density(x float64) float64 {
	return stats.LogNormalPDF(x, s.MeanLog, s.SDLog)
}

// Reading is what a spread says, as facts that a view puts into words:
// the decision rules of the plain-language summary live here, with the
// statistics they rest on.
type Reading struct {
	// Widest are the (up to) three benchmarks with the widest ratio range
	// relative to their median, widest first.
	Widest []BenchmarkSpread
	// Steadier is true when the suite has several benchmarks and the
	// widest moves more than 1.2 times as much as the score: the geomean
	// is steadier than its parts.
	Steadier bool
	// Dominant is a benchmark that alone carries half or more of the
	// variance of ln(score), if one does.
	Dominant *BenchmarkSpread
}

// SteadierFactor: the score is "steadier than its parts" when the widest
// benchmark's relative range exceeds the score's by this factor.
const SteadierFactor = 1.2

// DominantShare is the variance share from which one benchmark dominates
// the score's variance.
const DominantShare = 0.5

// Reading returns the facts of the spread's summary.
func (a *Analysis) Reading() Reading {
	var r Reading
	wide := append([]BenchmarkSpread(nil), a.Benchmarks...)
	sort.SliceStable(wide, func(i, j int) bool { return wide[i].RangePct > wide[j].RangePct })
	if len(wide) > 3 {
		wide = wide[:3]
	}
	r.Widest = wide
	r.Steadier = len(a.Suite) > 1 && len(wide) > 0 && wide[0].RangePct > SteadierFactor*a.Score.RangePct
	if len(a.Benchmarks) > 1 && a.Benchmarks[0].VarianceShare >= DominantShare {
		d := a.Benchmarks[0]
		r.Dominant = &d
	}
	return r
}

// varianceComponents estimates the variance components of the log score
// over the runs in the distribution that carry repetitions: each
// repetition scored over the suite on its own, the runs as the groups
// (stats.VarianceComponents). A run whose repetitions cannot all be
// scored over the suite is left out of the model, with a warning.
func (a *Analysis) varianceComponents(runs []collectedRun, pos []int) {
	in := map[string]bool{}
	for _, r := range a.Runs {
		in[r.ID] = true
	}
	k := len(a.Suite)
	var groups [][]float64
	var ids, left []string
	withReps := 0
	for i := range runs {
		r := &runs[i]
		if !in[r.id] || (r.reps == nil && r.repErr == nil) {
			continue
		}
		withReps++
		if r.repErr != nil {
			left = append(left, r.id)
			continue
		}
		logs := make([]float64, 0, len(r.reps))
		for _, rows := range r.reps {
			sum, n := 0.0, 0
			for _, row := range rows {
				if pos[row.id] >= 0 {
					sum += math.Log(row.ratio)
					n++
				}
			}
			if n < k {
				logs = nil
				break
			}
			logs = append(logs, sum/float64(k))
		}
		if logs == nil {
			left = append(left, r.id)
			continue
		}
		groups = append(groups, logs)
		ids = append(ids, r.id)
	}
	if withReps == 0 {
		return
	}
	if len(left) > 0 {
		a.warn(calibrate.Warning{Kind: calibrate.WarnRepetitions, Runs: left, Figures: calibrate.RepetitionFigures{Left: true}})
	}
	vc, err := stats.VarianceComponentsAR1(groups)
	if err != nil {
		a.warn(calibrate.Warning{Kind: calibrate.WarnRepetitions, Figures: calibrate.RepetitionFigures{Runs: len(groups), Repetitions: countAll(groups)}})
		return
	}
	a.Variance = &VarianceModel{VarComp: vc, Runs: ids}
}

func countAll(groups [][]float64) int {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	return n
}
