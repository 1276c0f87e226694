package audit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/qoscal/qoscal/calibrate/drift"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/stats"
)

// TestClaimedRateIsRecommends: the rate the audit holds a calibration file
// to is the one recommend stated when it wrote the file (FloorCost.Claimed),
// on clean log-normal runs (the predictive rate) and on mixtures with a
// degraded runner (often the distribution-free rate): over 20
// calibrations, both kinds occur, and every one agrees to the bit.
func TestClaimedRateIsRecommends(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	from := map[string]int{}
	for i := range 20 {
		eps := 0.0
		if i%2 == 1 {
			eps = 0.15
		}
		a := calibtest.MixtureCalibration(t, rng, 30, eps, 0.9, 0.02)
		rec, err := floor.Recommend(a, model.DefaultRecommendOptions)
		if err != nil {
			t.Fatal(err)
		}
		f := floor.NewFile(a, rec, nil, time.Unix(0, 0).UTC(), "test")
		got, src := ClaimedRate(f)
		from[src]++
		if math.Float64bits(got) != math.Float64bits(rec.Cost.Claimed) {
			t.Errorf("calibration %d (mixture %v): the audit's claim %v (%s), recommend's %v", i, eps, got, src, rec.Cost.Claimed)
		}
	}
	if from["predictive"] == 0 || from["distribution_free"] == 0 {
		t.Errorf("the claims came from %v: want both kinds among the calibrations", from)
	}
}

// TestRateVerdict: the audit's verdict on x false alarms in n healthy runs
// against a claim of 1%, worked from the Clopper–Pearson bounds (95%).
func TestRateVerdict(t *testing.T) {
	for _, c := range []struct {
		x, n   int
		want   string
		reason string
	}{
		{0, 0, AuditTooFew, "no runs"},
		{10, 100, AuditMore, "10 in 100: the interval [0.049, 0.176] lies above 1%"},
		{3, 100, AuditTooFew, "3 in 100: [0.0062, 0.085] holds 1% and 2%"},
		{0, 400, AuditConsistent, "none in 400: [0, 0.0092] is below 2% (twice the claim)"},
		{0, 183, AuditConsistent, "none in 183: the upper bound 1 − 0.025^(1/183) = 0.01996"},
		{0, 182, AuditTooFew, "none in 182: the upper bound 0.02006 is above 2%"},
		{4, 1000, AuditConsistent, "4 in 1000: [0.0011, 0.0102]"},
	} {
		got, more := RateVerdict(c.x, c.n, 0.01, AuditOptions{})
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.reason, got, c.want)
		}
		if (got == AuditTooFew) != (more > 0) {
			t.Errorf("%s: %d more runs would tell", c.reason, more)
		}
	}
}

// TestRunsToTell: the runs that would tell are the fewest that do, found
// by a linear search here (at the rate seen so far, the claimed one with
// no runs).
func TestRunsToTell(t *testing.T) {
	for _, c := range [][2]int{{0, 0}, {0, 50}, {1, 100}, {2, 100}, {3, 100}, {5, 200}, {1, 30}} {
		x, n := c[0], c[1]
		claimed := 0.01
		opt := AuditOptions{}.withDefaults()
		got := RunsToTell(x, n, claimed, opt)
		rate := claimed
		if n > 0 {
			rate = float64(x) / float64(n)
		}
		first := -1
		for m := 1; m < 100000; m++ {
			if decideAt(float64(x)+rate*float64(m), float64(n+m), claimed, opt) != 0 {
				first = m
				break
			}
		}
		if got != first {
			t.Errorf("%d false alarms in %d runs: %d more runs would tell, a linear search finds %d", x, n, got, first)
		}
	}
	if got := RunsToTell(0, 400, 0.01, AuditOptions{}); got != 0 {
		t.Errorf("runs that tell already: %d more", got)
	}
}

// auditFile is a calibration of 30 one-benchmark runs (log score sd
// 0.025), with m and s the mean and SD of its log scores.
func auditFile(t *testing.T) (f *model.File, m, s float64) {
	rng := rand.New(rand.NewPCG(5, 30))
	cal := make([]float64, 30)
	for i := range cal {
		cal[i] = 0.3 + 0.025*rng.NormFloat64()
	}
	return calibtest.DriftFile(t, cal), stats.Mean(cal), stats.SD(cal)
}

