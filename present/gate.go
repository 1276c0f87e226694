// Package present turns qoscal's results into views: for each command,
// one value that holds every figure it shows, with the names of
// docs/json.md for machine output, and a render.Doc for people. A figure
// is computed and laid out once, here; render draws it in each format.
// It also says in the command line's words what package calibrate
// returns as values: its warnings (WarningText) and the errors a flag
// puts right (Error), naming that flag. Nothing here reads files,
// computes a statistic or writes to a terminal.
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
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/render"
)

// Gate is the view of a gate verdict.
type Gate struct {
	Res     *gate.GateResult
	Run     *data.Run
	Cal     *model.File // nil without a calibration file
	CalPath string
	// Tag is the ratio distance from 1 beyond which a benchmark is tagged
	// faster or SLOWER.
	Tag float64
	// GivenFloor is how the command names a floor given to it (the flag).
	GivenFloor string
	// ExitCode is the exit code the verdict leaves with.
	ExitCode int
	// Warnings are the gate's warnings in the command's words.
	Warnings []string
	// RerunCommand is the command that measured the run again after a
	// rerun verdict (gate --rerun-command); Res is then the pair's
	// verdict, and Res.Pair the run and its rerun. "" without a rerun.
	RerunCommand string
	// Environment is the run's CPU model and image, and where the gate
	// found them; nil when it found neither.
	Environment *GateEnvironment
	// Profile is the value of the label the calibration's profiles are
	// by whose profile judged the run (Cal is then that profile's
	// calibration, and Full the file with all of them); "" when no
	// profile did.
	Profile string
	Full    *model.File
}

// gateRow is one benchmark row.
type gateRow = gate.GateBenchmark

// columns are the gate table's columns: every format takes its columns
// from here, so a column added here is in the text, the Markdown and the
// JSON.
func (g *Gate) columns() []render.Column[gateRow] {
	base, cand := g.Run.Baseline, g.Run.Candidate
	cols := []render.Column[gateRow]{
		{Head: "benchmark", Cell: func(b gateRow) string { return b.Name }, Key: "name", JSON: func(b gateRow) any { return b.Name }},
		{Key: "unit", JSON: func(b gateRow) any { return b.Unit }},
		{Key: "direction", JSON: func(b gateRow) any { return b.Direction.Key() }},
		{Head: base, Align: render.Right, Cell: func(b gateRow) string { return Value(b.Baseline, b.Unit) },
			Key: "baseline", JSON: func(b gateRow) any { return render.Float(b.Baseline) }},
		{Head: cand, Align: render.Right, Cell: func(b gateRow) string { return Value(b.Candidate, b.Unit) },
			Key: "candidate", JSON: func(b gateRow) any { return render.Float(b.Candidate) }},
		{Head: cand + "/" + base, Align: render.Right, Cell: func(b gateRow) string { return X(b.Ratio) + "x" },
			Key: "ratio", JSON: func(b gateRow) any { return render.Float(b.Ratio) }},
		{Key: "baseline_samples", JSON: func(b gateRow) any { return b.BaselineSamples }},
		{Key: "candidate_samples", JSON: func(b gateRow) any { return b.CandidateSamples }},
		{Key: "in_score", JSON: func(b gateRow) any { return b.InScore }},
		{Key: "health_z", JSON: func(b gateRow) any { return render.Float(b.HealthZ) }},
		{Key: "usual", JSON: func(b gateRow) any { return render.Float(b.Usual) }},
		{Key: "vs_usual", JSON: func(b gateRow) any { return render.Float(b.VsUsual) }},
		{Key: "band", JSON: func(b gateRow) any { return optional(b.Band) }},
		{Key: "band_lower", JSON: func(b gateRow) any { return render.Float(b.BandLower) }},
		{Key: "band_upper", JSON: func(b gateRow) any { return render.Float(b.BandUpper) }},
	}
	if g.HasModel() {
		cols = append(cols, render.Column[gateRow]{Head: "vs calibration", Cell: vsCalibration})
	}
	return append(cols, render.Column[gateRow]{MarkdownHead: "note", Cell: g.note})
}

