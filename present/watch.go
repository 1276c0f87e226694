package present

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/qoscal/qoscal/calibrate/drift"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/watch"
	"github.com/qoscal/qoscal/render"
)

// Watch is the view of the watch on the main branch (qoscal watch): what
// it decided on this push, the fall it names, its stated rates, and the
// issue it opened, updated or closed. The issue's text is IssueBody.
type Watch struct {
	Res *watch.Result
	Cal *model.File
	// CalName is the calibration file's name as given.
	CalName string
	// Action and Why are what the command did: Res's, or Close with
	// watch.Superseded when it closed the issues of an older
	// calibration and had nothing else to do.
	Action, Why string
	// Issue is the issue acted on (0: none), IssueURL its page.
	Issue    int
	IssueURL string
	// Superseded are the open issues of older calibrations closed.
	Superseded []int
	// Links are the runs' pages (the Actions run that measured each), by
	// run id; a run without one is named without a link.
	Links map[string]string
	// Bisect is the command that bisects the range ("" without a fall
	// named); OneCommit says the range is one commit long (git said so).
	Bisect    string
	OneCommit bool
	// Posted says what became of the issue: "opened", "updated",
	// "closed", "unchanged", "dry run: not posted", "not posted: WHY".
	Posted string
	// Body is the issue's text as posted (or as it would be), "" when
	// nothing is posted.
	Body string
	// FalseAlarm and PerRuns are the drift check's rate.
	FalseAlarm float64
	PerRuns    int
}

// suspectName is "abc123def456 (run r12, 1.26x)", or "run r12 (1.26x)"
// without a commit.
func suspectName(s *watch.Suspect) string {
	if s == nil {
		return "?"
	}
	if s.Commit != "" {
		return fmt.Sprintf("%s (run %s, %sx)", short12(s.Commit), s.Run, ratio(s.Score))
	}
	return fmt.Sprintf("run %s (%sx)", s.Run, ratio(s.Score))
}

func short12(s string) string { return s[:min(12, len(s))] }

// FallSentence names the fall: "the score fell between abc123 (run 4711,
// 1.26x) and def456 (run 4712, 1.15x): 8.7% (95% CI 6.1–11.2%)".
func FallSentence(r *watch.Result) string {
	if r.Bad == nil {
		return ""
	}
	c := r.Change
	return fmt.Sprintf("the score fell between %s and %s: %s (95%% CI %s–%s)",
		suspectName(r.Good), suspectName(r.Bad), pct(-c.Estimate), pct(-c.Hi), pct(-c.Lo))
}

// CauseSentence says the one commit of a one-commit range is the cause.
func (v *Watch) CauseSentence() string {
	if !v.OneCommit || v.Res.Bad == nil {
		return ""
	}
	return fmt.Sprintf("the range is one commit long: %s is the cause", v.Res.Bad.Commit)
}

// WatchSentence says what the watch did on this push.
func (v *Watch) WatchSentence() string {
	r := v.Res
	switch v.Action {
	case watch.Open:
		return "open: " + FallSentence(r)
	case watch.Update:
		return fmt.Sprintf("update: the score is still down, %s since the fall: %s", Plural(len(r.Runs)-indexOf(r.Runs, r.Bad), "run"), FallSentence(r))
	case watch.Close:
		return "close: " + v.CloseSentence()
	}
	d := r.Drift
	if d == nil || len(r.Runs) == 0 {
		return "quiet: no run since the calibration"
	}
	if n := len(r.Runs) - r.Restart; n < drift.MinNewRuns {
		return fmt.Sprintf("quiet: %s since the calibration or the last episode, and a fall needs %d", Plural(n, "run"), drift.MinNewRuns)
	}
	if d.Drift && d.Direction == "up" {
		return fmt.Sprintf("quiet: the score rose (median %s → %s): 'qoscal drift' advises recalibrating; the watch files falls only", ratio(d.BeforeMedian), ratio(d.AfterMedian))
	}
	return fmt.Sprintf("quiet: the %s since the calibration score like it (median %s; the calibration's %s)", Plural(len(d.Runs), "run"), ratio(d.Median), ratio(d.CalibrationMedian))
}

