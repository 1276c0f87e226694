package present

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

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
		{Head: base, Align: render.Right, Cell: func(b gateRow) string { return value(b.Baseline, b.Unit) },
			Key: "baseline", JSON: func(b gateRow) any { return render.Float(b.Baseline) }},
		{Head: cand, Align: render.Right, Cell: func(b gateRow) string { return value(b.Candidate, b.Unit) },
			Key: "candidate", JSON: func(b gateRow) any { return render.Float(b.Candidate) }},
		{Head: cand + "/" + base, Align: render.Right, Cell: func(b gateRow) string { return ratio(b.Ratio) + "x" },
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
		{Key: "advisory", JSON: func(b gateRow) any { return b.Advisory }},
	}
	if g.hasModel() {
		cols = append(cols, render.Column[gateRow]{Head: "vs calibration", Cell: vsCalibration})
	}
	return append(cols, render.Column[gateRow]{MarkdownHead: "note", Cell: g.note})
}

// hasModel reports whether the calibration carries the model (its
// matrix), which the "vs calibration" column needs.
func (g *Gate) hasModel() bool { return g.Cal != nil && g.Cal.Matrix != nil }

// vsCalibration is a benchmark's ratio against its usual one: "0.48x
// usual" (the note says where that is against its band).
func vsCalibration(b gateRow) string {
	if math.IsNaN(b.VsUsual) {
		return ""
	}
	return ratio(b.VsUsual) + "x usual"
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
	if w == nil || !g.hasModel() {
		return ""
	}
	s := fmt.Sprintf("Each band is a prediction bound at %s a benchmark (Holm's first step) from the calibration's %d runs: its edge lies %s SDs of the benchmark's log ratio from their mean, where unlimited runs would put it %s SDs away, since a band must also hold the error of a mean and an SD estimated from %d runs.",
		rate(w.Level), w.Runs, dec(w.Multiple, 1), dec(w.Limit, 1), w.Runs)
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
	if g.hasModel() && !math.IsNaN(b.VsUsual) {
		note = bandWords[b.Band]
		r := bandReach(b)
		switch {
		case b.Advisory && r != "":
			note = fmt.Sprintf("within band, advisory (below at %s; band reaches %s)", pct(model.AdvisoryFamilyAlpha), r)
		case b.Advisory:
			note = fmt.Sprintf("within band, advisory (below at %s)", pct(model.AdvisoryFamilyAlpha))
		case note != "" && r != "":
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

// rows are the benchmark rows as the table shows them: with a
// calibration's model, worst first by ratio to usual (the benchmarks not
// compared with it last, by name), so that what argues against the run
// is read first; without one, in name order.
func (g *Gate) rows() []gateRow {
	rows := append([]gateRow(nil), g.Res.Benchmarks...)
	if !g.hasModel() {
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

// table is the benchmark table with its geomean row.
func (g *Gate) table() *render.Table {
	t := render.NewTable(g.columns(), g.rows())
	row := []string{"geomean", "", "", ratio(g.Res.Score) + "x"}
	if g.hasModel() {
		row = append(row, "")
	}
	t.AddRow(append(row, "over "+Plural(len(g.Res.Suite), "benchmark"))...)
	return t
}

// header says what is compared, in which run, in which units.
func (g *Gate) header() string {
	return fmt.Sprintf("%s (candidate) vs %s (baseline), run %s: %s", g.Run.Candidate, g.Run.Baseline, g.Run.ID, g.units())
}

// runLine says the run first, then what is compared in which units: the
// step summary's line under the verdict.
func (g *Gate) runLine() string {
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
				g.CalPath, g.Cal.Runs, rate(q.Alpha), q.MaxRepetitions, pct(q.Slide))
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
// statedWord names the rate File.StatedRate gives: the margin rule's own
// rate in a file that has it, else the predictive rate.
func statedWord(c *model.File) string {
	if r := c.FPR.Rule; r != nil && !math.IsNaN(float64(*r)) {
		return "the margin rule's rate"
	}
	return "predictive"
}

func (g *Gate) costSentence() string {
	c := g.Cal
	if c == nil {
		return ""
	}
	var s string
	switch {
	case g.Res.FloorSource == gate.FloorGiven:
		s = fmt.Sprintf("What the floor costs: not known for a floor given with %s; the calibration's own floor %sx trips a healthy run %s (%s; at most %s with no model).",
			g.GivenFloor, c.FloorText, howOften(c.StatedRate()), statedWord(c), perRun(float64(c.FPR.DistributionFree)))
	case g.Res.SubSuiteFloor > 0:
		s = fmt.Sprintf("What the floor costs: the calibration's floor %sx for the whole suite trips a healthy run %s (%s; at most %s with no model), as %s claims; the sub-suite's floor is set by the same method.",
			c.FloorText, howOften(c.StatedRate()), statedWord(c), perRun(float64(c.FPR.DistributionFree)), g.CalPath)
	default:
		s = fmt.Sprintf("What the floor costs: a healthy run trips it %s (%s; at most %s with no model), as %s claims.",
			howOften(c.StatedRate()), statedWord(c), perRun(float64(c.FPR.DistributionFree)), g.CalPath)
	}
	if g.Res.PerBenchmark != gate.PerBenchmarkOff {
		s += fmt.Sprintf(" The bands flag a healthy run at most %s (family-wise).", perRun(c.RecommendOptions().FamilyAlpha))
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
			state, dec(r.MedianZ, 2), Plural(r.RunnerChecked, "benchmark"), dec(r.RunnerCutoffZ, 2), g.Cal.Runs)
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
		&render.Lines{In: text, Lines: []string{g.header()}},
		&render.Blank{In: text},
		&render.Heading{In: md, Level: 3, Text: "qoscal gate: " + g.title()},
		&render.Paragraph{In: md, Text: g.Headline()},
		&render.Paragraph{In: md, Text: g.runLine()},
		g.table(),
		&render.Paragraph{In: md, Text: g.floorSentence()},
	)
	if s := g.profileSentence(); s != "" {
		d.Add(&render.Paragraph{In: md, Text: s}, &render.Lines{In: text, Lines: []string{"", s}})
	}
	if s := g.bandSentence(); s != "" {
		d.Add(&render.Paragraph{In: md, Text: s})
	}
	for _, p := range []string{g.rerunSentence(), g.costSentence(), g.healthSentence()} {
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
