package present

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/gate"
)

// Headline is the verdict sentence. It opens with the words the title
// opens with (title): a run that passed the floor with benchmarks below
// their bands is "PASS with warnings", never a plain PASS.
func (g *Gate) Headline() string {
	r := g.Res
	what := fmt.Sprintf("%s is %sx %s (geomean)", g.Run.Candidate, ratio(r.Score), g.Run.Baseline)
	if len(r.Pair) == 2 {
		what = fmt.Sprintf("%s is %sx %s (geomean, the mean of two runs: %s %sx, %s %sx)", g.Run.Candidate, ratio(r.Score), g.Run.Baseline,
			r.Pair[0].ID, ratio(r.Pair[0].Score), r.Pair[1].ID, ratio(r.Pair[1].Score))
	}
	if r.Partial {
		what += fmt.Sprintf(" on the partial suite of %d benchmarks", len(r.Suite))
	}
	if r.RepetitionFloor > 0 {
		what = fmt.Sprintf("%s is %sx %s (geomean, the mean of %s)", g.Run.Candidate, ratio(r.Score), g.Run.Baseline, Plural(r.Repetitions, "repetition"))
	}
	floor := ""
	if r.Floor > 0 {
		floor = g.FloorText() + "x floor"
		if r.SubSuiteFloor > 0 {
			floor = fmt.Sprintf("%sx floor of that sub-suite (recomputed from the calibration; the whole suite's is %sx)", g.FloorText(), g.Cal.FloorText)
		}
		if r.RepetitionFloor > 0 {
			floor = fmt.Sprintf("%sx floor for a mean of %s (from the calibration's variance components; one run's is %sx)", g.FloorText(), Plural(r.Repetitions, "repetition"), g.Cal.FloorText)
		}
	}
	on := ""
	if r.RunnerDegraded && r.Verdict != gate.VerdictInconclusive {
		on = " on a degraded runner"
	}
	// A benchmark below its band fails (or warns) a run whose score passes.
	bandFail := r.Score >= r.Floor && r.Floor > 0 && len(r.Below) > 0 && r.PerBenchmark == gate.PerBenchmarkFail
	below := ""
	if len(r.Below) > 0 {
		below = fmt.Sprintf("%s below %s", strings.Join(r.Below, ", "), map[bool]string{true: "its calibrated band", false: "their calibrated bands"}[len(r.Below) == 1])
	}
	h := g.headline()
	var s string
	switch {
	case r.Sequential != nil && !bandFail && r.Verdict != gate.VerdictInconclusive:
		s = g.sequentialLine(what, on)
	case len(r.CarriedBy) > 0:
		s = g.carried(what, floor)
	case r.Verdict == gate.VerdictPass && h.word == wordPass:
		s = fmt.Sprintf("PASS: %s, >= %s.", what, floor)
	case r.Verdict == gate.VerdictPass:
		// A partial suite is said in what, not again after "but".
		var but []string
		for i, k := range h.kinds {
			if k != calibrate.WarnPartialGate {
				but = append(but, h.reasons[len(h.reasons)-len(h.kinds)+i])
			}
		}
		if len(but) == 0 {
			s = fmt.Sprintf("%s: %s, >= %s.", h.word, what, floor)
		} else {
			s = fmt.Sprintf("%s: %s, >= %s, but: %s.", h.word, what, floor, strings.Join(but, "; "))
		}
	case r.Verdict == gate.VerdictFail && bandFail:
		s = fmt.Sprintf("FAIL%s: %s, >= %s, but %s.", on, what, floor, below)
	case r.Verdict == gate.VerdictFail:
		s = fmt.Sprintf("FAIL%s: %s, below the %s.", on, what, floor)
	case r.Verdict == gate.VerdictWarn && bandFail:
		s = fmt.Sprintf("below a band%s: %s, >= %s, but %s.", on, what, floor, below)
	case r.Verdict == gate.VerdictWarn:
		s = fmt.Sprintf("below the floor%s: %s, below the %s.", on, what, floor)
	case r.Verdict == gate.VerdictRerun:
		s = fmt.Sprintf("RERUN%s: %s, below the %s by less than the rerun band: inconclusive, measure again on a fresh runner.", on, what, floor)
	case r.Verdict == gate.VerdictInconclusive:
		s = fmt.Sprintf("%s: %s against the %s, but the runner looks degraded: rerun on a healthy runner.", wordCouldNotJudge, what, floor)
	default:
		s = fmt.Sprintf("%s.", what)
	}
	if g.Cal != nil {
		s += fmt.Sprintf(" Calibration %s: %d runs, lowest %s, median %s; this run %s.", g.CalPath, g.Cal.Runs, ratio(g.Cal.Observed.Min), ratio(g.Cal.Observed.Median), ratio(r.Score))
		if r.FloorSource == gate.FloorGiven {
			s += fmt.Sprintf(" The floor comes from %s, not from the calibration file.", g.GivenFloor)
		}
	}
	return s
}