// CloseSentence says why the issue closes.
func (v *Watch) CloseSentence() string { return v.CloseSentenceFor(v.Why) }

// CloseSentenceFor says why an issue closes for the reason why.
func (v *Watch) CloseSentenceFor(why string) string {
	if why == watch.Superseded {
		return fmt.Sprintf("a new calibration superseded the one the issue was opened against: %s (sha256 %s, made %s from %s); the watch now judges the runs against it, and opens a new issue if they fell below it",
			v.CalName, short12(v.Cal.SHA256), v.Cal.Created, Plural(v.Cal.Runs, "run"))
	}
	return fmt.Sprintf("the score came back: the last %d runs, all after the push that opened the issue, average %s SDs from the calibration's mean (the close needs above %s), score %s (median); the fall it named is over",
		watch.CloseWindow, dec(v.Res.Recent, 2), trimFloat(watch.CloseLevel), ratio(medianOf(v.Res.Scores[len(v.Res.Scores)-watch.CloseWindow:])))
}

// medianOf is the median of x (NaN for none), x left as it is.
func medianOf(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	switch n := len(s); {
	case n == 0:
		return math.NaN()
	case n%2 == 1:
		return s[n/2]
	default:
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// pushCount is "1 push", "12 pushes".
func pushCount(n int) string {
	if n == 1 {
		return "1 push"
	}
	return fmt.Sprintf("%d pushes", n)
}

func indexOf(ids []string, s *watch.Suspect) int {
	if s == nil {
		return len(ids)
	}
	for i, id := range ids {
		if id == s.Run {
			return i
		}
	}
	return len(ids)
}

// StepKey is a step's key in the delays: "10%".
func StepKey(step float64) string {
	return strconv.FormatFloat(100*step, 'g', 3, 64) + "%"
}

// pushes is a delay in pushes, "more than 100" when censored.
func pushes(d float64) string {
	if math.IsNaN(d) {
		return fmt.Sprintf("more than %d", watch.MaxDelay)
	}
	return strconv.FormatFloat(d, 'f', 0, 64)
}

// RatesSentence states the watch's figures for the calibration: "0.03
// false issues per 100 pushes of unchanged code (SE 0.004); pushes until
// an issue after a fall of 10%: median 2, 90% within 3; ...".
func RatesSentence(r watch.Rates) string {
	if r.Sims == 0 {
		return "no figures stated yet: they are simulated once a run has been judged against the calibration"
	}
	var parts []string
	for i := len(r.Delays) - 1; i >= 0; i-- {
		d := r.Delays[i]
		parts = append(parts, fmt.Sprintf("%s: median %s, 90%% within %s", StepKey(d.Step), pushes(d.Median), pushes(d.P90)))
	}
	rho := ""
	if r.Rho > 0 {
		rho = fmt.Sprintf(", lag-1 autocorrelation %.2f", r.Rho)
	}
	return fmt.Sprintf("stated for this calibration: %s false issues per 100 pushes of unchanged code (SE %s); pushes until an issue after a fall of %s (a seeded simulation of %s of the calibration's model: σ %s of the log score%s, its runs drawn again each time)",
		strconv.FormatFloat(r.FalseIssuesPer100, 'f', 3, 64), strconv.FormatFloat(r.SE, 'f', 3, 64), strings.Join(parts, "; "),
		Plural(r.Sims, "sequence"), pct(r.Sigma), rho)
}

var watchMovedCols = []render.Column[watch.Moved]{
	{Head: "benchmark", Cell: func(m watch.Moved) string { return m.Name }, Key: "name", JSON: func(m watch.Moved) any { return m.Name }},
	{Head: "before", Align: render.Right, Cell: func(m watch.Moved) string { return ratio(m.Before) }, Key: "before", JSON: func(m watch.Moved) any { return render.Float(m.Before) }},
	{Head: "after", Align: render.Right, Cell: func(m watch.Moved) string { return ratio(m.After) }, Key: "after", JSON: func(m watch.Moved) any { return render.Float(m.After) }},
	{Head: "change", Align: render.Right, Cell: func(m watch.Moved) string { return signedPct(m.Change) }, Key: "change", JSON: func(m watch.Moved) any { return render.Float(m.Change) }},
	{Head: "band", Align: render.Right, Cell: func(m watch.Moved) string { return ratio(m.Lower) + "–" + ratio(m.Upper) }, Key: "band", JSON: func(m watch.Moved) any {
		return map[string]render.Float{"lower": render.Float(m.Lower), "upper": render.Float(m.Upper)}
	}},
	{Head: "outside band", Cell: func(m watch.Moved) string { return map[bool]string{true: "yes", false: "no"}[m.Outside] }, Key: "outside_band", JSON: func(m watch.Moved) any { return m.Outside }},
}

func signedPct(x float64) string {
	if x > 0 {
		return "+" + pct(x)
	}
	return pct(x)
}

// maxMoved is how many benchmarks the view lists.
const maxMoved = 5

func (v *Watch) moved() []watch.Moved {
	m := v.Res.Moved
	return m[:min(len(m), maxMoved)]
}

// Doc is the decision, the fall, the benchmarks, the bisect command and
// the stated rates.
func (v *Watch) Doc() *render.Doc {
	doc := &render.Doc{}
	doc.Add(&render.Heading{Level: 3, Text: "qoscal watch: " + v.Action},
		&render.Paragraph{Text: v.WatchSentence() + "."})
	if s := v.CauseSentence(); s != "" {
		doc.Add(&render.Paragraph{Text: capitalize(s) + "."})
	}
	if v.Res.Bad != nil && v.Action != watch.Quiet {
		if m := v.moved(); len(m) > 0 {
			doc.Add(&render.Paragraph{Text: "The benchmarks that moved most, before and after the fall:"}, render.NewTable(watchMovedCols, m))
		}
		if v.Bisect != "" {
			doc.Add(&render.Paragraph{Text: "To find the commit:"}, &render.Fenced{Info: "sh", Text: v.Bisect})
		}
	}
	doc.Add(&render.Paragraph{Text: capitalize(RatesSentence(v.Res.Rates)) + "."})
	if v.Posted != "" {
		issue := "a new issue"
		if v.Issue > 0 {
			issue = fmt.Sprintf("issue #%d", v.Issue)
		}
		if v.IssueURL != "" {
			issue += " " + v.IssueURL
		}
		doc.Add(&render.Paragraph{Text: fmt.Sprintf("Issue: %s (%s).", issue, v.Posted)})
	}
	for _, n := range v.Superseded {
		doc.Add(&render.Paragraph{Text: fmt.Sprintf("Closed issue #%d: a new calibration superseded it.", n)})
	}
	return doc
}

// IssueTitle is the issue's title: "qoscal watch: the score fell 8.7%
// between abc123def456 and 0123456789ab", its names reduced to letters,
// digits and . _ - (a title is plain text from inputs).
func IssueTitle(r *watch.Result, id string) string {
	name := func(s *watch.Suspect) string {
		if s == nil {
			return "?"
		}
		if s.Commit != "" {
			return safeName(short12(s.Commit))
		}
		return "run " + safeName(s.Run)
	}
	t := "qoscal watch"
	if id != "" {
		t += " (" + safeName(id) + ")"
	}
	return fmt.Sprintf("%s: the score fell %s between %s and %s", t, pct(-r.Change.Estimate), name(r.Good), name(r.Bad))
}

// safeName keeps letters, digits and . _ - of s (at most 40), others as _.
func safeName(s string) string {
	var b strings.Builder
	for i, c := range s {
		if i >= 40 {
			b.WriteString("…")
			break
		}
		if c < 128 && (c == '.' || c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// IssueBody is the issue's Markdown: marker and state lines first (hidden
// HTML comments), then the fall, the cause when the range is one commit,
// the runs linked, the benchmarks, the bisect command and the stated
// rates. Everything from inputs is escaped (render.MDEscape, code spans).
func (v *Watch) IssueBody(marker, state string) string {
	r := v.Res
	var b strings.Builder
	b.WriteString(marker + "\n" + state + "\n")
	head := "the score fell"
	if v.Action == watch.Close {
		head = "closed"
	}
	fmt.Fprintf(&b, "### qoscal watch: %s\n\n", head)
	if v.Action == watch.Close {
		fmt.Fprintf(&b, "Closed: %s.\n\n", render.MDEscape(v.CloseSentence()))
	}
	if r.Bad != nil {
		fmt.Fprintf(&b, "The score fell between %s and %s: **%s** (95%% CI %s–%s), against calibration %s.\n\n",
			v.mdSuspect(r.Good), v.mdSuspect(r.Bad), pct(-r.Change.Estimate), pct(-r.Change.Hi), pct(-r.Change.Lo), render.Code(v.CalName))
		if v.OneCommit {
			fmt.Fprintf(&b, "The range is one commit long: **%s is the cause**.\n\n", render.Code(r.Bad.Commit))
		}
		since := r.Runs[indexOf(r.Runs, r.Bad):]
		fmt.Fprintf(&b, "Runs since the fall (%d): %s.\n\n", len(since), v.mdRuns(since))
		if m := v.moved(); len(m) > 0 {
			b.WriteString("The benchmarks that moved most (median ratio over the calibration and the runs before the fall, and over the runs since):\n\n")
			var md strings.Builder
			(&render.Doc{Blocks: []render.Block{render.NewTable(watchMovedCols, m)}}).WriteMarkdown(&md)
			b.WriteString(md.String() + "\n")
		}
		if v.Bisect != "" {
			b.WriteString("To find the commit (run in a clone of the repository, where the benchmarks build):\n\n")
			(&render.Doc{Blocks: []render.Block{&render.Fenced{Info: "sh", Text: v.Bisect}}}).WriteMarkdown(&b)
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "*%s. The watch's CUSUM check runs at a false-alarm rate of %s per %d runs (docs/STATS.md 5f).*\n",
		render.MDEscape(capitalize(RatesSentence(r.Rates))), falseAlarmPct(v.FalseAlarm), v.PerRuns)
	return b.String()
}

// mdSuspect is a suspect in Markdown: the commit and the run as code, the
// run linked when its page is known.
func (v *Watch) mdSuspect(s *watch.Suspect) string {
	if s == nil {
		return "?"
	}
	run := v.mdRun(s.Run)
	if s.Commit != "" {
		return fmt.Sprintf("%s (run %s, %sx)", render.Code(s.Commit), run, ratio(s.Score))
	}
	return fmt.Sprintf("run %s (%sx)", run, ratio(s.Score))
}

func (v *Watch) mdRun(id string) string {
	if u := v.Links[id]; u != "" {
		return "[" + render.MDEscape(id) + "](" + u + ")"
	}
	return render.Code(id)
}

func (v *Watch) mdRuns(ids []string) string {
	const most = 20
	var parts []string
	for i, id := range ids {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more", len(ids)-most))
			break
		}
		parts = append(parts, v.mdRun(id))
	}
	return strings.Join(parts, ", ")
}

// WatchJSON is the watch's document (docs/json.md).
type WatchJSON struct {
	Action            string                    `json:"action"`
	Why               *string                   `json:"why"`
	Issue             *int                      `json:"issue"`
	IssueURL          *string                   `json:"issue_url"`
	Posted            string                    `json:"posted"`
	Superseded        []int                     `json:"superseded"`
	Calibration       string                    `json:"calibration"`
	SHA256            string                    `json:"calibration_sha256"`
	Range             *WatchRangeJSON           `json:"range"`
	Change            *WatchChangeJSON          `json:"change"`
	OneCommit         bool                      `json:"one_commit"`
	Benchmarks        []render.Object           `json:"benchmarks"`
	Bisect            *string                   `json:"bisect"`
	FalseIssuesPer100 render.Float              `json:"false_issues_per_100"`
	FalseIssuesSE     render.Float              `json:"false_issues_per_100_se"`
	Delay             map[string]WatchDelayJSON `json:"delay"`
	Simulation        WatchSimJSON              `json:"simulation"`
	FalseAlarmRate    float64                   `json:"false_alarm_rate"`
	FalseAlarmRuns    int                       `json:"false_alarm_runs"`
	Runs              []string                  `json:"runs"`
	Scores            []float64                 `json:"scores"`
	Restart           *string                   `json:"episode_from"`
	Recent            render.Float              `json:"recent_mean_z"`
	Message           string                    `json:"message"`
	Rate              string                    `json:"rate_message"`
	Body              *string                   `json:"body"`
}

// WatchRangeJSON is the range the score fell in.
type WatchRangeJSON struct {
	Good *WatchRunJSON `json:"good"`
	Bad  *WatchRunJSON `json:"bad"`
}

// WatchRunJSON is a run at one end of the range.
type WatchRunJSON struct {
	Run    string  `json:"run"`
	Commit *string `json:"commit"`
	Score  float64 `json:"score"`
	URL    *string `json:"url"`
}

// WatchChangeJSON is the fall's size: after/before − 1 with its 95%
// interval.
type WatchChangeJSON struct {
	Estimate float64 `json:"estimate"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
}

// WatchDelayJSON is the pushes until an issue after a step.
type WatchDelayJSON struct {
	Median  render.Float `json:"median"`
	P90     render.Float `json:"p90"`
	Within5 float64      `json:"within_5"`
}

// WatchSimJSON is how the stated figures were simulated.
type WatchSimJSON struct {
	Sequences int     `json:"sequences"`
	Seed      uint64  `json:"seed"`
	Sigma     float64 `json:"sigma"`
	Rho       float64 `json:"rho"`
	Pushes    int     `json:"pushes"`
	StepAfter int     `json:"step_after"`
	MaxDelay  int     `json:"max_delay"`
}

// JSON is the watch's document.
func (v *Watch) JSON() WatchJSON {
	r := v.Res
	j := WatchJSON{Action: v.Action, Posted: v.Posted, Superseded: append([]int{}, v.Superseded...), Calibration: v.CalName, SHA256: v.Cal.SHA256,
		OneCommit: v.OneCommit && r.Bad != nil, Benchmarks: []render.Object{},
		FalseIssuesPer100: render.Float(r.Rates.FalseIssuesPer100), FalseIssuesSE: render.Float(r.Rates.SE), Delay: map[string]WatchDelayJSON{},
		Simulation:     WatchSimJSON{Sequences: r.Rates.Sims, Seed: r.Rates.Seed, Sigma: r.Rates.Sigma, Rho: r.Rates.Rho, Pushes: watch.RatePushes, StepAfter: watch.StepAfter, MaxDelay: watch.MaxDelay},
		FalseAlarmRate: v.FalseAlarm, FalseAlarmRuns: v.PerRuns, Runs: append([]string{}, r.Runs...), Scores: append([]float64{}, r.Scores...),
		Recent: render.Float(r.Recent), Message: v.WatchSentence(), Rate: RatesSentence(r.Rates)}
	if v.Why != "" {
		w := v.Why
		j.Why = &w
	}
	if v.Issue > 0 {
		n := v.Issue
		j.Issue = &n
	}
	if v.IssueURL != "" {
		u := v.IssueURL
		j.IssueURL = &u
	}
	if r.Rates.Sims == 0 {
		j.FalseIssuesPer100, j.FalseIssuesSE = render.Float(math.NaN()), render.Float(math.NaN())
	}
	if v.Body != "" {
		b := v.Body
		j.Body = &b
	}
	if r.Restart < len(r.Runs) {
		id := r.Runs[r.Restart]
		j.Restart = &id
	}
	for _, d := range r.Rates.Delays {
		j.Delay[StepKey(d.Step)] = WatchDelayJSON{Median: render.Float(d.Median), P90: render.Float(d.P90), Within5: d.Within5}
	}
	if r.Bad != nil && v.Action != watch.Quiet {
		j.Range = &WatchRangeJSON{Good: v.runJSON(r.Good), Bad: v.runJSON(r.Bad)}
		j.Change = &WatchChangeJSON{Estimate: r.Change.Estimate, Lo: r.Change.Lo, Hi: r.Change.Hi}
		j.Benchmarks = render.Objects(watchMovedCols, v.moved())
		if v.Bisect != "" {
			b := v.Bisect
			j.Bisect = &b
		}
	}
	return j
}

func (v *Watch) runJSON(s *watch.Suspect) *WatchRunJSON {
	if s == nil {
		return nil
	}
	out := &WatchRunJSON{Run: s.Run, Score: s.Score}
	if s.Commit != "" {
		c := s.Commit
		out.Commit = &c
	}
	if u := v.Links[s.Run]; u != "" {
		out.URL = &u
	}
	return out
}

// WatchReplay is the view of 'qoscal watch --replay': the action on each
// push.
type WatchReplay struct {
	Runs, Actions []string
	Rates         watch.Rates
}

// Doc is a line per push.
func (v *WatchReplay) Doc() *render.Doc {
	doc := &render.Doc{}
	lines := make([]string, len(v.Runs))
	opened := 0
	for i := range v.Runs {
		lines[i] = fmt.Sprintf("%s  %s", v.Runs[i], v.Actions[i])
		if v.Actions[i] == watch.Open {
			opened++
		}
	}
	doc.Add(&render.Heading{Level: 3, Text: "qoscal watch --replay"}, &render.Lines{Lines: lines},
		&render.Paragraph{Text: fmt.Sprintf("%s opened over %s.", Plural(opened, "issue"), pushCount(len(v.Runs)))},
		&render.Paragraph{Text: capitalize(RatesSentence(v.Rates)) + "."})
	return doc
}

// WatchReplayJSON is the replay's document.
type WatchReplayJSON struct {
	Pushes            []WatchPushJSON           `json:"pushes"`
	Opened            int                       `json:"opened"`
	FalseIssuesPer100 render.Float              `json:"false_issues_per_100"`
	FalseIssuesSE     render.Float              `json:"false_issues_per_100_se"`
	Delay             map[string]WatchDelayJSON `json:"delay"`
}

// WatchPushJSON is one push of a replay.
type WatchPushJSON struct {
	Run    string `json:"run"`
	Action string `json:"action"`
}

// JSON is the replay's document.
func (v *WatchReplay) JSON() WatchReplayJSON {
	j := WatchReplayJSON{Pushes: []WatchPushJSON{}, FalseIssuesPer100: render.Float(v.Rates.FalseIssuesPer100), FalseIssuesSE: render.Float(v.Rates.SE), Delay: map[string]WatchDelayJSON{}}
	for _, d := range v.Rates.Delays {
		j.Delay[StepKey(d.Step)] = WatchDelayJSON{Median: render.Float(d.Median), P90: render.Float(d.P90), Within5: d.Within5}
	}
	for i := range v.Runs {
		j.Pushes = append(j.Pushes, WatchPushJSON{Run: v.Runs[i], Action: v.Actions[i]})
		if v.Actions[i] == watch.Open {
			j.Opened++
		}
	}
	return j
}