// HasModel reports whether the calibration carries the model (its
// matrix), which the "vs calibration" column needs.
func (g *Gate) HasModel() bool { return g.Cal != nil && g.Cal.Matrix != nil }

// vsCalibration is a benchmark's ratio against its usual one: "0.48x
// usual" (the note says where that is against its band).
func vsCalibration(b gateRow) string {
	if math.IsNaN(b.VsUsual) {
		return ""
	}
	return X(b.VsUsual) + "x usual"
}

// bandWords are the note of a benchmark judged against its calibrated
// band.
var bandWords = map[string]string{
	gate.BandBelow: "below band", gate.BandAbove: "above band", gate.BandWithin: "within band",
}

// bandReach says how far the band reaches from the benchmark's usual
// ratio, on the side a reviewer looks at: down for a benchmark within or
// below its band ("−47%": a ratio down to 0.53x its usual is within it),
// up for one above it ("+90%"). "" without a band.
func bandReach(b gateRow) string {
	edge := b.BandLower
	if b.Band == gate.BandAbove {
		edge = b.BandUpper
	}
	if !(edge > 0) || !(b.Usual > 0) {
		return ""
	}
	return signedPct(edge/b.Usual - 1)
}

// signedPct is a change as a whole percentage with its sign: "+12%",
// "−47%" (a minus sign, not a hyphen).
func signedPct(f float64) string {
	p := math.Round(100 * f)
	switch {
	case p < 0:
		return fmt.Sprintf("\u2212%.0f%%", -p)
	case p > 0:
		return fmt.Sprintf("+%.0f%%", p)
	}
	return "0%"
}

// bandSentence says under the table why the bands are as wide as they
// are at this many calibration runs, and how many runs would narrow them:
// a reviewer reading "0.52x usual, within band" needs to know that the
// band reaches that far because it rests on few runs.
func (g *Gate) bandSentence() string {
	w := g.Res.BandWidth
	if w == nil || !g.HasModel() {
		return ""
	}
	s := fmt.Sprintf("Each band is a prediction bound at %s a benchmark (Holm's first step) from the calibration's %d runs: its edge lies %s SDs of the benchmark's log ratio from their mean, where unlimited runs would put it %s SDs away, since a band must also hold the error of a mean and an SD estimated from %d runs.",
		Rate(w.Level), w.Runs, Dec(w.Multiple, 1), Dec(w.Limit, 1), w.Runs)
	switch {
	case w.RunsNear > w.Runs:
		s += fmt.Sprintf(" About %d runs would bring the edges within 10%% of that (calibrate on more runs, or on runs of more repetitions, whose ratios vary less).", w.RunsNear)
	case w.RunsNear > 0:
		s += " More runs would narrow the bands little."
	}
	return s
}

// tag returns "faster", "SLOWER" or "" for a ratio.
func (g *Gate) tag(r float64) string {
	switch {
	case r > 1+g.Tag:
		return "faster"
	case r < 1-g.Tag:
		return "SLOWER"
	}
	return ""
}

// note is the last column: with a calibration, where the ratio stands
// against its calibrated band ("below band"; nothing when the bands are
// not judged), without one (or for a benchmark the calibration lacks)
// the tag against parity (faster, SLOWER), then
// how the row was measured. A calibrated benchmark's usual ratio need
// not be 1, so a parity tag beside it would contradict the band (0.95x,
// 1.11x usual, SLOWER).
func (g *Gate) note(b gateRow) string {
	note := g.tag(b.Ratio)
	if g.HasModel() && !math.IsNaN(b.VsUsual) {
		note = bandWords[b.Band]
		if r := bandReach(b); note != "" && r != "" {
			note += " (band reaches " + r + ")"
		}
	}
	if b.BaselineSamples > 1 || b.CandidateSamples > 1 {
		note = strings.TrimSpace(note + fmt.Sprintf("  (median of %d/%d samples)", b.BaselineSamples, b.CandidateSamples))
	}
	if !b.InScore {
		note = strings.TrimSpace(note + "  (not in the calibrated suite: left out)")
	}
	return note
}

