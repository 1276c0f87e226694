package present

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/qoscal/qoscal/calibrate"
)

func outlierWarning(id string) calibrate.Warning {
	return calibrate.Warning{Kind: calibrate.WarnOutlierRun, Run: id, Figures: calibrate.OutlierFigures{Score: 0.9, Z: -4.2, Cut: 3.5}}
}

// outlierText is outlierWarning's text.
func outlierText(id string) string {
	return "run " + id + " is an outlier: score 0.90, robust z -4.2 in log space (|z| > 3.5); check its runner before trusting this calibration"
}

// TestWarningLines: warnings of a kind about single runs are one line,
// where the first was, naming the next three runs and the count (clean
// noise over 100,000 runs gave 39 outlier lines; at most one line per
// kind); a lone one keeps its line; warnings about no run are never
// grouped.
func TestWarningLines(t *testing.T) {
	few := calibrate.Warning{Kind: calibrate.WarnFewRuns, Figures: calibrate.FewRunsFigures{Runs: 5, Enough: 10}}
	fewText := "only 5 runs: the chance that the next healthy run falls below the observed minimum is 1 in 6; calibrate on 10 or more runs"
	texts := func(ws ...calibrate.Warning) []string { return WarningTexts(ws) }
	if diff := cmp.Diff([]string{outlierText("r1") + " (likewise 2 more runs: r2, r3)", fewText}, texts(outlierWarning("r1"), few, outlierWarning("r2"), outlierWarning("r3"))); diff != "" {
		t.Errorf("three outliers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{outlierText("r1") + " (likewise 1 more run: r2)"}, texts(outlierWarning("r1"), outlierWarning("r2"))); diff != "" {
		t.Errorf("two outliers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{outlierText("r1")}, texts(outlierWarning("r1"))); diff != "" {
		t.Errorf("one outlier (-want +got):\n%s", diff)
	}
	notNormal := calibrate.Warning{Kind: calibrate.WarnNotNormal, Figures: calibrate.NormalityFigures{W: 0.81, P: 0.004}}
	var many []calibrate.Warning
	many = append(many, notNormal)
	for i := range 39 {
		many = append(many, outlierWarning(fmt.Sprintf("r%d", i+1)))
	}
	many = append(many, calibrate.Warning{Kind: calibrate.WarnRunExcluded, Run: "x1", Benchmarks: []string{"b"}}, few)
	want := []string{
		warningText(notNormal),
		outlierText("r1") + " (likewise 38 more runs: r2, r3, r4 and 35 more)",
		"run x1 lacks b: left out of the score distribution (use --allow-partial to gate on the common benchmarks instead)",
		fewText,
	}
	if diff := cmp.Diff(want, texts(many...)); diff != "" {
		t.Errorf("39 outliers (-want +got):\n%s", diff)
	}
	four := texts(outlierWarning("r1"), outlierWarning("r2"), outlierWarning("r3"), outlierWarning("r4"))
	if diff := cmp.Diff([]string{outlierText("r1") + " (likewise 3 more runs: r2, r3, r4)"}, four); diff != "" {
		t.Errorf("four outliers (-want +got):\n%s", diff)
	}
	lines := WarningLines([]calibrate.Warning{{Kind: calibrate.WarnAboveBand, Benchmarks: []string{"a"}}})
	if len(lines) != 1 || lines[0].Kind != calibrate.WarnAboveBand || WarningTitle(lines[0].Kind) != "above calibrated bands" {
		t.Errorf("a warning's line keeps its kind for its title: %+v", lines)
	}
}

// TestWarningText: each kind of warning, from its figures, in the words
// the command line has always printed (where a flag changes what the
// warning is about, it is named).
func TestWarningText(t *testing.T) {
	regimes := []calibrate.Regime{{First: "run-01", Last: "run-03", N: 3, Median: 1.4}, {First: "run-04", Last: "run-12", N: 9, Median: 1.26}}
	for _, c := range []struct {
		w    calibrate.Warning
		want string
	}{
		{calibrate.Warning{Kind: calibrate.WarnCommonSuite, Benchmarks: []string{"c", "d"}, Figures: calibrate.SuiteFigures{Suite: 2}},
			"--allow-partial: the suite is the 2 benchmarks common to all runs; left out: c, d"},
		{calibrate.Warning{Kind: calibrate.WarnDroppedBench, Benchmarks: []string{"d"}, Figures: calibrate.DroppedFigures{In: []int{1}, Runs: 4}},
			"left out of the suite, being in half the runs or fewer: d (in 1 of 4 runs)"},
		{calibrate.Warning{Kind: calibrate.WarnRunExcluded, Run: "run-3", Benchmarks: []string{"c"}},
			"run run-3 lacks c: left out of the score distribution (use --allow-partial to gate on the common benchmarks instead)"},
		{calibrate.Warning{Kind: calibrate.WarnNoSpread, Figures: calibrate.NoSpreadFigures{Runs: 3, Score: 1.5}},
			"all 3 runs have the same score 1.5: with no spread, the model-based figures (false-positive rates, r90) are undefined; only the no-model bound 1/(n+1) holds"},
		{calibrate.Warning{Kind: calibrate.WarnHeavyTail, Figures: calibrate.TailFigures{DF: 4, LR: 7.25}},
			"the log scores have a heavier tail than the normal (a Student-t with 4 degrees of freedom fits better, likelihood ratio 7.2): a floor trips healthy runs more often than the log-normal model says, and the rates given are those of that tail (docs/STATS.md 5d)"},
		{calibrate.Warning{Kind: calibrate.WarnAutocorrelated, Figures: calibrate.LagFigures{Lag1: 0.61, SE: 0.2}},
			"consecutive runs are correlated (lag-1 autocorrelation +0.61, SE 0.20): they carry less information than their number says; interleave or randomise the order of runs, or calibrate on more runs"},
		{calibrate.Warning{Kind: calibrate.WarnNoisyBench, Benchmarks: []string{"cache-thrash"}, Figures: calibrate.NoisyFigures{Ranges: []calibrate.NoisyRange{{Min: 1.66, Max: 1.94, Times: 2.3}}, Factor: 2, RangePct: 8.4}},
			"noisy benchmarks, whose ratio range is 2 or more times the score's (8.4% of its median): cache-thrash 1.66–1.94 (2.3×)"},
		{calibrate.Warning{Kind: calibrate.WarnThinShares, Figures: calibrate.SharesFigures{Runs: 5, Benchmarks: 10, Settle: 30}},
			"the variance shares rest on 5 runs for 10 benchmarks: covariances from so few runs are noisy, and the shares settle only after about 30 runs (docs/STATS.md 3.2)"},
		{calibrate.Warning{Kind: calibrate.WarnRegimes, Figures: calibrate.RegimeFigures{Regimes: regimes}},
			"the scores changed regime once: run-01..run-03 (3 runs, median 1.40), run-04..run-12 (9 runs, median 1.26)"},
		{calibrate.Warning{Kind: calibrate.WarnNotNormal, Figures: calibrate.CapFigures{NotNormal: true, ShapiroP: 0.0091, HeavyTail: true, TailDF: 3, Uncapped: 1.31, Floor: 1.25, Step: 0.01}},
			"the log-normal model of the scores is in doubt (Shapiro–Wilk p 0.009; a Student-t tail with 3 degrees of freedom fits better), so the target floor 1.31 is capped at the lowest calibration run, 1.25, where the no-model bound is 1/(n+1)"},
		{calibrate.Warning{Kind: calibrate.WarnAutocorrelated, Figures: calibrate.EffectiveFigures{Rho: 0.42, Runs: 20, Effective: 9.1, Independent: 1.2, Floor: 1.15, Step: 0.05}},
			"the predictive figures allow for the correlation of consecutive runs (ρ 0.42, bias-corrected): the 20 runs count as 9.1 for the mean (docs/STATS.md 5b), which moves the floor from 1.20 to 1.15"},
		{calibrate.Warning{Kind: calibrate.WarnFloorBelowOne, Figures: calibrate.FloorFigures{Floor: 0.86, Step: 0.01, Min: 1.44}},
			"the floor 0.86 is below 1.0: the gate would accept a candidate slower than the baseline"},
		{calibrate.Warning{Kind: calibrate.WarnFloorAboveMin, Figures: calibrate.FloorFigures{Floor: 1.3, Step: 0.1, Min: 1.2549}},
			"the floor 1.3 is above the lowest calibration run (1.25): that healthy run would have failed"},
		{calibrate.Warning{Kind: calibrate.WarnOutliers, Runs: []string{"a", "b", "c", "d", "e", "f", "g"}},
			"the score distribution has outlier runs (a, b, c, d, e and 2 more): the floor may be too low if they are degraded runners, or too high if the change is real; look before you gate"},
		{calibrate.Warning{Kind: calibrate.WarnEarlierBelow, Runs: []string{"run-01", "run-02"}, Figures: calibrate.EarlierFigures{Floor: 1.3, Step: 0.01, Before: 3, From: "run-04"}},
			"the floor 1.30, calibrated on the latest regime, is above 2 of the 3 runs before it (run-01, run-02): right if the scores rose for good at run-04, too snug if the change was chance"},
		{calibrate.Warning{Kind: calibrate.WarnOneVariantOnly, Benchmarks: []string{"x"}, Figures: calibrate.OneVariantFigures{Variant: "system"}},
			"measured by system only, left out: x"},
		{calibrate.Warning{Kind: calibrate.WarnOneVariantOnly, Benchmarks: []string{"x", "y"}, Figures: calibrate.OneVariantFigures{}},
			"measured in one run of the pair only, left out: x, y"},
		{calibrate.Warning{Kind: calibrate.WarnPartialGate, Benchmarks: []string{"x"}, Figures: calibrate.PartialFigures{Gated: 9, Of: 10}},
			"partial suite: gating on 9 of the 10 calibrated benchmarks; missing: x"},
		{calibrate.Warning{Kind: calibrate.WarnPartialGate, Benchmarks: []string{"x"}, Figures: calibrate.PartialFigures{Gated: 3, Of: 4, Either: "run"}},
			"partial suite: gating on 3 of the 4 benchmarks either run measured; missing: x"},
		{calibrate.Warning{Kind: calibrate.WarnNotCalibrated, Benchmarks: []string{"new"}},
			"not in the calibration, reported but left out of the geomean: new"},
		{calibrate.Warning{Kind: calibrate.WarnRunnerUnchecked, Figures: calibrate.UncheckedFigures{Why: calibrate.UncheckedFewRuns, CalibrationRuns: 1}},
			"runner health not checked: the calibration rests on 1 run, so a degraded runner cannot be told from a real change"},
		{calibrate.Warning{Kind: calibrate.WarnRunnerUnchecked, Figures: calibrate.UncheckedFigures{Why: calibrate.UncheckedNoHistory}},
			"runner health not checked: the calibration has no baseline history, so a degraded runner cannot be told from a real change"},
		{calibrate.Warning{Kind: calibrate.WarnRunnerUnchecked, Figures: calibrate.UncheckedFigures{Why: calibrate.UncheckedNoSpread}},
			"runner health not checked: no benchmark of the calibration has a baseline history with any spread (a MAD above 0), so a degraded runner cannot be told from a real change"},
		{calibrate.Warning{Kind: calibrate.WarnRunnerUnchecked, Benchmarks: []string{"a", "b"}, Figures: calibrate.UncheckedFigures{Why: calibrate.UncheckedFlat}},
			"runner health: left out of the check, their baseline never varied over the calibration runs: a, b"},
		{calibrate.Warning{Kind: calibrate.WarnFloorOverride, Figures: calibrate.OverrideFigures{Given: 1.3, FileFloor: "1.25"}},
			"--floor 1.3 overrides the calibration file's floor 1.25"},
		{calibrate.Warning{Kind: calibrate.WarnRunnerDegraded, Figures: calibrate.DegradedFigures{MedianZ: -5.04, Cutoff: -3.5, CalibrationRuns: 12}},
			"runner degraded: the baseline is far below its calibrated history (median robust z -5.0 < -3.50, the cut-off for 12 calibration runs): treat this verdict with care, and rerun on a healthy runner"},
		{calibrate.Warning{Kind: calibrate.WarnRunnerDegraded, Figures: calibrate.DegradedFigures{MedianZ: -5.04, Cutoff: -3.5, CalibrationRuns: 12, Inconclusive: true}},
			"runner degraded: the baseline is far below its calibrated history (median robust z -5.0 < -3.50, the cut-off for 12 calibration runs): inconclusive, rerun on a healthy runner"},
		{calibrate.Warning{Kind: calibrate.WarnBelowBand, Benchmarks: []string{"larson"}, Figures: calibrate.BandFigures{Alpha: 0.01}},
			"below their calibrated bands (family-wise rate 0.01 per healthy run): larson"},
		{calibrate.Warning{Kind: calibrate.WarnAboveBand, Benchmarks: []string{"a"}},
			"far above their calibrated bands, which often means a broken benchmark rather than a real gain: a"},
	} {
		if got := warningText(c.w); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.w.Kind, got, c.want)
		}
	}
}

