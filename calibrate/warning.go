package calibrate

// WarnUnseenEnvironment is the gate's warning that the run's CPU model,
// image, or the value of the label the calibration's profiles are by, was
// not among the calibration's runs; UnseenFigures.
const WarnUnseenEnvironment WarningKind = "unseen-environment"

// UnseenFigures: the run's value of the label Label was none of Seen, the
// values of the calibration's runs (sorted).
type UnseenFigures struct {
	Label, Value string
	Seen         []string
}

func (UnseenFigures) figures() {}

// Warning is something a result says about itself that did not stop it
// but that the user should know before trusting it: thin data, an outlier
// run, a benchmark left out. It is a value, not a sentence, so that a
// report can tie it to the row of the run or benchmark it concerns, and
// so that the library never speaks in command-line terms: package
// present words it from its kind and figures, with the flag that changes
// it where there is one.
type Warning struct {
	Kind WarningKind
	// Run is the run the warning concerns, if it concerns one.
	Run string
	// Runs are the runs it concerns, if it concerns several (outliers,
	// runs below a floor).
	Runs []string
	// Benchmarks are the benchmarks it concerns, if any.
	Benchmarks []string
	// Figures are the figures it states: nil, or the value of the type
	// its kind's constant names.
	Figures warningFigures
}

// warningFigures are a warning's figures: one of the *Figures types below.
type warningFigures interface{ figures() }

// WarningKind says what a warning is about.
type WarningKind string

// The kinds of warning, each with the type of its figures (nil: none
// beyond the run and the benchmarks concerned).
const (
	// Analysis (Analyze).
	WarnCommonSuite    WarningKind = "common-suite"    // the suite is what every run has (asked for); SuiteFigures, Benchmarks left out
	WarnDroppedBench   WarningKind = "dropped-bench"   // benchmarks in half the runs or fewer, left out; DroppedFigures
	WarnRunExcluded    WarningKind = "run-excluded"    // a run lacking a suite benchmark, left out; Run, Benchmarks it lacks
	WarnNoSpread       WarningKind = "no-spread"       // every run has the same score; NoSpreadFigures
	WarnFewRuns        WarningKind = "few-runs"        // fewer than FewRuns runs; FewRunsFigures
	WarnOutlierRun     WarningKind = "outlier-run"     // one run's score is an outlier; Run, OutlierFigures
	WarnNoisyBench     WarningKind = "noisy-bench"     // benchmarks far noisier than the score; NoisyFigures
	WarnThinShares     WarningKind = "thin-shares"     // variance shares from few runs; SharesFigures
	WarnRegimes        WarningKind = "regimes"         // the score changed regime; RegimeFigures
	WarnNotNormal      WarningKind = "not-normal"      // Shapiro–Wilk rejects log-normal scores; NormalityFigures (Analyze) or CapFigures (Recommend: the floor capped)
	WarnHeavyTail      WarningKind = "heavy-tail"      // the scores favour a heavier tail than the normal; TailFigures
	WarnAutocorrelated WarningKind = "autocorrelated"  // consecutive runs are correlated; LagFigures (Analyze) or EffectiveFigures (Recommend)
	WarnRepetitions    WarningKind = "repetitions"     // runs whose repetitions the variance components leave out; RepetitionFigures
	WarnFloorBelowOne  WarningKind = "floor-below-one" // Recommend: the floor accepts a slower candidate; FloorFigures
	WarnOutliers       WarningKind = "outliers"        // Recommend: the distribution has outlier runs; Runs
	WarnFloorAboveMin  WarningKind = "floor-above-min" // Recommend: a calibration run would have failed; FloorFigures
	WarnEarlierBelow   WarningKind = "earlier-below"   // Recommend: runs before the window score below its floor; Runs, EarlierFigures
	WarnFewerRuns      WarningKind = "fewer-runs"      // Recommend: calibrated on fewer runs than given; FewerFigures
	WarnChanceRegime   WarningKind = "chance-regime"   // Recommend: the latest regime left out as chance; ChanceFigures
	// Recommend's claim-unsure, the claimed rate does not hold per
	// calibration on such runs (ClaimFigures), is floor.WarnClaimUnsure:
	// this package's exported names are at their limit.
	WarnOneVariantOnly WarningKind = "one-variant"     // Gate: benchmarks only one variant measured; OneVariantFigures
	WarnPartialGate    WarningKind = "partial-gate"    // Gate: gating on part of the calibrated suite; PartialFigures, Benchmarks missing
	WarnNotCalibrated  WarningKind = "not-calibrated"  // Gate: benchmarks the calibration lacks
	WarnFloorOverride  WarningKind = "floor-override"  // Gate: the given floor wins over the file's; OverrideFigures
	WarnRunnerDegraded WarningKind = "runner-degraded" // Gate: the baseline says the runner was slow; DegradedFigures
	WarnBelowBand      WarningKind = "below-band"      // Gate: benchmarks below their calibrated bands; BandFigures
	WarnAboveBand      WarningKind = "above-band"      // Gate: benchmarks far above their bands
	// Gate: the calibration rests on fewer than FewRuns runs;
	// FewRunsFigures.
	WarnThinCalibration WarningKind = "thin-calibration"
	// Gate: benchmarks, or the whole run, without a usable baseline
	// history; UncheckedFigures.
	WarnRunnerUnchecked WarningKind = "runner-unchecked"
)

