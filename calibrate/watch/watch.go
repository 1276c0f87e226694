// Package watch decides what the watch on the main branch does after a
// push (qoscal watch): stay quiet, open an issue for a fall of the score,
// update the open issue, or close it because the score came back; and it
// states, for a calibration, the rate of false issues per 100 pushes of
// unchanged code and the delay (pushes until an issue) for steps of 3, 5
// and 10%, by a seeded simulation of the calibration's fitted model
// through the same decision (docs/STATS.md 5f).
//
// The alarm is the two-sided CUSUM of the drift check as it stood before
// issue 33 (and as the audit's presumption still runs it: drift.DriftK,
// drift.DriftClip, drift.AllowedRho, stats.CUSUMNull), fall side only:
// the log scores of the runs since the calibration (or since the last
// episode closed), standardised by the calibration's, checked after each
// run at a stated false-alarm rate per so many runs. A CUSUM can be run
// push by push in O(1) and simulated fast, which the stated figures
// need; drift.Drift (now an AR(1) shift scan) scores the runs and gives
// the report's medians. An episode, once open, stays open
// while the score stays down; it closes when the mean of the last
// CloseWindow runs, all after the push that opened it, is within
// CloseLevel SDs of the calibration's mean (the score came back); the
// CUSUM then starts again from the next run, so one fall is one issue.
package watch

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/drift"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// The watch's defaults and constants (docs/STATS.md 5f).
const (
	// DefaultFalseAlarm and DefaultPerRuns: the drift check the watch
	// runs is qoscal drift's, two-sided, at 5% per 20 runs checked after
	// each (drift.DefaultDriftFalseAlarm, DefaultDriftRuns). Its fall
	// side is what opens issues; Simulate states what that comes to per
	// 100 pushes (about 0.1 on the bundled calibration), under the goal
	// of one.
	DefaultFalseAlarm = drift.DefaultDriftFalseAlarm
	DefaultPerRuns    = drift.DefaultDriftRuns
	// CloseWindow is how many runs after the push that opened an issue
	// its close looks at: the last CloseWindow runs.
	CloseWindow = 5
	// CloseLevel is where their mean must be, in SDs of the
	// calibration's log scores from its mean, for the score to have come
	// back: above −0.5. A mean of 5 healthy runs falls below it 13% of
	// the time (the close waits a push), one of 5 runs 5% down (1.7 SDs
	// at σ 3%) rises above it 0.5% of the time (a false close).
	CloseLevel = -0.5
	// DefaultSims is the number of simulated sequences behind each
	// stated figure (false issues: SE about 0.004 per 100 pushes at
	// 0.03; the delays' quantiles to a push or so).
	DefaultSims = 4000
	// RatePushes is the stretch the false-issue rate is stated per.
	RatePushes = 100
	// StepAfter is how many healthy pushes come before a simulated step
	// (the CUSUM is then in its steady state), and MaxDelay the most
	// pushes after it that are simulated: a delay beyond is censored.
	StepAfter = 12
	MaxDelay  = 100
)

// Steps are the falls of the score whose delays the watch states.
var Steps = []float64{0.03, 0.05, 0.10}

// Actions.
const (
	Quiet  = "quiet"
	Open   = "open"
	Update = "update"
	Close  = "close"
)

// Why an issue closes.
const (
	// CameBack: the score came back to the calibration's level.
	CameBack = "came-back"
	// Superseded: a new calibration replaced the one the issue was
	// opened against (the caller decides that: it knows the issues).
	Superseded = "superseded"
)

// Options are the watch's parameters; the zero value of a field means
// its default.
type Options struct {
	// FalseAlarm and PerRuns are the drift check's rate (default
	// DefaultFalseAlarm per DefaultPerRuns runs).
	FalseAlarm float64
	PerRuns    int
	// Seed seeds the drift check's null and the simulation of the
	// stated figures (default 1).
	Seed uint64
	// Sims is the number of simulated sequences per stated figure
	// (default DefaultSims).
	Sims int
}

