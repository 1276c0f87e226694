package gate

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
)

// PairRun is one run of a pair judged together, with its own score over
// the gated suite.
type PairRun struct {
	ID    string
	Score float64
}

// PairID is the id a pair of runs is judged and reported under: "a+b".
func PairID(a, b *data.Run) string { return a.ID + "+" + b.ID }

// GatePair judges two runs of one job (the suite measured twice, or a run
// and its rerun) by the mean of their log scores (docs/STATS.md 2.13): each
// benchmark's value is the geometric mean of the two runs' values, so its
// ratio is the geometric mean of its two ratios and the score the geometric
// mean of the two scores. The floor is the same; recommend reports what
// the rule costs and catches for a pair. Bands and runner health are judged
// on the pair's values against single-run history, which makes them slower
// to flag, never quicker.
func GatePair(a, b *data.Run, opt GateOptions) (*GateResult, error) {
	if a.ID == b.ID {
		return nil, inputErrorf("the two runs are both %s: give two different runs", a.ID)
	}
	// What is ignored is left out of both runs before they are paired
	// (gate drops it from the pair again, and names it).
	ignore := map[string]bool{}
	for _, name := range opt.Ignore {
		ignore[name] = true
	}
	a, hadA := withoutBenchmarks(a, ignore)
	b, hadB := withoutBenchmarks(b, ignore)
	metric := opt.Metric
	if metric == "" && opt.Calibration != nil {
		metric = opt.Calibration.SoleUnit()
	}
	ra, err := calibrate.Ratios(a, opt.Baseline, opt.Candidate, opt.Direction, metric)
	if err != nil {
		return nil, err
	}
	rb, err := calibrate.Ratios(b, opt.Baseline, opt.Candidate, opt.Direction, metric)
	if err != nil {
		return nil, err
	}
	// Without a calibration the suite is every benchmark the job measured
	// (Gate): in either run, by either variant.
	var elsewhere []string
	if opt.Calibration == nil && opt.Floor > 0 {
		if elsewhere, err = pairSuite(a, b, ra, rb, opt); err != nil {
			return nil, err
		}
	}
	pair, onlyOne, err := pairRun(a, b, ra, rb, opt)
	if err != nil {
		return nil, err
	}
	// The pair is what a rerun verdict asked for: it is judged against the
	// floor by its mean, with no band (STATS.md 2.14), never sent back for
	// a third run.
	opt.RerunBand = 0
	res, err := gate(pair, opt, elsewhere)
	if err != nil {
		return nil, err
	}
	if len(hadA)+len(hadB) > 0 {
		for _, name := range res.Ignored {
			hadA[name] = true
		}
		for name := range hadB {
			hadA[name] = true
		}
		res.Ignored = sortedKeys(hadA)
	}
	if len(onlyOne) > 0 {
		sort.Strings(onlyOne)
		res.Warnings = append(res.Warnings, calibrate.Warning{Kind: calibrate.WarnOneVariantOnly, Benchmarks: onlyOne, Figures: calibrate.OneVariantFigures{}})
	}
	for _, r := range []struct {
		id string
		rr calibrate.RunRatios
	}{{a.ID, ra}, {b.ID, rb}} {
		res.Pair = append(res.Pair, PairRun{ID: r.id, Score: r.rr.ScoreOver(res.Suite).Score})
	}
	return res, nil
}

// pairSuite checks a pair gated on a given floor without a calibration:
// a benchmark one variant of a run lacks, or one run lacks, is an error
// unless opt.AllowPartial, as in Gate. It returns the benchmarks measured
// somewhere in the pair but not by both variants of both runs (non-nil).
func pairSuite(a, b *data.Run, ra, rb calibrate.RunRatios, opt GateOptions) ([]string, error) {
	measured := func(rr calibrate.RunRatios) map[string]bool {
		m := map[string]bool{}
		for _, list := range [][]string{rr.Names(), rr.OnlyBaseline, rr.OnlyCandidate} {
			for _, n := range list {
				m[n] = true
			}
		}
		return m
	}
	ma, mb := measured(ra), measured(rb)
	if !opt.AllowPartial {
		for _, r := range []struct {
			run *data.Run
			rr  calibrate.RunRatios
		}{{a, ra}, {b, rb}} {
			if len(r.rr.OnlyBaseline)+len(r.rr.OnlyCandidate) > 0 {
				return nil, oneSidedError(r.run, r.rr, opt)
			}
		}
		lackA, lackB := missingFrom(ma, mb), missingFrom(mb, ma)
		if len(lackA)+len(lackB) > 0 {
			var lacks []string
			if len(lackB) > 0 {
				lacks = append(lacks, fmt.Sprintf("run %s lacks %s, which run %s measured", b.ID, strings.Join(lackB, ", "), a.ID))
			}
			if len(lackA) > 0 {
				lacks = append(lacks, fmt.Sprintf("run %s lacks %s, which run %s measured", a.ID, strings.Join(lackA, ", "), b.ID))
			}
			return nil, &PartialError{Part: "the benchmarks both runs measured", Msg: fmt.Sprintf("%s (a crashed benchmark prints no result): without a calibration the suite is every benchmark either run measured: %s measured %s; %s measured %s",
				strings.Join(lacks, "; "), a.ID, listOrNone(sortedKeys(ma)), b.ID, listOrNone(sortedKeys(mb)))}
		}
	}
	elsewhere := []string{}
	for n := range ma {
		mb[n] = true
	}
	for _, n := range sortedKeys(mb) {
		_, okA := ra.Ratios[n]
		_, okB := rb.Ratios[n]
		if !okA || !okB {
			elsewhere = append(elsewhere, n)
		}
	}
	return elsewhere, nil
}

// missingFrom returns the names in want that are not in has, sorted.
func missingFrom(has, want map[string]bool) []string {
	var out []string
	for n := range want {
		if !has[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// pairRun is the pair's common part, the run GatePair judges: each
// benchmark both runs measured, each variant's value the geometric mean
// of its two; onlyOne are the benchmarks one run lacks.
func pairRun(a, b *data.Run, ra, rb calibrate.RunRatios, opt GateOptions) (pair *data.Run, onlyOne []string, err error) {
	pair = &data.Run{ID: PairID(a, b), Labels: a.Labels, Source: a.Source + "," + b.Source,
		Baseline: opt.Baseline, Candidate: opt.Candidate, Time: a.Time}
	names := ra.Names()
	sort.Strings(names)
	for _, name := range names {
		x, okA := ra.Ratios[name]
		y, okB := rb.Ratios[name]
		if !okA || !okB {
			onlyOne = append(onlyOne, name)
			continue
		}
		if x.Unit != y.Unit {
			return nil, nil, inputErrorf("benchmark %s is in %q in run %s but %q in run %s", name, x.Unit, a.ID, y.Unit, b.ID)
		}
		pair.Measurements = append(pair.Measurements,
			data.Measurement{Benchmark: name, Variant: opt.Baseline, Value: math.Sqrt(x.Baseline * y.Baseline), Unit: x.Unit},
			data.Measurement{Benchmark: name, Variant: opt.Candidate, Value: math.Sqrt(x.Candidate * y.Candidate), Unit: x.Unit})
	}
	for _, name := range rb.Names() {
		if _, ok := ra.Ratios[name]; !ok {
			onlyOne = append(onlyOne, name)
		}
	}
	if len(pair.Measurements) == 0 {
		return nil, nil, inputErrorf("runs %s and %s have no benchmark in common", a.ID, b.ID)
	}
	return pair, onlyOne, nil
}