// TestPresume: of the calibrated branch's runs, those in a change of
// level the drift check's CUSUM dates (from where it began to its
// deepest point) are not presumed healthy, nor the last Follow runs; one
// unlucky run alone is; runs off the branch, pairs and partial runs are
// not in the sequence.
func TestPresume(t *testing.T) {
	f, m, s := auditFile(t)
	zs := []float64{0.5, -0.5, 0.3, -3.6, 0.2, -0.4, 0.6, -5, -5, -5, 0.1, 0.4, -0.2, -0.6, 0.3, 0.5, -0.3}
	var runs []AuditRun
	for i, z := range zs {
		runs = append(runs, AuditRun{ID: fmt.Sprintf("g%02d", i), Score: math.Exp(m + z*s), Kind: KindRun, OnBranch: true})
	}
	off := AuditRun{ID: "pr", Score: math.Exp(m - 6*s), Kind: KindRun}
	pair := AuditRun{ID: "pair", Score: math.Exp(m - 6*s), Kind: KindPair, OnBranch: true}
	partial := AuditRun{ID: "part", Score: math.Exp(m - 6*s), Kind: KindRun, OnBranch: true, Partial: true}
	runs = slices.Insert(runs, 2, off, pair, partial)
	presumed, p, err := presume(f, runs, AuditOptions{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, ok := range presumed {
		if ok {
			got = append(got, runs[i].ID)
		}
	}
	want := []string{"g00", "g01", "g02", "g03", "g04", "g05", "g06", "g10", "g11", "g12", "g13"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("presumed healthy (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"g07", "g08", "g09"}, p.Changed); diff != "" {
		t.Errorf("in a change of level (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"g14", "g15", "g16"}, p.Recent); diff != "" {
		t.Errorf("too recent (-want +got):\n%s", diff)
	}
	if p.Branch != len(zs) || !(p.H > drift.DriftClip-drift.DriftK && p.H < 8) || p.None != "" {
		t.Errorf("presumption %+v", p)
	}
}

// TestAuditCounts: every verdict counted once; a marked run's truth is its
// mark; the floor's rate counts healthy runs judged alone on the whole
// suite against the calibration's own floor, the bands' those whose bands
// were judged; marked regressions split into caught and missed.
func TestAuditCounts(t *testing.T) {
	f, m, s := auditFile(t)
	low := math.Exp(m - 8*s) // below any floor of this calibration
	if !(low < f.Floor) {
		t.Fatalf("the test's low score %v is not below the floor %v", low, f.Floor)
	}
	ok := math.Exp(m)
	run := func(id, verdict string, score float64, mark string) AuditRun {
		return AuditRun{ID: id, Verdict: verdict, Score: score, Floor: f.Floor, FloorSource: gate.FloorCalibration, Kind: KindRun,
			RunnerHealth: gate.RunnerHealthOK, BandsJudged: true, Mark: mark}
	}
	runs := []AuditRun{
		run("a", gate.VerdictPass, ok, "healthy"),
		run("b", gate.VerdictFail, low, "healthy"),   // a marked false alarm
		run("c", gate.VerdictPass, ok, "regressed"),  // a missed regression
		run("d", gate.VerdictFail, low, "regressed"), // a caught one
		run("e", gate.VerdictRerun, low, ""),         // unknown: off the branch
		run("f", gate.VerdictPass, ok, "healthy"),    // bands: one below
		run("g", gate.VerdictInconclusive, low, "healthy"),
		run("h", gate.VerdictPass, ok, "healthy"), // a pair
		run("i", gate.VerdictPass, ok, "healthy"), // another floor
	}
	runs[5].Below = []string{"x"}
	runs[6].RunnerHealth = gate.RunnerHealthDegraded
	runs[7].Kind = KindPair
	runs[8].Floor, runs[8].FloorSource, runs[8].BandsJudged = 1.01, gate.FloorGiven, false
	res, err := Audit(f, runs, AuditOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Gated != 9 || res.Passed != 5 || res.Failed != 2 || res.Rerun != 1 || res.Other != 1 || res.Pairs != 1 || res.Unknown != 1 || res.Regressed != 2 {
		t.Errorf("counts %+v", res)
	}
	if len(res.Missed) != 1 || res.Missed[0].ID != "c" || len(res.Caught) != 1 || res.Caught[0].ID != "d" {
		t.Errorf("missed %v, caught %v; want c and d", res.Missed, res.Caught)
	}
	fl := res.Floor
	if fl.Healthy != 4 || fl.FalseAlarms != 2 || fl.Marked != 4 || fl.FalseMarked != 2 || fl.OnDegraded != 1 || fl.Left != 2 {
		t.Errorf("the floor's audit %+v: want 2 false alarms (b, g) in 4 healthy runs (a, b, f, g), 2 left out (h, i)", fl)
	}
	lo, hi := stats.ClopperPearson(2, 4, 0.95)
	if fl.Rate != 0.5 || fl.Lo != lo || fl.Hi != hi {
		t.Errorf("the floor's rate %v [%v, %v], want 0.5 [%v, %v]", fl.Rate, fl.Lo, fl.Hi, lo, hi)
	}
	if c, _ := ClaimedRate(f); fl.Claimed != c {
		t.Errorf("the floor's claim %v, want the file's %v", fl.Claimed, c)
	}
	b := res.Bands
	if b.Healthy != 4 || b.FalseAlarms != 1 || b.Alarms[0].ID != "f" || b.Claimed != f.RecommendOptions().FamilyAlpha || b.Left != 2 {
		t.Errorf("the bands' audit %+v: want 1 false alarm (f) in 4 healthy runs (a, b, f, g)", b)
	}
}