func (o Options) withDefaults() Options {
	if o.FalseAlarm == 0 {
		o.FalseAlarm = DefaultFalseAlarm
	}
	if o.PerRuns == 0 {
		o.PerRuns = DefaultPerRuns
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Sims == 0 {
		o.Sims = DefaultSims
	}
	return o
}

// State is what the issues say of the calibration's episodes: whether
// an issue is open, the run whose push opened it ("" when not known: the
// episode is then taken to start after the latest closed one), and the
// last run of the latest closed episode ("" when none closed).
type State struct {
	Open     bool
	OpenedAt string
	Through  string
}

// Suspect is one end of the range the score fell in.
type Suspect struct {
	// Run is the run's id; Commit its commit label ("" without one);
	// Score its score; Labels its labels.
	Run    string
	Commit string
	Score  float64
	Labels map[string]string
	// InCalibration says the run is the calibration's last, not a run
	// gated since.
	InCalibration bool
}

// Change is the fall's size: the ratio of the geometric mean score after
// the change to that before it, less 1, with its 95% interval.
type Change struct {
	Estimate, Lo, Hi float64
}

// Moved is a benchmark's change over the same split.
type Moved struct {
	Name string
	// Before and After are its median ratio before and after; Change
	// After/Before − 1.
	Before, After, Change float64
	// Outside says the median after is outside the benchmark's band
	// (model.Matrix.Bands at model.DefaultFamilyAlpha); Lower
	// and Upper are the band (NaN when the benchmark never varied).
	Outside      bool
	Lower, Upper float64
}

// Rates are the watch's stated figures for a calibration.
type Rates struct {
	// FalseIssuesPer100 is the mean number of issues opened in 100
	// pushes of unchanged code, SE its Monte Carlo standard error.
	FalseIssuesPer100, SE float64
	// Delays are the pushes until an issue for each of Steps.
	Delays []Delay
	// Sims and Seed are the simulation's.
	Sims int
	Seed uint64
	// Sigma is the SD of the calibration's log scores the steps are
	// measured against, Rho the autocorrelation simulated.
	Sigma, Rho float64
}

// Delay is the pushes until an issue after a step (the step's push is
// push 1): the median and the 90th percentile, NaN when beyond MaxDelay;
// Within5 the share of steps found within 5 pushes.
type Delay struct {
	Step        float64
	Median, P90 float64
	Within5     float64
}

// Result is the watch's decision on the current push.
type Result struct {
	// Action is Quiet, Open, Update or Close; Why, for Close, CameBack.
	Action, Why string
	// Drift is the drift check over the runs since Restart.
	Drift *drift.DriftResult
	// Runs are every run scored since the calibration, Scores their
	// scores; Restart the index of the first the episode's check looks
	// at (after the latest closed episode).
	Runs    []string
	Scores  []float64
	Restart int
	// Good and Bad are the last run at the calibration's level and the
	// first below it (nil without a fall to name): the change point of
	// the runs since Restart; Commits the runs between, Good excluded,
	// Bad included, when every one has a commit label.
	Good, Bad *Suspect
	Change    Change
	// Moved are the benchmarks, most moved first.
	Moved []Moved
	// Recent is the mean of the last CloseWindow runs' standardised log
	// scores (NaN when fewer than that came after the opening push).
	Recent float64
	Rates  Rates
	// Mean and SD are the calibration's log scores', N their number.
	Mean, SD float64
	N        int
	// H is the CUSUM's decision interval, Rho the autocorrelation its
	// null allows for (interval).
	H, Rho float64
}

// interval is the watch's CUSUM decision interval for a calibration of
// log scores logs: the (1 − FalseAlarm) quantile of the simulated null of
// steady runs checked after each of PerRuns runs (stats.CUSUMNull,
// drift.DriftDraws draws, seeded), allowing for the calibration's
// autocorrelation as drift.AllowedRho takes it; and that autocorrelation.
func interval(logs []float64, opt Options) (h, rho float64) {
	rho = drift.AllowedRho(logs)
	null := stats.CUSUMNull(len(logs), opt.PerRuns, drift.MinNewRuns, rho, drift.DriftK, drift.DriftClip, drift.DriftDraws, opt.Seed)
	return stats.UpperCritical(null, opt.FalseAlarm), rho
}

// Decide decides for the last of runs (in push order) what the watch
// does, given the state of the calibration's issues.
func Decide(cal *model.File, runs []data.Run, dir calibrate.Direction, st State, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	if cal.Matrix == nil {
		return nil, errors.New("the calibration file has no matrix (the calibration runs' log ratios): write it again with this qoscal")
	}
	calScores, err := cal.Matrix.Scores(cal.Suite)
	if err != nil {
		return nil, err
	}
	all, err := drift.Drift(cal, runs, dir, drift.DriftOptions{FalseAlarm: opt.FalseAlarm, PerRuns: opt.PerRuns, Seed: opt.Seed, ScoreOnly: true})
	if err != nil {
		return nil, err
	}
	res := &Result{Runs: all.Runs, Scores: all.Scores, Recent: math.NaN(), N: len(calScores)}
	logs := logOf(calScores)
	res.Mean, res.SD = stats.Mean(logs), stats.SD(logs)
	z := make([]float64, len(res.Scores))
	for i, s := range res.Scores {
		z[i] = standard(math.Log(s), res.Mean, res.SD)
	}
	byID := map[string]*data.Run{}
	for i := range runs {
		byID[runs[i].ID] = &runs[i]
	}
	if st.Through != "" {
		if i := slices.Index(res.Runs, st.Through); i >= 0 {
			res.Restart = i + 1
		}
	}
	opened := -1
	if st.Open || st.OpenedAt != "" {
		opened = slices.Index(res.Runs, st.OpenedAt)
		if opened < 0 {
			// The run that opened it is not among these (a store
			// pruned, other labels): the episode is the runs since.
			opened = res.Restart
		}
		res.Restart = min(res.Restart, opened)
	}
	res.Drift = all
	res.H, res.Rho = interval(logs, opt)
	if res.Restart > 0 && res.Restart < len(res.Runs) {
		var seg []data.Run
		for _, id := range res.Runs[res.Restart:] {
			seg = append(seg, *byID[id])
		}
		if res.Drift, err = drift.Drift(cal, seg, dir, drift.DriftOptions{FalseAlarm: opt.FalseAlarm, PerRuns: opt.PerRuns, Seed: opt.Seed, ScoreOnly: true}); err != nil {
			return nil, err
		}
	}
	m := machine{h: res.H, k: drift.DriftK, clip: drift.DriftClip}
	last := len(z) - 1
	switch {
	case opened >= 0:
		res.Action = Update
		if r, ok := recent(z, opened); ok {
			res.Recent = r
			if r >= CloseLevel {
				res.Action, res.Why = Close, CameBack
			}
		}
	case res.Restart <= last:
		for _, v := range z[res.Restart:] {
			m.add(v)
		}
		res.Action = Quiet
		if m.alarm() {
			res.Action = Open
		}
	default:
		res.Action = Quiet
	}
	if res.Action != Quiet && res.Restart <= last {
		res.split(cal, runs, byID, logs, dir)
	}
	res.Rates = Simulate(len(calScores), res.Rho, res.SD, res.H, opt)
	return res, nil
}

// recent is the mean of the last CloseWindow values of z when they all
// come after index opened.
func recent(z []float64, opened int) (float64, bool) {
	if len(z)-1-opened < CloseWindow {
		return math.NaN(), false
	}
	return stats.Mean(z[len(z)-CloseWindow:]), true
}

// standard is (x − m)/s, ±Inf for s = 0 as Drift takes it.
func standard(x, m, s float64) float64 {
	switch {
	case s > 0:
		return (x - m) / s
	case x > m:
		return math.Inf(1)
	case x < m:
		return math.Inf(-1)
	}
	return 0
}

func logOf(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Log(v)
	}
	return out
}