// SuiteFigures: the suite is the Suite benchmarks common to all runs.
type SuiteFigures struct{ Suite int }

// DroppedFigures: In[i] of the Runs runs measured Benchmarks[i].
type DroppedFigures struct {
	In   []int
	Runs int
}

// NoSpreadFigures: all Runs runs have the score Score.
type NoSpreadFigures struct {
	Runs  int
	Score float64
}

// NormalityFigures: Shapiro–Wilk's W and p of the log scores, p below
// NormalityAlpha.
type NormalityFigures struct{ W, P float64 }

// TailFigures: the Student-t tail's degrees of freedom and its likelihood
// ratio over the normal.
type TailFigures struct{ DF, LR float64 }

// LagFigures: the lag-1 autocorrelation of the log scores and its
// standard error.
type LagFigures struct{ Lag1, SE float64 }

// RepetitionFigures: with Left, the runs (Warning.Runs) the variance
// components leave out, whose repetitions do not each measure the whole
// suite; else no variance components could be estimated from Runs runs
// with repetitions, Repetitions in all.
type RepetitionFigures struct {
	Left              bool
	Runs, Repetitions int
}

// FewRunsFigures: Runs runs, fewer than Enough.
type FewRunsFigures struct{ Runs, Enough int }

// OutlierFigures: the run's score, its robust z in log space, and the
// cut-off |z| it passed.
type OutlierFigures struct{ Score, Z, Cut float64 }

// NoisyFigures: each of Benchmarks' ratio range (Ranges, in order), whose
// range is Factor or more times the score's, which is RangePct% of its
// median.
type NoisyFigures struct {
	Ranges           []NoisyRange
	Factor, RangePct float64
}

// NoisyRange is a noisy benchmark's lowest and highest ratio, and how
// many times the score's range its range is.
type NoisyRange struct{ Min, Max, Times float64 }

// SharesFigures: Runs runs for Benchmarks benchmarks; the shares settle
// after about Settle runs.
type SharesFigures struct{ Runs, Benchmarks, Settle int }

// RegimeFigures: the regimes of the scores, in run order.
type RegimeFigures struct{ Regimes []Regime }

// CapFigures: the log-normal model is in doubt (NotNormal: Shapiro–Wilk's
// p is ShapiroP; HeavyTail: a Student-t tail with TailDF degrees of
// freedom fits better), so the target floor Uncapped is capped at Floor,
// both on the grid of Step.
type CapFigures struct {
	NotNormal, HeavyTail  bool
	ShapiroP, TailDF      float64
	Uncapped, Floor, Step float64
}

// EffectiveFigures: consecutive runs correlate (Rho, bias-corrected), so
// Runs runs count as Effective for the mean; the floor of independent
// runs would be Independent, it is Floor (on the grid of Step).
type EffectiveFigures struct {
	Rho                      float64
	Runs                     int
	Effective                float64
	Independent, Floor, Step float64
}

// FloorFigures: the floor (on the grid of Step), and the lowest
// calibration score Min.
type FloorFigures struct{ Floor, Step, Min float64 }

// EarlierFigures: the floor (on the grid of Step), calibrated on the
// regime from run From, is above Runs, of the Before runs before it.
type EarlierFigures struct {
	Floor, Step float64
	Before      int
	From        string
}

