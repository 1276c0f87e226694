package present

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/render"
)

// warningText words a warning (calibrate.Warning: a kind, the run or
// benchmarks it concerns, its figures) as the command line says it: where
// a flag changes what the warning is about, the text names it.
func warningText(w calibrate.Warning) string {
	if s, ok := environmentWarningText(w); ok {
		return s
	}
	list := strings.Join(w.Benchmarks, ", ")
	switch f := w.Figures.(type) {
	case calibrate.SuiteFigures:
		return fmt.Sprintf("--allow-partial: the suite is the %d benchmarks common to all runs; left out: %s", f.Suite, list)
	case calibrate.DroppedFigures:
		notes := make([]string, len(w.Benchmarks))
		for i, name := range w.Benchmarks {
			notes[i] = fmt.Sprintf("%s (in %d of %d runs)", name, f.In[i], f.Runs)
		}
		return "left out of the suite, being in half the runs or fewer: " + strings.Join(notes, ", ")
	case calibrate.NoSpreadFigures:
		return fmt.Sprintf("all %d runs have the same score %.4g: with no spread, the model-based figures (false-positive rates, r90) are undefined; only the no-model bound 1/(n+1) holds", f.Runs, f.Score)
	case calibrate.NormalityFigures:
		return fmt.Sprintf("the log scores are not normal (Shapiro–Wilk W %.3f, p %.3f): the model-based rates may be too low; the no-model bound (j+1)/(n+1) holds whatever the distribution", f.W, f.P)
	case calibrate.TailFigures:
		return fmt.Sprintf("the log scores have a heavier tail than the normal (a Student-t with %v degrees of freedom fits better, likelihood ratio %.1f): a floor trips healthy runs more often than the log-normal model says, and the rates given are those of that tail (docs/STATS.md 5d)", f.DF, f.LR)
	case calibrate.LagFigures:
		return fmt.Sprintf("consecutive runs are correlated (lag-1 autocorrelation %+.2f, SE %.2f): they carry less information than their number says; interleave or randomise the order of runs, or calibrate on more runs", f.Lag1, f.SE)
	case calibrate.FewRunsFigures:
		if w.Kind == calibrate.WarnThinCalibration {
			return fmt.Sprintf("the calibration rests on %d runs, fewer than %d: its floor and bands move with every run added, and the next healthy run falls below the lowest of them about 1 time in %d; calibrate on %d or more runs", f.Runs, f.Enough, f.Runs+1, f.Enough)
		}
		return fmt.Sprintf("only %d runs: the chance that the next healthy run falls below the observed minimum is 1 in %d; calibrate on %d or more runs", f.Runs, f.Runs+1, f.Enough)
	case calibrate.RepetitionFigures:
		if f.Left {
			return fmt.Sprintf("variance components: left out %s, whose repetitions do not each measure the whole suite", strings.Join(w.Runs, ", "))
		}
		return fmt.Sprintf("no variance components: %d runs with repetitions, of %d repetitions in all: they need 2 runs or more and a run with 2 repetitions or more", f.Runs, f.Repetitions)
	case calibrate.OutlierFigures:
		return fmt.Sprintf("run %s is an outlier: score %.2f, robust z %.1f in log space (|z| > %.1f); check its runner before trusting this calibration", w.Run, f.Score, f.Z, f.Cut)
	case calibrate.NoisyFigures:
		noisy := make([]string, len(w.Benchmarks))
		for i, name := range w.Benchmarks {
			r := f.Ranges[i]
			noisy[i] = fmt.Sprintf("%s %.2f–%.2f (%.1f×)", name, r.Min, r.Max, r.Times)
		}
		return fmt.Sprintf("noisy benchmarks, whose ratio range is %.0f or more times the score's (%.1f%% of its median): %s", f.Factor, f.RangePct, strings.Join(noisy, ", "))
	case calibrate.SharesFigures:
		return fmt.Sprintf("the variance shares rest on %d runs for %d benchmarks: covariances from so few runs are noisy, and the shares settle only after about %d runs (docs/STATS.md 3.2)", f.Runs, f.Benchmarks, f.Settle)
	case calibrate.RegimeFigures:
		times := fmt.Sprintf("%d times", len(f.Regimes)-1)
		if len(f.Regimes) == 2 {
			times = "once"
		}
		return fmt.Sprintf("the scores changed regime %s: %s", times, describeRegimes(f.Regimes)) + describeBoundaries(f.Regimes)
	case calibrate.CapFigures:
		var why []string
		if f.NotNormal {
			why = append(why, fmt.Sprintf("Shapiro–Wilk p %.3f", f.ShapiroP))
		}
		if f.HeavyTail {
			why = append(why, fmt.Sprintf("a Student-t tail with %v degrees of freedom fits better", f.TailDF))
		}
		return fmt.Sprintf("the log-normal model of the scores is in doubt (%s), so the target floor %s is capped at the lowest calibration run, %s, where the no-model bound is 1/(n+1)",
			strings.Join(why, "; "), model.FormatOnStep(f.Uncapped, f.Step), model.FormatOnStep(f.Floor, f.Step))
	case calibrate.EffectiveFigures:
		what := "which leaves the floor as it is"
		if f.Independent != f.Floor {
			what = fmt.Sprintf("which moves the floor from %s to %s", model.FormatOnStep(f.Independent, f.Step), model.FormatOnStep(f.Floor, f.Step))
		}
		return fmt.Sprintf("the predictive figures allow for the correlation of consecutive runs (ρ %.2f, bias-corrected): the %d runs count as %.1f for the mean (docs/STATS.md 5b), %s", f.Rho, f.Runs, f.Effective, what)
	case calibrate.FloorFigures:
		floor := model.FormatOnStep(f.Floor, f.Step)
		if w.Kind == calibrate.WarnFloorAboveMin {
			return fmt.Sprintf("the floor %s is above the lowest calibration run (%s): that healthy run would have failed", floor, ratio(f.Min))
		}
		return fmt.Sprintf("the floor %s is below 1.0: the gate would accept a candidate slower than the baseline", floor)
	case calibrate.EarlierFigures:
		return fmt.Sprintf("the floor %s, calibrated on the latest regime, is above %d of the %d runs before it (%s): right if the scores rose for good at %s, too snug if the change was chance",
			model.FormatOnStep(f.Floor, f.Step), len(w.Runs), f.Before, listSome(w.Runs, maxListed), f.From)
	case calibrate.FewerFigures:
		all := "no floor"
		if !math.IsNaN(f.AllFloor) {
			all = fmt.Sprintf("the floor %s, claiming %s (%s)", model.FormatOnStep(f.AllFloor, f.Step), rate(f.AllClaimed), oneIn(f.AllClaimed))
		}
		scan := ""
		if !math.IsNaN(f.ScanP) {
			scan = fmt.Sprintf("; its change against autocorrelated noise, the search's choice of where to cut counted: p %.3f", f.ScanP)
		}
		return fmt.Sprintf("calibrated on %d of the %d runs given (the latest regime, from %s); on all %d runs the same method gives %s%s", f.Used, f.Given, f.From, f.Given, all, scan)
	case calibrate.ClaimFigures:
		why, fix := claimWords(f)
		return fmt.Sprintf("the claimed false-positive rate %s (%s) may be several times too low for these runs: %s; what would fix it: %s (docs/STATS.md 5g)", rate(f.Claimed), oneIn(f.Claimed), strings.Join(why, "; "), fix)
	case calibrate.ChanceFigures:
		return fmt.Sprintf("the latest regime (%d runs from %s) is not beyond what autocorrelated noise gives (p %.2f, the search's choice of where to cut counted, lag-1 autocorrelation %.2f allowed for): calibrated on all %d runs; --regime latest calibrates on it anyway", f.Runs, f.From, f.P, f.Rho, f.Given)
	case calibrate.OneVariantFigures:
		if f.Variant == "" {
			return "measured in one run of the pair only, left out: " + list
		}
		return fmt.Sprintf("measured by %s only, left out: %s", f.Variant, list)
	case calibrate.PartialFigures:
		if f.Either == "" {
			return fmt.Sprintf("partial suite: gating on %d of the %d calibrated benchmarks; missing: %s", f.Gated, f.Of, list)
		}
		return fmt.Sprintf("partial suite: gating on %d of the %d benchmarks either %s measured; missing: %s", f.Gated, f.Of, f.Either, list)
	case calibrate.UncheckedFigures:
		var why string
		switch f.Why {
		case calibrate.UncheckedFlat:
			return "runner health: left out of the check, their baseline never varied over the calibration runs: " + list
		case calibrate.UncheckedNoHistory:
			why = "the calibration has no baseline history"
		case calibrate.UncheckedFewRuns:
			why = fmt.Sprintf("the calibration rests on %d run", f.CalibrationRuns)
		default:
			why = "no benchmark of the calibration has a baseline history with any spread (a MAD above 0)"
		}
		return "runner health not checked: " + why + ", so a degraded runner cannot be told from a real change"
	case calibrate.OverrideFigures:
		return fmt.Sprintf("--floor %v overrides the calibration file's floor %s", f.Given, f.FileFloor)
	case calibrate.DegradedFigures:
		then := "treat this verdict with care, and rerun on a healthy runner"
		if f.Inconclusive {
			then = "inconclusive, rerun on a healthy runner"
		}
		return fmt.Sprintf("runner degraded: the baseline is far below its calibrated history (median robust z %.1f < %.2f, the cut-off for %d calibration runs): %s", f.MedianZ, f.Cutoff, f.CalibrationRuns, then)
	case calibrate.BandFigures:
		return fmt.Sprintf("below their calibrated bands (family-wise rate %v per healthy run): %s", f.Alpha, list)
	}
	switch w.Kind {
	case calibrate.WarnRunExcluded:
		return fmt.Sprintf("run %s lacks %s: left out of the score distribution (use --allow-partial to gate on the common benchmarks instead)", w.Run, list)
	case calibrate.WarnOutliers:
		return fmt.Sprintf("the score distribution has outlier runs (%s): the floor may be too low if they are degraded runners, or too high if the change is real; look before you gate", listSome(w.Runs, maxListed))
	case calibrate.WarnNotCalibrated:
		return "not in the calibration, reported but left out of the geomean: " + list
	case calibrate.WarnAboveBand:
		return "far above their calibrated bands, which often means a broken benchmark rather than a real gain: " + list
	}
	// A kind this file does not word yet still says what it is about.
	s := string(w.Kind)
	if w.Run != "" {
		s += ": run " + w.Run
	}
	if list != "" {
		s += ": " + list
	}
	return s
}

