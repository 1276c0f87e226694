package calibrate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// RunName names a run in a message, with where it was read from when
// that says more than its id: "run 123-1 (base.txt,cand.txt)".
func RunName(run *data.Run) string {
	if run.Source == "" || run.Source == run.ID {
		return "run " + run.ID
	}
	return fmt.Sprintf("run %s (%s)", run.ID, run.Source)
}

// Direction says which way a metric improves.
type Direction int

const (
	// Auto takes the direction from the unit.
	Auto Direction = iota
	// HigherIsBetter: throughput (ops/sec, B/s). ratio = candidate/baseline.
	HigherIsBetter
	// LowerIsBetter: times and sizes (sec/op, ns/op, B/op). ratio =
	// baseline/candidate.
	LowerIsBetter
)

func (d Direction) String() string {
	switch d {
	case HigherIsBetter:
		return "higher is better"
	case LowerIsBetter:
		return "lower is better"
	}
	return "from the unit"
}

// Key is the direction's name in JSON files: "higher" or "lower".
func (d Direction) Key() string {
	switch d {
	case HigherIsBetter:
		return "higher"
	case LowerIsBetter:
		return "lower"
	}
	return "auto"
}

var higherUnits = map[string]bool{
	"ops/sec": true, "ops/s": true, "op/s": true, "ops": true, "b/s": true, "mb/s": true,
	"gb/s": true, "kb/s": true, "requests/sec": true, "req/s": true, "items/s": true,
	"iterations/sec": true, "iter/s": true, "hz": true, "fps": true, "score": true,
}

var lowerUnits = map[string]bool{
	"s": true, "sec": true, "secs": true, "second": true, "seconds": true, "ms": true,
	"us": true, "µs": true, "μs": true, "ns": true, "sec/op": true, "s/op": true,
	"ms/op": true, "us/op": true, "ns/op": true, "b/op": true, "allocs/op": true,
	"b": true, "bytes": true, "kb": true, "mb": true, "gb": true, "cycles": true,
	"instructions": true, "cycles/op": true, "instructions/op": true, "cpu-sec/op": true,
}

// unitDirection returns the direction of a unit, matched without regard to
// case. An unknown or empty unit is an error that names it: qoscal does not
// guess which way a metric improves.
func unitDirection(unit string) (Direction, error) {
	u := strings.ToLower(strings.TrimSpace(unit))
	switch {
	case higherUnits[u]:
		return HigherIsBetter, nil
	case lowerUnits[u]:
		return LowerIsBetter, nil
	case u == "":
		return Auto, &DirectionError{}
	}
	return Auto, &DirectionError{Unit: unit}
}

// BenchmarkRatio is one benchmark of one run: the variant values (medians
// of their samples) and the oriented ratio.
type BenchmarkRatio struct {
	Name                string
	Unit                string
	Direction           Direction
	Baseline, Candidate float64 // medians of the samples (of all repetitions)
	BaselineSamples     int
	CandidateSamples    int
	// Ratio is oriented so that > 1 means the candidate is better:
	// candidate/baseline when higher is better, baseline/candidate when
	// lower is better; for a run of several repetitions, the geometric
	// mean of its repetitions' ratios (pairRepetitions).
	Ratio float64
}

// RunRatios are the ratios of one run, keyed by benchmark.
type RunRatios struct {
	ID     string
	Labels map[string]string
	// Ratios holds the benchmarks that both variants measured.
	Ratios map[string]BenchmarkRatio
	// OnlyBaseline and OnlyCandidate list benchmarks measured by one
	// variant only, sorted.
	OnlyBaseline, OnlyCandidate []string
}

// defaultMetric is the metric chosen when a benchmark reports several and
// none is named: time per operation, as benchstat does.
const defaultMetric = "sec/op"

// metricAliases map the names users give a metric to the units the
// parsers record.
var metricAliases = map[string]string{
	"ns/op": "sec/op", "us/op": "sec/op", "ms/op": "sec/op", "s/op": "sec/op",
	"real_time": "sec/op", "cpu_time": "cpu-sec/op", "MB/s": "B/s",
}