// TestUnsaid: one command warns of each fact once. Cases with a reason
// each; the output is the texts of the warnings kept.
func TestUnsaid(t *testing.T) {
	outliers := func(runs ...string) calibrate.Warning {
		return calibrate.Warning{Kind: calibrate.WarnOutliers, Runs: runs}
	}
	partial := calibrate.Warning{Kind: calibrate.WarnPartialGate, Benchmarks: []string{"larson"}, Figures: calibrate.PartialFigures{Gated: 9, Of: 10}}
	onlyBase := func(names ...string) calibrate.Warning {
		return calibrate.Warning{Kind: calibrate.WarnOneVariantOnly, Benchmarks: names, Figures: calibrate.OneVariantFigures{Variant: "glibc"}}
	}
	few := calibrate.Warning{Kind: calibrate.WarnFewRuns, Figures: calibrate.FewRunsFigures{Runs: 5, Enough: 10}}
	for _, c := range []struct {
		reason   string
		said, ws []calibrate.Warning
		want     []string
	}{
		{"the recommendation's outlier runs were each warned of by the analysis",
			[]calibrate.Warning{outlierWarning("run-04")}, []calibrate.Warning{outliers("run-04"), few},
			[]string{warningText(few)}},
		{"an outlier run the analysis did not name keeps the warning",
			[]calibrate.Warning{outlierWarning("run-04")}, []calibrate.Warning{outliers("run-04", "run-07")},
			[]string{warningText(outliers("run-04", "run-07"))}},
		{"a benchmark one variant measured, missing from the partial suite, is said in the partial suite's warning",
			nil, []calibrate.Warning{onlyBase("larson"), partial},
			[]string{"partial suite: gating on 9 of the 10 calibrated benchmarks; missing: larson (measured by glibc only)"}},
		{"a one-variant benchmark the partial suite does not name keeps its warning, alone",
			nil, []calibrate.Warning{onlyBase("larson", "newbench"), partial},
			[]string{"measured by glibc only, left out: newbench", "partial suite: gating on 9 of the 10 calibrated benchmarks; missing: larson (measured by glibc only)"}},
		{"the same warning twice",
			[]calibrate.Warning{few}, []calibrate.Warning{few, few},
			[]string{}},
	} {
		var got []string
		for _, l := range WarningLines(Unsaid(c.said, c.ws)) {
			got = append(got, l.Text)
		}
		if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.reason, diff)
		}
	}
	// The caller's warnings are not changed.
	ws := []calibrate.Warning{onlyBase("larson"), partial}
	Unsaid(nil, ws)
	if fmt.Sprint(ws[1].Benchmarks) != "[larson]" || fmt.Sprint(ws[0].Benchmarks) != "[larson]" {
		t.Errorf("Unsaid changed its input: %+v", ws)
	}
}

