package audit

import (
	"fmt"
	"math"

	"github.com/qoscal/qoscal/calibrate/drift"
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/stats"
)

// The audit checks a calibration's claims against the verdicts it gave
// (docs/STATS.md 5e): of the runs judged against it that are known or
// presumed healthy, how many the floor failed, against the false-alarm
// rate the calibration claimed, with an exact confidence interval; the
// same for the per-benchmark bands' family-wise rate; and the runs people
// marked regressed that passed.

// Audit verdicts, in words.
const (
	AuditConsistent = "consistent with the claim"
	AuditMore       = "more false alarms than claimed: recalibrate, or look at runner health"
	AuditTooFew     = "too few runs to tell"
)

// Kinds of truth an audited run's health rests on.
const (
	// TruthMarked: a person marked the run (qoscal mark); the latest mark
	// counts.
	TruthMarked = "marked"
	// TruthPresumed: the run was not marked; it is on the calibrated
	// branch and no change of level followed it (AuditOptions).
	TruthPresumed = "presumed"
)

// Ledger kinds of judgement, as the store keeps them.
const (
	KindRun   = "run"
	KindRerun = "rerun"
	KindPair  = "pair"
)

// AuditRun is one verdict of the ledger as the audit reads it, with what
// is known of its run.
type AuditRun struct {
	// ID names the run (of a pair, the second).
	ID string
	// Verdict is the gate's verdict; Score and Floor what it compared,
	// FloorSource where the floor came from (FloorCalibration,
	// FloorGiven); Partial is set for a run gated on part of the suite.
	Verdict      string
	Score, Floor float64
	FloorSource  string
	Partial      bool
	// Kind is KindRun, KindRerun or KindPair.
	Kind string
	// RunnerHealth is the gate's runner-health outcome.
	RunnerHealth string
	// BandsJudged is set when the benchmarks were judged against their
	// bands; Below names those below.
	BandsJudged bool
	Below       []string
	// OnBranch is set when the run carries every label of the
	// calibration (File.Labels): the runs the calibration stands for.
	OnBranch bool
	// Mark is the run's latest mark ("", "healthy" or "regressed") and
	// Note its note.
	Mark, Note string
}

// AuditEntry is an audited run with the kind of truth its health rests
// on ("" when it is neither marked nor presumed).
type AuditEntry struct {
	AuditRun
	Truth string
}

// AuditOptions are the audit's parameters; the zero value of a field
// means its default.
type AuditOptions struct {
	// Confidence is the level of the intervals (default 0.95).
	Confidence float64
	// Tell is how far above the claim a rate may be that the runs must
	// rule out before the audit calls them consistent with it: the
	// interval's upper bound must be at most Tell times the claim
	// (default 2).
	Tell float64
	// Follow is how many runs of the calibrated branch must follow a run
	// before it is presumed healthy (default MinNewRuns, 3): a change of
	// level that begins with it has had those runs to show.
	Follow int
	// Seed seeds the simulation behind the presumption's decision
	// interval (the drift check's, default 1).
	Seed uint64
}