// maxListed is how many runs a warning about many names before it says
// how many more there are.
const maxListed = 5

// listSome joins the first max names, and says how many more there are:
// "run-1, run-2, run-3, run-4, run-5 and 34 more".
func listSome(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}

// WarningLine is a warning as it is shown: one line, with its kind.
type WarningLine struct {
	Kind calibrate.WarningKind
	Text string
}

// WarningTexts words lists of warnings, in order, with the warnings about
// single runs grouped by kind (WarningLines), each fact once (Unsaid).
func WarningTexts(lists ...[]calibrate.Warning) []string {
	out := []string{}
	var said []calibrate.Warning
	for _, ws := range lists {
		for _, l := range WarningLines(Unsaid(said, ws)) {
			out = append(out, l.Text)
		}
		said = append(said, ws...)
	}
	return out
}

// Unsaid returns the warnings of ws that say something that neither a
// warning of said nor an earlier one of ws says, so that one command
// warns of each fact once:
//   - a warning equal to one before it is left out;
//   - "the score distribution has outlier runs" (WarnOutliers, from the
//     recommendation) is left out when each of its runs has its own
//     outlier warning (WarnOutlierRun, from the analysis): the same runs,
//     found by the same rule;
//   - a benchmark measured by one variant only (WarnOneVariantOnly) that
//     a partial suite's warning (WarnPartialGate) names as missing is
//     said there, "missing: larson (measured by glibc only)", not in a
//     warning of its own.
//
// ws itself is not changed.
func Unsaid(said, ws []calibrate.Warning) []calibrate.Warning {
	all := append(append([]calibrate.Warning(nil), said...), ws...)
	outlier := map[string]bool{}
	missing := map[string]bool{}
	onlyBy := map[string]string{}
	for _, w := range all {
		switch w.Kind {
		case calibrate.WarnOutlierRun:
			outlier[w.Run] = true
		case calibrate.WarnPartialGate:
			for _, b := range w.Benchmarks {
				missing[b] = true
			}
		case calibrate.WarnOneVariantOnly:
			if f, ok := w.Figures.(calibrate.OneVariantFigures); ok && f.Variant != "" {
				for _, b := range w.Benchmarks {
					onlyBy[b] = f.Variant
				}
			}
		}
	}
	out := make([]calibrate.Warning, 0, len(ws))
	seen := append([]calibrate.Warning(nil), said...)
	for _, w := range ws {
		if slices.ContainsFunc(seen, func(s calibrate.Warning) bool { return reflect.DeepEqual(s, w) }) {
			continue
		}
		seen = append(seen, w)
		switch w.Kind {
		case calibrate.WarnOutliers:
			if len(w.Runs) > 0 && !slices.ContainsFunc(w.Runs, func(r string) bool { return !outlier[r] }) {
				continue
			}
		case calibrate.WarnOneVariantOnly:
			rest := slices.DeleteFunc(slices.Clone(w.Benchmarks), func(b string) bool { return missing[b] })
			if len(rest) == 0 {
				continue
			}
			w.Benchmarks = rest
		case calibrate.WarnPartialGate:
			named := slices.Clone(w.Benchmarks)
			for i, b := range named {
				if v := onlyBy[b]; v != "" {
					named[i] = fmt.Sprintf("%s (measured by %s only)", b, v)
				}
			}
			w.Benchmarks = named
		}
		out = append(out, w)
	}
	return out
}