// metricUnit returns the unit a metric's name selects.
func metricUnit(metric string) string {
	if u, ok := metricAliases[metric]; ok {
		return u
	}
	return metric
}

// Ratios computes the ratios of one run between two of its variants. Each
// variant's value for a benchmark is the median of its samples. dir
// overrides the direction the units give; with Auto an unknown unit is an
// error. metric selects the measurements of one unit when a benchmark
// reports several (go test -bench prints sec/op, B/op and allocs/op on one
// line); empty chooses the only one, or defaultMetric among several, and
// otherwise asks for one (MetricsError). A baseline or candidate variant absent from
// the run is an error.
func Ratios(run *data.Run, baseline, candidate string, dir Direction, metric string) (RunRatios, error) {
	var sc RatioScratch
	if list, onlyB, onlyC, ok := sc.ratioList(run, baseline, candidate, dir, metric); ok {
		pairRepetitions(run.Measurements, baseline, candidate, list)
		rr := RunRatios{ID: run.ID, Labels: run.Labels, Ratios: make(map[string]BenchmarkRatio, len(list)), OnlyBaseline: onlyB, OnlyCandidate: onlyC}
		for _, br := range list {
			rr.Ratios[br.Name] = br
		}
		return rr, nil
	}
	rr, err := ratiosByMaps(run, baseline, candidate, dir, metric)
	if err != nil {
		return rr, err
	}
	list := make([]BenchmarkRatio, 0, len(rr.Ratios))
	for _, name := range rr.Names() {
		list = append(list, rr.Ratios[name])
	}
	pairRepetitions(run.Measurements, baseline, candidate, list)
	for _, br := range list {
		rr.Ratios[br.Name] = br
	}
	return rr, nil
}

// pairRepetitions sets, for a run measured in two or more repetitions
// (data.Measurement.Repetition), each benchmark's ratio to the geometric
// mean of its repetitions' ratios, each repetition's the ratio of that
// repetition's medians: a run's score is then the mean of its
// repetitions' log scores, the one score every command gives a run
// (docs/inputs-and-outputs.md). The ratio of the medians pooled across
// repetitions broke the pairing of interleaved invocations: a
// repetition's baseline and candidate ran side by side, under the same
// drift, and are compared with each other (issue 35: on real interleaved
// jobs of 3 repetitions the pooled score's SD across jobs was 0.151, the
// paired one's 0.115). A repetition lacking either variant's value for a
// benchmark is left out of its mean; the values shown (Baseline,
// Candidate) stay the medians of all samples. Runs without repetitions,
// or with one, keep the ratio of the medians.
func pairRepetitions(ms []data.Measurement, baseline, candidate string, list []BenchmarkRatio) {
	first, several := 0, false
	for i := range ms {
		r := ms[i].Repetition
		if r > 0 && first == 0 {
			first = r
		}
		several = several || (r > 0 && r != first)
	}
	if !several || len(list) == 0 {
		return
	}
	type key struct {
		bench string
		rep   int
	}
	unit := make(map[string]string, len(list))
	for _, br := range list {
		unit[br.Name] = br.Unit
	}
	b, c := map[key][]float64{}, map[key][]float64{}
	reps := map[string][]int{}
	for i := range ms {
		m := &ms[i]
		u, ok := unit[m.Benchmark]
		if !ok || m.Repetition <= 0 || m.Unit != u {
			continue
		}
		k := key{m.Benchmark, m.Repetition}
		switch m.Variant {
		case baseline:
			if len(b[k]) == 0 && len(c[k]) == 0 {
				reps[m.Benchmark] = append(reps[m.Benchmark], m.Repetition)
			}
			b[k] = append(b[k], m.Value)
		case candidate:
			if len(b[k]) == 0 && len(c[k]) == 0 {
				reps[m.Benchmark] = append(reps[m.Benchmark], m.Repetition)
			}
			c[k] = append(c[k], m.Value)
		}
	}
	for i := range list {
		br := &list[i]
		rs := reps[br.Name]
		sort.Ints(rs) // a fixed order of summing: the same bits every time
		sum, n := 0.0, 0
		for _, r := range rs {
			bs, cs := b[key{br.Name, r}], c[key{br.Name, r}]
			if len(bs) == 0 || len(cs) == 0 {
				continue
			}
			mb, mc := stats.Median(bs), stats.Median(cs)
			ratio := mc / mb
			if br.Direction == LowerIsBetter {
				ratio = mb / mc
			}
			if !(ratio > 0) || math.IsInf(ratio, 0) {
				continue
			}
			sum += math.Log(ratio)
			n++
		}
		if n > 0 {
			br.Ratio = math.Exp(sum / float64(n))
		}
	}
}