// FewerFigures: the floor was calibrated on Used of the Given runs (the
// latest regime, from From); on all of them the same method gives the
// floor AllFloor (on the grid of Step) and claims AllClaimed per healthy
// run (NaN when it gives none). ScanP is the latest regime's change
// against autocorrelated noise with the search priced in
// (spread.RegimeScanP; NaN when not tested).
type FewerFigures struct {
	Used, Given          int
	From                 string
	AllFloor, AllClaimed float64
	Step                 float64
	ScanP                float64
}

// ChanceFigures: the auto window found a latest regime of Runs runs from
// From, whose change autocorrelated noise (ρ Rho allowed for) gives with
// probability P, the search's choice of the cut priced in, above
// spread.RegimeAlpha: it calibrated on all Given runs instead.
type ChanceFigures struct {
	From        string
	Runs, Given int
	P, Rho      float64
}

// ClaimFigures: the claimed false-positive rate Claimed of the floor,
// calibrated on Runs runs whose lag-1 autocorrelation is Lag1, does not
// hold per calibration in the regime these runs show (docs/STATS.md 5g):
// FewRuns, too few runs to tell clean noise from a heavy tail, an unseen
// degraded runner or strong correlation; Undecided, a correlation too
// weak to allow for that does not rule out a strong one. RunsNeeded is
// the fewest runs on which neither applies.
type ClaimFigures struct {
	FewRuns, Undecided bool
	Claimed            float64
	Runs               int
	Lag1               float64
	RunsNeeded         int
}

// OneVariantFigures: the benchmarks were measured by Variant only; ""
// for a pair, in one of its runs only.
type OneVariantFigures struct{ Variant string }

// PartialFigures: the run is gated on Gated of Of benchmarks: those of
// the calibration, or (Either "variant" or "run") those either variant
// or either run of a pair measured.
type PartialFigures struct {
	Gated, Of int
	Either    string
}

// UncheckedFigures: why the runner's health was not checked (Why), or,
// for UncheckedFlat, which benchmarks were left out of the check.
type UncheckedFigures struct {
	Why uncheckedWhy
	// CalibrationRuns is the calibration's runs, for UncheckedFewRuns.
	CalibrationRuns int
}

// uncheckedWhy says why the runner's health was not checked.
type uncheckedWhy int

// The reasons the runner's health went unchecked.
const (
	UncheckedNoSpread  uncheckedWhy = iota // no benchmark's baseline history has any spread
	UncheckedNoHistory                     // the calibration has no baseline history
	UncheckedFewRuns                       // too few calibration runs for a cut-off
	UncheckedFlat                          // checked, but Benchmarks left out: their baseline never varied
)

// OverrideFigures: the floor given, which overrides the file's floor
// (FileFloor, as the file writes it).
type OverrideFigures struct {
	Given     float64
	FileFloor string
}

// DegradedFigures: the median robust z of the baselines, below Cutoff,
// the cut-off for CalibrationRuns runs; Inconclusive when the verdict is
// inconclusive for it.
type DegradedFigures struct {
	MedianZ, Cutoff float64
	CalibrationRuns int
	Inconclusive    bool
}

// BandFigures: the bands' family-wise false-positive rate per healthy
// run.
type BandFigures struct{ Alpha float64 }

func (SuiteFigures) figures() {}

func (RepetitionFigures) figures() {}

func (DroppedFigures) figures() {}

func (NoSpreadFigures) figures() {}

func (NormalityFigures) figures() {}

func (TailFigures) figures() {}

func (LagFigures) figures() {}

func (FewRunsFigures) figures() {}

func (OutlierFigures) figures() {}

func (NoisyFigures) figures() {}

func (SharesFigures) figures() {}

func (RegimeFigures) figures() {}

func (CapFigures) figures() {}

func (EffectiveFigures) figures() {}

func (FloorFigures) figures() {}

func (EarlierFigures) figures() {}

func (FewerFigures) figures() {}

func (ChanceFigures) figures() {}

func (ClaimFigures) figures() {}

func (OneVariantFigures) figures() {}

func (PartialFigures) figures() {}

func (UncheckedFigures) figures() {}

func (OverrideFigures) figures() {}

func (DegradedFigures) figures() {}

func (BandFigures) figures() {}
