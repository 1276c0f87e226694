package present

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	calgate "github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/render"
)

// Measure is the view of a measurement ('qoscal measure' without a
// calibration): the run folder written, the order run, and each
// repetition's score.
type Measure struct {
	Folder, Run         string
	Baseline, Candidate string
	Order               string
	Seed                uint64
	// Repetitions are the repetitions run, in order.
	Repetitions []MeasureRepetition
	Invocations int
	Seconds     float64
	// Score is the geometric mean of the repetitions' scores (exp of
	// their mean log score); NaN when they have none.
	Score float64
}

// MeasureRepetition is one repetition: the order its invocations ran in,
// its wall time and its score (NaN when it could not be scored).
type MeasureRepetition = calgate.Repetition

type measureRow = *MeasureRepetition

func measureColumns() []render.Column[measureRow] {
	return []render.Column[measureRow]{
		{Head: "repetition", Align: render.Right, Cell: func(r measureRow) string { return strconv.Itoa(r.N) },
			Key: "repetition", JSON: func(r measureRow) any { return r.N }},
		{Head: "order", Cell: func(r measureRow) string { return strings.Join(r.Order, ", ") },
			Key: "order", JSON: func(r measureRow) any { return r.Order }},
		{Head: "seconds", Align: render.Right, Cell: func(r measureRow) string { return strconv.FormatFloat(r.Seconds, 'f', 2, 64) },
			Key: "seconds", JSON: func(r measureRow) any { return r.Seconds }},
		{Head: "score", Align: render.Right, Cell: func(r measureRow) string { return scoreCell(r.Score) },
			Key: "score", JSON: func(r measureRow) any { return render.Float(r.Score) }},
	}
}

func scoreCell(s float64) string {
	if math.IsNaN(s) {
		return "-"
	}
	return ratio(s) + "x"
}

func (v *Measure) rows() []measureRow {
	rows := make([]measureRow, len(v.Repetitions))
	for i := range v.Repetitions {
		rows[i] = &v.Repetitions[i]
	}
	return rows
}

// headline says what was measured and where it went.
func (v *Measure) headline() string {
	return fmt.Sprintf("measured %s (candidate) vs %s (baseline): run %s, %d repetitions in %s order (seed %d), %d invocations in %.1f s, written to %s",
		v.Candidate, v.Baseline, v.Run, len(v.Repetitions), v.Order, v.Seed, v.Invocations, v.Seconds, v.Folder)
}

// scoreLine is the run's score over its repetitions.
func (v *Measure) scoreLine() string {
	if math.IsNaN(v.Score) {
		return "score: none (a repetition could not be scored)"
	}
	return fmt.Sprintf("score: %s is %sx %s (geomean of the %d repetitions' scores)", v.Candidate, ratio(v.Score), v.Baseline, len(v.Repetitions))
}

// Doc is the measurement's document: what was measured, a table of the
// repetitions, the score.
func (v *Measure) Doc() *render.Doc {
	d := &render.Doc{}
	d.Add(&render.Paragraph{Text: v.headline()}, render.NewTable(measureColumns(), v.rows()), &render.Paragraph{Text: v.scoreLine()})
	return d
}

// measureJSON is the measurement's JSON document (docs/json.md).
type measureJSON struct {
	Run         string          `json:"run"`
	Folder      string          `json:"folder"`
	Baseline    string          `json:"baseline"`
	Candidate   string          `json:"candidate"`
	Order       string          `json:"order"`
	Seed        uint64          `json:"seed"`
	Repetitions int             `json:"repetitions"`
	Invocations int             `json:"invocations"`
	Seconds     float64         `json:"seconds"`
	Score       render.Float    `json:"score"`
	ByRep       []render.Object `json:"repetition_scores"`
}

// JSON is the measurement's JSON document.
func (v *Measure) JSON() measureJSON {
	return measureJSON{Run: v.Run, Folder: v.Folder, Baseline: v.Baseline, Candidate: v.Candidate, Order: v.Order, Seed: v.Seed,
		Repetitions: len(v.Repetitions), Invocations: v.Invocations, Seconds: v.Seconds, Score: render.Float(v.Score),
		ByRep: render.Objects(measureColumns(), v.rows())}
}