// Rows are the benchmark rows as the table shows them: with a
// calibration's model, worst first by ratio to usual (the benchmarks not
// compared with it last, by name), so that what argues against the run
// is read first; without one, in name order.
func (g *Gate) Rows() []gateRow {
	rows := append([]gateRow(nil), g.Res.Benchmarks...)
	if !g.HasModel() {
		return rows
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i].VsUsual, rows[j].VsUsual
		switch {
		case math.IsNaN(a) || math.IsNaN(b):
			return !math.IsNaN(a) && math.IsNaN(b)
		case a != b:
			return a < b
		}
		return false
	})
	return rows
}

// Table is the benchmark table with its geomean row.
func (g *Gate) Table() *render.Table {
	t := render.NewTable(g.columns(), g.Rows())
	row := []string{"geomean", "", "", X(g.Res.Score) + "x"}
	if g.HasModel() {
		row = append(row, "")
	}
	t.AddRow(append(row, "over "+Plural(len(g.Res.Suite), "benchmark"))...)
	return t
}

// Header says what is compared, in which run, in which units.
func (g *Gate) Header() string {
	return fmt.Sprintf("%s (candidate) vs %s (baseline), run %s: %s", g.Run.Candidate, g.Run.Baseline, g.Run.ID, g.units())
}

// RunLine says the run first, then what is compared in which units: the
// step summary's line under the verdict.
func (g *Gate) RunLine() string {
	return fmt.Sprintf("Run %s: %s (candidate) vs %s (baseline); %s.", g.Run.ID, g.Run.Candidate, g.Run.Baseline, g.units())
}

// units lists the units of the benchmarks and their directions.
func (g *Gate) units() string {
	dirs := map[string]bool{}
	for _, b := range g.Res.Benchmarks {
		dirs[b.Unit+", "+b.Direction.String()] = true
	}
	var d []string
	for k := range dirs {
		d = append(d, k)
	}
	sort.Strings(d)
	return strings.Join(d, "; ")
}

// FloorText is the floor as the gate prints it: the calibration file's
// text, or the given number as given.
func (g *Gate) FloorText() string {
	if g.Res.FloorSource == gate.FloorCalibration {
		if g.Res.RepetitionFloor > 0 {
			return g.Cal.FormatFloor(g.Res.RepetitionFloor)
		}
		if g.Res.SubSuiteFloor > 0 {
			return g.Cal.FormatFloor(g.Res.SubSuiteFloor)
		}
		return g.Cal.FloorText
	}
	return strconv.FormatFloat(g.Res.Floor, 'f', -1, 64)
}

// Headline is the verdict sentence. It opens with the words the title
// opens with (Title): a run that passed the floor with benchmarks below
// their bands is "PASS with warnings", never a plain PASS.
func (g *Gate) Headline() string {
	r := g.Res
	what := fmt.Sprintf("%s is %sx %s (geomean)", g.Run.Candidate, X(r.Score), g.Run.Baseline)
	if len(r.Pair) == 2 {
		what = fmt.Sprintf("%s is %sx %s (geomean, the mean of two runs: %s %sx, %s %sx)", g.Run.Candidate, X(r.Score), g.Run.Baseline,
			r.Pair[0].ID, X(r.Pair[0].Score), r.Pair[1].ID, X(r.Pair[1].Score))
	}
	if r.Partial {
		what += fmt.Sprintf(" on the partial suite of %d benchmarks", len(r.Suite))
	}
	if r.RepetitionFloor > 0 {
		what = fmt.Sprintf("%s is %sx %s (geomean, the mean of %s)", g.Run.Candidate, X(r.Score), g.Run.Baseline, Plural(r.Repetitions, "repetition"))
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
		s += fmt.Sprintf(" Calibration %s: %d runs, lowest %s, median %s; this run %s.", g.CalPath, g.Cal.Runs, X(g.Cal.Observed.Min), X(g.Cal.Observed.Median), X(r.Score))
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
	belowFloor := fmt.Sprintf("%sx below the %s", X(r.Score), floor)
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
		h.reasons = append(h.reasons, fmt.Sprintf("%sx just below the %s, within the rerun band: measure again", X(r.Score), floor))
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
		h.reasons = append(h.reasons, fmt.Sprintf("partial suite, %d of %d benchmarks (missing %s)", len(r.Suite), len(r.Suite)+len(r.Missing), ListSome(r.Missing, headlineNames)))
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
		parts = append(parts, fmt.Sprintf("%s %sx usual", b.Name, X(b.VsUsual)))
	}
	their := "their " + band + "s"
	if len(names) == 1 {
		their = "its " + band
	}
	return fmt.Sprintf("%s %s %s (%s)", Plural(len(names), "benchmark"), where, their, ListSome(parts, headlineNames))
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
				usual = fmt.Sprintf(" (%sx its usual ratio)", X(b.VsUsual))
			}
		}
		far = fmt.Sprintf("%s, far above its calibrated band%s: with %s at its band's upper edge", names, usual, names)
	}
	return fmt.Sprintf("%s: %s against the %s, but the verdict rests on %s the score would be %sx, below the floor. A benchmark far above its band is more often broken than improved: check %s, then rerun.",
		title, what, floor, far, X(r.CappedScore), names)
}

