package present

import (
	"fmt"
	"math"
	"strconv"

	"github.com/qoscal/qoscal/calibrate/gate"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/render"
)

// varianceJSON is the variance components of the log score in JSON
// (docs/json.md): the SDs between jobs and between the repetitions inside
// one, and how many runs and repetitions in all they rest on.
type varianceJSON struct {
	Between     render.Float `json:"between"`
	Within      render.Float `json:"within"`
	Runs        int          `json:"runs"`
	Repetitions int          `json:"repetitions"`
	// Rho is the repetitions' lag-1 autocorrelation inside a job when
	// they drift, omitted when 0 (docs/STATS.md 2.17).
	Rho float64 `json:"rho,omitempty"`
}

// varianceOf is the analysis' variance components in JSON, nil (null)
// for runs without repetitions.
func varianceOf(a *calspread.Analysis) *varianceJSON {
	v := a.Variance
	if v == nil {
		return nil
	}
	return &varianceJSON{Between: render.Float(v.Between), Within: render.Float(v.Within), Runs: v.Groups, Repetitions: v.N, Rho: v.Rho}
}

// varianceLine says what the variance components are, "" without them.
func varianceLine(a *calspread.Analysis) string {
	v := a.Variance
	if v == nil {
		return ""
	}
	trunc := ""
	switch {
	case v.Truncated && v.Rho != 0:
		trunc = " (the jobs differ no more than the drift inside them makes them: estimated as 0)"
	case v.Truncated:
		trunc = " (the jobs differ less than their repetitions do: estimated as 0)"
	}
	drift := ""
	if v.Rho != 0 {
		drift = fmt.Sprintf(", and the repetitions drift inside a job (lag-1 autocorrelation %.2f; von Neumann z %.1f), so that more of them shrink its mean's SD more slowly than 1/√m", v.Rho, v.RhoZ)
	}
	return fmt.Sprintf("variance components over %d runs of %d repetitions in all: the log score's SD between jobs %s%s, between repetitions in a job %s%s",
		v.Groups, v.N, sd4(v.Between), trunc, sd4(v.Within), drift)
}

func sd4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// detectJSON is recommend --detect's plan in JSON (docs/json.md).
type detectJSON struct {
	Slide             float64      `json:"slide"`
	Power             float64      `json:"power"`
	RepetitionSeconds float64      `json:"repetition_seconds"`
	JobSeconds        float64      `json:"job_seconds"`
	MaxSD             render.Float `json:"max_sd"`
	OneJob            *planJSON    `json:"one_job"`
	Cheapest          *planJSON    `json:"cheapest"`
	OneJobLimit       render.Float `json:"one_job_limit"`
}

// planJSON is a plan of jobs and repetitions and its CI time.
type planJSON struct {
	Jobs        int     `json:"jobs"`
	Repetitions int     `json:"repetitions"`
	Seconds     float64 `json:"seconds"`
}

// detectOf is a plan in JSON.
func detectOf(p *gate.DetectPlan) *detectJSON {
	if p == nil {
		return nil
	}
	j := &detectJSON{Slide: p.Slide, Power: p.Power, RepetitionSeconds: p.RepSeconds, JobSeconds: p.JobSeconds,
		MaxSD: render.Float(p.MaxSD), OneJobLimit: render.Float(p.OneJobLimit)}
	if p.OneJobOK {
		j.OneJob = &planJSON{Jobs: 1, Repetitions: p.OneJob.Repetitions, Seconds: p.OneJob.Seconds}
	}
	if p.BestOK {
		j.Cheapest = &planJSON{Jobs: p.Best.Jobs, Repetitions: p.Best.Repetitions, Seconds: p.Best.Seconds}
	}
	return j
}

// detectLine says the plan in words.
func detectLine(p *gate.DetectPlan) string {
	if p == nil {
		return ""
	}
	what := fmt.Sprintf("to catch a %s slide %s at this floor's rate (a repetition takes %s s, a job's fixed cost %s s)",
		pctOf(p.Slide), powerWords(p.Power), secs(p.RepSeconds), secs(p.JobSeconds))
	if !p.OneJobOK {
		s := fmt.Sprintf("%s: no number of repetitions in one job does it: the jobs' own spread is too large (one job catches at best a %s slide, with %d repetitions)",
			what, pctOf(p.OneJobLimit), gate.MaxDetectRepetitions)
		if p.BestOK {
			s += fmt.Sprintf("; %d jobs of %d repetitions, judged by their mean, do (%s of CI)", p.Best.Jobs, p.Best.Repetitions, duration(p.Best.Seconds))
		}
		return s
	}
	s := fmt.Sprintf("%s: %s per job (%s of CI)", what, Plural(p.OneJob.Repetitions, "repetition"), duration(p.OneJob.Seconds))
	if p.BestOK && p.Best.Jobs > 1 && p.Best.Seconds < p.OneJob.Seconds {
		s += fmt.Sprintf("; cheaper: %d jobs of %d repetitions, judged by their mean (%s)", p.Best.Jobs, p.Best.Repetitions, duration(p.Best.Seconds))
	}
	return s
}

// pctOf is a slide as a percentage: 0.05 is "5%".
func pctOf(x float64) string { return strconv.FormatFloat(100*x, 'g', 3, 64) + "%" }

func powerWords(p float64) string {
	switch p {
	case 0.9:
		return "nine times in ten"
	case 0.5:
		return "half the time"
	}
	return pctOf(p) + " of the time"
}

func secs(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// duration is seconds as a person reads them: 45 s, 3.2 min, 1.5 h.
func duration(s float64) string {
	switch {
	case s < 90:
		return strconv.FormatFloat(math.Round(s*10)/10, 'g', -1, 64) + " s"
	case s < 5400:
		return strconv.FormatFloat(math.Round(s/6)/10, 'g', -1, 64) + " min"
	}
	return strconv.FormatFloat(math.Round(s/360)/10, 'g', -1, 64) + " h"
}
