package present

import (
	"math"

	"github.com/qoscal/qoscal/calibrate"
	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/render"
)

// recommendJSON is the recommendation's JSON document (docs/json.md).
type recommendJSON struct {
	Floor           float64          `json:"floor"`
	FloorText       string           `json:"floor_text"`
	Method          string           `json:"method"`
	Raw             render.Float     `json:"raw"`
	Margin          float64          `json:"margin"`
	Step            float64          `json:"step"`
	Alpha           float64          `json:"alpha"`
	Coverage        float64          `json:"coverage"`
	Confidence      float64          `json:"confidence"`
	ToleranceK      render.Float     `json:"tolerance_k"`
	Seed            uint64           `json:"seed"`
	Baseline        string           `json:"baseline"`
	Candidate       string           `json:"candidate"`
	Suite           []string         `json:"suite"`
	Runs            int              `json:"runs"`
	Observed        observedJSON     `json:"observed"`
	FPR             fprJSON          `json:"false_positive_rate"`
	Horizon         horizonJSON      `json:"horizon"`
	Detection       detectionJSON    `json:"detection"`
	Backtest        backtestJSON     `json:"backtest"`
	MoreRunsFor1Pct int              `json:"more_runs_for_1pct"`
	Bootstrap       *bootstrapJSON   `json:"bootstrap"`
	Candidates      []render.Object  `json:"candidates"`
	Warnings        []string         `json:"warnings"`
	Summary         summaryJSON      `json:"summary"`
	Repetitions     []repetitionJSON `json:"repetitions"`
	TwoStage        twoStageJSON     `json:"two_stage"`
	Regimes         []regimeJSON     `json:"regimes"`
	Outliers        outliersJSON     `json:"outliers"`
	ModelCheck      modelCheckJSON   `json:"model_check"`
	CalibratedOn    windowJSON       `json:"calibrated_on"`
	TargetFPR       float64          `json:"target_fpr"`
	FamilyAlpha     float64          `json:"family_alpha"`
	PerBenchmark    []render.Object  `json:"per_benchmark"`
	CombinedFPR     render.Float     `json:"combined_fpr"`
	// VarianceComponents is null for runs without repetitions; Detect
	// null without --detect.
	VarianceComponents *varianceJSON `json:"variance_components"`
	Detect             *detectJSON   `json:"detect"`
}

// summaryJSON is the decision: the floor, its predictive false-positive
// rate per healthy run and that rate as "one in N", r50, and the
// plain-language summary.
type summaryJSON struct {
	Floor float64      `json:"floor"`
	FPR   render.Float `json:"fpr"`
	OneIn render.Float `json:"one_in"`
	R50   render.Float `json:"r50"`
	Text  string       `json:"text"`
}

// twoStageJSON is the gate with a rerun band: its predictive false-positive
// rate per healthy job and the chance of a rerun.
type twoStageJSON struct {
	Band  float64      `json:"rerun_band"`
	FPR   render.Float `json:"fpr"`
	Rerun render.Float `json:"rerun"`
	// PowerAtR90 is the chance the rule fails a job slid to one run's r90.
	PowerAtR90 render.Float `json:"power_at_r90"`
}

// repetitionJSON is how many repetitions per run catch a slide.
type repetitionJSON struct {
	Slide float64 `json:"slide"`
	Power float64 `json:"power"`
	M     int     `json:"repetitions"`
}

// regimeJSON is a regime of the scores, in run order. BoundaryChanges,
// on every regime after the first (absent from the first), are the run
// labels that changed at its first run: [] when none did.
type regimeJSON struct {
	First           string             `json:"first"`
	Last            string             `json:"last"`
	N               int                `json:"n"`
	Median          float64            `json:"median"`
	BoundaryChanges *[]labelChangeJSON `json:"boundary_changes,omitempty"`
}