// RatioScratch holds the buffers of ratioList, reused from run to run:
// the list ratioList returns is valid until its next call.
type RatioScratch struct {
	list    []BenchmarkRatio
	idx     []int32
	bIdx    []int32
	cIdx    []int32
	samples []float64
	unit    string // the unit whose direction dir holds
	dir     Direction
}

// ratioList is the fast path of Ratios, for the common run: no metric
// named, one unit per benchmark and variant, no error. It returns the
// ratios in name order, and ok false for any other run, which
// ratiosByMaps then computes (and whose error it reports): the two give
// the same ratios, bit for bit. It sorts the indexes of the two variants'
// measurements by benchmark instead of building maps of samples, so that
// analysing 100,000 runs does not build 300,000 maps.
func (sc *RatioScratch) ratioList(run *data.Run, baseline, candidate string, dir Direction, metric string) (list []BenchmarkRatio, onlyB, onlyC []string, ok bool) {
	if metric != "" {
		return nil, nil, nil, false
	}
	ms := run.Measurements
	// The two variants' measurements, each in the run's order, and
	// whether each is in benchmark order (as a run in Run.Sort's order,
	// a stored one, has them).
	bIdx, cIdx := sc.bIdx[:0], sc.cIdx[:0]
	bSorted, cSorted := true, true
	for i := range ms {
		switch ms[i].Variant {
		case baseline:
			bSorted = bSorted && (len(bIdx) == 0 || ms[bIdx[len(bIdx)-1]].Benchmark <= ms[i].Benchmark)
			bIdx = append(bIdx, int32(i))
		case candidate:
			cSorted = cSorted && (len(cIdx) == 0 || ms[cIdx[len(cIdx)-1]].Benchmark <= ms[i].Benchmark)
			cIdx = append(cIdx, int32(i))
		}
	}
	sc.bIdx, sc.cIdx = bIdx, cIdx
	if len(bIdx) == 0 || len(cIdx) == 0 {
		return nil, nil, nil, false
	}
	// idx: both variants' measurements in benchmark order, merged when
	// each is in order already (a tenth of the analysis of 10,000 stored
	// runs went to sorting them), else sorted.
	idx := sc.idx[:0]
	if bSorted && cSorted {
		i, j := 0, 0
		for i < len(bIdx) && j < len(cIdx) {
			if ms[cIdx[j]].Benchmark < ms[bIdx[i]].Benchmark {
				idx = append(idx, cIdx[j])
				j++
			} else {
				idx = append(idx, bIdx[i])
				i++
			}
		}
		idx = append(append(idx, bIdx[i:]...), cIdx[j:]...)
	} else {
		idx = append(append(idx, bIdx...), cIdx...)
		slices.SortFunc(idx, func(x, y int32) int { return strings.Compare(ms[x].Benchmark, ms[y].Benchmark) })
	}
	sc.idx = idx
	groups := 1
	for g := 1; g < len(idx); g++ {
		if ms[idx[g]].Benchmark != ms[idx[g-1]].Benchmark {
			groups++
		}
	}
	list = sc.list[:0]
	if cap(list) < groups {
		list = make([]BenchmarkRatio, 0, groups)
	}
	defer func() { sc.list = list[:0] }()
	for g := 0; g < len(idx); {
		name := ms[idx[g]].Benchmark
		end := g + 1
		for end < len(idx) && ms[idx[end]].Benchmark == name {
			end++
		}
		group := idx[g:end]
		g = end
		var b, c BenchmarkRatio // the variants' values, where measured
		var hasB, hasC bool
		for _, v := range []struct {
			name string
			br   *BenchmarkRatio
			has  *bool
		}{{baseline, &b, &hasB}, {candidate, &c, &hasC}} {
			samples := sc.samples[:0]
			unit := ""
			for _, i := range group {
				m := &ms[i]
				if m.Variant != v.name {
					continue
				}
				if len(samples) > 0 && m.Unit != unit {
					return nil, nil, nil, false // several metrics: ratiosByMaps says which
				}
				unit = m.Unit
				samples = append(samples, m.Value)
			}
			sc.samples = samples
			if len(samples) == 0 {
				continue
			}
			*v.has = true
			v.br.Unit, v.br.BaselineSamples = unit, len(samples)
			if len(samples) == 1 {
				v.br.Baseline = samples[0] // the median of one value, without a copy
			} else {
				v.br.Baseline = stats.Median(samples)
			}
		}
		switch {
		case hasB && !hasC:
			onlyB = append(onlyB, name)
			continue
		case hasC && !hasB:
			onlyC = append(onlyC, name)
			continue
		case b.Unit != c.Unit:
			return nil, nil, nil, false
		}
		d := dir
		if d == Auto {
			if b.Unit != sc.unit || sc.dir == Auto {
				ud, err := unitDirection(b.Unit)
				if err != nil {
					return nil, nil, nil, false
				}
				sc.unit, sc.dir = b.Unit, ud
			}
			d = sc.dir
		}
		br := BenchmarkRatio{
			Name: name, Unit: b.Unit, Direction: d,
			Baseline: b.Baseline, Candidate: c.Baseline,
			BaselineSamples: b.BaselineSamples, CandidateSamples: c.BaselineSamples,
		}
		if d == HigherIsBetter {
			br.Ratio = br.Candidate / br.Baseline
		} else {
			br.Ratio = br.Baseline / br.Candidate
		}
		if !(br.Ratio > 0) || math.IsInf(br.Ratio, 0) {
			return nil, nil, nil, false
		}
		list = append(list, br)
	}
	return list, onlyB, onlyC, true
}

