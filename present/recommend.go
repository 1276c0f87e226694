package present

import (
	"fmt"
	"math"
	"strings"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/render"
)

// Recommend is the view of a floor recommendation (qoscal recommend, and
// the report's figures).
type Recommend struct {
	A   *calspread.Analysis
	Rec *calfloor.Recommendation
	// Detect is the plan of repetitions that recommend --detect asks
	// for; nil without it.
	Detect *gate.DetectPlan
	// Others are the backtest runs outside the calibration, if any.
	Others []calfloor.BacktestRun
	// Warnings are the analysis' and the recommendation's warnings in
	// the command's words.
	Warnings []string
	// BacktestName is how the command names the backtest runs' source
	// (its flag).
	BacktestName string
	// Given, when set, says where a floor that is not the recommended one
	// comes from ("the calibration file gate.json (margin method, 9
	// runs)", "--floor"): Rec is then the recommendation's
	// figures at that floor (calfloor.Recommendation.At), and the view
	// words it as that floor, judged on these runs, not as a
	// recommendation.
	Given string
}

// methodNote says how the floor was found.
func (v *Recommend) methodNote() string {
	a, rec := v.A, v.Rec
	o := rec.Options
	switch o.Method {
	case model.MethodTargetFPR:
		return fmt.Sprintf("target false-positive rate %s per healthy run (1 in %s): the log-normal lower prediction bound at that rate, %s, rounded down to a step of %v",
			rate(o.TargetFPR), thousands(math.Round(1/o.TargetFPR)), dec(rec.Raw, 4), o.Step)
	case model.MethodPrediction:
		return fmt.Sprintf("log-normal lower prediction bound at α = %v, %s, rounded down to a step of %v", o.Alpha, dec(rec.Raw, 4), o.Step)
	case model.MethodTolerance:
		return fmt.Sprintf("lower tolerance bound, %v coverage at %v confidence (k = %.4f), %s, rounded down to a step of %v", o.Coverage, o.Confidence, rec.ToleranceK, dec(rec.Raw, 4), o.Step)
	}
	return fmt.Sprintf("margin rule: %s%% below the lowest of %d runs (%s), rounded down to a step of %v", trimPct(o.Margin), a.Score.N, ratio(a.Score.Min), o.Step)
}

// window says which runs the floor was calibrated on; a recommendation
// whose caller chose no window was calibrated on all its runs.
func (v *Recommend) window() calspread.Window {
	w := v.Rec.Window
	if w.N == 0 {
		w = calspread.Window{Rule: calspread.WindowAll, First: v.A.Runs[0].ID, Last: v.A.Runs[len(v.A.Runs)-1].ID, N: len(v.A.Runs)}
	}
	return w
}

// describeWindow says which runs the floor was calibrated on
// (describeWindow) and, when those are the latest regime, the labels that
// changed where the scores changed regime (describeBoundaries): the
// regime warning that says it is of the analysis of every run, which the
// recommendation on the latest regime does not repeat.
func (v *Recommend) describeWindow() string {
	w := v.window()
	s := describeWindow(w)
	if w.Rule == calspread.WindowLatest {
		s += describeBoundaries(v.Rec.Regimes)
	}
	return s
}

// decision is the recommendation in three lines: the floor and the runs it
// was calibrated on, what it costs, and what it catches.
func (v *Recommend) decision() [3]string {
	a, rec := v.A, v.Rec
	c := rec.Cost
	first := fmt.Sprintf("floor: %sx for geomean(%s) over %s, %s", rec.FormatFloor(rec.Floor), metric(a), Plural(len(a.Suite), "benchmark"), v.describeWindow())
	if v.Given != "" {
		first = fmt.Sprintf("floor: %sx for geomean(%s) over %s, from %s; its figures on %s", rec.FormatFloor(rec.Floor), metric(a), Plural(len(a.Suite), "benchmark"),
			v.Given, strings.TrimPrefix(v.describeWindow(), "calibrated on "))
	}
	return [3]string{
		first,
		v.costLine(),
		fmt.Sprintf("it catches a uniform slide of %s half the time%s", slidePct(c.R50, 1), ninetyWords(c.R90, ", and of %s nine times in ten", func(r float64) string { return slidePct(r, 1) })),
	}
}