// Title is the verdict as a summary's title (and a pull-request
// comment's) says it, and the JSON's headline: its word, then what
// decided it and what qualifies it: "PASS", "PASS with warnings: 2
// benchmarks below their bands (rptest 0.59x usual, mstress 0.78x
// usual)", "FAIL: 1.15x below the 1.16x floor".
func (g *Gate) Title() string {
	h := g.headline()
	if len(h.reasons) == 0 {
		return h.word
	}
	return h.word + ": " + strings.Join(h.reasons, "; ")
}

// Word is the title's first words: PASS, PASS with warnings, FAIL,
// RERUN, COULD NOT JUDGE, or the report-only and ungated words.
func (g *Gate) Word() string { return g.headline().word }

// WarningsDecided are the kinds of the gate's warnings that the title
// names (below-band, above-band, runner-degraded, partial-gate).
func (g *Gate) WarningsDecided() []string {
	out := []string{}
	for _, k := range g.headline().kinds {
		out = append(out, string(k))
	}
	return out
}

// floorSentence says where the floor came from.
func (g *Gate) floorSentence() string {
	s := g.floorSource()
	if g.Res.FloorSource == gate.FloorCalibration && g.Cal != nil && g.Cal.Floor < 1 {
		s += fmt.Sprintf(" The calibration's floor %sx is below 1.0: it accepts a candidate slower than the baseline, as calibrated on runs that score about 1.0 or below.", g.Cal.FloorText)
	}
	return s
}

func (g *Gate) floorSource() string {
	switch g.Res.FloorSource {
	case gate.FloorCalibration:
		if q := g.Res.Sequential; q != nil {
			return fmt.Sprintf("Sequential gate from the calibration file %s (%d runs) and its variance components: it fails a healthy job at most %s of the time (the calibration's claimed rate, spent over at most %d repetitions by Lan–DeMets O'Brien–Fleming-type boundaries), and passes a job %s slower at most one time in ten (docs/STATS.md 2.16).",
				g.CalPath, g.Cal.Runs, Rate(q.Alpha), q.MaxRepetitions, Pct(q.Slide))
		}
		if g.Res.RepetitionFloor > 0 {
			v := g.Cal.Variance
			return fmt.Sprintf("Floor %sx for the mean of %d repetitions, from the calibration file %s (%s method, %d runs; floor %sx) and its variance components (SD of the log score %s between jobs, %s between repetitions).",
				g.FloorText(), g.Res.Repetitions, g.CalPath, g.Cal.Method, g.Cal.Runs, g.Cal.FloorText, strconv.FormatFloat(v.Between, 'f', 4, 64), strconv.FormatFloat(v.Within, 'f', 4, 64))
		}
		if g.Res.SubSuiteFloor > 0 {
			return fmt.Sprintf("Floor %sx for the sub-suite of %d benchmarks, recomputed from the calibration file %s (%s method, %d runs; the whole suite's floor is %sx).",
				g.FloorText(), len(g.Res.Suite), g.CalPath, g.Cal.Method, g.Cal.Runs, g.Cal.FloorText)
		}
		return fmt.Sprintf("Floor %sx from the calibration file %s (%s method, %d runs).", g.FloorText(), g.CalPath, g.Cal.Method, g.Cal.Runs)
	case gate.FloorGiven:
		return fmt.Sprintf("Floor %sx from %s.", g.FloorText(), g.GivenFloor)
	}
	return "No floor set: not gating."
}

