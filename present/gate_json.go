package present

import (
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/render"
)

// gateJSON is the gate's JSON document (docs/json.md).
type gateJSON struct {
	Verdict         string           `json:"verdict"`
	Headline        string           `json:"headline"`
	WarningsDecided []string         `json:"warnings_decided"`
	Ignored         []string         `json:"ignored"`
	Score           render.Float     `json:"score"`
	Floor           *float64         `json:"floor"`
	FloorSource     *string          `json:"floor_source"`
	ExitCode        int              `json:"exit_code"`
	Run             string           `json:"run"`
	Baseline        string           `json:"baseline"`
	Candidate       string           `json:"candidate"`
	Suite           []string         `json:"suite"`
	Benchmarks      []render.Object  `json:"benchmarks"`
	Missing         []string         `json:"missing"`
	Extra           []string         `json:"extra"`
	Partial         bool             `json:"partial"`
	RunnerDegraded  bool             `json:"runner_degraded"`
	MedianZ         render.Float     `json:"runner_median_z"`
	RunnerCutoffZ   render.Float     `json:"runner_cutoff_z"`
	RunnerHealth    *string          `json:"runner_health"`
	RunnerChecked   int              `json:"runner_checked"`
	RunnerFlat      []string         `json:"runner_flat"`
	Calibration     *gateCalibration `json:"calibration"`
	Warnings        []string         `json:"warnings"`
	Message         string           `json:"message"`
	VerdictDetail   string           `json:"verdict_detail"`
	SubSuiteFloor   *float64         `json:"sub_suite_floor"`
	PerBenchmark    perBenchmarkJSON `json:"per_benchmark"`
	Pair            []pairJSON       `json:"pair"`
	Rerun           *rerunJSON       `json:"rerun"`
	CappedScore     render.Float     `json:"capped_score"`
	CarriedBy       []string         `json:"carried_by"`
	// Repetitions is how many repetitions of the suite the run holds (0:
	// none); RepetitionFloor the floor for their mean, when the
	// calibration has variance components.
	Repetitions     int      `json:"repetitions"`
	RepetitionFloor *float64 `json:"repetition_floor"`
	// Stopped and Sequential are a sequential gate's (qoscal measure
	// --calibration): "decided" or "limit", and its design; null
	// otherwise.
	Stopped    *string         `json:"stopped"`
	Sequential *sequentialJSON `json:"sequential"`
	// Environment is the run's CPU model and image and where the gate
	// found them; Profile the calibration profile that judged the run
	// (the value of its label); each null when none.
	Environment *GateEnvironment `json:"environment"`
	Profile     *string          `json:"profile"`
}

// sequentialJSON is a sequential gate's design and where it stopped.
type sequentialJSON struct {
	MaxRepetitions int     `json:"max_repetitions"`
	Decision       string  `json:"decision"`
	FailFloor      float64 `json:"fail_floor"`
	PassFloor      float64 `json:"pass_floor"`
	Alpha          float64 `json:"alpha"`
	Slide          float64 `json:"slide"`
}

// pairJSON is one run of a pair judged together.
type pairJSON struct {
	Run   string       `json:"run"`
	Score render.Float `json:"score"`
}

// perBenchmarkJSON is how the gate judged the benchmarks' bands.
type perBenchmarkJSON struct {
	Mode  string   `json:"mode"`
	Below []string `json:"below"`
	Above []string `json:"above"`
	// Advisory are the benchmarks at the bands' advisory level (within
	// the band at the failing rate, below it at model.AdvisoryFamilyAlpha).
	Advisory []string `json:"advisory"`
}

// gateCalibration is the calibration file a gate used, in its JSON.
type gateCalibration struct {
	File   string  `json:"file"`
	Floor  float64 `json:"floor"`
	Runs   int     `json:"runs"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// JSON is the gate's JSON document.
func (g *Gate) JSON() gateJSON {
	r := g.Res
	j := gateJSON{
		Verdict: r.Verdict, Headline: g.title(), WarningsDecided: g.warningsDecided(), Ignored: append([]string{}, r.Ignored...),
		Score: render.Float(r.Score), ExitCode: g.ExitCode, Run: g.Run.ID,
		Baseline: g.Run.Baseline, Candidate: g.Run.Candidate, Suite: r.Suite,
		Benchmarks: render.Objects(g.columns(), r.Benchmarks),
		Missing:    append([]string{}, r.Missing...), Extra: append([]string{}, r.Extra...),
		Partial: r.Partial, RunnerDegraded: r.RunnerDegraded, MedianZ: render.Float(r.MedianZ),
		RunnerCutoffZ: render.Float(r.RunnerCutoffZ), RunnerChecked: r.RunnerChecked, RunnerFlat: append([]string{}, r.RunnerFlat...),
		Warnings: append([]string{}, g.Warnings...), Message: g.Headline(),
		VerdictDetail: r.VerdictDetail,
		PerBenchmark:  perBenchmarkJSON{Mode: r.PerBenchmark, Below: append([]string{}, r.Below...), Above: append([]string{}, r.Above...), Advisory: append([]string{}, r.Advisory...)},
		CappedScore:   render.Float(r.CappedScore),
		CarriedBy:     append([]string{}, r.CarriedBy...),
	}
	if r.RunnerHealth != "" {
		h := r.RunnerHealth
		j.RunnerHealth = &h
	}
	if r.SubSuiteFloor > 0 {
		f := r.SubSuiteFloor
		j.SubSuiteFloor = &f
	}
	j.Repetitions = r.Repetitions
	if q := r.Sequential; q != nil {
		stopped := q.Stopped
		j.Stopped = &stopped
		j.Sequential = &sequentialJSON{MaxRepetitions: q.MaxRepetitions, Decision: q.Decision, FailFloor: q.FailFloor,
			PassFloor: q.PassFloor, Alpha: q.Alpha, Slide: q.Slide}
	}
	if r.RepetitionFloor > 0 {
		f := r.RepetitionFloor
		j.RepetitionFloor = &f
	}
	for _, p := range r.Pair {
		j.Pair = append(j.Pair, pairJSON{Run: p.ID, Score: render.Float(p.Score)})
	}
	j.Rerun = g.rerunJSON()
	j.Environment, j.Profile = g.Environment, orNull(g.Profile)
	if r.Floor > 0 {
		f, src := r.Floor, r.FloorSource
		if r.SubSuiteFloor > 0 {
			f = r.FullFloor
		}
		if r.RepetitionFloor > 0 {
			f = g.Cal.Floor
		}
		if src == gate.FloorGiven {
			src = g.GivenFloor
		}
		j.Floor, j.FloorSource = &f, &src
	}
	if g.Cal != nil {
		c := g.Cal
		j.Calibration = &gateCalibration{File: g.CalPath, Floor: c.Floor, Runs: c.Runs, Min: c.Observed.Min, Median: c.Observed.Median, Max: c.Observed.Max}
	}
	return j
}
