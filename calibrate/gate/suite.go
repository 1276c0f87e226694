package gate

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
)

// chooseSuite sets the suite the run is scored over, with the benchmarks
// one variant lacks: the calibration's (less what is ignored, or what the
// run lacks when a partial suite is allowed), else every benchmark both
// variants measured. inSuite are the suite's benchmarks; subSuite is set
// when the suite is part of the calibrated one.
func (res *GateResult) chooseSuite(run *data.Run, rr *calibrate.RunRatios, opt GateOptions, ignored map[string]bool, elsewhere []string, warn func(calibrate.Warning)) (inSuite map[string]bool, subSuite bool, err error) {
	if len(rr.Ratios) == 0 {
		return nil, false, inputErrorf("no benchmark in common between %s (%s) and %s (%s)",
			opt.Baseline, listOrNone(namesOf(run, opt.Baseline)), opt.Candidate, listOrNone(namesOf(run, opt.Candidate)))
	}
	res.OnlyOne = append(append([]string{}, rr.OnlyBaseline...), rr.OnlyCandidate...)
	sort.Strings(res.OnlyOne)
	if len(rr.OnlyBaseline) > 0 {
		warn(calibrate.Warning{Kind: calibrate.WarnOneVariantOnly, Benchmarks: rr.OnlyBaseline, Figures: calibrate.OneVariantFigures{Variant: opt.Baseline}})
	}
	if len(rr.OnlyCandidate) > 0 {
		warn(calibrate.Warning{Kind: calibrate.WarnOneVariantOnly, Benchmarks: rr.OnlyCandidate, Figures: calibrate.OneVariantFigures{Variant: opt.Candidate}})
	}
	if opt.Calibration != nil {
		return res.calibratedSuite(run, rr, opt, ignored, warn)
	}
	inSuite = map[string]bool{}
	res.Suite = rr.Names()
	for _, b := range res.Suite {
		inSuite[b] = true
	}
	if opt.Floor > 0 {
		if err := res.uncalibratedSuite(run, *rr, opt, elsewhere, warn); err != nil {
			return nil, false, err
		}
	}
	return inSuite, false, nil
}

// calibratedSuite is chooseSuite with a calibration: its suite, each
// benchmark in the unit and direction it was calibrated in; a run that
// lacks some is refused, unless a partial suite is allowed and enough of
// it is left.
func (res *GateResult) calibratedSuite(run *data.Run, rr *calibrate.RunRatios, opt GateOptions, ignored map[string]bool, warn func(calibrate.Warning)) (inSuite map[string]bool, subSuite bool, err error) {
	cal := opt.Calibration
	inSuite = map[string]bool{}
	for _, b := range cal.Suite {
		if slices.Contains(opt.Ignore, b) {
			ignored[b], subSuite = true, true
			continue
		}
		br, ok := rr.Ratios[b]
		if !ok {
			res.Missing = append(res.Missing, b)
			continue
		}
		if d := cal.DirectionOf(b); d != br.Direction {
			return nil, false, inputErrorf("benchmark %s: %s has it as %s (%s), but %s as %s (%s, field units.%s.direction): expected the direction the floor was calibrated on", b, calibrate.RunName(run), br.Direction, br.Unit, calName(cal), d, cal.Units[b].Unit, b)
		}
		if u := cal.Units[b].Unit; br.Unit != u {
			// Two units of one direction (sec/op and B/op) are still
			// two metrics: a floor on one says nothing of the other.
			return nil, false, &UnitError{Unit: u, Msg: fmt.Sprintf("benchmark %s: %s measured it in %s, but %s has %s (field units.%s.unit)", b, calibrate.RunName(run), br.Unit, calName(cal), u, b)}
		}
		inSuite[b] = true
		res.Suite = append(res.Suite, b)
	}
	for _, b := range rr.Names() {
		if !contains(cal.Suite, b) {
			res.Extra = append(res.Extra, b)
		}
	}
	if len(res.Missing) > 0 {
		if err := res.partialSuite(run, opt, warn); err != nil {
			return nil, false, err
		}
		subSuite = true
	}
	if len(res.Extra) > 0 {
		warn(calibrate.Warning{Kind: calibrate.WarnNotCalibrated, Benchmarks: res.Extra})
	}
	return inSuite, subSuite, nil
}

