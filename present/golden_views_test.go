package present

import (
	"bytes"
	"fmt"
	"math"
	"testing"
	"time"

	calaudit "github.com/qoscal/qoscal/calibrate/audit"
	"github.com/qoscal/qoscal/calibrate/drift"
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/chartdata"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/render"
)

// TestGoldenRecommendProfiles: recommend --by's view: the recommendation,
// then each profile's floor.
func TestGoldenRecommendProfiles(t *testing.T) {
	g := glibc(t)
	half := func(value string, runs []data.Run) model.FileProfile {
		c := calibrateOn(t, runs, model.DefaultRecommendOptions, nil)
		return model.NewProfile(value, c.file)
	}
	profiles := []model.FileProfile{half("Model A", g.runs[:6]), half("<b>Model B</b>\r::error::", g.runs[6:])}
	v := &RecommendProfiles{Recommend: &Recommend{A: g.a, Rec: g.rec, Warnings: WarningTexts(g.a.Warnings, g.rec.Warnings)}, By: "cpu", Profiles: profiles}
	checkGolden(t, "recommend-profiles", []goldenCase{{name: "by-cpu", reason: "the Linux sample's runs as two CPUs' profiles, one named with HTML, CR and ::",
		doc: v.Doc, json: func() any { return v.JSON() }}})
}

// TestGoldenRuns: qoscal runs' view: the stored runs, with labels, roles
// or none, and hostile ids and labels.
func TestGoldenRuns(t *testing.T) {
	ingested := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	g := loadGlibc(t, "healthy", "")
	runs := []store.StoredRun{
		{Run: g[0], Ingested: ingested},
		{Run: data.Run{ID: "no-roles", Source: "runs.csv", Measurements: []data.Measurement{
			{Benchmark: "a", Variant: "x", Value: 1, Repetition: 1}, {Benchmark: "a", Variant: "y", Value: 2, Repetition: 1},
			{Benchmark: "a", Variant: "x", Sample: 1, Value: 1.5, Repetition: 2}, {Benchmark: "a", Variant: "y", Sample: 1, Value: 2.5, Repetition: 2}}}, Ingested: ingested},
	}
	h := hostileRuns(1)[0]
	h.Time = time.Date(2026, 12, 1, 9, 30, 0, 0, time.FixedZone("CET", 3600))
	runs = append(runs, store.StoredRun{Run: h, Ingested: ingested})
	checkGolden(t, "runs", []goldenCase{
		{name: "runs", reason: "a sample run, a run without roles or labels measured in two repetitions, a hostile run with a time", doc: (&Runs{Runs: runs}).Doc,
			json: func() any { return (&Runs{Runs: runs}).JSON() }},
		{name: "empty", reason: "no run stored: an empty table, an empty array", doc: (&Runs{}).Doc, json: func() any { return (&Runs{}).JSON() }},
	})
}

// TestGoldenMeasure: qoscal measure's view, without a calibration.
func TestGoldenMeasure(t *testing.T) {
	v := &Measure{Folder: "runs/run-7", Run: "run-7", Baseline: "glibc", Candidate: "mimalloc", Order: "interleaved", Seed: 1,
		Repetitions: []MeasureRepetition{
			{N: 1, Order: []string{"glibc", "mimalloc"}, Seconds: 1.25, Score: 1.31},
			{N: 2, Order: []string{"mimalloc", "glibc"}, Seconds: 1.5, Score: 1.27},
			{N: 3, Order: []string{"glibc", "mimalloc"}, Seconds: 1.125, Score: math.NaN()},
		}, Invocations: 6, Seconds: 3.875, Score: math.NaN()}
	ok := *v
	ok.Repetitions, ok.Score = v.Repetitions[:2], math.Sqrt(1.31*1.27)
	checkGolden(t, "measure", []goldenCase{
		{name: "scored", reason: "two repetitions, each scored", doc: ok.Doc, json: func() any { return ok.JSON() }},
		{name: "unscored", reason: "a repetition that could not be scored: no score for the run", doc: v.Doc, json: func() any { return v.JSON() }},
	})
}