// split finds the change point of the runs since Restart: the split of
// the calibration's and those runs' log scores into a before and an
// after (at least one run after, the calibration always before) with the
// least squared error about their two means, the maximum-likelihood
// change point of a single step in normal noise. It names the runs on
// either side, the change with a t interval on the split's pooled SD
// (independent runs), and each benchmark's change over the same split.
func (res *Result) split(cal *model.File, runs []data.Run, byID map[string]*data.Run, calLogs []float64, dir calibrate.Direction) {
	x := append(append([]float64(nil), calLogs...), logOf(res.Scores[res.Restart:])...)
	n := len(calLogs)
	best, bestSSE := -1, math.Inf(1)
	for tau := n; tau < len(x); tau++ {
		if sse := sse(x[:tau]) + sse(x[tau:]); sse < bestSSE {
			best, bestSSE = tau, sse
		}
	}
	bad := res.Restart + best - n
	res.Bad = res.suspect(byID, bad)
	if bad > 0 {
		res.Good = res.suspect(byID, bad-1)
	} else if len(cal.Matrix.Runs) > 0 {
		id := cal.Matrix.Runs[len(cal.Matrix.Runs)-1]
		res.Good = &Suspect{Run: id, Score: math.Exp(calLogs[len(calLogs)-1]), InCalibration: true}
		if r := byID[id]; r != nil {
			res.Good.Commit, res.Good.Labels = r.Labels["commit"], r.Labels
		}
	}
	nb, na := best, len(x)-best
	d := stats.Mean(x[best:]) - stats.Mean(x[:best])
	df := float64(len(x) - 2)
	s := math.Sqrt(bestSSE / df)
	hw := stats.TQuantile(0.975, df) * s * math.Sqrt(1/float64(nb)+1/float64(na))
	res.Change = Change{Estimate: math.Expm1(d), Lo: math.Expm1(d - hw), Hi: math.Expm1(d + hw)}
	res.Moved = moved(cal, runs, byID, res.Runs[res.Restart:bad], res.Runs[bad:], dir)
}

