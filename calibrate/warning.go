package calibrate

// Warning is something a result says about itself that did not stop it
// but that the user should know before trusting it: thin data, an outlier
// run, a benchmark left out. It is a value, not a sentence, so that a
// report can tie it to the row of the run or benchmark it concerns, and
// so that the library never speaks in command-line terms: Msg names no
// flag; a command adds its own hint by Kind.
type Warning struct {
	Kind WarningKind
	// Run is the run the warning concerns, if it concerns one.
	Run string
	// Benchmarks are the benchmarks it concerns, if any.
	Benchmarks []string
	// Msg is the warning in plain words.
	Msg string
}

// String returns the message.
func (w Warning) String() string { return w.Msg }

// WarningKind says what a warning is about.
type WarningKind string

// The kinds of warning.
const (
	// Analysis (Analyze).
	WarnCommonSuite     WarningKind = "common-suite"     // the suite is what every run has (asked for)
	WarnDroppedBench    WarningKind = "dropped-bench"    // benchmarks in half the runs or fewer, left out
	WarnRunExcluded     WarningKind = "run-excluded"     // a run lacking a suite benchmark, left out
	WarnNoSpread        WarningKind = "no-spread"        // every run has the same score
	WarnFewRuns         WarningKind = "few-runs"         // fewer than FewRuns runs
	WarnOutlierRun      WarningKind = "outlier-run"      // one run's score is an outlier
	WarnNoisyBench      WarningKind = "noisy-bench"      // benchmarks far noisier than the score
	WarnThinShares      WarningKind = "thin-shares"      // variance shares from few runs
	WarnRegimes         WarningKind = "regimes"          // the score changed regime
	WarnNotNormal       WarningKind = "not-normal"       // Shapiro–Wilk rejects log-normal scores
	WarnHeavyTail       WarningKind = "heavy-tail"       // the scores favour a heavier tail than the normal
	WarnAutocorrelated  WarningKind = "autocorrelated"   // consecutive runs are correlated
	WarnRepetitions     WarningKind = "repetitions"      // runs whose repetitions the variance components leave out
	WarnFloorBelowOne   WarningKind = "floor-below-one"  // Recommend: the floor accepts a slower candidate
	WarnOutliers        WarningKind = "outliers"         // Recommend: the distribution has outlier runs
	WarnFloorAboveMin   WarningKind = "floor-above-min"  // Recommend: a calibration run would have failed
	WarnEarlierBelow    WarningKind = "earlier-below"    // Recommend: runs before the window score below its floor
	WarnOneVariantOnly  WarningKind = "one-variant"      // Gate: benchmarks only one variant measured
	WarnPartialGate     WarningKind = "partial-gate"     // Gate: gating on part of the calibrated suite
	WarnNotCalibrated   WarningKind = "not-calibrated"   // Gate: benchmarks the calibration lacks
	WarnFloorOverride   WarningKind = "floor-override"   // Gate: the given floor wins over the file's
	WarnRunnerDegraded  WarningKind = "runner-degraded"  // Gate: the baseline says the runner was slow
	WarnBelowBand       WarningKind = "below-band"       // Gate: benchmarks below their calibrated bands
	WarnAboveBand       WarningKind = "above-band"       // Gate: benchmarks far above their bands
	WarnRunnerUnchecked WarningKind = "runner-unchecked" // Gate: benchmarks, or the whole run, without a usable baseline history
)

// Messages returns the warnings' messages.
func Messages(ws []Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Msg
	}
	return out
}
