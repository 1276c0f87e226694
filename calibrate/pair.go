package calibrate

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"qoscal/data"
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
	metric := opt.Metric
	if metric == "" && opt.Calibration != nil {
		metric = opt.Calibration.soleUnit()
	}
	ra, err := Ratios(a, opt.Baseline, opt.Candidate, opt.Direction, metric)
	if err != nil {
		return nil, err
	}
	rb, err := Ratios(b, opt.Baseline, opt.Candidate, opt.Direction, metric)
	if err != nil {
		return nil, err
	}
	pair := &data.Run{ID: PairID(a, b), Labels: a.Labels, Source: a.Source + "," + b.Source,
		Baseline: opt.Baseline, Candidate: opt.Candidate, Time: a.Time}
	names := ra.Names()
	sort.Strings(names)
	var onlyOne []string
	for _, name := range names {
		x, okA := ra.Ratios[name]
		y, okB := rb.Ratios[name]
		if !okA || !okB {
			onlyOne = append(onlyOne, name)
			continue
		}
		if x.Unit != y.Unit {
			return nil, inputErrorf("benchmark %s is in %q in run %s but %q in run %s", name, x.Unit, a.ID, y.Unit, b.ID)
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
		return nil, inputErrorf("runs %s and %s have no benchmark in common", a.ID, b.ID)
	}
	// The pair is what a rerun verdict asked for: it is judged against the
	// floor by its mean, with no band (STATS.md 2.14), never sent back for
	// a third run.
	opt.RerunBand = 0
	res, err := Gate(pair, opt)
	if err != nil {
		return nil, err
	}
	if len(onlyOne) > 0 {
		sort.Strings(onlyOne)
		res.Warnings = append(res.Warnings, Warning{Kind: WarnOneVariantOnly, Benchmarks: onlyOne,
			Msg: fmt.Sprintf("measured in one run of the pair only, left out: %s", strings.Join(onlyOne, ", "))})
	}
	for _, r := range []struct {
		id string
		rr RunRatios
	}{{a.ID, ra}, {b.ID, rb}} {
		res.Pair = append(res.Pair, PairRun{ID: r.id, Score: r.rr.ScoreOver(res.Suite).Score})
	}
	return res, nil
}