// ratiosByMaps is Ratios for any run: several metrics per benchmark, a
// metric named, and every error.
func ratiosByMaps(run *data.Run, baseline, candidate string, dir Direction, metric string) (RunRatios, error) {
	want := metricUnit(metric)
	// Per variant and benchmark, the samples of each unit, in first-seen
	// order (one unit, nearly always).
	type unitSamples struct {
		unit    string
		samples []float64
	}
	type acc struct {
		unit    string // the chosen unit
		samples []float64
	}
	raw := map[string]map[string][]unitSamples{baseline: {}, candidate: {}}
	for _, m := range run.Measurements {
		byBench, ok := raw[m.Variant]
		if !ok {
			continue
		}
		us := byBench[m.Benchmark]
		k := 0
		for k < len(us) && us[k].unit != m.Unit {
			k++
		}
		if k == len(us) {
			us = append(us, unitSamples{unit: m.Unit})
		}
		us[k].samples = append(us[k].samples, m.Value)
		byBench[m.Benchmark] = us
	}
	vals := map[string]map[string]*acc{baseline: {}, candidate: {}}
	seenWant := false
	// In variant and name order, so that an error names the same
	// benchmark every time.
	for _, variant := range []string{baseline, candidate} {
		byBench := raw[variant]
		for _, bench := range slices.Sorted(maps.Keys(byBench)) {
			us := byBench[bench]
			var pick *unitSamples
			switch {
			case want != "":
				// The unit the metric names (ns/op: sec/op, what the
				// parsers record), or the metric itself as a unit: a CSV
				// file keeps its unit as written (ns/op), and a
				// calibration made from it names that unit.
				for k := range us {
					if us[k].unit == want || us[k].unit == metric && pick == nil {
						pick = &us[k]
					}
				}
			case len(us) == 1:
				pick = &us[0]
			default:
				for k := range us {
					if us[k].unit == defaultMetric {
						pick = &us[k]
					}
				}
				if pick == nil {
					list := make([]string, len(us))
					for k := range us {
						list[k] = us[k].unit
					}
					sort.Strings(list)
					return RunRatios{}, &MetricsError{Run: run.ID, Benchmark: bench, Variant: variant, Metrics: list}
				}
			}
			if pick != nil {
				vals[variant][bench] = &acc{unit: pick.unit, samples: pick.samples}
				seenWant = true
			}
		}
	}
	if want != "" && !seenWant && (len(raw[baseline]) > 0 || len(raw[candidate]) > 0) {
		all := map[string]bool{}
		for _, byBench := range raw {
			for _, us := range byBench {
				for _, u := range us {
					all[u.unit] = true
				}
			}
		}
		list := make([]string, 0, len(all))
		for u := range all {
			list = append(list, u)
		}
		sort.Strings(list)
		return RunRatios{}, &NoMetricError{Run: run.ID, Unit: want, Metric: metric, Has: list}
	}
	for _, v := range []string{baseline, candidate} {
		if len(raw[v]) == 0 {
			return RunRatios{}, fmt.Errorf("run %s has no measurements of variant %q (it has %s)", run.ID, v, strings.Join(run.Variants(), ", "))
		}
	}
	rr := RunRatios{ID: run.ID, Labels: run.Labels, Ratios: map[string]BenchmarkRatio{}}
	// In name order, so that an error names the same benchmark every time.
	names := make([]string, 0, len(vals[baseline]))
	for name := range vals[baseline] {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b := vals[baseline][name]
		c, ok := vals[candidate][name]
		if !ok {
			rr.OnlyBaseline = append(rr.OnlyBaseline, name)
			continue
		}
		if b.unit != c.unit {
			return RunRatios{}, fmt.Errorf("%s: benchmark %s is in %s for %s (baseline) but %s for %s (candidate): expected one unit for both", RunName(run), name, b.unit, baseline, c.unit, candidate)
		}
		d := dir
		if d == Auto {
			var err error
			if d, err = unitDirection(b.unit); err != nil {
				return RunRatios{}, fmt.Errorf("%s, benchmark %s: %w", RunName(run), name, err)
			}
		}
		br := BenchmarkRatio{
			Name: name, Unit: b.unit, Direction: d,
			Baseline: stats.Median(b.samples), Candidate: stats.Median(c.samples),
			BaselineSamples: len(b.samples), CandidateSamples: len(c.samples),
		}
		if d == HigherIsBetter {
			br.Ratio = br.Candidate / br.Baseline
		} else {
			br.Ratio = br.Baseline / br.Candidate
		}
		if !(br.Ratio > 0) || math.IsInf(br.Ratio, 0) {
			return RunRatios{}, fmt.Errorf("%s, benchmark %s: ratio %v is not a finite positive number", RunName(run), name, br.Ratio)
		}
		rr.Ratios[name] = br
	}
	for name := range vals[candidate] {
		if _, ok := vals[baseline][name]; !ok {
			rr.OnlyCandidate = append(rr.OnlyCandidate, name)
		}
	}
	sort.Strings(rr.OnlyBaseline)
	sort.Strings(rr.OnlyCandidate)
	return rr, nil
}

