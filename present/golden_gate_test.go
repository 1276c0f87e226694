package present

import (
	"slices"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
)

// scaled is a copy of run with id, its values of variant (all variants
// when "") in benchmark (all when "") multiplied by f.
func scaled(run data.Run, id, variant, benchmark string, f float64) data.Run {
	run.ID = id
	run.Measurements = slices.Clone(run.Measurements)
	for i, m := range run.Measurements {
		if (variant == "" || m.Variant == variant) && (benchmark == "" || m.Benchmark == benchmark) {
			run.Measurements[i].Value *= f
		}
	}
	return run
}

// repeated is a copy of run measured n times over (repetitions 1..n),
// each repetition's candidate a little faster than the one before.
func repeated(run data.Run, n int) data.Run {
	var ms []data.Measurement
	for r := 1; r <= n; r++ {
		for _, m := range run.Measurements {
			m.Repetition = r
			if m.Variant == run.Candidate {
				m.Value *= 1 + 0.01*float64(r-2)
			}
			ms = append(ms, m)
		}
	}
	run.Measurements = ms
	return run
}

// without is a copy of run without the benchmarks named.
func without(run data.Run, names ...string) data.Run {
	run.Measurements = slices.DeleteFunc(slices.Clone(run.Measurements), func(m data.Measurement) bool { return slices.Contains(names, m.Benchmark) })
	return run
}

// exitCode is the exit code cmd gives a verdict.
func exitCode(verdict string) int {
	switch verdict {
	case gate.VerdictFail:
		return 1
	case gate.VerdictInconclusive, gate.VerdictRerun:
		return 3
	}
	return 0
}