// costSentence says what the floor costs, as the calibration file
// claims: how often a healthy run trips it, and how often the bands flag
// a healthy run; "" without a calibration. A reviewer weighs a FAIL, or a
// benchmark below its band, by it.
func (g *Gate) costSentence() string {
	c := g.Cal
	if c == nil {
		return ""
	}
	var s string
	switch {
	case g.Res.FloorSource == gate.FloorGiven:
		s = fmt.Sprintf("What the floor costs: not known for a floor given with %s; the calibration's own floor %sx trips a healthy run %s (predictive; at most %s with no model).",
			g.GivenFloor, c.FloorText, HowOften(float64(c.FPR.Predictive)), PerRun(float64(c.FPR.DistributionFree)))
	case g.Res.SubSuiteFloor > 0:
		s = fmt.Sprintf("What the floor costs: the calibration's floor %sx for the whole suite trips a healthy run %s (predictive; at most %s with no model), as %s claims; the sub-suite's floor is set by the same method.",
			c.FloorText, HowOften(float64(c.FPR.Predictive)), PerRun(float64(c.FPR.DistributionFree)), g.CalPath)
	default:
		s = fmt.Sprintf("What the floor costs: a healthy run trips it %s (predictive; at most %s with no model), as %s claims.",
			HowOften(float64(c.FPR.Predictive)), PerRun(float64(c.FPR.DistributionFree)), g.CalPath)
	}
	if g.Res.PerBenchmark != gate.PerBenchmarkOff {
		s += fmt.Sprintf(" The bands flag a healthy run at most %s (family-wise).", PerRun(c.RecommendOptions().FamilyAlpha))
	}
	return s
}

// healthSentence says how the runner looked, healthy or not: the median
// robust z of the baselines against their calibrated history and its
// cut-off; "" without a calibration.
func (g *Gate) healthSentence() string {
	r := g.Res
	switch r.RunnerHealth {
	case gate.RunnerHealthOK, gate.RunnerHealthDegraded:
		state := "healthy"
		if r.RunnerDegraded {
			state = "degraded"
		}
		return fmt.Sprintf("Runner health: %s: the baselines' median robust z is %s against their calibrated history (over %s; degraded below %s, the cut-off for %d calibration runs).",
			state, Dec(r.MedianZ, 2), Plural(r.RunnerChecked, "benchmark"), Dec(r.RunnerCutoffZ, 2), g.Cal.Runs)
	case gate.RunnerHealthUnchecked:
		return "Runner health: not checked (the calibration gives no usable baseline history)."
	}
	return ""
}

// ignoredSentence says what --ignore left out, once; "" when nothing.
func (g *Gate) ignoredSentence() string {
	if len(g.Res.Ignored) == 0 {
		return ""
	}
	return fmt.Sprintf("Left out on purpose (--ignore): %s.", strings.Join(g.Res.Ignored, ", "))
}