// The words a verdict's title opens with.
const (
	wordPass             = "PASS"
	wordPassWithWarnings = "PASS with warnings"
	wordFail             = "FAIL"
	wordRerun            = "RERUN"
	wordCouldNotJudge    = "COULD NOT JUDGE"
)

// headlineParts are a verdict's title: its word, what decided it, then
// what qualifies it (the gate's warnings that argue against the verdict
// or weaken it), and the kinds of those warnings.
type headlineParts struct {
	word    string
	reasons []string
	kinds   []calibrate.WarningKind
}

// headline weighs all the evidence of the gate into its title: the
// verdict, what decided it (the score against the floor, a band, the
// runner, a benchmark far above its band), and the warnings that
// qualify it, in this order: benchmarks below their bands, benchmarks
// far above them, a degraded runner, a partial suite. A pass qualified
// by any is "PASS with warnings".
func (g *Gate) headline() headlineParts {
	r := g.Res
	var h headlineParts
	used := map[calibrate.WarningKind]bool{}
	floor := ""
	if r.Floor > 0 {
		floor = g.FloorText() + "x floor"
	}
	belowFloor := fmt.Sprintf("%sx below the %s", ratio(r.Score), floor)
	carried := func() string {
		return fmt.Sprintf("rests on %s, far above %s", strings.Join(r.CarriedBy, ", "), map[bool]string{true: "its band", false: "their bands"}[len(r.CarriedBy) == 1])
	}
	bandDecided := func() {
		h.reasons = append(h.reasons, g.bandReason(r.Below, "below", "band"))
		h.kinds = append(h.kinds, calibrate.WarnBelowBand)
		used[calibrate.WarnBelowBand] = true
	}
	switch r.Verdict {
	case gate.VerdictPass:
		h.word = wordPass
	case gate.VerdictFail:
		h.word = wordFail
		if r.Score < r.Floor {
			h.reasons = append(h.reasons, belowFloor)
		} else if len(r.Below) > 0 {
			bandDecided()
		}
	case gate.VerdictRerun:
		h.word = wordRerun
		if q := r.Sequential; q != nil {
			// At its limit, a sequential gate's score is between its two
			// boundaries, not below its floor.
			h.reasons = append(h.reasons, fmt.Sprintf("%sx after %d repetitions, between the sequential gate's %sx floor and the %sx at which it passes: measure again",
				ratio(r.Score), q.Repetitions, floor3(q.FailFloor), floor3(q.PassFloor)))
			break
		}
		h.reasons = append(h.reasons, fmt.Sprintf("%sx just below the %s, within the rerun band: measure again", ratio(r.Score), floor))
	case gate.VerdictInconclusive:
		h.word = wordCouldNotJudge
		if len(r.CarriedBy) > 0 {
			h.reasons = append(h.reasons, carried())
		} else if r.RunnerDegraded {
			h.reasons = append(h.reasons, "runner degraded: rerun on a healthy runner")
			h.kinds = append(h.kinds, calibrate.WarnRunnerDegraded)
			used[calibrate.WarnRunnerDegraded] = true
		}
	case gate.VerdictWarn:
		switch {
		case len(r.CarriedBy) > 0:
			h.word = "could not judge (report-only)"
			h.reasons = append(h.reasons, carried())
		case r.Score < r.Floor:
			h.word = "below the floor (report-only)"
			h.reasons = append(h.reasons, belowFloor)
		default:
			h.word = "below a band (report-only)"
			bandDecided()
		}
	case gate.VerdictUngated:
		h.word = "not gated"
	}
	if len(r.Below) > 0 && !used[calibrate.WarnBelowBand] {
		h.reasons = append(h.reasons, g.bandReason(r.Below, "below", "band"))
		h.kinds = append(h.kinds, calibrate.WarnBelowBand)
	}
	var above []string
	for _, b := range r.Above {
		if !slices.Contains(r.CarriedBy, b) {
			above = append(above, b)
		}
	}
	if len(above) > 0 {
		h.reasons = append(h.reasons, g.bandReason(above, "far above", "band"))
		h.kinds = append(h.kinds, calibrate.WarnAboveBand)
	}
	if r.RunnerDegraded && !used[calibrate.WarnRunnerDegraded] {
		h.reasons = append(h.reasons, "runner degraded")
		h.kinds = append(h.kinds, calibrate.WarnRunnerDegraded)
	}
	if r.Partial {
		h.reasons = append(h.reasons, fmt.Sprintf("partial suite, %d of %d benchmarks (missing %s)", len(r.Suite), len(r.Suite)+len(r.Missing), listSome(r.Missing, headlineNames)))
		h.kinds = append(h.kinds, calibrate.WarnPartialGate)
	}
	if h.word == wordPass && len(h.kinds) > 0 {
		h.word = wordPassWithWarnings
	}
	return h
}