// TestGoldenDrift: qoscal drift's view: no drift, a fall, a rise, too few
// runs.
func TestGoldenDrift(t *testing.T) {
	// Calibrated on the sample's later regime alone: nine steady runs.
	g := calibrateOn(t, loadGlibc(t, "healthy", "")[3:], model.DefaultRecommendOptions, map[string]string{"os": "linux"})
	regressed := loadGlibc(t, "regressed", "regressed/")
	series := func(prefix string, from []data.Run, n int, f float64) []data.Run {
		var out []data.Run
		for i := range n {
			out = append(out, scaled(from[i%len(from)], fmt.Sprintf("%s-%02d", prefix, i+1), "mimalloc", "", f))
		}
		return out
	}
	check := func(runs []data.Run) *Drift {
		t.Helper()
		res, err := drift.Drift(g.file, runs, 0, drift.DriftOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return &Drift{Res: res}
	}
	steady := series("steady", g.runs, 9, 1)
	fell := append(series("pr", g.runs, 6, 1), series("slow", regressed, 9, 0.85)...)
	rose := append(series("pr", g.runs, 6, 1), series("fast", g.runs, 9, 1.15)...)
	var cases []goldenCase
	for _, c := range []struct {
		name, reason string
		v            *Drift
	}{
		{"steady", "nine runs that score like the calibration: no drift", check(steady)},
		{"fell", "runs that fell below the calibration: investigate", check(fell)},
		{"rose", "runs that rose above it: recalibrate to tighten the floor", check(rose)},
		{"too-few", "two runs: too few to tell", check(steady[:2])},
		{"dipped", "runs 5% down, below every calibration run yet above the floor: they passed", check(append(series("pr", g.runs, 6, 1), series("dip", g.runs, 12, 0.95)...))},
	} {
		v := c.v
		cases = append(cases, goldenCase{name: c.name, reason: c.reason, doc: v.Doc, json: func() any { return v.JSON() },
			extra: map[string]func() string{"note": func() string { return GateDriftNote(v.Res, "sqlite:ledger.db") + "\n" }}})
	}
	checkGolden(t, "drift", cases)
}

// auditRuns are a ledger's verdicts against cal: n healthy passes on the
// calibrated branch, then what makes an audit say something.
func auditRuns(cal *model.File, n int) []calaudit.AuditRun {
	floor := cal.Floor
	var out []calaudit.AuditRun
	for i := range n {
		out = append(out, calaudit.AuditRun{ID: fmt.Sprintf("pr-%03d", i+1), Verdict: gate.VerdictPass, Score: cal.Observed.Median * math.Exp(0.02*math.Sin(float64(i))),
			Floor: floor, FloorSource: gate.FloorCalibration, Kind: calaudit.KindRun, RunnerHealth: gate.RunnerHealthOK, BandsJudged: true, OnBranch: true})
	}
	fail := func(id, mark, note string, below ...string) calaudit.AuditRun {
		return calaudit.AuditRun{ID: id, Verdict: gate.VerdictFail, Score: floor - 0.05, Floor: floor, FloorSource: gate.FloorCalibration,
			Kind: calaudit.KindRun, RunnerHealth: gate.RunnerHealthOK, BandsJudged: true, Below: below, OnBranch: true, Mark: mark, Note: note}
	}
	out = append(out[:n/2], append([]calaudit.AuditRun{
		fail("pr-false-alarm", "healthy", "flaky runner\r::error::x"),
		fail("pr-regressed", "regressed", "<b>known</b> @octocat"),
		{ID: "pr-missed", Verdict: gate.VerdictPass, Score: floor + 0.01, Floor: floor, FloorSource: gate.FloorCalibration,
			Kind: calaudit.KindRun, RunnerHealth: gate.RunnerHealthOK, BandsJudged: true, OnBranch: true, Mark: "regressed", Note: "missed"},
	}, out[n/2:]...)...)
	return out
}

// TestGoldenAudit: qoscal audit's view, of a calibration and of one with
// profiles.
func TestGoldenAudit(t *testing.T) {
	g := calibrateOn(t, loadGlibc(t, "healthy", "")[3:], model.DefaultRecommendOptions, map[string]string{"os": "linux"})
	audit := func(cal *model.File, runs []calaudit.AuditRun) *calaudit.AuditResult {
		t.Helper()
		res, err := calaudit.Audit(cal, runs, calaudit.AuditOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	cal := *g.file
	cal.SHA256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	plain := &Audit{Res: audit(&cal, auditRuns(&cal, 40)), Cal: &cal, CalPath: "gate.json", Store: "sqlite:ledger.db", Labels: map[string]string{"os": "linux"}}
	none := &Audit{Res: audit(&cal, nil), Cal: &cal, CalPath: "gate.json", Store: "sqlite:ledger.db"}

	// Profiles by cpu: the file's top level and two profiles, each
	// audited on its own runs.
	prof := cal
	pa := calibrateOn(t, g.runs[:5], model.DefaultRecommendOptions, nil).file
	pb := calibrateOn(t, g.runs[4:], model.DefaultRecommendOptions, nil).file
	prof.By, prof.Profiles = "cpu", []model.FileProfile{model.NewProfile("Model A", pa), model.NewProfile("<i>B</i>", pb)}
	profiled := &Audit{Res: audit(&prof, auditRuns(&prof, 10)), Cal: &prof, CalPath: "cal\n::error::.json", Store: "postgres://host/db",
		Profiles: []ProfileAudit{{Value: "Model A", Cal: pa, Res: audit(pa, auditRuns(pa, 12))}, {Value: "<i>B</i>", Cal: pb, Res: audit(pb, auditRuns(pb, 5))}}}
	var cases []goldenCase
	for _, c := range []struct {
		name, reason string
		v            *Audit
	}{
		{"ledger", "forty verdicts: a false alarm marked healthy, a regression caught and one missed, notes with CR, :: and HTML", plain},
		{"empty", "no verdict against the calibration: too few to tell", none},
		{"profiles", "a file with profiles by cpu, one named with HTML, and a hostile path", profiled},
	} {
		v := c.v
		cases = append(cases, goldenCase{name: c.name, reason: c.reason, doc: v.Doc, json: func() any { return v.JSON() },
			extra: map[string]func() string{"warning": func() string { return v.Warning() + "\n" }}})
	}
	checkGolden(t, "audit", cases)
}

// TestGoldenReport: qoscal report's view: Markdown with chart files, for
// a step summary (Mermaid charts), and the HTML page.
func TestGoldenReport(t *testing.T) {
	g := glibc(t)
	report := func(c *calibration, floor chartdata.Floor) *Report {
		r := &Report{A: c.a, Rec: c.rec, Floor: floor, ChartData: chartdata.All(c.a, nil, c.rec, floor), Sources: map[string]string{},
			Source: "paths", Version: "v0.0.0-test", When: "2026-12-01T00:00:00Z"}
		for _, run := range c.runs {
			r.Sources[run.ID] = run.Source
		}
		for _, name := range []string{"score-sequence", "floor-tradeoff", "ratio-spread"} {
			r.Charts = append(r.Charts, ReportChart{Name: name, Caption: "The " + name + " chart", SVG: []byte(`<?xml version="1.0"?><!-- gonum --><svg width="10" height="10"><text>` + name + `</text></svg>`)})
		}
		r.Charts = append(r.Charts, ReportChart{Name: "noise", Caption: "Noise by benchmark", LeftOut: "a single benchmark has no share of the noise"})
		return r
	}
	files := []string{"out/r-score-sequence.svg", "out/r-floor-tradeoff.svg", "out/r-ratio-spread.svg", ""}
	rec := report(g, chartdata.Floor{Value: g.rec.Floor, Label: "recommended"})

	// A calibration's floor, with its audit and the ledger's verdicts.
	cal := *g.file
	cal.SHA256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	at := g.rec.At(g.a, 1.2, 2)
	onCal := report(&calibration{runs: g.runs, a: g.a, rec: at}, chartdata.Floor{Value: 1.2, Label: "calibration"})
	onCal.Recommended, onCal.Cal, onCal.CalPath = g.rec, &cal, "gate.json"
	onCal.Filter = map[string]string{"os": "linux"}
	res, err := calaudit.Audit(&cal, auditRuns(&cal, 20), calaudit.AuditOptions{})
	if err != nil {
		t.Fatal(err)
	}
	onCal.Audit = &Audit{Res: res, Cal: &cal, CalPath: "gate.json", Store: "sqlite:ledger.db"}
	onCal.Gated = map[string]string{"run-04": "pass", "run-07": "fail, marked healthy"}

	x := hostile(t)
	evil := report(x, chartdata.Floor{Value: x.rec.Floor, Label: "recommended"})
	evil.Source = "store sqlite:<b>db</b>"

	var cases []goldenCase
	for _, c := range []struct {
		name, reason string
		r            *Report
	}{
		{"recommended", "the Linux sample's report on the recommended floor, one chart left out", rec},
		{"calibration", "a calibration file's floor with its audit and the ledger's verdicts in the inputs", onCal},
		{"hostile", "names with ::, CR, LF, HTML, @ and | everywhere a report shows them", evil},
	} {
		r := c.r
		cases = append(cases, goldenCase{name: c.name, reason: c.reason,
			doc: func() *render.Doc { return r.Markdown(files) },
			extra: map[string]func() string{
				"summary.md": func() string {
					var b bytes.Buffer
					r.Markdown(nil).WriteMarkdown(&b)
					return b.String()
				},
				"html": func() string {
					var b bytes.Buffer
					if err := r.WriteHTML(&b); err != nil {
						t.Fatal(err)
					}
					return b.String()
				},
			}})
	}
	checkGolden(t, "report", cases)
}