// costLine says what the floor costs: the predictive rate first, or, when
// the log scores are not normal, the no-model bound first.
func (v *Recommend) costLine() string {
	a, c := v.A, v.Rec.Cost
	r, word := statedRate(c)
	if a.Score.ShapiroP < calspread.NormalityAlpha {
		return fmt.Sprintf("a healthy run trips it at most %s with no model (the log scores are not normal, so the model's %s may be too low)",
			perRun(c.DistributionFree), howOften(r))
	}
	return fmt.Sprintf("a healthy run trips it %s (%s; at most 1 in %d with no model)", howOften(r), word, a.Score.N+1)
}

// statedRate is the model's rate a floor states, with its name: the
// margin rule's own rate for the floor that rule placed (FloorCost
// .RuleRate, docs/STATS.md 2.1), else the predictive rate of the floor.
func statedRate(c calfloor.FloorCost) (float64, string) {
	if !math.IsNaN(c.RuleRate) {
		return c.RuleRate, "the margin rule's rate"
	}
	return c.Predictive, "predictive"
}

// summary is the plain-language reading of the recommendation.
func (v *Recommend) summary() string {
	a, rec := v.A, v.Rec
	c := rec.Cost
	var b strings.Builder
	where := fmt.Sprintf("%.0f%% below", c.BelowMinPct)
	if c.BelowMinPct < 0 {
		// A floor given, not recommended, may be above the lowest run.
		where = fmt.Sprintf("%.0f%% above", -c.BelowMinPct)
	}
	stated, word := statedRate(c)
	fmt.Fprintf(&b, "Floor is %sx: %s the lowest observed (%s), so a healthy run trips it %s (%s; at most 1 in %d with no model), while %s slide toward parity trips it half the time%s.",
		rec.FormatFloor(rec.Floor), where, ratio(a.Score.Min), howOften(stated), word,
		a.Score.N+1, withArticle(slidePct(c.R50, 0)), ninetyWords(c.R90, " and %s slide nine times in ten", func(r float64) string { return withArticle(slidePct(r, 0)) }))
	if len(a.Suite) > 1 {
		if loss := (1 - c.SingleQ50) * 100; loss > 99.5 {
			b.WriteString(" A single benchmark falling alone would have to lose more than 99% to trip it.")
		} else {
			fmt.Fprintf(&b, " A single benchmark falling alone would have to lose %.0f%% to trip it.", loss)
		}
	}
	return b.String()
}

// withArticle puts the indefinite article before a slide as slidePct
// formats it: "an" where it is said with a vowel sound (an 8%, an 11%,
// an 18%, an 80%, an unknown), "a" otherwise.
func withArticle(pct string) string {
	for _, p := range []string{"8", "11", "18", "unknown"} {
		if strings.HasPrefix(pct, p) {
			return "an " + pct
		}
	}
	return "a " + pct
}

type cand = calfloor.FloorCost

