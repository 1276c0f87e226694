package present

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/qoscal/qoscal/calibrate/drift"
	"github.com/qoscal/qoscal/render"
)

// Drift is the view of a drift check (qoscal drift): in text, its two
// sentences; in Markdown, under a heading; in JSON, driftJSON.
type Drift struct {
	Res *drift.DriftResult
}

// Doc is the verdict and how the check was made.
func (v *Drift) Doc() *render.Doc {
	res := v.Res
	doc := &render.Doc{}
	doc.Add(&render.Heading{Level: 3, Text: "qoscal drift: " + map[bool]string{true: "drift", false: "no drift"}[res.Drift]},
		&render.Paragraph{Text: DriftSentence(res) + "."}, &render.Paragraph{Text: capitalize(driftRateSentence(res)) + "."})
	return doc
}

// DriftSentence says the drift in words, with what it calls for:
// "drift: the score fell from run run-01 on (p = 0.016): investigate:
// runs run-01..run-03 score below the calibration (median 1.26 → 1.14);
// recalibrate only if the change was intended", then, in a sentence of
// their own, the benchmarks that moved.
func DriftSentence(d *drift.DriftResult) string {
	if !d.Drift && d.TooFew {
		return fmt.Sprintf("too few runs to tell: %s gated since the calibration (median %.2f; the calibration's %.2f), and a change needs %d",
			Plural(len(d.Runs), "run"), d.Median, d.CalibrationMedian, drift.MinNewRuns)
	}
	if !d.Drift {
		return fmt.Sprintf("no drift: the %s gated since the calibration score like it (median %.2f)", Plural(len(d.Runs), "run"), d.Median)
	}
	s := fmt.Sprintf("drift: the score %s from run %s on (p = %.3f): %s", moved(d), d.FromRun, d.P, driftAdvice(d))
	if len(d.Benchmarks) > 0 {
		var parts []string
		for _, b := range d.Benchmarks {
			parts = append(parts, fmt.Sprintf("%s %.2f→%.2f from %s", b.Name, b.BeforeMedian, b.AfterMedian, b.FromRun))
		}
		s += ". Benchmarks that moved: " + strings.Join(parts, ", ")
	}
	return s
}

// moved says which way the score moved: "fell" or "rose".
func moved(d *drift.DriftResult) string {
	if d.Direction == "down" {
		return "fell"
	}
	return "rose"
}

// driftAdvice is what a drift calls for, in words. A fall: "investigate:
// runs X..Y score below the calibration (median A → B); R1 and R2 score
// below every calibration run (lowest L) yet pass the Fx floor;
// recalibrate only if the change was intended". A rise: "runs X..Y score
// above the calibration (median A → B): recalibrate to tighten the
// floor". "" without drift.
func driftAdvice(d *drift.DriftResult) string {
	if !d.Drift {
		return ""
	}
	runs := fmt.Sprintf("runs %s..%s score", d.FromRun, d.LastRun)
	if d.FromRun == d.LastRun {
		runs = fmt.Sprintf("run %s scores", d.FromRun)
	}
	if d.Advice != drift.AdviceInvestigate {
		return fmt.Sprintf("%s above the calibration (median %.2f → %.2f): recalibrate to tighten the floor", runs, d.BeforeMedian, d.AfterMedian)
	}
	s := fmt.Sprintf("investigate: %s below the calibration (median %.2f → %.2f)", runs, d.BeforeMedian, d.AfterMedian)
	if n := len(d.PassedBelow); n > 0 {
		verb := "score"
		if n == 1 {
			verb = "scores"
		}
		s += fmt.Sprintf("; %s %s below every calibration run (lowest %s) yet pass the %sx floor", listAnd(d.PassedBelow, maxListed), verb, ratio(d.CalibrationMin), trimFloat(d.Floor))
	}
	return s + "; recalibrate only if the change was intended"
}

