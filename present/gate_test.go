package present

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/data"
)

// TestGateTitle: the title weighs all the evidence: the verdict's word,
// what decided it, then the warnings that qualify it, and the kinds of
// those warnings for the JSON's warnings_decided. A pass with any such
// warning is never a plain PASS.
func TestGateTitle(t *testing.T) {
	row := func(name string, vsUsual float64, band string) gate.GateBenchmark {
		return gate.GateBenchmark{BenchmarkRatio: calibrate.BenchmarkRatio{Name: name, Ratio: vsUsual}, InScore: true, Usual: 1, VsUsual: vsUsual, Band: band}
	}
	rows := []gate.GateBenchmark{
		row("a", 0.7, gate.BandBelow), row("b", 0.5, gate.BandBelow), row("c", 1, gate.BandWithin),
		row("d", 3, gate.BandAbove), row("e", 0.6, gate.BandBelow), row("f", 0.65, gate.BandBelow),
	}
	base := func(verdict string, score float64) gate.GateResult {
		return gate.GateResult{Verdict: verdict, Score: score, Floor: 1.2, FloorSource: gate.FloorGiven,
			Suite: []string{"a", "b", "c", "d"}, Benchmarks: rows[:4], PerBenchmark: gate.PerBenchmarkWarn, CappedScore: math.NaN()}
	}
	for _, c := range []struct {
		reason string
		res    func(r *gate.GateResult)
		title  string
		kinds  []string
	}{
		{"a plain pass", func(r *gate.GateResult) {}, "PASS", []string{}},
		{"benchmarks below their bands, worst first",
			func(r *gate.GateResult) { r.Below = []string{"a", "b"} },
			"PASS with warnings: 2 benchmarks below their bands (b 0.50x usual, a 0.70x usual)", []string{"below-band"}},
		{"four below: three named",
			func(r *gate.GateResult) {
				r.Benchmarks = rows
				r.Below = []string{"a", "b", "e", "f"}
			},
			"PASS with warnings: 4 benchmarks below their bands (b 0.50x usual, e 0.60x usual, f 0.65x usual and 1 more)", []string{"below-band"}},
		{"far above, a degraded runner, a partial suite",
			func(r *gate.GateResult) {
				r.Above, r.RunnerDegraded, r.Partial, r.Missing = []string{"d"}, true, true, []string{"x"}
			},
			"PASS with warnings: 1 benchmark far above its band (d 3.00x usual); runner degraded; partial suite, 4 of 5 benchmarks (missing x)",
			[]string{"above-band", "runner-degraded", "partial-gate"}},
		{"FAIL on the score, with a band below",
			func(r *gate.GateResult) { r.Verdict, r.Score, r.Below = gate.VerdictFail, 1.1, []string{"b"} },
			"FAIL: 1.10x below the 1.2x floor; 1 benchmark below its band (b 0.50x usual)", []string{"below-band"}},
		{"FAIL on a band (--per-benchmark fail)",
			func(r *gate.GateResult) {
				r.Verdict, r.Below, r.PerBenchmark = gate.VerdictFail, []string{"b"}, gate.PerBenchmarkFail
			},
			"FAIL: 1 benchmark below its band (b 0.50x usual)", []string{"below-band"}},
		{"RERUN", func(r *gate.GateResult) { r.Verdict, r.Score = gate.VerdictRerun, 1.17 },
			"RERUN: 1.17x just below the 1.2x floor, within the rerun band: measure again", []string{}},
		{"COULD NOT JUDGE: carried by a benchmark far above its band",
			func(r *gate.GateResult) {
				r.Verdict, r.Above, r.CarriedBy, r.Score = gate.VerdictInconclusive, []string{"d"}, []string{"d"}, 1.5
			},
			"COULD NOT JUDGE: rests on d, far above its band", []string{}},
		{"COULD NOT JUDGE: a degraded runner (--on-degraded fail)",
			func(r *gate.GateResult) { r.Verdict, r.RunnerDegraded = gate.VerdictInconclusive, true },
			"COULD NOT JUDGE: runner degraded: rerun on a healthy runner", []string{"runner-degraded"}},
		{"report-only below the floor",
			func(r *gate.GateResult) { r.Verdict, r.Score = gate.VerdictWarn, 1.1 },
			"below the floor (report-only): 1.10x below the 1.2x floor", []string{}},
		{"not gated", func(r *gate.GateResult) { r.Verdict, r.Floor, r.FloorSource = gate.VerdictUngated, 0, "" },
			"not gated", []string{}},
	} {
		res := base(gate.VerdictPass, 1.3)
		c.res(&res)
		g := &Gate{Res: &res, Run: &data.Run{ID: "r", Baseline: "base", Candidate: "cand"}, GivenFloor: "--floor"}
		if got := g.title(); got != c.title {
			t.Errorf("%s:\n got %q\nwant %q", c.reason, got, c.title)
		}
		if diff := cmp.Diff(c.kinds, g.warningsDecided()); diff != "" {
			t.Errorf("%s: warnings_decided (-want +got):\n%s", c.reason, diff)
		}
		if j := g.JSON(); j.Headline != c.title {
			t.Errorf("%s: JSON headline %q, want the title", c.reason, j.Headline)
		}
	}
}