// candidateColumns are the columns of the candidate floors, in every
// format; rec formats the floor with the step's decimals.
func candidateColumns(rec *calfloor.Recommendation) []render.Column[cand] {
	right := render.Right
	// rule names the method of a candidate that one gives, with the
	// recommendation's parameters; "" for a grid floor.
	rule := func(c cand) string {
		if c.Rule == "" {
			return ""
		}
		o := rec.Options
		o.Method = c.Rule
		return ruleName(o)
	}
	return []render.Column[cand]{
		{Head: "floor", Align: right, Cell: func(c cand) string { return rec.FormatFloor(c.Floor) + "x" }, Key: "floor", JSON: func(c cand) any { return c.Floor }},
		{Key: "rule", JSON: func(c cand) any { return optional(rule(c)) }},
		{Head: "below min", Align: right, Cell: func(c cand) string { return fmt.Sprintf("%.1f%%", c.BelowMinPct) }, Key: "below_min_pct", JSON: func(c cand) any { return render.Float(c.BelowMinPct) }},
		{Head: "FPR", Align: right, Cell: func(c cand) string { return rate(c.Predictive) }, Key: "false_positive_rate", JSON: func(c cand) any { return render.Float(c.Predictive) }},
		{Head: "true FPR 95% conf.", Align: right, Cell: func(c cand) string { return rate(c.Upper95) }, Key: "upper95", JSON: func(c cand) any { return render.Float(c.Upper95) }},
		{Head: "no-model bound", Align: right, Cell: func(c cand) string { return rate(c.DistributionFree) }, Key: "distribution_free", JSON: func(c cand) any { return render.Float(c.DistributionFree) }},
		{Head: "trips", Align: right, Cell: func(c cand) string { return oneIn(c.Predictive) }},
		{Head: "r50", Align: right, Cell: func(c cand) string { return dec(c.R50, 3) }, Key: "r50", JSON: func(c cand) any { return render.Float(c.R50) }},
		{Head: "r90", Align: right, Cell: func(c cand) string { return dec(c.R90, 3) }, Key: "r90", JSON: func(c cand) any { return render.Float(c.R90) }},
		{Head: "rule", Cell: rule},
	}
}

// candidateTable is the recommendation and snugger floors up to the
// lowest run.
func (v *Recommend) candidateTable() *render.Table {
	return render.NewTable(candidateColumns(v.Rec), v.Rec.Candidates)
}

// trueRateNote qualifies the 95% upper confidence bound of the true rate
// when it is below the predictive rate (STATS.md 2.5): it is a bound of
// the rate of this calibration's true parameters, not of the predictive
// rate, which averages that rate over the parameters and which, at few
// runs, the unlikely wide spreads dominate.
func trueRateNote(c calfloor.FloorCost) string {
	if c.Upper95 < c.Predictive {
		return " (below the predictive rate, which is the rate's average: at few runs the unlikely wide spreads dominate it)"
	}
	return ""
}

// slower formats a regression factor: "0.805x (19.5% slower)"; "unknown"
// when it is undefined (scores that never varied).
func slower(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "unknown"
	}
	return fmt.Sprintf("%sx (%.1f%% slower)", dec(r, 3), (1-r)*100)
}

// slidePct formats the slide of a regression factor r as a percentage
// with dec decimals ("19.5%"); "unknown" when r is undefined.
func slidePct(r float64, dec int) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "unknown"
	}
	return fmt.Sprintf("%.*f%%", dec, (1-r)*100)
}

// r90Line is the detection line of r90.
func r90Line(r90 float64) string {
	if math.IsNaN(r90) || math.IsInf(r90, 0) {
		return "nine times in ten: unknown (r90, predictive: no spread to model)"
	}
	return fmt.Sprintf("to %s nine times in ten (r90, predictive)", slower(r90))
}

// ninetyWords is the r90 clause of a sentence, format holding the slide
// as slide words it; when r90 is undefined (no spread), it says so.
func ninetyWords(r90 float64, format string, slide func(r float64) string) string {
	if math.IsNaN(r90) || math.IsInf(r90, 0) {
		return "; nine times in ten: unknown (no spread to model)"
	}
	return fmt.Sprintf(format, slide(r90))
}