// listAnd joins names as a sentence does, "a", "a and b", "a, b and c",
// the first max of them: "a, b, c, d, e and 3 more".
func listAnd(names []string, max int) string {
	switch {
	case len(names) > max:
		return listSome(names, max)
	case len(names) > 1:
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return strings.Join(names, "")
}

// driftRateSentence says the rate the check runs at and how: "checked at
// a false-alarm rate of 5% per 20 runs: a scan of the log score's level
// against the calibration's 10 runs, modelled as AR(1) with ρ 0.90 (the
// 80% upper confidence point of their lag-1 autocorrelation +0.66; h
// 2.95), each benchmark's the same way, family-wise".
func driftRateSentence(d *drift.DriftResult) string {
	s := fmt.Sprintf("checked at a false-alarm rate of %s per %d runs: a scan of the log score's level against the calibration's %d runs, modelled as AR(1) with ρ %.2f (",
		falseAlarmPct(d.FalseAlarm), d.PerRuns, d.CalibrationRuns, d.Rho)
	if !math.IsNaN(d.Lag1) {
		s += fmt.Sprintf("the %s upper confidence point of their lag-1 autocorrelation %+.2f; ", trimPct(d.RhoConfidence)+"%", d.Lag1)
	}
	return s + fmt.Sprintf("h %.2f), each benchmark's the same way, family-wise", d.H)
}

// GateDriftNote is the gate's one-line note on the drift of the last
// stored gated runs (in store, as a message names it), with the advice
// drift gives, or "" when they have not drifted.
func GateDriftNote(d *drift.DriftResult, store string) string {
	if !d.Drift {
		return ""
	}
	return fmt.Sprintf("the last %d gated runs in %s: the score %s from run %s on (false-alarm rate %s per %d runs): %s (qoscal drift)",
		len(d.Runs), store, moved(d), d.FromRun, falseAlarmPct(d.FalseAlarm), d.PerRuns, driftAdvice(d))
}

// falseAlarmPct is a false-alarm rate in percent, to three significant
// digits: "5%".
func falseAlarmPct(p float64) string {
	return strconv.FormatFloat(100*p, 'g', 3, 64) + "%"
}

// capitalize upper-cases the first letter of a sentence.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// JSON is the drift document (docs/json.md).
func (v *Drift) JSON() driftJSON {
	r := v.Res
	nan := render.Float(math.NaN())
	j := driftJSON{Drift: r.Drift, TooFew: r.TooFew, Runs: r.Runs, Scores: r.Scores, Skipped: append(append([]string{}, r.Skipped...), r.Foreign...),
		Benchmarks: []driftBenchmarkJSON{}, Message: DriftSentence(r), Rate: driftRateSentence(r), BeforeMedian: nan, AfterMedian: nan, P: nan,
		FalseAlarmRate: r.FalseAlarm, FalseAlarmRuns: r.PerRuns,
		Check: driftCheckJSON{Method: driftMethod, H: render.Float(r.H), Rho: r.Rho, Lag1: render.Float(r.Lag1), Clip: r.Clip,
			Confidence: r.RhoConfidence, CalibrationRuns: r.CalibrationRuns}}
	j.PassedBelow = append([]string{}, r.PassedBelow...)
	if r.Drift {
		id, dir, advice := r.FromRun, r.Direction, r.Advice
		j.FromRun, j.Direction, j.Advice = &id, &dir, &advice
		j.BeforeMedian, j.AfterMedian, j.P = render.Float(r.BeforeMedian), render.Float(r.AfterMedian), render.Float(r.P)
	}
	for _, b := range r.Benchmarks {
		j.Benchmarks = append(j.Benchmarks, driftBenchmarkJSON{Name: b.Name, Direction: b.Direction, FromRun: b.FromRun,
			BeforeMedian: b.BeforeMedian, AfterMedian: b.AfterMedian, P: b.P})
	}
	return j
}

// driftJSON is the drift document.
type driftJSON struct {
	Drift          bool                 `json:"drift"`
	TooFew         bool                 `json:"too_few"`
	Direction      *string              `json:"direction"`
	Advice         *string              `json:"advice"`
	PassedBelow    []string             `json:"passed_below"`
	FromRun        *string              `json:"from_run"`
	BeforeMedian   render.Float         `json:"before_median"`
	AfterMedian    render.Float         `json:"after_median"`
	P              render.Float         `json:"p"`
	FalseAlarmRate float64              `json:"false_alarm_rate"`
	FalseAlarmRuns int                  `json:"false_alarm_runs"`
	Check          driftCheckJSON       `json:"check"`
	Runs           []string             `json:"runs"`
	Scores         []float64            `json:"scores"`
	Skipped        []string             `json:"skipped"`
	Benchmarks     []driftBenchmarkJSON `json:"benchmarks"`
	Message        string               `json:"message"`
	Rate           string               `json:"rate_message"`
}

// driftMethod names the drift check in its JSON: a scan of the level of
// AR(1) runs (docs/STATS.md 5, "Drift").
const driftMethod = "ar1-scan"

// driftCheckJSON is how the check was made: the method, the scan's
// decision value for the score, the autocorrelation allowed for (the
// upper confidence point, at Confidence, of the calibration's lag-1
// autocorrelation Lag1), the most SDs one run counts, and the
// calibration's runs.
type driftCheckJSON struct {
	Method          string       `json:"method"`
	H               render.Float `json:"h"`
	Rho             float64      `json:"rho"`
	Lag1            render.Float `json:"lag1"`
	Confidence      float64      `json:"rho_confidence"`
	Clip            float64      `json:"clip"`
	CalibrationRuns int          `json:"calibration_runs"`
}

// driftBenchmarkJSON is a benchmark that moved.
type driftBenchmarkJSON struct {
	Name         string  `json:"name"`
	Direction    string  `json:"direction"`
	FromRun      string  `json:"from_run"`
	BeforeMedian float64 `json:"before_median"`
	AfterMedian  float64 `json:"after_median"`
	P            float64 `json:"p"`
}