// namedRuns is how many more runs a grouped warning names before it says
// how many more there are.
const namedRuns = 3

// WarningLines words warnings in order, with at most one line per kind
// of warning about single runs (an outlier run, a run left out): the
// first such warning's text, where it stood, then how many more runs the
// same is said of, naming the next few ("(likewise 38 more runs: run-07,
// run-12, run-31 and 35 more)"). Clean noise over 100,000 runs (the
// store scripts/bench.sh makes) has dozens of outlier runs, which one
// line per run buried.
func WarningLines(ws []calibrate.Warning) []WarningLine {
	ws = Unsaid(nil, ws)
	runs := map[calibrate.WarningKind][]string{}
	for _, w := range ws {
		if w.Run != "" {
			runs[w.Kind] = append(runs[w.Kind], w.Run)
		}
	}
	out := make([]WarningLine, 0, len(ws))
	said := map[calibrate.WarningKind]bool{}
	for _, w := range ws {
		ids := runs[w.Kind]
		if w.Run == "" || len(ids) == 1 {
			out = append(out, WarningLine{Kind: w.Kind, Text: warningText(w)})
			continue
		}
		if said[w.Kind] {
			continue
		}
		said[w.Kind] = true
		rest := ids[1:]
		named := rest[:min(namedRuns, len(rest))]
		list := strings.Join(named, ", ")
		if more := len(rest) - len(named); more > 0 {
			list += fmt.Sprintf(" and %d more", more)
		}
		out = append(out, WarningLine{Kind: w.Kind, Text: fmt.Sprintf("%s (likewise %s: %s)", warningText(w), Plural(len(rest), "more run"), list)})
	}
	return out
}

