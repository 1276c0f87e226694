package present

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/watch"
)

// TestWatchOneCommit: with a range one commit long the view says that
// commit is the cause, in text and in the issue; the issue's names from
// inputs are code spans or escaped (no mention, no HTML), and its marker
// and state lines come first.
func TestWatchOneCommit(t *testing.T) {
	res := &watch.Result{Action: watch.Open, Runs: []string{"r1", "r2@octocat"}, Scores: []float64{1.26, 1.15},
		Good: &watch.Suspect{Run: "r1", Commit: "abc123", Score: 1.26}, Bad: &watch.Suspect{Run: "r2@octocat", Commit: "def456", Score: 1.15},
		Change: watch.Change{Estimate: -0.087, Lo: -0.112, Hi: -0.061}, Recent: math.NaN(),
		Rates: watch.Rates{FalseIssuesPer100: 0.1, SE: 0.01, Sims: 100, Sigma: 0.03,
			Delays: []watch.Delay{{Step: 0.03, Median: 9, P90: math.NaN()}, {Step: 0.05, Median: 4, P90: 9}, {Step: 0.1, Median: 2, P90: 3}}}}
	v := &Watch{Res: res, Cal: &model.File{}, CalName: "cal.json", Action: watch.Open, OneCommit: true, FalseAlarm: 0.05, PerRuns: 20,
		Links: map[string]string{"r1": "https://github.com/o/r/actions/runs/1"}}
	var text bytes.Buffer
	v.Doc().WriteText(&text)
	for _, want := range []string{
		"open: the score fell between abc123 (run r1, 1.26x) and def456 (run r2@octocat, 1.15x): 8.7% (95% CI 6.1%–11.2%).",
		"The range is one commit long: def456 is the cause.",
		"10%: median 2, 90% within 3; 5%: median 4, 90% within 9; 3%: median 9, 90% within more than 100",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	body := v.IssueBody("<!-- qoscal-watch calibration=x -->", "<!-- qoscal-watch-state {} -->")
	for _, want := range []string{
		"<!-- qoscal-watch calibration=x -->\n<!-- qoscal-watch-state {} -->\n### ",
		"The range is one commit long: **`def456` is the cause**.",
		"`abc123` (run [r1](https://github.com/o/r/actions/runs/1), 1.26x)",
		"run `r2@octocat`",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("issue lacks %q:\n%s", want, body)
		}
	}
	if got := IssueTitle(res, ""); got != "qoscal watch: the score fell 8.7% between abc123 and def456" {
		t.Errorf("title %q", got)
	}
	res.Bad.Commit = ""
	if got := IssueTitle(res, "lin<ux>"); got != "qoscal watch (lin_ux_): the score fell 8.7% between abc123 and run r2_octocat" {
		t.Errorf("title %q", got)
	}
}