// partialSuite judges a run that lacks benchmarks of the calibrated
// suite: refused, unless a partial suite is allowed and at least
// MinSuite of it is left.
func (res *GateResult) partialSuite(run *data.Run, opt GateOptions, warn func(calibrate.Warning)) error {
	cal := opt.Calibration
	// A benchmark both variants measured, in two units, did not
	// crash: say so, rather than that one variant lacks it.
	for _, b := range res.Missing {
		if err := unitMismatch(cal, run, opt, b); err != nil {
			return err
		}
	}
	if !opt.AllowPartial {
		return &PartialError{Part: "the common part", Msg: fmt.Sprintf("%s lacks %s of the suite of %s (a crashed benchmark prints no result): the floor was calibrated on all %d benchmarks",
			calibrate.RunName(run), strings.Join(res.Missing, ", "), calName(cal), len(cal.Suite))}
	}
	if len(res.Suite) == 0 {
		return inputErrorf("%s has none of the suite of %s (%s)", calibrate.RunName(run), calName(cal), strings.Join(cal.Suite, ", "))
	}
	minSuite := opt.MinSuite
	if minSuite <= 0 {
		minSuite = DefaultMinSuite(len(cal.Suite))
	}
	if len(res.Suite) < minSuite {
		return inputErrorf("%s has only %d of the %d benchmarks of %s (it lacks %s): fewer than the %d a partial suite needs, too few for its geomean to stand for the suite",
			calibrate.RunName(run), len(res.Suite), len(cal.Suite), calName(cal), strings.Join(res.Missing, ", "), minSuite)
	}
	res.Partial = true
	warn(calibrate.Warning{Kind: calibrate.WarnPartialGate, Benchmarks: res.Missing, Figures: calibrate.PartialFigures{Gated: len(res.Suite), Of: len(cal.Suite)}})
	return nil
}

// withoutBenchmarks returns run without the measurements of the
// benchmarks in ignore (run itself when it has none of them), and the
// set of those it had.
func withoutBenchmarks(run *data.Run, ignore map[string]bool) (*data.Run, map[string]bool) {
	had := map[string]bool{}
	if len(ignore) == 0 {
		return run, had
	}
	kept := make([]data.Measurement, 0, len(run.Measurements))
	for _, m := range run.Measurements {
		if ignore[m.Benchmark] {
			had[m.Benchmark] = true
			continue
		}
		kept = append(kept, m)
	}
	if len(had) == 0 {
		return run, had
	}
	r := *run
	r.Measurements = kept
	return &r, had
}

// uncalibratedSuite holds a run gated on a given floor without a
// calibration to the rule a calibration sets: the suite is every
// benchmark the job measured, by either variant (and, for a pair, in
// either run), so that a benchmark that crashed on one side cannot leave
// the score to the benchmarks that did not. One missing is an error
// naming what each side measured, unless AllowPartial; then the run is
// gated on the benchmarks both measured, if they are at least MinSuite
// (default DefaultMinSuite of the whole).
func (res *GateResult) uncalibratedSuite(run *data.Run, rr calibrate.RunRatios, opt GateOptions, elsewhere []string, warn func(calibrate.Warning)) error {
	all := map[string]bool{}
	for _, list := range [][]string{res.Suite, rr.OnlyBaseline, rr.OnlyCandidate, elsewhere} {
		for _, b := range list {
			all[b] = true
		}
	}
	if len(all) == len(res.Suite) {
		return nil
	}
	for b := range all {
		if _, ok := rr.Ratios[b]; !ok {
			res.Missing = append(res.Missing, b)
		}
	}
	sort.Strings(res.Missing)
	if !opt.AllowPartial {
		return oneSidedError(run, rr, opt)
	}
	of := "variant"
	if elsewhere != nil {
		of = "run"
	}
	minSuite := opt.MinSuite
	if minSuite <= 0 {
		minSuite = DefaultMinSuite(len(all))
	}
	if len(res.Suite) < minSuite {
		return inputErrorf("%s has only %d of the %d benchmarks either %s measured (it lacks %s): fewer than the %d a partial suite needs, too few for its geomean to stand for the suite",
			calibrate.RunName(run), len(res.Suite), len(all), of, strings.Join(res.Missing, ", "), minSuite)
	}
	res.Partial = true
	warn(calibrate.Warning{Kind: calibrate.WarnPartialGate, Benchmarks: res.Missing, Figures: calibrate.PartialFigures{Gated: len(res.Suite), Of: len(all), Either: of}})
	return nil
}