// WarningTitle is what an annotation of a warning of kind k says it is
// about, for the warnings a pull request's reader most needs to tell
// apart; "" for the others.
func WarningTitle(k calibrate.WarningKind) string { return warningTitles[k] }

var warningTitles = map[calibrate.WarningKind]string{
	calibrate.WarnRunnerDegraded:    "runner degraded",
	calibrate.WarnRunnerUnchecked:   "runner health not checked",
	calibrate.WarnBelowBand:         "below calibrated bands",
	calibrate.WarnAboveBand:         "above calibrated bands",
	calibrate.WarnPartialGate:       "partial suite",
	calibrate.WarnNotCalibrated:     "not calibrated",
	calibrate.WarnFloorOverride:     "floor override",
	calibrate.WarnThinCalibration:   "thin calibration",
	calibrate.WarnUnseenEnvironment: "runner not in the calibration",
}

// describeRegimes lists regimes: "run-01..run-03 (3 runs, median 1.40),
// run-04..run-12 (9 runs, median 1.26)".
func describeRegimes(rs []calibrate.Regime) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s (%d runs, median %.2f)", r.Span(), r.N, r.Median)
	}
	return strings.Join(parts, ", ")
}

// describeBoundaries names the environment that changed where the scores
// changed regime (calibrate.Regime.Changes): "; the score changed at
// run-40, where the CPU model changed from X to Y", a clause per boundary
// with a label change; "" when no label changed at any boundary.
func describeBoundaries(rs []calibrate.Regime) string {
	var s string
	for _, r := range rs {
		if len(r.Changes) == 0 {
			continue
		}
		what := make([]string, len(r.Changes))
		for i, c := range r.Changes {
			what[i] = render.OneLine(fmt.Sprintf("%s changed from %s to %s", labelName(c.Label), c.From, c.To))
		}
		s += fmt.Sprintf("; the score changed at %s, where %s", r.First, joinAnd(what))
	}
	return s
}