// Doc is the gate's document: in a terminal the header and the table (the
// command prints the verdict as its output rules say); in Markdown (the
// step summary, a pull-request comment) the verdict first, as the title
// and its sentence, then the run, the table, the floor and where it came
// from, what it costs, the runner's health, and the warnings. What
// --ignore left out is said in both.
func (g *Gate) Doc() *render.Doc {
	d := &render.Doc{}
	text, md := render.In{Only: render.Text}, render.In{Only: render.Markdown}
	d.Add(
		&render.Lines{In: text, Lines: []string{g.Header()}},
		&render.Blank{In: text},
		&render.Heading{In: md, Level: 3, Text: "qoscal gate: " + g.Title()},
		&render.Paragraph{In: md, Text: g.Headline()},
		&render.Paragraph{In: md, Text: g.RunLine()},
		g.Table(),
		&render.Paragraph{In: md, Text: g.floorSentence()},
	)
	if s := g.profileSentence(); s != "" {
		d.Add(&render.Paragraph{In: md, Text: s}, &render.Lines{In: text, Lines: []string{"", s}})
	}
	if s := g.bandSentence(); s != "" {
		d.Add(&render.Paragraph{In: md, Text: s})
	}
	for _, p := range []string{g.RerunSentence(), g.costSentence(), g.healthSentence()} {
		if p != "" {
			d.Add(&render.Paragraph{In: md, Text: p})
		}
	}
	if s := g.ignoredSentence(); s != "" {
		d.Add(&render.Paragraph{In: md, Text: s}, &render.Blank{In: text}, &render.Lines{In: text, Lines: []string{s}})
	}
	if len(g.Warnings) > 0 {
		items := make([]string, len(g.Warnings))
		for i, w := range g.Warnings {
			items[i] = "warning: " + w
		}
		d.Add(&render.List{In: md, Items: items})
	}
	d.Add(&render.Blank{In: md})
	if g.Cal != nil || g.Res.Floor > 0 {
		d.Add(&render.Blank{In: text})
	}
	return d
}

// GateJSON is the gate's JSON document (docs/json.md).
type GateJSON struct {
	Verdict         string           `json:"verdict"`
	Headline        string           `json:"headline"`
	WarningsDecided []string         `json:"warnings_decided"`
	Ignored         []string         `json:"ignored"`
	Score           render.Float     `json:"score"`
	Floor           *float64         `json:"floor"`
	FloorSource     *string          `json:"floor_source"`
	ExitCode        int              `json:"exit_code"`
	Run             string           `json:"run"`
	Baseline        string           `json:"baseline"`
	Candidate       string           `json:"candidate"`
	Suite           []string         `json:"suite"`
	Benchmarks      []render.Object  `json:"benchmarks"`
	Missing         []string         `json:"missing"`
	Extra           []string         `json:"extra"`
	Partial         bool             `json:"partial"`
	RunnerDegraded  bool             `json:"runner_degraded"`
	MedianZ         render.Float     `json:"runner_median_z"`
	RunnerCutoffZ   render.Float     `json:"runner_cutoff_z"`
	RunnerHealth    *string          `json:"runner_health"`
	RunnerChecked   int              `json:"runner_checked"`
	RunnerFlat      []string         `json:"runner_flat"`
	Calibration     *GateCalibration `json:"calibration"`
	Warnings        []string         `json:"warnings"`
	Message         string           `json:"message"`
	VerdictDetail   string           `json:"verdict_detail"`
	SubSuiteFloor   *float64         `json:"sub_suite_floor"`
	PerBenchmark    PerBenchmarkJSON `json:"per_benchmark"`
	Pair            []PairJSON       `json:"pair"`
	Rerun           *RerunJSON       `json:"rerun"`
	CappedScore     render.Float     `json:"capped_score"`
	CarriedBy       []string         `json:"carried_by"`
	// Repetitions is how many repetitions of the suite the run holds (0:
	// none); RepetitionFloor the floor for their mean, when the
	// calibration has variance components.
	Repetitions     int      `json:"repetitions"`
	RepetitionFloor *float64 `json:"repetition_floor"`
	// Stopped and Sequential are a sequential gate's (qoscal measure
	// --calibration): "decided" or "limit", and its design; null
	// otherwise.
	Stopped    *string         `json:"stopped"`
	Sequential *SequentialJSON `json:"sequential"`
	// Environment is the run's CPU model and image and where the gate
	// found them; Profile the calibration profile that judged the run
	// (the value of its label); each null when none.
	Environment *GateEnvironment `json:"environment"`
	Profile     *string          `json:"profile"`
}