func (o AuditOptions) withDefaults() AuditOptions {
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if o.Tell == 0 {
		o.Tell = 2
	}
	if o.Follow == 0 {
		o.Follow = drift.MinNewRuns
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// AuditResult is the audit of one calibration.
type AuditResult struct {
	Options AuditOptions
	// Gated counts the verdicts audited; Passed, Failed and Rerun those
	// with each verdict, Other the rest (report-only, inconclusive,
	// ungated). Pairs counts the pairs among them (KindPair), Reruns the
	// runs that re-ran a CI job (KindRerun).
	Gated, Passed, Failed, Rerun, Other int
	Pairs, Reruns                       int
	// Floor is the audit of the floor's false-alarm rate, Bands that of
	// the bands' family-wise rate.
	Floor, Bands RateAudit
	// Regressed counts the runs marked regressed; Caught those the gate
	// flagged (fail, rerun, report-only below the floor, inconclusive),
	// Missed those it passed.
	Regressed int
	Caught    []AuditEntry
	Missed    []AuditEntry
	// Unknown counts the runs whose health is neither marked nor
	// presumed.
	Unknown int
	// InCalibration counts the verdicts on runs of the calibration
	// itself, left out: a run the floor was set on says nothing of how
	// the floor does on runs it has not seen.
	InCalibration int
	// Presumption says how runs were presumed healthy.
	Presumption Presumption
}

// Presumption is how the audit presumed unmarked runs healthy: those of
// the calibrated branch (OnBranch) that are not in a change of level, as
// a two-sided CUSUM of their log scores standardised by the calibration's
// (the drift check's: reference value K, clip Clip, decision interval H
// at the gate's default drift false-alarm rate, allowing for
// autocorrelation Rho) dates one (stats.CUSUMChanges), with at least
// Follow runs after them.
type Presumption struct {
	K, Clip, H, Rho float64
	FalseAlarm      float64
	PerRuns         int
	Follow          int
	// Branch counts the runs of the calibrated branch in the sequence;
	// Changed names those in a change of level and Recent those with
	// fewer than Follow runs after them (neither presumed).
	Branch          int
	Changed, Recent []string
	// None says why no run could be presumed healthy ("" when runs
	// could be).
	None string
}

// RateAudit is a claimed false-alarm rate against the realised one.
type RateAudit struct {
	// Claimed is the rate the calibration claims per healthy run and
	// ClaimedFrom the figure it is (ClaimedRate; "family_alpha" for the
	// bands).
	Claimed     float64
	ClaimedFrom string
	// Healthy counts the healthy runs the rate is realised on (known or
	// presumed: Marked and Presumed of them); FalseAlarms those the rule
	// flagged (FalseMarked and FalsePresumed of them), listed in Alarms,
	// OnDegraded of them on a runner the gate found degraded. Left counts
	// healthy runs left out (a pair, part of the suite, another floor,
	// bands not judged).
	Healthy, Marked, Presumed               int
	FalseAlarms, FalseMarked, FalsePresumed int
	OnDegraded                              int
	Alarms                                  []AuditEntry
	Left                                    int
	// Rate is FalseAlarms/Healthy (NaN without healthy runs); Lo and Hi
	// its exact Clopper–Pearson interval at Options.Confidence; P the
	// exact one-sided chance of this many false alarms or more at the
	// claimed rate (stats.BinomialAtLeast).
	Rate, Lo, Hi, P float64
	// Verdict is AuditConsistent, AuditMore or AuditTooFew; MoreRuns, for
	// AuditTooFew, how many more healthy runs would tell at the rate seen
	// so far (the claimed rate before any), -1 otherwise.
	Verdict  string
	MoreRuns int
}

// ClaimedRate is the false-alarm rate per healthy run a calibration file
// claims, as recommend states it (FloorCost.Claimed): the predictive rate
// while the log scores of its runs pass the normality checks (docs/STATS.md
// 5c, 5d), else the larger of the predictive and the distribution-free
// rate; from says which figure it is ("predictive" or
// "distribution_free"). The file keeps both figures; whether the model
// is in doubt follows from its matrix, checked as the floor's method
// checks it.
func ClaimedRate(f *model.File) (rate float64, from string) {
	p, df := float64(f.FPR.Predictive), float64(f.FPR.DistributionFree)
	doubt := math.IsNaN(p)
	if f.Matrix != nil && !doubt {
		if scores, err := f.Matrix.Scores(f.Suite); err == nil {
			if logs, err := stats.Logs(scores); err == nil {
				_, sp, err := stats.ShapiroWilk(logs)
				if err != nil {
					sp = math.NaN()
				}
				tail := stats.NormalTail
				if stats.SD(logs) >= spread.NoSpreadSD {
					tail = stats.FitTail(logs)
				}
				doubt = spread.ModelInDoubt(sp, tail)
			}
		}
	}
	if doubt && (math.IsNaN(p) || df > p) {
		return df, "distribution_free"
	}
	return p, "predictive"
}

// Audit audits the verdicts runs (in the order the ledger recorded them)
// given against the calibration cal.
func Audit(cal *model.File, runs []AuditRun, opt AuditOptions) (*AuditResult, error) {
	opt = opt.withDefaults()
	if !(opt.Confidence > 0 && opt.Confidence < 1) || !(opt.Tell > 1) || opt.Follow < 0 {
		return nil, fmt.Errorf("audit options %+v: the confidence must be in (0, 1), the factor above 1, the runs to follow at least 0", opt)
	}
	if cal.Matrix == nil {
		return nil, fmt.Errorf("the calibration has no matrix: %v", model.ErrVersion1)
	}
	res := &AuditResult{Options: opt}
	inCal := map[string]bool{}
	for _, id := range cal.Matrix.Runs {
		inCal[id] = true
	}
	var kept []AuditRun
	for _, r := range runs {
		if inCal[r.ID] {
			res.InCalibration++
			continue
		}
		kept = append(kept, r)
	}
	runs = kept
	presumed, pr, err := presume(cal, runs, opt)
	if err != nil {
		return nil, err
	}
	res.Presumption = pr
	res.Floor.Claimed, res.Floor.ClaimedFrom = ClaimedRate(cal)
	res.Bands.Claimed, res.Bands.ClaimedFrom = cal.RecommendOptions().FamilyAlpha, "family_alpha"
	for i, r := range runs {
		e := AuditEntry{AuditRun: r}
		res.Gated++
		switch r.Verdict {
		case gate.VerdictPass:
			res.Passed++
		case gate.VerdictFail:
			res.Failed++
		case gate.VerdictRerun:
			res.Rerun++
		default:
			res.Other++
		}
		switch r.Kind {
		case KindPair:
			res.Pairs++
		case KindRerun:
			res.Reruns++
		}
		healthy := false
		switch {
		case r.Mark == "healthy":
			e.Truth, healthy = TruthMarked, true
		case r.Mark == "regressed":
			e.Truth = TruthMarked
			res.Regressed++
			switch r.Verdict {
			case gate.VerdictPass:
				res.Missed = append(res.Missed, e)
			case gate.VerdictFail, gate.VerdictRerun, gate.VerdictWarn, gate.VerdictInconclusive:
				res.Caught = append(res.Caught, e)
			}
		case presumed[i]:
			e.Truth, healthy = TruthPresumed, true
		default:
			res.Unknown++
		}
		if !healthy {
			continue
		}
		whole := r.Kind != KindPair && !r.Partial
		if whole && r.FloorSource == gate.FloorCalibration && r.Floor == cal.Floor {
			res.Floor.add(e, r.Score < r.Floor)
		} else {
			res.Floor.Left++
		}
		if whole && r.BandsJudged {
			res.Bands.add(e, len(r.Below) > 0)
		} else {
			res.Bands.Left++
		}
	}
	res.Floor.judge(opt)
	res.Bands.judge(opt)
	return res, nil
}

// add counts a healthy run, and whether the rule flagged it.
func (a *RateAudit) add(e AuditEntry, alarm bool) {
	a.Healthy++
	marked := e.Truth == TruthMarked
	if marked {
		a.Marked++
	} else {
		a.Presumed++
	}
	if !alarm {
		return
	}
	a.FalseAlarms++
	if marked {
		a.FalseMarked++
	} else {
		a.FalsePresumed++
	}
	if e.RunnerHealth == gate.RunnerHealthDegraded {
		a.OnDegraded++
	}
	a.Alarms = append(a.Alarms, e)
}

// judge computes the realised rate, its interval and the verdict.
func (a *RateAudit) judge(opt AuditOptions) {
	a.Rate, a.Lo, a.Hi, a.P = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if a.Healthy > 0 {
		a.Rate = float64(a.FalseAlarms) / float64(a.Healthy)
		a.Lo, a.Hi = stats.ClopperPearson(a.FalseAlarms, a.Healthy, opt.Confidence)
		a.P = stats.BinomialAtLeast(a.FalseAlarms, a.Healthy, a.Claimed)
	}
	a.Verdict, a.MoreRuns = RateVerdict(a.FalseAlarms, a.Healthy, a.Claimed, opt)
}

// RateVerdict says what x false alarms in n healthy runs say of a claimed
// rate (docs/STATS.md 5e): AuditMore when the exact interval at the
// options' confidence lies above the claim (the exact one-sided test
// rejects the claim at half the rest of the confidence); AuditConsistent
// when it does not, and the interval's upper bound is at most Tell times
// the claim (the runs rule out a rate that much higher); else
// AuditTooFew, with how many more healthy runs would tell (RunsToTell),
// -1 for the others.
func RateVerdict(x, n int, claimed float64, opt AuditOptions) (string, int) {
	opt = opt.withDefaults()
	switch decide(x, n, claimed, opt) {
	case 1:
		return AuditMore, -1
	case -1:
		return AuditConsistent, -1
	}
	return AuditTooFew, RunsToTell(x, n, claimed, opt)
}

// decide is 1 when x false alarms in n runs are more than claimed, −1
// when they are consistent with the claim, 0 when they cannot tell.
func decide(x, n int, claimed float64, opt AuditOptions) int {
	return decideAt(float64(x), float64(n), claimed, opt)
}

// decideAt is decide at a projected count and number of runs, which need
// not be whole (stats.ClopperPearsonAt).
func decideAt(x, n, claimed float64, opt AuditOptions) int {
	if !(n > 0) || !(claimed > 0) {
		return 0
	}
	lo, hi := stats.ClopperPearsonAt(x, n, opt.Confidence)
	switch {
	case lo > claimed:
		return 1
	case hi <= opt.Tell*claimed:
		return -1
	}
	return 0
}

// maxMoreRuns bounds RunsToTell's search: more runs than this are said
// as this many (a claim of one false alarm in a hundred million runs).
const maxMoreRuns = 1 << 30

// RunsToTell is how many more healthy runs would let x false alarms in n
// tell (decide), were the runs to come to go on at the rate seen so far,
// x/n (at the claimed rate when n is 0): the fewest m for which
// x + m·x/n false alarms in n + m runs are decided, the count projected
// as a real number (stats.ClopperPearsonAt), so that the answer moves
// smoothly with m rather than with the rounding of a whole count; found
// by doubling m and then halving the step. 0 when they tell already;
// maxMoreRuns when even that many would not (a claim of 0).
func RunsToTell(x, n int, claimed float64, opt AuditOptions) int {
	opt = opt.withDefaults()
	if decide(x, n, claimed, opt) != 0 {
		return 0
	}
	if !(claimed > 0) {
		return maxMoreRuns
	}
	rate := claimed
	if n > 0 {
		rate = float64(x) / float64(n)
	}
	at := func(m int) bool {
		return decideAt(float64(x)+rate*float64(m), float64(n+m), claimed, opt) != 0
	}
	hi := 1
	for !at(hi) {
		if hi >= maxMoreRuns {
			return maxMoreRuns
		}
		hi *= 2
	}
	lo := hi / 2 // not decided (or 0)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if at(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// presume says which runs are presumed healthy (see Presumption): by
// index in runs.
func presume(cal *model.File, runs []AuditRun, opt AuditOptions) ([]bool, Presumption, error) {
	presumed := make([]bool, len(runs))
	d := drift.DriftOptions{Seed: opt.Seed}.WithDefaults()
	p := Presumption{K: drift.DriftK, Clip: drift.DriftClip, FalseAlarm: d.FalseAlarm, PerRuns: d.PerRuns, Follow: opt.Follow, H: math.NaN()}
	var seq []int
	for i, r := range runs {
		if r.OnBranch && r.Kind != KindPair && !r.Partial && r.Score > 0 {
			seq = append(seq, i)
		}
	}
	p.Branch = len(seq)
	if len(seq) == 0 {
		p.None = "no run judged alone on the whole suite carries the calibration's labels"
		return presumed, p, nil
	}
	scores, err := cal.Matrix.Scores(cal.Suite)
	if err != nil {
		return nil, p, err
	}
	logs, err := stats.Logs(scores)
	if err != nil {
		return nil, p, err
	}
	m, s := stats.Mean(logs), stats.SD(logs)
	if s < spread.NoSpreadSD {
		p.None = "the calibration's scores never varied, so no change of level can be told from noise"
		return presumed, p, nil
	}
	p.Rho = drift.AllowedRho(logs)
	nulls := drift.DriftNulls{N: len(logs), Opt: d, Draws: drift.DriftDraws}
	p.H = stats.UpperCritical(nulls.Get(p.Rho), d.FalseAlarm)
	z := make([]float64, len(seq))
	for j, i := range seq {
		z[j] = (math.Log(runs[i].Score) - m) / s
	}
	changed := stats.CUSUMChanges(z, p.K, p.Clip, p.H)
	for j, i := range seq {
		switch {
		case changed[j]:
			p.Changed = append(p.Changed, runs[i].ID)
		case len(seq)-1-j < opt.Follow:
			p.Recent = append(p.Recent, runs[i].ID)
		default:
			presumed[i] = true
		}
	}
	return presumed, p, nil
}

// ProfileResult is the audit of one profile of a calibration: the runs
// its profile judged, against that profile's claims.
type ProfileResult struct {
	Value string
	Cal   *model.File
	Res   *AuditResult
}

// AuditProfiles audits the verdicts a calibration gave, grouped by the
// profile that judged them (runs[""]: the file itself): the file's claims
// on its own runs, and each profile's claims on its runs, in the order of
// the file's profiles.
func AuditProfiles(cal *model.File, runs map[string][]AuditRun, opt AuditOptions) (*AuditResult, []ProfileResult, error) {
	res, err := Audit(cal, runs[""], opt)
	if err != nil {
		return nil, nil, err
	}
	var profiles []ProfileResult
	if cal.By == "" {
		return res, nil, nil
	}
	for _, value := range cal.ProfileValues() {
		p, _ := cal.Profile(value)
		pres, err := Audit(p, runs[value], opt)
		if err != nil {
			return nil, nil, fmt.Errorf("the profile %s=%s: %w", cal.By, value, err)
		}
		profiles = append(profiles, ProfileResult{Value: value, Cal: p, Res: pres})
	}
	return res, profiles, nil
}