// figures is the floor and what it costs, one figure a row: the table of
// the Markdown recommendation and of the report.
func (v *Recommend) figures() *render.Table {
	a, rec := v.A, v.Rec
	c := rec.Cost
	t := &render.Table{Head: []string{"figure", "value"}, Align: []render.Align{render.Left, render.Left}}
	if v.Given != "" {
		t.AddRow("floor (from "+v.Given+")", rec.FormatFloor(rec.Floor)+"x")
		t.AddRow("runs", strings.TrimPrefix(v.describeWindow(), "calibrated on "))
		t.AddRow("method", "from "+v.Given)
	} else {
		t.AddRow("recommended floor", rec.FormatFloor(rec.Floor)+"x")
		t.AddRow("runs", strings.TrimPrefix(v.describeWindow(), "calibrated on "))
		t.AddRow("method", v.methodNote())
	}
	t.AddRow("false-positive rate per healthy run (predictive)", rate(c.Predictive)+" ("+oneIn(c.Predictive)+")")
	t.AddRow("the true rate: 95% upper confidence bound, allowing for the heavier tails and correlation the runs do not rule out", rate(c.Upper95)+trueRateNote(c))
	t.AddRow("bound with no model, (j+1)/(n+1)", rate(c.DistributionFree))
	t.AddRow("the true rate with no model: 95% upper confidence bound", rate(c.DistributionFreeUpper95))
	if !math.IsNaN(c.RuleRate) {
		t.AddRow("the margin rule's own rate per healthy run (the rule on the AR(1) fitted to the runs; claimed)", rate(c.RuleRate)+" ("+oneIn(c.RuleRate)+")")
	}
	if stated, _ := statedRate(c); c.Claimed != stated {
		t.AddRow("claimed false-positive rate (no lower than the model-free bound: the model is in doubt)", rate(c.Claimed)+" ("+oneIn(c.Claimed)+")")
	}
	for _, row := range modelCheckRows(a.Score) {
		t.AddRow(row[0], row[1])
	}
	t.AddRow(fmt.Sprintf("a false alarm in the next %d runs (predictive)", c.HorizonRuns), rate(c.Horizon))
	t.AddRow("r50: uniform regression caught half the time", slower(c.R50))
	t.AddRow("r90: caught nine times in ten (predictive)", slower(c.R90))
	if len(a.Suite) > 1 {
		t.AddRow("one benchmark alone must fall to", slower(c.SingleQ50))
	}
	t.AddRow("calibration runs below the floor", fmt.Sprintf("%d of %d", c.CalibrationBelow, a.Score.N))
	if rec.MoreRunsForOnePct > 0 {
		t.AddRow("runs to add before 1/(n+1) < 1%", fmt.Sprint(rec.MoreRunsForOnePct))
	}
	if bs := rec.Bootstrap; bs.B > 0 {
		t.AddRow(fmt.Sprintf("bootstrap plug-in FPR (%d resamples, seed %d)", bs.B, bs.Seed),
			fmt.Sprintf("mean %s, median %s, 95th percentile %s", rate(bs.Mean), rate(bs.Q50), rate(bs.Q95)))
	}
	for _, o := range v.Others {
		verdict := "pass"
		if o.Below {
			verdict = "FAIL"
		} else if len(o.Missing) > 0 {
			verdict = "not scored"
		}
		t.AddRow("backtest run "+o.ID, ratio(o.Score)+" "+verdict)
	}
	return t
}

// insertRow puts a row at index i of a table of figures.
func insertRow(t *render.Table, i int, cells ...string) {
	t.AddRow(cells...)
	last := t.Rows[len(t.Rows)-1]
	copy(t.Rows[i+1:], t.Rows[i:len(t.Rows)-1])
	t.Rows[i] = last
}