// SequentialJSON is a sequential gate's design and where it stopped.
type SequentialJSON struct {
	MaxRepetitions int     `json:"max_repetitions"`
	Decision       string  `json:"decision"`
	FailFloor      float64 `json:"fail_floor"`
	PassFloor      float64 `json:"pass_floor"`
	Alpha          float64 `json:"alpha"`
	Slide          float64 `json:"slide"`
}

// PairJSON is one run of a pair judged together.
type PairJSON struct {
	Run   string       `json:"run"`
	Score render.Float `json:"score"`
}

// PerBenchmarkJSON is how the gate judged the benchmarks' bands.
type PerBenchmarkJSON struct {
	Mode  string   `json:"mode"`
	Below []string `json:"below"`
	Above []string `json:"above"`
}

// GateCalibration is the calibration file a gate used, in its JSON.
type GateCalibration struct {
	File   string  `json:"file"`
	Floor  float64 `json:"floor"`
	Runs   int     `json:"runs"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// JSON is the gate's JSON document.
func (g *Gate) JSON() GateJSON {
	r := g.Res
	j := GateJSON{
		Verdict: r.Verdict, Headline: g.Title(), WarningsDecided: g.WarningsDecided(), Ignored: append([]string{}, r.Ignored...),
		Score: render.Float(r.Score), ExitCode: g.ExitCode, Run: g.Run.ID,
		Baseline: g.Run.Baseline, Candidate: g.Run.Candidate, Suite: r.Suite,
		Benchmarks: render.Objects(g.columns(), r.Benchmarks),
		Missing:    append([]string{}, r.Missing...), Extra: append([]string{}, r.Extra...),
		Partial: r.Partial, RunnerDegraded: r.RunnerDegraded, MedianZ: render.Float(r.MedianZ),
		RunnerCutoffZ: render.Float(r.RunnerCutoffZ), RunnerChecked: r.RunnerChecked, RunnerFlat: append([]string{}, r.RunnerFlat...),
		Warnings: append([]string{}, g.Warnings...), Message: g.Headline(),
		VerdictDetail: r.VerdictDetail,
		PerBenchmark:  PerBenchmarkJSON{Mode: r.PerBenchmark, Below: append([]string{}, r.Below...), Above: append([]string{}, r.Above...)},
		CappedScore:   render.Float(r.CappedScore),
		CarriedBy:     append([]string{}, r.CarriedBy...),
	}
	if r.RunnerHealth != "" {
		h := r.RunnerHealth
		j.RunnerHealth = &h
	}
	if r.SubSuiteFloor > 0 {
		f := r.SubSuiteFloor
		j.SubSuiteFloor = &f
	}
	j.Repetitions = r.Repetitions
	if q := r.Sequential; q != nil {
		stopped := q.Stopped
		j.Stopped = &stopped
		j.Sequential = &SequentialJSON{MaxRepetitions: q.MaxRepetitions, Decision: q.Decision, FailFloor: q.FailFloor,
			PassFloor: q.PassFloor, Alpha: q.Alpha, Slide: q.Slide}
	}
	if r.RepetitionFloor > 0 {
		f := r.RepetitionFloor
		j.RepetitionFloor = &f
	}
	for _, p := range r.Pair {
		j.Pair = append(j.Pair, PairJSON{Run: p.ID, Score: render.Float(p.Score)})
	}
	j.Rerun = g.rerunJSON()
	j.Environment, j.Profile = g.Environment, orNull(g.Profile)
	if r.Floor > 0 {
		f, src := r.Floor, r.FloorSource
		if r.SubSuiteFloor > 0 {
			f = r.FullFloor
		}
		if r.RepetitionFloor > 0 {
			f = g.Cal.Floor
		}
		if src == gate.FloorGiven {
			src = g.GivenFloor
		}
		j.Floor, j.FloorSource = &f, &src
	}
	if g.Cal != nil {
		c := g.Cal
		j.Calibration = &GateCalibration{File: g.CalPath, Floor: c.Floor, Runs: c.Runs, Min: c.Observed.Min, Median: c.Observed.Median, Max: c.Observed.Max}
	}
	return j
}