// oneSidedError is the error of a run gated without a calibration in
// which one variant lacks benchmarks the other measured.
func oneSidedError(run *data.Run, rr calibrate.RunRatios, opt GateOptions) error {
	var lacks []string
	if len(rr.OnlyBaseline) > 0 {
		lacks = append(lacks, fmt.Sprintf("%s (candidate) lacks %s", opt.Candidate, strings.Join(rr.OnlyBaseline, ", ")))
	}
	if len(rr.OnlyCandidate) > 0 {
		lacks = append(lacks, fmt.Sprintf("%s (baseline) lacks %s", opt.Baseline, strings.Join(rr.OnlyCandidate, ", ")))
	}
	return &PartialError{Part: "the benchmarks both measured", Msg: fmt.Sprintf("%s: %s (a crashed benchmark prints no result): without a calibration the suite is every benchmark either variant measured: %s measured %s; %s measured %s",
		calibrate.RunName(run), strings.Join(lacks, "; "), opt.Baseline, listOrNone(namesOf(run, opt.Baseline)), opt.Candidate, listOrNone(namesOf(run, opt.Candidate)))}
}

// checkRunUnit checks that each variant of the run has measurements in
// unit, the one unit of the calibration's suite ("": several, checked
// benchmark by benchmark), which the gate compares.
func checkRunUnit(f *model.File, run *data.Run, opt GateOptions, unit string) error {
	if unit == "" {
		return nil
	}
	var lacking []string
	for _, v := range []string{opt.Baseline, opt.Candidate} {
		units := unitsOf(run, v, "")
		if len(units) > 0 && !contains(units, unit) {
			lacking = append(lacking, fmt.Sprintf("%s (it has %s)", v, strings.Join(units, ", ")))
		}
	}
	if len(lacking) == 0 {
		return nil
	}
	return inputErrorf("%s: field units: the floor was calibrated on %s, but %s has no %s measurements of %s: expected results in %s",
		calName(f), unit, calibrate.RunName(run), unit, strings.Join(lacking, " nor of "), unit)
}

// unitMismatch is the error of a suite benchmark that both variants of
// the run measured, in different units (so that it has no ratio), or nil.
func unitMismatch(f *model.File, run *data.Run, opt GateOptions, bench string) error {
	ub, uc := unitsOf(run, opt.Baseline, bench), unitsOf(run, opt.Candidate, bench)
	if len(ub) == 0 || len(uc) == 0 {
		return nil
	}
	return inputErrorf("%s: benchmark %s is in %s for %s (baseline) but %s for %s (candidate): expected both in %s, as %s has it (field units.%s.unit)",
		calibrate.RunName(run), bench, strings.Join(ub, ", "), opt.Baseline, strings.Join(uc, ", "), opt.Candidate, f.Units[bench].Unit, calName(f), bench)
}

// unitsOf returns the units of a variant's measurements in a run, of one
// benchmark (or of all, for bench ""), sorted.
func unitsOf(run *data.Run, variant, bench string) []string {
	seen := map[string]bool{}
	for _, m := range run.Measurements {
		if m.Variant == variant && (bench == "" || m.Benchmark == bench) {
			seen[m.Unit] = true
		}
	}
	out := make([]string, 0, len(seen))
	for u := range seen {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

func namesOf(run *data.Run, variant string) []string {
	seen := map[string]bool{}
	for _, m := range run.Measurements {
		if m.Variant == variant {
			seen[m.Benchmark] = true
		}
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "no benchmarks"
	}
	return strings.Join(names, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