// textLines is the recommendation as a terminal shows it, before the
// candidate floors.
func (v *Recommend) textLines() []string {
	a, rec := v.A, v.Rec
	c := rec.Cost
	s := a.Score
	d := v.decision()
	l := []string{d[0], "    " + d[1], "    " + d[2]}
	if o := v.outlierNote(); o != "" {
		l = append(l, "    "+o)
	}
	l = append(l,
		"",
		"method: "+v.methodNote(),
		fmt.Sprintf("    calibration: %d runs, scores %s (median %s)", s.N, rangeOf(s.Min, s.Max), ratio(s.Median)),
		"    "+modelCheck(s),
		"",
		"false-positive rate per healthy run:",
		fmt.Sprintf("    predictive %s (%s); plug-in %s", rate(c.Predictive), perRun(c.Predictive), rate(c.Plugin)),
	)
	if !math.IsNaN(c.RuleRate) {
		l = append(l, fmt.Sprintf("    the margin rule's own rate %s (%s), claimed: the rule's floor moves with the lowest run, and this is its rate on the AR(1) fitted to the runs", rate(c.RuleRate), perRun(c.RuleRate)))
	}
	l = append(l,
		fmt.Sprintf("    the true rate is below %s with 95%% confidence, allowing for the heavier tails and correlation the runs do not rule out%s", rate(c.Upper95), trueRateNote(c)),
		fmt.Sprintf("    with no model: at most %s, (j+1)/(n+1) = %d/%d with j = %d calibration runs below; the true rate is below %s with 95%% confidence", rate(c.DistributionFree), c.CalibrationBelow+1, s.N+1, c.CalibrationBelow, rate(c.DistributionFreeUpper95)),
		fmt.Sprintf("    over the next %d healthy runs: %s chance of a false alarm (predictive); no model: %s chance one falls below the lowest so far", c.HorizonRuns, rate(c.Horizon), rate(c.HorizonFree)),
		"",
		"detection:",
		fmt.Sprintf("    a uniform regression to %sx of today's (%.1f%% slower) trips it half the time (r50);", dec(c.R50, 3), (1-c.R50)*100),
		"    "+r90Line(c.R90),
		fmt.Sprintf("    judging the mean of two runs instead: a healthy pair trips it %s; r90 %s", strings.Replace(howOften(c.PairPredictive), " runs", " pairs", 1), slower(c.PairR90)),
	)
	if b := v.Rec.Options.RerunBand; b > 0 && !math.IsNaN(v.Rec.TwoStageFPR) {
		l = append(l, fmt.Sprintf("    with gate --rerun-band %v (measure again when just below the floor): a healthy job fails %s, is rerun %s",
			b, strings.Replace(howOften(v.Rec.TwoStageFPR), " runs", " jobs", 1), strings.Replace(howOften(v.Rec.TwoStageRerun), " runs", " jobs", 1)))
		if p := v.Rec.TwoStagePower; !math.IsNaN(p) {
			l = append(l, fmt.Sprintf("    and fails a job slid to r90 (%s slower) %.0f%% of the time, where one run against the floor fails it 90%%", slidePct(c.R90, 1), 100*p))
		}
	}
	if len(a.Suite) > 1 {
		l = append(l, fmt.Sprintf("    one benchmark alone must fall to %sx of its ratio (%.1f%% slower) to move the score by r50", dec(c.SingleQ50, 3), (1-c.SingleQ50)*100))
	}
	return l
}

type band = model.Band

// bandColumns are the per-benchmark bands' columns, in every format.
func bandColumns(single float64) []render.Column[band] {
	right := render.Right
	return []render.Column[band]{
		{Head: "benchmark", Cell: func(b band) string { return b.Name }, Key: "name", JSON: func(b band) any { return b.Name }},
		{Head: "usual", Align: right, Cell: func(b band) string { return ratio(b.Usual) + "x" }, Key: "usual", JSON: func(b band) any { return render.Float(b.Usual) }},
		{Head: "band", Align: right, Cell: func(b band) string {
			if math.IsNaN(b.Lower) {
				return "-"
			}
			return ratio(b.Lower) + "–" + ratio(b.Upper) + "x"
		}},
		{Key: "lower", JSON: func(b band) any { return render.Float(b.Lower) }},
		{Key: "upper", JSON: func(b band) any { return render.Float(b.Upper) }},
		{Key: "advisory", JSON: func(b band) any { return render.Float(b.Advisory) }},
		{Key: "sd_log", JSON: func(b band) any { return render.Float(b.SDLog) }},
		{Key: "sd_moderated", JSON: func(b band) any { return render.Float(b.SDPost) }},
		{Key: "df", JSON: func(b band) any { return render.Float(b.DFPost) }},
		{Head: "trips its band", Align: right, Cell: func(b band) string { return fallPct(b.R50) }, Key: "r50", JSON: func(b band) any { return render.Float(b.R50) }},
		{Head: "trips the floor", Align: right, Cell: func(band) string { return fallPct(single) }},
	}
}

// fallPct says how far a factor r falls: "-21.4%".
func fallPct(r float64) string {
	if math.IsNaN(r) {
		return "-"
	}
	return fmt.Sprintf("-%.1f%%", (1-r)*100)
}

