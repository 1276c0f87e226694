package present

import (
	"fmt"
	"math"

	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/render"
)

// modelCheck says what the model checks found: "model check: log scores
// normal? Shapiro–Wilk W 0.798, p 0.009 (no, at 5%); lag-1
// autocorrelation +0.70 (SE 0.29)".
func modelCheck(s calspread.ScoreStats) string {
	if math.IsNaN(s.ShapiroW) {
		return "model check: too few runs, or scores that never varied, for the normality and autocorrelation checks"
	}
	verdict := "consistent with normal"
	if s.ShapiroP < calspread.NormalityAlpha {
		verdict = "not normal at 5%"
	}
	corr := "no significant autocorrelation"
	if s.Effective.Rho > 0 {
		corr = "consecutive runs correlated"
	}
	return fmt.Sprintf("model check: log scores %s (Shapiro–Wilk W %.3f, p %.3f); %s; lag-1 autocorrelation %+.2f (SE %.2f), %s",
		verdict, s.ShapiroW, s.ShapiroP, tailNote(s), s.Lag1, s.Lag1SE, corr)
}

// tailNote says what the tail model of a score distribution found
// (docs/STATS.md 5d): "tail normal (t with ≥ 5 degrees of freedom not
// ruled out)", "tail heavier than normal: t with 4 degrees of freedom
// (likelihood ratio 3.2)".
func tailNote(s calspread.ScoreStats) string {
	t := s.Tail
	if !t.Normal() {
		return fmt.Sprintf("tail heavier than normal: Student-t with %v degrees of freedom (likelihood ratio %.1f)", t.DF, t.LR)
	}
	if math.IsInf(t.DFLower, 1) {
		return "tail normal"
	}
	return fmt.Sprintf("tail normal, a Student-t with %v degrees of freedom not ruled out", t.DFLower)
}

// modelCheckRows are the model checks as rows of a table of figures: the
// normality of the log scores and the lag-1 autocorrelation, each with
// what it does to the figures (docs/STATS.md 5a–5c).
func modelCheckRows(s calspread.ScoreStats) [][2]string {
	if math.IsNaN(s.ShapiroW) {
		return [][2]string{{"model check", "too few runs, or scores that never varied, to check normality and autocorrelation"}}
	}
	normal := fmt.Sprintf("yes at 5%%: Shapiro–Wilk W %.3f, p %.3f", s.ShapiroW, s.ShapiroP)
	if s.ShapiroP < calspread.NormalityAlpha {
		normal = fmt.Sprintf("no at 5%%: Shapiro–Wilk W %.3f, p %.3f; the claimed rates are no lower than the model-free ones", s.ShapiroW, s.ShapiroP)
	}
	corr := fmt.Sprintf("%+.2f (SE %.2f): not significant, the runs are treated as independent", s.Lag1, s.Lag1SE)
	if e := s.Effective; e.Rho > 0 {
		corr = fmt.Sprintf("%+.2f (SE %.2f): consecutive runs correlated; allowing for ρ %.2f the %d runs count as %.1f", s.Lag1, s.Lag1SE, e.Rho, s.N, e.N)
	}
	tail := "normal: the rates are the log-normal model's"
	if !s.Tail.Normal() {
		tail = fmt.Sprintf("heavier than normal: a Student-t with %v degrees of freedom fits better (likelihood ratio %.1f); the rates are that tail's, and the claimed rates no lower than the model-free ones", s.Tail.DF, s.Tail.LR)
	}
	if !math.IsInf(s.Tail.DFLower, 1) {
		tail += fmt.Sprintf("; the 95%% bound allows for a tail as heavy as a Student-t with %v degrees of freedom, which the runs do not rule out", s.Tail.DFLower)
	}
	return [][2]string{{"log scores normal?", normal}, {"tail of the log scores", tail}, {"lag-1 autocorrelation of the log scores", corr}}
}

// modelCheckJSON is the model checks in JSON.
type modelCheckJSON struct {
	ShapiroW render.Float `json:"shapiro_w"`
	ShapiroP render.Float `json:"shapiro_p"`
	Normal   *bool        `json:"normal"`
	Lag1     render.Float `json:"lag1_autocorrelation"`
	Lag1SE   render.Float `json:"lag1_se"`
	Tail     tailJSON     `json:"tail"`
}

// tailJSON is what the tail model found (docs/STATS.md 5d): the degrees
// of freedom of the tail the runs favour (null: the normal), of the
// heaviest they do not rule out (null: none heavier than the normal),
// and the likelihood ratio of the best fit against the normal.
type tailJSON struct {
	DF      render.Float `json:"df"`
	DFLower render.Float `json:"df_lower"`
	LR      render.Float `json:"likelihood_ratio"`
}

// modelCheckOf returns the model checks of a score distribution.
func modelCheckOf(s calspread.ScoreStats) modelCheckJSON {
	j := modelCheckJSON{ShapiroW: render.Float(s.ShapiroW), ShapiroP: render.Float(s.ShapiroP),
		Lag1: render.Float(s.Lag1), Lag1SE: render.Float(s.Lag1SE),
		Tail: tailJSON{DF: render.Float(s.Tail.DF), DFLower: render.Float(s.Tail.DFLower), LR: render.Float(s.Tail.LR)}}
	if !math.IsNaN(s.ShapiroP) {
		normal := s.ShapiroP >= calspread.NormalityAlpha
		j.Normal = &normal
	}
	return j
}