func sse(x []float64) float64 {
	m := stats.Mean(x)
	var s float64
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return s
}

func (res *Result) suspect(byID map[string]*data.Run, i int) *Suspect {
	s := &Suspect{Run: res.Runs[i], Score: res.Scores[i]}
	if r := byID[s.Run]; r != nil {
		s.Commit, s.Labels = r.Labels["commit"], r.Labels
	}
	return s
}

// moved is each suite benchmark's median ratio over the calibration and
// the runs before, against that over the runs after, most moved (in log
// terms) first.
func moved(cal *model.File, runs []data.Run, byID map[string]*data.Run, before, after []string, dir calibrate.Direction) []Moved {
	metric := soleUnit(cal)
	bands := cal.Matrix.Bands(model.DefaultFamilyAlpha)
	cols := map[string][2][]float64{}
	for j, b := range cal.Matrix.Benchmarks {
		c := cols[b]
		for _, row := range cal.Matrix.LogRatio {
			c[0] = append(c[0], math.Exp(row[j]))
		}
		cols[b] = c
	}
	add := func(ids []string, side int) {
		for _, id := range ids {
			r := byID[id]
			if r == nil {
				continue
			}
			rr, err := calibrate.Ratios(r, cal.Baseline, cal.Candidate, dir, metric)
			if err != nil {
				continue
			}
			for _, b := range cal.Suite {
				if x, ok := rr.Ratios[b]; ok {
					c := cols[b]
					c[side] = append(c[side], x.Ratio)
					cols[b] = c
				}
			}
		}
	}
	add(before, 0)
	add(after, 1)
	var out []Moved
	for _, b := range bands {
		c, ok := cols[b.Name]
		if !ok || len(c[1]) == 0 || !slices.Contains(cal.Suite, b.Name) {
			continue
		}
		mv := Moved{Name: b.Name, Before: stats.Median(c[0]), After: stats.Median(c[1]), Lower: b.Lower, Upper: b.Upper}
		mv.Change = mv.After/mv.Before - 1
		mv.Outside = mv.After < b.Lower || mv.After > b.Upper
		out = append(out, mv)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return math.Abs(math.Log1p(out[i].Change)) > math.Abs(math.Log1p(out[j].Change))
	})
	return out
}

// soleUnit is the unit every suite benchmark shares, else "" (as the
// gate takes the metric).
func soleUnit(f *model.File) string {
	unit := ""
	for _, b := range f.Suite {
		u := f.Units[b].Unit
		if unit != "" && u != unit {
			return ""
		}
		unit = u
	}
	return unit
}

// machine is the watch's decision, run push by push on standardised log
// scores: the same check Decide makes, for Replay and Simulate.
type machine struct {
	h, k, clip float64
	up, down   float64
	n          int
	open       bool
	z          []float64 // since the opening push, for the close
}

// add adds a run to the CUSUM.
func (m *machine) add(v float64) {
	if math.IsNaN(v) {
		v = 0
	}
	v = math.Max(-m.clip, math.Min(m.clip, v))
	m.up = math.Max(0, m.up+v-m.k)
	m.down = math.Max(0, m.down-v-m.k)
	m.n++
}

// alarm says the score fell: Drift's check (at least MinNewRuns runs,
// the larger side at or above h) on the fall side.
func (m *machine) alarm() bool {
	return m.n >= drift.MinNewRuns && m.down >= m.h && m.down >= m.up
}

// push takes the next run's standardised log score and returns the
// action on its push.
func (m *machine) push(v float64) string {
	if m.open {
		m.z = append(m.z, v)
		if len(m.z) > CloseWindow && stats.Mean(m.z[len(m.z)-CloseWindow:]) >= CloseLevel {
			*m = machine{h: m.h, k: m.k, clip: m.clip}
			return Close
		}
		return Update
	}
	m.add(v)
	if m.alarm() {
		m.open, m.z = true, []float64{v}
		return Open
	}
	return Quiet
}