// bandTable is every benchmark's calibrated band, and how far it alone
// must fall to trip its band, or to move the geomean below the floor (half
// the time, predictive).
func (v *Recommend) bandTable() *render.Table {
	return render.NewTable(bandColumns(v.Rec.Cost.SingleQ50), v.Rec.Bands)
}

// bandLines introduce the bands in a terminal.
func (v *Recommend) bandLines() []string {
	o := v.Rec.Options
	return []string{
		"",
		fmt.Sprintf("per-benchmark bands (a family-wise false-positive rate of %s per healthy run, Holm's step-down over %d benchmarks);", pct(o.FamilyAlpha), len(v.Rec.Bands)),
		"how far each benchmark alone must fall to trip its band, or to move the geomean below the floor, half the time:",
	}
}

// outlierNote names the outlier runs kept in the calibration, with the
// floor without them.
func (v *Recommend) outlierNote() string {
	out := v.A.Score.Outliers
	if len(out) == 0 || v.Rec.WithoutOutliers == 0 {
		return ""
	}
	// "run" first, so that a sentence-initial capital never changes a run
	// id ("Run run-04 is ...", not "Run-04 is ...").
	subject, verb := "run", "is an outlier"
	if len(out) > 1 {
		subject, verb = "runs", "are outliers"
	}
	return fmt.Sprintf("%s %s %s (robust z beyond %.1f), kept in the calibration; without %s the floor would be %sx",
		subject, strings.Join(out, ", "), verb, calspread.OutlierZ, map[bool]string{true: "it", false: "them"}[len(out) == 1], v.Rec.FormatFloor(v.Rec.WithoutOutliers))
}

// catchAllNote says, when backtest runs pass the floor, which floor would
// fail them all and at what cost.
func (v *Recommend) catchAllNote() string {
	pass := 0
	for _, o := range v.Others {
		if !o.Below && len(o.Missing) == 0 {
			pass++
		}
	}
	if pass == 0 {
		return ""
	}
	c, ok := calfloor.CatchAll(v.A, v.Others, v.Rec.Options)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d of %d %s runs pass the floor %sx: a floor of %sx would fail them all, and trip a healthy run %s (predictive)",
		pass, len(v.Others), v.BacktestName, v.Rec.FormatFloor(v.Rec.Floor), v.Rec.FormatFloor(c.Floor), howOften(c.Predictive))
}