// headlineNames is how many benchmarks a title names before it says how
// many more there are.
const headlineNames = 3

// bandReason names benchmarks outside their bands, worst first, with
// their ratios to usual: "2 benchmarks below their bands (rptest 0.59x
// usual, mstress 0.78x usual)".
func (g *Gate) bandReason(names []string, where, band string) string {
	var rows []gateRow
	for _, b := range g.Res.Benchmarks {
		if slices.Contains(names, b.Name) {
			rows = append(rows, b)
		}
	}
	// Below: the lowest first; far above: the highest first.
	sort.SliceStable(rows, func(i, j int) bool {
		if where == "below" {
			return rows[i].VsUsual < rows[j].VsUsual
		}
		return rows[i].VsUsual > rows[j].VsUsual
	})
	var parts []string
	for _, b := range rows {
		parts = append(parts, fmt.Sprintf("%s %sx usual", b.Name, ratio(b.VsUsual)))
	}
	their := "their " + band + "s"
	if len(names) == 1 {
		their = "its " + band
	}
	return fmt.Sprintf("%s %s %s (%s)", Plural(len(names), "benchmark"), where, their, listSome(parts, headlineNames))
}

// sequentialLine is the verdict sentence of a run that a sequential gate
// measured and judged after each repetition (docs/STATS.md 2.16).
func (g *Gate) sequentialLine(what, on string) string {
	q := g.Res.Sequential
	f, p := floor3(q.FailFloor), floor3(q.PassFloor)
	after := fmt.Sprintf("after %d of at most %d repetitions", q.Repetitions, q.MaxRepetitions)
	switch g.Res.Verdict {
	case gate.VerdictPass:
		return fmt.Sprintf("PASS%s %s: %s, above the %sx at which the sequential gate passes (it fails below %sx).", on, after, what, p, f)
	case gate.VerdictFail:
		return fmt.Sprintf("FAIL%s %s: %s, below the sequential gate's %sx floor (it passes above %sx).", on, after, what, f, p)
	case gate.VerdictWarn:
		return fmt.Sprintf("below the floor%s %s: %s, below the sequential gate's %sx floor (it passes above %sx).", on, after, what, f, p)
	}
	return fmt.Sprintf("RERUN%s: after the limit of %d repetitions %s, between the sequential gate's %sx floor and the %sx at which it passes: undecided, measure again on a fresh runner.", on, q.MaxRepetitions, what, f, p)
}

// floor3 is a sequential gate's boundary as a score, to 3 decimals.
func floor3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// carried is the verdict sentence of a run whose verdict rests on
// benchmarks far above their bands (docs/STATS.md 2.10a): what it scored,
// which benchmarks it rests on, and what the score is with them at their
// bands' upper edges.
func (g *Gate) carried(what, floor string) string {
	r := g.Res
	names := strings.Join(r.CarriedBy, ", ")
	title := wordCouldNotJudge
	if r.Verdict == gate.VerdictWarn {
		title = "could not judge (report-only)"
	}
	far := fmt.Sprintf("%s, far above their calibrated bands: with them at their bands' upper edges", names)
	if len(r.CarriedBy) == 1 {
		usual := ""
		for _, b := range r.Benchmarks {
			if b.Name == names && !math.IsNaN(b.VsUsual) {
				usual = fmt.Sprintf(" (%sx its usual ratio)", ratio(b.VsUsual))
			}
		}
		far = fmt.Sprintf("%s, far above its calibrated band%s: with %s at its band's upper edge", names, usual, names)
	}
	return fmt.Sprintf("%s: %s against the %s, but the verdict rests on %s the score would be %sx, below the floor. A benchmark far above its band is more often broken than improved: check %s, then rerun.",
		title, what, floor, far, ratio(r.CappedScore), names)
}

// title is the verdict as a summary's title (and a pull-request
// comment's) says it, and the JSON's headline: its word, then what
// decided it and what qualifies it: "PASS", "PASS with warnings: 2
// benchmarks below their bands (rptest 0.59x usual, mstress 0.78x
// usual)", "FAIL: 1.15x below the 1.16x floor".
func (g *Gate) title() string {
	h := g.headline()
	if len(h.reasons) == 0 {
		return h.word
	}
	return h.word + ": " + strings.Join(h.reasons, "; ")
}

// Word is the title's first words: PASS, PASS with warnings, FAIL,
// RERUN, COULD NOT JUDGE, or the report-only and ungated words.
func (g *Gate) Word() string { return g.headline().word }

// warningsDecided are the kinds of the gate's warnings that the title
// names (below-band, above-band, runner-degraded, partial-gate).
func (g *Gate) warningsDecided() []string {
	out := []string{}
	for _, k := range g.headline().kinds {
		out = append(out, string(k))
	}
	return out
}