// TestDescribeBoundaries: the regime warning names the labels that
// changed at each boundary, by their names in words, and nothing at a
// boundary where none changed.
func TestDescribeBoundaries(t *testing.T) {
	r := func(first string, changes ...calibrate.LabelChange) calibrate.Regime {
		return calibrate.Regime{First: first, Last: first, N: 1, Median: 1, Changes: changes}
	}
	for _, c := range []struct {
		rs   []calibrate.Regime
		want string
	}{
		{[]calibrate.Regime{r("run-01"), r("run-40", calibrate.LabelChange{Label: "cpu", From: "X", To: "Y"})},
			"; the score changed at run-40, where the CPU model changed from X to Y"},
		{[]calibrate.Regime{r("run-01"), r("run-40")}, ""},
		{[]calibrate.Regime{r("run-01"), r("run-20", calibrate.LabelChange{Label: "kernel", From: "6.5", To: "6.8"}), r("run-30"),
			r("run-40", calibrate.LabelChange{Label: "image", From: "ubuntu24/1", To: "ubuntu24/2"}, calibrate.LabelChange{Label: "pool", From: "a", To: "b"},
				calibrate.LabelChange{Label: "cpus", From: "2", To: "4"})},
			"; the score changed at run-20, where the kernel changed from 6.5 to 6.8; the score changed at run-40, where the runner image changed from ubuntu24/1 to ubuntu24/2, label pool changed from a to b and the number of CPUs changed from 2 to 4"},
		{[]calibrate.Regime{r("run-01"), r("run-40", calibrate.LabelChange{Label: "os", From: "linux\nx", To: "mac"}, calibrate.LabelChange{Label: "runner", From: "r1", To: "r2"})},
			"; the score changed at run-40, where the OS changed from linux\\nx to mac and the runner changed from r1 to r2"},
	} {
		if got := describeBoundaries(c.rs); got != c.want {
			t.Errorf("DescribeBoundaries:\n got %q\nwant %q", got, c.want)
		}
	}
	w := calibrate.Warning{Kind: calibrate.WarnRegimes, Figures: calibrate.RegimeFigures{Regimes: []calibrate.Regime{
		{First: "run-01", Last: "run-39", N: 39, Median: 1.55},
		{First: "run-40", Last: "run-60", N: 21, Median: 1.31, Changes: []calibrate.LabelChange{{Label: "cpu", From: "X", To: "Y"}}}}}}
	want := "the scores changed regime once: run-01..run-39 (39 runs, median 1.55), run-40..run-60 (21 runs, median 1.31); the score changed at run-40, where the CPU model changed from X to Y"
	if got := warningText(w); got != want {
		t.Errorf("WarningText:\n got %q\nwant %q", got, want)
	}
}
