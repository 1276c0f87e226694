package gate

import (
	"errors"
	"fmt"
	"math"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
)

// Repetition is one measured repetition as 'qoscal measure' shows it:
// the order its invocations ran in, its wall time and its score (NaN
// when it could not be scored).
type Repetition struct {
	N       int
	Order   []string
	Seconds float64
	Score   float64
}

// Scorer scores the repetitions of a measurement as they end, keeping a
// few numbers a repetition: the order its invocations ran in, its time
// and its score over the benchmarks both variants measured.
type Scorer struct {
	Run, Baseline, Candidate string
	// Direction gives the metric's direction, asked when a repetition is
	// scored (the unit is known once measured).
	Direction func() (calibrate.Direction, error)
	// Repetitions are the repetitions ended, in order; Warnings say
	// (once) that one had no score.
	Repetitions []Repetition
	Warnings    []string
	cur         Repetition
	logs        []float64
	warned      bool
}

// Progress records an invocation of repetition rep (0 for a warm-up,
// ignored) named name that ran wall seconds: its place in the order and
// its time (with duet, the caller gives the longest of those run
// together).
func (s *Scorer) Progress(rep int, name string, wall float64) {
	if rep == 0 {
		return
	}
	if s.cur.N != rep {
		s.cur = Repetition{N: rep}
	}
	s.cur.Order = append(s.cur.Order, name)
	s.cur.Seconds += wall
}

// Observe scores repetition rep, which has ended with measurements ms.
func (s *Scorer) Observe(rep int, ms []data.Measurement) {
	r := s.cur
	r.N = rep
	r.Seconds = math.Round(r.Seconds*1000) / 1000
	r.Score = math.NaN()
	if l, err := s.logScore(ms); err == nil {
		r.Score = math.Exp(l)
		s.logs = append(s.logs, l)
	} else if !s.warned {
		s.warned = true
		s.Warnings = append(s.Warnings, fmt.Sprintf("repetition %d has no score: %v", rep, err))
	}
	s.Repetitions = append(s.Repetitions, r)
	s.cur = Repetition{}
}

// logScore is the log score of one repetition's measurements over the
// benchmarks both variants measured.
func (s *Scorer) logScore(ms []data.Measurement) (float64, error) {
	dir, err := s.Direction()
	if err != nil {
		return 0, err
	}
	run := data.Run{ID: s.Run, Measurements: ms}
	rr, err := calibrate.Ratios(&run, s.Baseline, s.Candidate, dir, "")
	if err != nil {
		return 0, err
	}
	sc := rr.ScoreOver(rr.Names())
	if math.IsNaN(sc.LogScore) {
		return 0, errors.New("no benchmark both variants measured")
	}
	return sc.LogScore, nil
}

// FromRun scores the repetitions of a run measured in blocks, whose
// repetitions end together, in place of those observed.
func (s *Scorer) FromRun(run *data.Run) error {
	d, err := s.Direction()
	if err != nil {
		return err
	}
	rr, err := calibrate.Ratios(run, s.Baseline, s.Candidate, d, "")
	if err != nil {
		return err
	}
	reps, logs, err := RepetitionScores(run, s.Baseline, s.Candidate, d, "", rr.Names())
	if err != nil {
		return err
	}
	s.Repetitions, s.logs = nil, logs
	for i, r := range reps {
		s.Repetitions = append(s.Repetitions, Repetition{N: r, Order: []string{"(blocks)"}, Score: math.Exp(logs[i])})
	}
	return nil
}

// Score is the geometric mean of the repetitions' scores (JobScore); NaN
// if one has none.
func (s *Scorer) Score() float64 {
	if len(s.logs) == 0 || len(s.logs) != len(s.Repetitions) {
		return math.NaN()
	}
	return JobScore(s.logs)
}