// Replay runs the watch over every push of runs as if it had watched
// from the calibration on with no issue open: the action on each run's
// push, in the order of Result.Runs (runs lacking a suite benchmark or
// the variants are left out, as Drift leaves them). It is the decision
// Decide makes, push after push, with the state the issues would hold;
// and the figures stated for the calibration.
func Replay(cal *model.File, runs []data.Run, dir calibrate.Direction, opt Options) (ids []string, actions []string, rates Rates, err error) {
	opt = opt.withDefaults()
	d, err := drift.Drift(cal, runs, dir, drift.DriftOptions{FalseAlarm: opt.FalseAlarm, PerRuns: opt.PerRuns, Seed: opt.Seed, ScoreOnly: true})
	if err != nil {
		return nil, nil, rates, err
	}
	calScores, err := cal.Matrix.Scores(cal.Suite)
	if err != nil {
		return nil, nil, rates, err
	}
	logs := logOf(calScores)
	mean, sd := stats.Mean(logs), stats.SD(logs)
	h, rho := interval(logs, opt)
	m := machine{h: h, k: drift.DriftK, clip: drift.DriftClip}
	for _, s := range d.Scores {
		actions = append(actions, m.push(standard(math.Log(s), mean, sd)))
	}
	return d.Runs, actions, Simulate(len(calScores), rho, sd, h, opt), nil
}

// Simulate states the watch's figures for a calibration of n runs whose
// log scores have SD sigma, with the check's decision interval h and the
// autocorrelation rho it allows for: sequences drawn from the fitted
// model (normal, AR(1) with rho), each a calibration of n runs and the
// pushes after it, standardised by the drawn calibration's mean and SD
// as the check standardises (so the calibration's own error is part of
// the figure), and run through the watch's decision. False issues: the
// issues opened in RatePushes pushes. Delays: StepAfter healthy pushes,
// then a step that lowers the score by each of Steps, and the pushes
// from it until an issue opens (the step's push is 1); a sequence that
// opened a false issue before the step is left out of the delays.
func Simulate(n int, rho, sigma, h float64, opt Options) Rates {
	opt = opt.withDefaults()
	r := Rates{Sims: opt.Sims, Seed: opt.Seed, Sigma: sigma, Rho: rho}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x3A7C4))
	c := math.Sqrt(1 - rho*rho)
	cal := make([]float64, n)
	prev := 0.0
	next := func() float64 {
		prev = rho*prev + c*rng.NormFloat64()
		return prev
	}
	draw := func() (m, s float64) {
		prev = rng.NormFloat64()
		cal[0] = prev
		for i := 1; i < n; i++ {
			cal[i] = next()
		}
		return stats.Mean(cal), stats.SD(cal)
	}
	var sum, sum2 float64
	for range opt.Sims {
		m, s := draw()
		mc := machine{h: h, k: drift.DriftK, clip: drift.DriftClip}
		opened := 0.0
		for range RatePushes {
			if mc.push(standard(next(), m, s)) == Open {
				opened++
			}
		}
		sum += opened
		sum2 += opened * opened
	}
	k := float64(opt.Sims)
	r.FalseIssuesPer100 = sum / k * 100 / RatePushes
	if opt.Sims > 1 {
		r.SE = math.Sqrt((sum2-sum*sum/k)/(k-1)/k) * 100 / RatePushes
	}
	for _, step := range Steps {
		shift := 0.0
		if sigma > 0 {
			shift = math.Log1p(-step) / sigma
		}
		var delays []float64
		within := 0
	sims:
		for range opt.Sims {
			m, s := draw()
			mc := machine{h: h, k: drift.DriftK, clip: drift.DriftClip}
			for range StepAfter {
				if mc.push(standard(next(), m, s)) == Open {
					continue sims
				}
			}
			d := math.Inf(1)
			for p := 1; p <= MaxDelay; p++ {
				if mc.push(standard(next()+shift, m, s)) == Open {
					d = float64(p)
					break
				}
			}
			if d <= 5 {
				within++
			}
			delays = append(delays, d)
		}
		dl := Delay{Step: step, Median: math.NaN(), P90: math.NaN()}
		if len(delays) > 0 {
			slices.Sort(delays)
			dl.Median, dl.P90 = finite(quantileLow(delays, 0.5)), finite(quantileLow(delays, 0.9))
			dl.Within5 = float64(within) / float64(len(delays))
		}
		r.Delays = append(r.Delays, dl)
	}
	return r
}

// quantileLow is the p quantile of sorted x as the smallest value with
// at least a share p of x at or below it (a push count, not
// interpolated).
func quantileLow(x []float64, p float64) float64 {
	i := int(math.Ceil(p*float64(len(x)))) - 1
	return x[max(0, min(len(x)-1, i))]
}

func finite(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	return x
}