// labelChangeJSON is a run label that changed at a regime boundary.
type labelChangeJSON struct {
	Label string `json:"label"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// windowJSON says which runs the floor was calibrated on.
type windowJSON struct {
	First string `json:"first"`
	Last  string `json:"last"`
	N     int    `json:"n"`
	Rule  string `json:"rule"`
	// Given is how many runs the calibration was given; AllRuns the
	// floor and claimed rate on all of them when N is fewer (issue 33
	// item 4); RegimeP the latest regime's change against autocorrelated
	// noise with the search priced in (spread.RegimeScanP), and Chance
	// whether the auto rule left that regime out for it.
	Given   int          `json:"given"`
	AllRuns *allRunsJSON `json:"all_runs,omitempty"`
	RegimeP render.Float `json:"regime_p"`
	Rho     render.Float `json:"regime_rho"`
	Chance  bool         `json:"chance_regime"`
}

// allRunsJSON is the floor and its claimed rate on every run given.
type allRunsJSON struct {
	Floor   render.Float `json:"floor"`
	Claimed render.Float `json:"claimed"`
}

// regimesJSON lists regimes for JSON.
func regimesJSON(rs []calibrate.Regime) []regimeJSON {
	out := make([]regimeJSON, len(rs))
	for i, r := range rs {
		out[i] = regimeJSON{First: r.First, Last: r.Last, N: r.N, Median: r.Median}
		if i > 0 {
			changes := make([]labelChangeJSON, len(r.Changes))
			for j, c := range r.Changes {
				changes[j] = labelChangeJSON{Label: c.Label, From: c.From, To: c.To}
			}
			out[i].BoundaryChanges = &changes
		}
	}
	return out
}

// observedJSON summarises the calibration scores.
type observedJSON struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// fprJSON are the floor's false-positive rates per healthy run.
type fprJSON struct {
	Predictive       render.Float `json:"predictive"`
	Upper95          render.Float `json:"upper95"`
	Plugin           render.Float `json:"plugin"`
	DistributionFree render.Float `json:"distribution_free"`
	// DistributionFreeUpper95 is the model-free 95% upper bound of the
	// true rate; Claimed and ClaimedUpper95 the figures qoscal stands
	// behind: the model's, or, when the log scores are not normal, the
	// larger of the model's and the model-free one.
	DistributionFreeUpper95 render.Float `json:"distribution_free_upper95"`
	Claimed                 render.Float `json:"claimed"`
	ClaimedUpper95          render.Float `json:"claimed_upper95"`
	// Rule is the margin rule's own rate (FloorCost.RuleRate), the claim
	// of a margin floor; omitted for any other method.
	Rule *render.Float `json:"rule,omitempty"`
	// Reliable says whether the claim holds per calibration on runs like
	// these (floor.ClaimCheck, docs/STATS.md 5g); when not, Why says why,
	// a sentence a reason, Fix what would fix it (null when reliable) and
	// RunsNeeded the fewest runs on which no reason applies (0 when
	// reliable).
	Reliable   bool     `json:"reliable"`
	Why        []string `json:"why"`
	Fix        *string  `json:"fix"`
	RunsNeeded int      `json:"runs_needed"`
}

// horizonJSON is the chance of a false alarm over the next runs.
type horizonJSON struct {
	Runs             int          `json:"runs"`
	Predictive       render.Float `json:"predictive"`
	DistributionFree render.Float `json:"distribution_free"`
}

// detectionJSON are the floor's detection figures.
type detectionJSON struct {
	R50       render.Float `json:"r50"`
	R90       render.Float `json:"r90"`
	SingleQ50 render.Float `json:"single_benchmark_q50"`
	// Pair is the mean of two runs judged against the same floor.
	PairFPR render.Float `json:"pair_fpr"`
	PairR90 render.Float `json:"pair_r90"`
}

// backtestJSON is the floor against the calibration runs and others.
type backtestJSON struct {
	CalibrationBelow int             `json:"calibration_below"`
	CalibrationRuns  int             `json:"calibration_runs"`
	Other            []render.Object `json:"other"`
	CatchAll         *catchAllJSON   `json:"catch_all_floor"`
}

// catchAllJSON is the least strict floor that fails every backtest run,
// with its predictive false-positive rate per healthy run.
type catchAllJSON struct {
	Floor float64      `json:"floor"`
	FPR   render.Float `json:"false_positive_rate"`
}

// outliersJSON are the outlier runs kept in the calibration, and the
// floor without them.
type outliersJSON struct {
	Runs         []string `json:"runs"`
	FloorWithout *float64 `json:"floor_without"`
}

// bootstrapJSON is the bootstrap diagnostic of the plug-in rate.
type bootstrapJSON struct {
	B    int     `json:"resamples"`
	Seed uint64  `json:"seed"`
	Mean float64 `json:"mean"`
	Q05  float64 `json:"q05"`
	Q50  float64 `json:"q50"`
	Q95  float64 `json:"q95"`
}

type btRun = calfloor.BacktestRun

var backtestColumns = []render.Column[btRun]{
	{Key: "run", JSON: func(b btRun) any { return b.ID }},
	{Key: "score", JSON: func(b btRun) any { return render.Float(b.Score) }},
	{Key: "below", JSON: func(b btRun) any { return b.Below }},
	{Key: "missing", JSON: func(b btRun) any { return append([]string{}, b.Missing...) }},
}

// JSON is the recommendation's JSON document.
func (v *Recommend) JSON() recommendJSON {
	a, rec := v.A, v.Rec
	o, c := rec.Options, rec.Cost
	j := recommendJSON{
		Floor: rec.Floor, FloorText: rec.FormatFloor(rec.Floor), Method: string(o.Method), Raw: render.Float(rec.Raw),
		Margin: o.Margin, Step: o.Step, Alpha: o.Alpha, Coverage: o.Coverage, Confidence: o.Confidence,
		ToleranceK: render.Float(math.NaN()), Seed: o.Seed,
		Baseline: a.Baseline, Candidate: a.Candidate, Suite: a.Suite, Runs: a.Score.N,
		Observed: observedJSON{Min: a.Score.Min, Median: a.Score.Median, Max: a.Score.Max},
		FPR: fprJSON{Predictive: render.Float(c.Predictive), Upper95: render.Float(c.Upper95),
			Plugin: render.Float(c.Plugin), DistributionFree: render.Float(c.DistributionFree),
			DistributionFreeUpper95: render.Float(c.DistributionFreeUpper95),
			Claimed:                 render.Float(c.Claimed), ClaimedUpper95: render.Float(c.ClaimedUpper95)},
		Horizon: horizonJSON{Runs: c.HorizonRuns, Predictive: render.Float(c.Horizon), DistributionFree: render.Float(c.HorizonFree)},
		Detection: detectionJSON{R50: render.Float(c.R50), R90: render.Float(c.R90), SingleQ50: render.Float(c.SingleQ50),
			PairFPR: render.Float(c.PairPredictive), PairR90: render.Float(c.PairR90)},
		Backtest: backtestJSON{CalibrationBelow: c.CalibrationBelow, CalibrationRuns: a.Score.N,
			Other: render.Objects(backtestColumns, v.Others)},
		Candidates: render.Objects(candidateColumns(rec), rec.Candidates),
		Warnings:   append([]string{}, v.Warnings...),
		Summary: summaryJSON{Floor: rec.Floor, FPR: render.Float(c.Predictive), OneIn: render.Float(math.Round(1 / c.Predictive)),
			R50: render.Float(c.R50), Text: v.summary()},
		MoreRunsFor1Pct: rec.MoreRunsForOnePct, TargetFPR: o.TargetFPR,
		FamilyAlpha: o.FamilyAlpha, PerBenchmark: render.Objects(bandColumns(c.SingleQ50), rec.Bands),
		CombinedFPR: render.Float(rec.CombinedFPR),
	}
	if o.Method == model.MethodTolerance {
		j.ToleranceK = render.Float(rec.ToleranceK)
	}
	regimes := rec.Regimes
	if regimes == nil {
		regimes = a.Regimes
	}
	j.Regimes = regimesJSON(regimes)
	j.ModelCheck = modelCheckOf(a.Score)
	j.VarianceComponents = varianceOf(a)
	j.Detect = detectOf(v.Detect)
	j.TwoStage = twoStageJSON{Band: o.RerunBand, FPR: render.Float(rec.TwoStageFPR), Rerun: render.Float(rec.TwoStageRerun), PowerAtR90: render.Float(rec.TwoStagePower)}
	j.Repetitions = []repetitionJSON{}
	for _, r := range rec.Repetitions {
		j.Repetitions = append(j.Repetitions, repetitionJSON{Slide: r.Slide, Power: r.Power, M: r.M})
	}
	j.Outliers.Runs = append([]string{}, a.Score.Outliers...)
	if f := rec.WithoutOutliers; f > 0 {
		j.Outliers.FloorWithout = &f
	}
	if c, ok := calfloor.CatchAll(a, v.Others, o); ok {
		j.Backtest.CatchAll = &catchAllJSON{Floor: c.Floor, FPR: render.Float(c.Predictive)}
	}
	w := v.window()
	j.CalibratedOn = windowJSON{First: w.First, Last: w.Last, N: w.N, Rule: w.Rule, Given: w.Given,
		RegimeP: render.Float(w.ScanP), Rho: render.Float(w.Rho), Chance: w.Chance}
	if j.CalibratedOn.Given == 0 {
		j.CalibratedOn.Given = len(a.Runs)
		j.CalibratedOn.RegimeP, j.CalibratedOn.Rho = render.Float(math.NaN()), render.Float(math.NaN())
	}
	if w.N < j.CalibratedOn.Given {
		j.CalibratedOn.AllRuns = &allRunsJSON{Floor: render.Float(w.AllFloor), Claimed: render.Float(w.AllClaimed)}
	}
	if bs := rec.Bootstrap; bs.B > 0 {
		j.Bootstrap = &bootstrapJSON{B: bs.B, Seed: bs.Seed, Mean: bs.Mean, Q05: bs.Q05, Q50: bs.Q50, Q95: bs.Q95}
	}
	if !math.IsNaN(c.RuleRate) {
		r := render.Float(c.RuleRate)
		j.FPR.Rule = &r
	}
	j.FPR.Reliable, j.FPR.Why = rec.Claim == nil, []string{}
	if f := rec.Claim; f != nil {
		why, fix := claimWords(*f)
		j.FPR.Why, j.FPR.Fix, j.FPR.RunsNeeded = why, &fix, f.RunsNeeded
	}
	return j
}