// Names returns the benchmarks of rr in name order.
func (rr *RunRatios) Names() []string {
	names := make([]string, 0, len(rr.Ratios))
	for n := range rr.Ratios {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SuiteScore is one run scored over a suite: the one place where qoscal
// turns a run's ratios into its score (Analyze, Gate and Backtest all call
// ScoreOver).
type SuiteScore struct {
	Run string
	// Score is the geomean of the ratios over the suite; NaN when the run
	// lacks a suite benchmark.
	Score float64
	// LogScore is ln Score: the mean of the log ratios.
	LogScore float64
	// Missing are the suite benchmarks the run lacks, in suite order.
	Missing []string
}

// ScoreOver scores the run over suite: exp((1/k) Σ ln r_i), the geometric
// mean of the per-benchmark ratios (see Score for why never a ratio of
// per-variant geomeans). A run lacking a suite benchmark is not scored:
// its Score is NaN and Missing names what it lacks, so that no score rests
// on a smaller suite than the one it is compared with.
func (rr *RunRatios) ScoreOver(suite []string) SuiteScore {
	s, _ := ScoreOver(rr.ID, suite, func(j int) (float64, bool) {
		br, ok := rr.Ratios[suite[j]]
		return br.Ratio, ok
	}, nil)
	return s
}

// ScoreOver is ScoreOver with the run's ratios given by ratio (the ratio
// of suite[j], if the run has it) and a buffer for the log ratios, which
// it returns for the next call.
func ScoreOver(id string, suite []string, ratio func(j int) (float64, bool), logs []float64) (SuiteScore, []float64) {
	s := SuiteScore{Run: id, Score: math.NaN(), LogScore: math.NaN()}
	logs = logs[:0]
	for j, name := range suite {
		r, ok := ratio(j)
		if !ok {
			s.Missing = append(s.Missing, name)
			continue
		}
		logs = append(logs, math.Log(r))
	}
	if len(s.Missing) == 0 && len(logs) > 0 {
		s.LogScore = stats.Mean(logs)
		s.Score = math.Exp(s.LogScore)
	}
	return s, logs
}

// Ratios returns a run's ratios in name order (see Ratios), valid until
// the next call.
func (sc *RatioScratch) Ratios(run *data.Run, baseline, candidate string, dir Direction, metric string) ([]BenchmarkRatio, error) {
	if list, _, _, ok := sc.ratioList(run, baseline, candidate, dir, metric); ok {
		pairRepetitions(run.Measurements, baseline, candidate, list)
		return list, nil
	}
	rr, err := Ratios(run, baseline, candidate, dir, metric)
	if err != nil {
		return nil, err
	}
	list := make([]BenchmarkRatio, 0, len(rr.Ratios))
	for _, name := range rr.Names() {
		list = append(list, rr.Ratios[name])
	}
	return list, nil
}

// Score returns the geometric mean of the run's ratios over suite:
// exp((1/k) Σ ln r_i). It is the geomean of per-benchmark ratios, never a
// ratio of per-variant geomeans: the two agree only when both variants
// measured exactly the same benchmarks, and a benchmark missing from one
// side would silently change the other's geomean. Every suite benchmark
// must be present.
func (rr *RunRatios) Score(suite []string) (float64, error) {
	if len(suite) == 0 {
		return 0, fmt.Errorf("run %s: empty suite", rr.ID)
	}
	s := rr.ScoreOver(suite)
	if len(s.Missing) > 0 {
		return 0, fmt.Errorf("run %s lacks benchmark %s", rr.ID, s.Missing[0])
	}
	return s.Score, nil
}

// SuiteOf chooses the suite from how many of n runs measured each benchmark
// with both variants. Strict: the benchmarks in more than half the runs
// (runs lacking one of them are then left out). Partial: the benchmarks in
// all runs.
func SuiteOf(count map[string]int, n int, partial bool) (in, dropped []string) {
	for name, c := range count {
		if (partial && c == n) || (!partial && 2*c > n) {
			in = append(in, name)
		} else {
			dropped = append(dropped, name)
		}
	}
	sort.Strings(in)
	sort.Strings(dropped)
	return in, dropped
}