// TestGoldenGate: qoscal gate's view, in text, Markdown and JSON, on the
// Linux sample's calibration: each verdict, each source of the floor,
// and what qualifies a verdict.
func TestGoldenGate(t *testing.T) {
	// The sample's calibration with the margin method, 5% below the
	// lowest run: its regressed runs fail it. (The default method on all
	// twelve runs, across the sample's two regimes, puts the floor at
	// 0.48: the case target-fpr. The command would calibrate on the
	// latest regime: recommend's case glibc-latest.)
	def := glibc(t)
	healthy := def.runs
	marginOpt := model.DefaultRecommendOptions
	marginOpt.Method, marginOpt.Margin = model.MethodMargin, 0.05
	g := calibrateOn(t, healthy, marginOpt, map[string]string{"os": "linux"})
	regressed := loadGlibc(t, "regressed", "regressed/")
	opt := gate.GateOptions{Baseline: "glibc", Candidate: "mimalloc", Calibration: g.file}
	view := func(res *gate.GateResult, run *data.Run, cal *model.File) *Gate {
		return &Gate{Res: res, Run: run, Cal: cal, CalPath: "gate.json", Tag: 0.03, GivenFloor: "--floor",
			ExitCode: exitCode(res.Verdict), Warnings: WarningTexts(res.Warnings)}
	}
	judge := func(run data.Run, o gate.GateOptions) *Gate {
		t.Helper()
		res, err := gate.Gate(&run, o)
		if err != nil {
			t.Fatalf("gate %s: %v", run.ID, err)
		}
		return view(res, &run, o.Calibration)
	}
	with := func(f func(o *gate.GateOptions)) gate.GateOptions {
		o := opt
		f(&o)
		return o
	}
	var cases []goldenCase
	add := func(name, reason string, v *Gate) {
		cases = append(cases, goldenCase{name: name, reason: reason, doc: v.Doc, json: func() any { return v.JSON() },
			extra: map[string]func() string{"title": func() string { return v.title() + "\n" + v.Word() + "\n" + v.Headline() }}})
	}

	add("pass", "a healthy run against the calibration's floor", judge(scaled(healthy[4], "pr-1", "", "", 1), opt))
	add("target-fpr", "a regressed run against the default method's floor on all twelve runs, 0.48: below 1.0, warned of",
		judge(regressed[0], with(func(o *gate.GateOptions) { o.Calibration = def.file })))
	add("fail", "a regressed run of the sample below the floor", judge(regressed[0], opt))
	add("report-only", "the same run with --report-only: below the floor, report-only", judge(regressed[0], with(func(o *gate.GateOptions) { o.ReportOnly = true })))
	add("given-floor", "no calibration, a floor given with --floor: no bands, no runner health, tags against parity",
		judge(regressed[1], gate.GateOptions{Baseline: "glibc", Candidate: "mimalloc", Floor: 1.1}))
	add("override", "a floor given with --floor over the calibration file's",
		judge(regressed[1], with(func(o *gate.GateOptions) { o.Floor = 1.1 })))
	add("ungated", "no floor and no calibration: the ratios, not gated",
		judge(healthy[0], gate.GateOptions{Baseline: "glibc", Candidate: "mimalloc"}))
	add("degraded", "a runner at 60% of its speed, --on-degraded fail: could not judge",
		judge(scaled(healthy[5], "slow-runner", "", "", 0.6), with(func(o *gate.GateOptions) { o.OnDegraded = "fail" })))
	add("above-band", "larson far above its band, two below theirs: PASS with warnings",
		judge(scaled(regressed[0], "above-band", "mimalloc", "larson", 4), opt))
	// The verdict resting on larson (the gate's CarriedBy), put literally:
	// the sample's bands are too wide for the capped score to fall below.
	carried := judge(scaled(regressed[0], "carried", "mimalloc", "larson", 4), opt)
	carried.Res.Verdict, carried.Res.CarriedBy, carried.Res.CappedScore = gate.VerdictInconclusive, []string{"larson"}, 1.13
	carried.ExitCode = 3
	add("carried", "a score that passes only because larson is far above its band: could not judge", carried)
	warn := judge(scaled(regressed[0], "carried", "mimalloc", "larson", 4), with(func(o *gate.GateOptions) { o.ReportOnly = true }))
	warn.Res.Verdict, warn.Res.CarriedBy, warn.Res.CappedScore = gate.VerdictWarn, []string{"larson", "sh8bench"}, 1.13
	add("carried-report-only", "the same resting on two benchmarks, --report-only", warn)
	add("below-band", "alloc-test at 30% of its ratio with --per-benchmark fail: FAIL on a band",
		judge(scaled(healthy[0], "below-band", "mimalloc", "alloc-test", 0.3), with(func(o *gate.GateOptions) { o.PerBenchmark = gate.PerBenchmarkFail })))
	add("below-band-warn", "alloc-test at 30% of its ratio: PASS with warnings",
		judge(scaled(healthy[0], "below-band", "mimalloc", "alloc-test", 0.3), opt))
	add("partial", "a run without larson and rptest, --allow-partial: the sub-suite's floor",
		judge(without(scaled(healthy[6], "partial", "", "", 1), "larson", "rptest"), with(func(o *gate.GateOptions) {
			o.AllowPartial = true
		})))
	add("ignore", "--ignore cfrac: left out on purpose, said once",
		judge(scaled(healthy[8], "ignored", "", "", 1), with(func(o *gate.GateOptions) { o.Ignore = []string{"cfrac"} })))

	// A rerun: the first run just below the floor, the command measured
	// again, the pair judged by its mean.
	a, b := regressed[0], scaled(healthy[9], "rerun", "", "", 1)
	pair, err := gate.GatePair(&a, &b, opt)
	if err != nil {
		t.Fatal(err)
	}
	pv := view(pair, &b, g.file)
	pv.RerunCommand = "make bench\r::error::x"
	add("rerun", "a rerun (--rerun-command, itself hostile): the pair judged together", pv)

	// The sequential gate (measure --calibration): passed, and at its limit.
	for _, s := range []struct{ name, reason, decision, stopped string }{
		{"sequential-pass", "a sequential gate that passed after 3 of 8 repetitions", "pass", "decided"},
		{"sequential-limit", "a sequential gate at its limit between its boundaries: rerun", "undecided", "limit"},
	} {
		run := repeated(scaled(healthy[10], s.name, "", "", 1), 3)
		res, err := gate.GateSequential(&run, opt, gate.SequentialVerdict{Repetitions: 3, MaxRepetitions: 8, Decision: s.decision, Stopped: s.stopped,
			FailFloor: 1.15, PassFloor: 1.2, Alpha: 0.001, Slide: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		add(s.name, s.reason, view(res, &run, g.file))
	}

	// Repetitions judged by their mean against the floor the variance
	// components give (a literal calibration with them).
	run := scaled(healthy[11], "repeated", "", "", 1)
	cal := *g.file
	cal.Variance = &model.FileVariance{Between: 0.05, Within: 0.03, MeanLog: 0.25, Runs: 12, Repetitions: 36}
	rep := judge(run, with(func(o *gate.GateOptions) { o.Calibration = &cal }))
	rep.Res.Repetitions, rep.Res.RepetitionFloor, rep.Res.Floor = 3, 1.19, 1.19
	add("repetitions", "a run of 3 repetitions against the floor for their mean", rep)

	// A profile of the calibration judged the run, on a CPU the labels name.
	full := *g.file
	full.By, full.Runs, full.FloorText = "cpu", 24, "1.02"
	prof := judge(scaled(healthy[3], "profiled", "", "", 1), opt)
	prof.Profile, prof.Full = "Model A", &full
	prof.Environment = NewGateEnvironment(map[string]string{data.LabelCPU: "Model A", data.LabelImage: "ubuntu-24.04"}, "labels")
	add("profile", "judged on the profile of its CPU, the environment found in its labels", prof)

	// No profile for this runner's CPU: the calibration of all runs
	// judged it, the environment taken from the machine.
	unseen := judge(scaled(healthy[4], "unseen", "", "", 1), opt)
	unseen.Res.Warnings = append(unseen.Res.Warnings,
		calibrate.Warning{Kind: calibrate.WarnUnseenEnvironment, Figures: calibrate.UnseenFigures{Label: data.LabelCPU, Value: "Model C", Seen: []string{"Model A", "Model B"}}},
		calibrate.Warning{Kind: calibrate.WarnUnseenEnvironment, Figures: calibrate.UnseenFigures{Label: data.LabelImage, Seen: []string{"ubuntu-22.04", "ubuntu-24.04", "windows-2022"}}},
		calibrate.Warning{Kind: calibrate.WarnUnseenEnvironment, Figures: calibrate.UnseenFigures{Label: "kernel", Value: "6.8", Seen: []string{"6.1"}}})
	unseen.Warnings = WarningTexts(unseen.Res.Warnings)
	unseen.Environment = NewGateEnvironment(map[string]string{data.LabelCPU: "Model C"}, "machine")
	add("unseen", "a CPU, an image and a kernel the calibration's profiles lack: said as warnings", unseen)

	// Go benchmarks (sec/op, lower is better, five samples each) gated
	// against a floor given, without a calibration.
	plus, err := load.ParseVariantSpec("plus=plus.txt")
	if err != nil {
		t.Fatal(err)
	}
	builder, err := load.ParseVariantSpec("builder=builder.txt")
	if err != nil {
		t.Fatal(err)
	}
	goRuns, err := load.All([]string{sampleDir("go-strings-builder")}, load.Options{Baseline: plus, Candidate: builder, RunID: "local", StripProcs: true})
	if err != nil {
		t.Fatal(err)
	}
	add("go-sec-op", "the Go sample's sec/op: times in their units, medians of five samples, tags against parity",
		judge(goRuns[0], gate.GateOptions{Baseline: "plus", Candidate: "builder", Metric: "sec/op", Floor: 1.5}))

	// Hostile names in the run, its variants and its benchmarks.
	x := hostile(t)
	hr := hostileRuns(13)[12]
	hr.ID = "<img src=x onerror=alert(1)>::error::"
	hr = scaled(hr, hr.ID, "@cand", evilHTML, 0.5)
	hv := judge(hr, gate.GateOptions{Baseline: "<b>base</b>", Candidate: "@cand", Calibration: x.file})
	hv.CalPath = "cal\n::error::.json"
	add("hostile", "names with ::, CR, LF, HTML, @ and | in the run id, variants, benchmarks and the calibration's path", hv)

	checkGolden(t, "gate", cases)
}
