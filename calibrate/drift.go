package calibrate

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"qoscal/data"
	"qoscal/stats"
)

// DriftResult says whether runs gated since a calibration have moved away
// from it: the calibration's scores followed by the new runs' scores, in
// order, are searched for change points (E-Divisive, docs/STATS.md 5), and
// a change that starts among the new runs is drift.
type DriftResult struct {
	// Runs are the new runs scored, in order; Scores their scores.
	Runs   []string
	Scores []float64
	// Skipped are new runs that lack a suite benchmark; Foreign, runs that
	// lack the calibration's baseline or candidate (another pair's runs in
	// a shared store).
	Skipped, Foreign []string
	// TooFew is set when the new runs are fewer than a change point needs
	// (MinNewRuns): no drift could have been found, whatever their scores.
	TooFew bool
	// CalibrationMedian is the median score of the calibration's runs.
	CalibrationMedian float64
	// Drift is set when a change starts at a new run: FromRun, with the
	// median score before it (calibration and new runs since the last
	// change) and after it, and the change's permutation p-value.
	Drift                     bool
	FromRun                   string
	BeforeMedian, AfterMedian float64
	P                         float64
	// Benchmarks are the suite benchmarks whose ratio drifted, the same
	// way, in suite order.
	Benchmarks []BenchmarkDrift
}

// BenchmarkDrift is one benchmark's drift.
type BenchmarkDrift struct {
	Name                      string
	FromRun                   string
	BeforeMedian, AfterMedian float64
}

// Drift compares runs gated since the calibration cal with it. The runs
// are scored as the gate scores them (the calibration's variants, suite
// and units); runs that are in the calibration itself are left out. It
// needs the calibration's model (a version 2 file).
func Drift(cal *File, runs []data.Run, dir Direction, seed uint64) (*DriftResult, error) {
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
	res := &DriftResult{CalibrationMedian: stats.Median(calScores)}
	cols := make([][]float64, len(cal.Suite)) // log ratios per benchmark: calibration, then new runs
	for j := range cal.Suite {
		for _, row := range cal.Matrix.LogRatio {
			cols[j] = append(cols[j], row[j])
		}
	}
	metric := cal.soleUnit()
	for i := range runs {
		r := &runs[i]
		if inCal[r.ID] {
			continue
		}
		if !hasVariants(r, cal.Baseline, cal.Candidate) {
			res.Foreign = append(res.Foreign, r.ID)
			continue
		}
		rr, err := Ratios(r, cal.Baseline, cal.Candidate, dir, metric)
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
	n := len(calScores)
	all := append(append([]float64(nil), calScores...), res.Scores...)
	logs := make([]float64, len(all))
	for i, v := range all {
		logs[i] = math.Log(v)
	}
	if at, start, p, ok := newChange(logs, n, seed); ok {
		res.Drift, res.FromRun, res.P = true, res.Runs[at-n], p
		res.BeforeMedian, res.AfterMedian = stats.Median(all[start:at]), stats.Median(all[at:])
	}
	for j, b := range cal.Suite {
		if at, _, _, ok := newChange(cols[j], n, seed); ok {
			ratios := make([]float64, len(cols[j]))
			for i, x := range cols[j] {
				ratios[i] = math.Exp(x)
			}
			res.Benchmarks = append(res.Benchmarks, BenchmarkDrift{Name: b, FromRun: res.Runs[at-n],
				BeforeMedian: stats.Median(ratios[:at]), AfterMedian: stats.Median(ratios[at:])})
		}
	}
	return res, nil
}

// MinNewRuns is the fewest new runs in which a change point can start:
// E-Divisive's shortest segment.
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

// newChange finds, in one change-point search of z, the first
// significant change at or after index n (the first new run), and the
// start of the segment it ends: the last change before it, or 0.
func newChange(z []float64, n int, seed uint64) (at, start int, p float64, ok bool) {
	for _, c := range stats.EDivisive(z, stats.EDivisiveOptions{Seed: seed}) { // in index order
		if c.Index >= n {
			return c.Index, start, c.P, true
		}
		start = c.Index
	}
	return 0, 0, 0, false
}

// runsWord is "1 run", "12 runs".
func runsWord(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

// Sentence says the drift in words.
func (d *DriftResult) Sentence() string {
	if !d.Drift && d.TooFew {
		return fmt.Sprintf("too few runs to tell: %s gated since the calibration (median %.2f; the calibration's %.2f), and a change needs %d",
			runsWord(len(d.Runs)), stats.Median(d.Scores), d.CalibrationMedian, MinNewRuns)
	}
	if !d.Drift {
		return fmt.Sprintf("no drift: the %s gated since the calibration score like it (median %.2f)", runsWord(len(d.Runs)), stats.Median(d.Scores))
	}
	s := fmt.Sprintf("drift: the score moved from median %.2f to %.2f from run %s on (p = %.3f): recalibrate", d.BeforeMedian, d.AfterMedian, d.FromRun, d.P)
	if len(d.Benchmarks) > 0 {
		var parts []string
		for _, b := range d.Benchmarks {
			parts = append(parts, fmt.Sprintf("%s %.2f→%.2f from %s", b.Name, b.BeforeMedian, b.AfterMedian, b.FromRun))
		}
		s += "; benchmarks that moved: " + strings.Join(parts, ", ")
	}
	return s
}