// decisionItems are the decision as sentences, for a list.
func (v *Recommend) decisionItems() []string {
	d := v.decision()
	first := strings.TrimPrefix(d[0], "floor: ")
	items := []string{"Floor " + first + ".", upperFirst(d[1]) + ".", upperFirst(d[2]) + "."}
	if o := v.outlierNote(); o != "" {
		items = append(items, upperFirst(o)+".")
	}
	if c := v.catchAllNote(); c != "" {
		items = append(items, upperFirst(c)+".")
	}
	return items
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// bandParagraph introduces the bands in Markdown.
func (v *Recommend) bandParagraph() string {
	o := v.Rec.Options
	return fmt.Sprintf("Bands at a family-wise false-positive rate of %s per healthy run (Holm's step-down over %d benchmarks); the last two columns say how far each benchmark alone must fall, half the time, to trip its band or to move the geomean below the floor. The combined rule (the score below the floor, or a benchmark below its band) trips at most %s of healthy runs (%s + %s).",
		pct(o.FamilyAlpha), len(v.Rec.Bands), rate(v.Rec.CombinedFPR), rate(v.Rec.Cost.Predictive), rate(o.FamilyAlpha))
}

// combinedLine states the false-positive rate of the combined rule.
func (v *Recommend) combinedLine() string {
	return fmt.Sprintf("combined rule (the score below the floor, or a benchmark below its band): at most %s per healthy run (%s + %s)",
		rate(v.Rec.CombinedFPR), rate(v.Rec.Cost.Predictive), rate(v.Rec.Options.FamilyAlpha))
}

// backtestTable lists the backtest runs and the gate's verdict on each.
func (v *Recommend) backtestTable() *render.Table {
	t := &render.Table{In: render.In{Only: render.Text}, Head: []string{"run", "score", "verdict"},
		Align: []render.Align{render.Left, render.Right, render.Left}, Indent: "    "}
	for _, o := range v.Others {
		verdict := "pass"
		switch {
		case len(o.Missing) > 0:
			verdict = "not scored: lacks " + strings.Join(o.Missing, ", ")
		case o.Below:
			verdict = "FAIL"
		}
		t.AddRow(o.ID, ratio(o.Score), verdict)
	}
	return t
}

// Doc is the recommendation: in a terminal every figure in lines, the
// backtest, the candidate floors and the summary; in Markdown the summary,
// the table of figures, the candidate floors and the warnings.
func (v *Recommend) Doc() *render.Doc {
	a, rec := v.A, v.Rec
	text, md := render.In{Only: render.Text}, render.In{Only: render.Markdown}
	d := &render.Doc{}
	d.Add(&render.Lines{In: text, Lines: v.textLines()})
	if len(v.Rec.Bands) > 1 {
		d.Add(&render.Lines{In: text, Lines: v.bandLines()}, only(v.bandTable(), render.Text),
			&render.Lines{In: text, Lines: []string{v.combinedLine()}})
	}
	d.Add(&render.Lines{In: text, Lines: []string{"", fmt.Sprintf("backtest: %d of %d calibration runs below the floor", rec.Cost.CalibrationBelow, a.Score.N)}})
	if len(v.Others) > 0 {
		n := 0
		for _, o := range v.Others {
			if o.Below {
				n++
			}
		}
		d.Add(&render.Lines{In: text, Lines: []string{fmt.Sprintf("    %d of %d %s runs below the floor:", n, len(v.Others), v.BacktestName)}}, v.backtestTable())
		if note := v.catchAllNote(); note != "" {
			d.Add(&render.Lines{In: text, Lines: []string{"    " + note}})
		}
	}
	var more []string
	if len(rec.Repetitions) == 4 {
		r := rec.Repetitions
		more = append(more, fmt.Sprintf("repetitions per run (the suite repeated and averaged in each job) for this floor's rate to catch a 5%% slide half the time: %d, nine times in ten: %d; a 10%% slide: %d and %d",
			r[0].M, r[1].M, r[2].M, r[3].M))
	}
	if l := varianceLine(a); l != "" {
		more = append(more, l)
	}
	if l := detectLine(v.Detect); l != "" {
		more = append(more, "repetitions: "+l)
	}
	if rec.MoreRunsForOnePct > 0 {
		more = append(more, fmt.Sprintf("runs needed: %d more runs would bring the no-model bound 1/(n+1) below 1%%", rec.MoreRunsForOnePct))
	}
	if bs := rec.Bootstrap; bs.B > 0 {
		more = append(more, fmt.Sprintf("bootstrap diagnostic (%d resamples, seed %d): plug-in FPR mean %s, median %s, 95th percentile %s",
			bs.B, bs.Seed, rate(bs.Mean), rate(bs.Q50), rate(bs.Q95)))
	}
	d.Add(
		&render.Lines{In: text, Lines: append(more, "", "candidate floors (a snugger floor catches smaller regressions, and trips healthy runs more often):")},
		only(v.candidateTable(), render.Text),
		&render.Blank{In: text},
		&render.Paragraph{In: text, Text: v.summary(), Width: 78},

		&render.Heading{In: md, Level: 2, Text: fmt.Sprintf("Recommended floor: %sx for geomean(%s)", rec.FormatFloor(rec.Floor), metric(a))},
		&render.List{In: md, Items: v.decisionItems()},
		&render.Paragraph{In: md, Text: v.summary()},
		only(v.figures(), render.Markdown),
		&render.Heading{In: md, Level: 3, Text: "Candidate floors"},
		only(v.candidateTable(), render.Markdown),
	)
	if len(v.Rec.Bands) > 1 {
		d.Add(&render.Heading{In: md, Level: 3, Text: "Per-benchmark bands"},
			&render.Paragraph{In: md, Text: v.bandParagraph()},
			only(v.bandTable(), render.Markdown))
	}
	addWarnings(d, v.Warnings)
	return d
}