// labelName names a run label in a sentence: "the CPU model" for cpu,
// "the runner image" for image, and "label K" for a key K it does not
// know.
func labelName(key string) string {
	switch key {
	case "cpu":
		return "the CPU model"
	case "cpus":
		return "the number of CPUs"
	case "image":
		return "the runner image"
	case "kernel":
		return "the kernel"
	case "os":
		return "the OS"
	case "runner":
		return "the runner"
	}
	return "label " + key
}

// joinAnd joins clauses as a sentence lists them: "a", "a and b",
// "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// describeWindow says which runs a floor was calibrated on:
// "calibrated on run-04..run-12 (9 runs); run-01..run-03 are an earlier
// regime (median 1.40)".
func describeWindow(w calspread.Window) string {
	span := w.First
	if w.First != w.Last {
		span += ".." + w.Last
	}
	s := fmt.Sprintf("calibrated on %s (%d runs)", span, w.N)
	for _, e := range w.Earlier {
		s += fmt.Sprintf("; %s %s an earlier regime (median %.2f)", e.Span(), map[bool]string{true: "is", false: "are"}[e.N == 1], e.Median)
	}
	if w.Short {
		s += fmt.Sprintf("; the latest regime is too short to calibrate on alone: %d more runs of it would do", w.NeedMore)
	}
	return s
}

// ruleName names a floor's method with its parameter, from the options
// of the recommendation, for the candidate table: "target 1 in 1,000",
// "margin 10%", "prediction α 0.01", "tolerance 0.95/0.95".
func ruleName(o model.RecommendOptions) string {
	switch o.Method {
	case model.MethodTargetFPR:
		return "target 1 in " + thousands(math.Round(1/o.TargetFPR))
	case model.MethodMargin:
		return "margin " + strconv.FormatFloat(o.Margin*100, 'f', -1, 64) + "%"
	case model.MethodPrediction:
		return "prediction α " + strconv.FormatFloat(o.Alpha, 'f', -1, 64)
	case model.MethodTolerance:
		return fmt.Sprintf("tolerance %v/%v", o.Coverage, o.Confidence)
	}
	return string(o.Method)
}

// claimWords says why a claimed rate does not hold per calibration, a
// sentence a reason, and what would fix it (docs/STATS.md 5g).
func claimWords(f calibrate.ClaimFigures) (why []string, fix string) {
	if f.FewRuns {
		why = append(why, fmt.Sprintf("%d runs cannot tell clean noise from a heavy tail, a degraded runner they did not catch or strongly correlated runs, under which about half of 10-run calibrations are told a rate more than 2x too low", f.Runs))
	}
	if f.Undecided {
		why = append(why, fmt.Sprintf("their lag-1 autocorrelation %+.2f is too weak to allow for, yet does not rule out a correlation of 0.5, under which such calibrations are often told a rate more than 2x too low", f.Lag1))
	}
	fix = fmt.Sprintf("calibrate on at least %d runs (%d more)", f.RunsNeeded, f.RunsNeeded-f.Runs)
	if f.Undecided {
		fix += ", or measure baseline and candidate interleaved in one job (qoscal measure), so that the runner's drift cancels in their ratio"
	}
	return why, fix
}
