package present

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	calaudit "github.com/qoscal/qoscal/calibrate/audit"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/watch"
	"github.com/qoscal/qoscal/render"
)

// Audit is the view of a calibration's audit (qoscal audit): what its
// floor and its bands claimed against what they did, on the verdicts the
// ledger kept. Outside text (file and store names, run ids, notes) is
// shown on one line (render.OneLine).
type Audit struct {
	Res *calaudit.AuditResult
	Cal *model.File
	// CalPath names the calibration file as given, Store the store (its
	// location, without a password), Labels the runs' selection.
	CalPath, Store string
	Labels         map[string]string
	// Profiles are the audits of the calibration's profiles (recommend
	// --by), in the file's order, each on the verdicts its profile
	// judged; Res is then the audit of the verdicts judged on the file's
	// top level (runs whose value had no profile). None without
	// profiles.
	Profiles []ProfileAudit
	// Watch is the audit of the watch's issues (qoscal watch) on the
	// runs judged against the calibration; nil when there are none.
	Watch *watch.EpisodeAudit
}

// ProfileAudit is the audit of one profile of a calibration: its value
// of the file's "by" label, the profile as a calibration of its own
// (model.File.Profile: its floor, bands and claimed rate), and the
// audit of the verdicts it judged.
type ProfileAudit struct {
	Value string
	Cal   *model.File
	Res   *calaudit.AuditResult
}

// profiled reports whether the audited calibration has profiles.
func (v *Audit) profiled() bool { return v.Cal.By != "" && len(v.Cal.Profiles) > 0 }

// profileRow is one row of the profiles' table: a profile ("" for the
// file's top level) and its audit.
type profileRow struct {
	name string
	cal  *model.File
	res  *calaudit.AuditResult
}

func profileColumns() []render.Column[profileRow] {
	rate := auditColumns()[1:]
	cols := []render.Column[profileRow]{
		{Head: "profile", Cell: func(r profileRow) string { return render.OneLine(r.name) }},
		{Head: "floor", Align: render.Right, Cell: func(r profileRow) string { return r.cal.FloorText + "x" }},
		{Head: "gated", Align: render.Right, Cell: func(r profileRow) string { return fmt.Sprint(r.res.Gated) }},
		{Head: "failed", Align: render.Right, Cell: func(r profileRow) string { return fmt.Sprint(r.res.Failed) }},
	}
	for _, c := range rate {
		cols = append(cols, render.Column[profileRow]{Head: c.Head, Align: c.Align,
			Cell: func(r profileRow) string { return c.Cell(rateRow{"floor", &r.res.Floor}) }})
	}
	return cols
}

// profileTable is the floor's figures of each profile, after those of
// the file's top level; nil without profiles.
func (v *Audit) profileTable() *render.Table {
	if !v.profiled() {
		return nil
	}
	rows := []profileRow{{"top level", v.Cal, v.Res}}
	for _, p := range v.Profiles {
		rows = append(rows, profileRow{v.Cal.By + "=" + p.Value, p.Cal, p.Res})
	}
	return render.NewTable(profileColumns(), rows)
}

// profileNotes are one sentence per profile: its verdicts, and what its
// floor's and its bands' false alarms say of its claims; none without
// profiles.
func (v *Audit) profileNotes() []string {
	var out []string
	for _, p := range v.Profiles {
		r := p.Res
		out = append(out, fmt.Sprintf("Profile %s (floor %sx, %s): %s gated, %d passed, %d failed, %d rerun, %d other. Floor: %s. Bands (family-wise): %s.",
			render.OneLine(v.Cal.By+"="+p.Value), p.Cal.FloorText, Plural(p.Cal.Runs, "calibration run"),
			Plural(r.Gated, "run"), r.Passed, r.Failed, r.Rerun, r.Other, v.rateSentence(&r.Floor), v.rateSentence(&r.Bands)))
		if len(r.Missed) > 0 {
			var m []string
			for _, e := range r.Missed {
				m = append(m, runWords(e))
			}
			out[len(out)-1] += fmt.Sprintf(" Marked regressed and missed (passed): %s.", strings.Join(m, "; "))
		}
	}
	return out
}

// Warning is what the audit warns of, "" when nothing: the first rule,
// of the file's top level then of each profile, with more false alarms
// than claimed.
func (v *Audit) Warning() string {
	if v.Res.Floor.Verdict == calaudit.AuditMore {
		return v.headline()
	}
	if v.Res.Bands.Verdict == calaudit.AuditMore {
		return "bands: " + v.Res.Bands.Verdict
	}
	for _, p := range v.Profiles {
		name := "profile " + render.OneLine(v.Cal.By+"="+p.Value) + ": "
		if p.Res.Floor.Verdict == calaudit.AuditMore {
			return name + "floor: " + v.rateSentence(&p.Res.Floor)
		}
		if p.Res.Bands.Verdict == calaudit.AuditMore {
			return name + "bands: " + p.Res.Bands.Verdict
		}
	}
	return ""
}

// rateRow is one rule's row of the audit's table.
type rateRow struct {
	name string
	a    *calaudit.RateAudit
}

func auditColumns() []render.Column[rateRow] {
	return []render.Column[rateRow]{
		{Head: "rule", Cell: func(r rateRow) string { return r.name }},
		{Head: "healthy runs", Align: render.Right, Cell: func(r rateRow) string { return fmt.Sprint(r.a.Healthy) }},
		{Head: "marked", Align: render.Right, Cell: func(r rateRow) string { return fmt.Sprint(r.a.Marked) }},
		{Head: "presumed", Align: render.Right, Cell: func(r rateRow) string { return fmt.Sprint(r.a.Presumed) }},
		{Head: "false alarms", Align: render.Right, Cell: func(r rateRow) string { return fmt.Sprint(r.a.FalseAlarms) }},
		{Head: "realised", Align: render.Right, Cell: func(r rateRow) string { return rate(r.a.Rate) }},
		{Head: "95% interval", Cell: func(r rateRow) string { return interval(r.a) }},
		{Head: "claimed", Align: render.Right, Cell: func(r rateRow) string { return rate(r.a.Claimed) }},
	}
}

// interval is a rate's interval, "0.12%–4.05%"; "-" without runs.
func interval(a *calaudit.RateAudit) string {
	if a.Healthy == 0 {
		return "-"
	}
	return rate(a.Lo) + "–" + rate(a.Hi)
}

// headline is the floor's verdict in one sentence: the audit's answer.
func (v *Audit) headline() string {
	return "floor: " + v.rateSentence(&v.Res.Floor)
}

// rateSentence says what a rule's false alarms say of its claim.
func (v *Audit) rateSentence(a *calaudit.RateAudit) string {
	var s string
	if a.Healthy == 0 {
		s = "no healthy run to count false alarms on"
	} else {
		s = fmt.Sprintf("%s in %s (%s)", Plural(a.FalseAlarms, "false alarm"), Plural(a.Healthy, "healthy run"), truthWords(a.Marked, a.Presumed))
	}
	s += fmt.Sprintf(" against a claimed %s (%s): %s", rate(a.Claimed), oneIn(a.Claimed), a.Verdict)
	switch a.Verdict {
	case calaudit.AuditTooFew:
		if a.Healthy == 0 {
			s += fmt.Sprintf("; about %s healthy runs at the claimed rate would tell", thousands(float64(a.MoreRuns)))
		} else {
			s += fmt.Sprintf("; about %s more healthy runs at the rate seen so far would tell", thousands(float64(a.MoreRuns)))
		}
	case calaudit.AuditMore:
		if a.OnDegraded > 0 {
			s += fmt.Sprintf(" (%d of the %s on a runner the gate found degraded)", a.OnDegraded, Plural(a.FalseAlarms, "false alarm"))
		}
	}
	return s
}

// truthWords says what the healthy runs' health rests on: "2 marked, 140
// presumed".
func truthWords(marked, presumed int) string {
	return fmt.Sprintf("%d marked, %d presumed", marked, presumed)
}

// runWords names an audited run with its score against its floor.
func runWords(e calaudit.AuditEntry) string {
	s := fmt.Sprintf("%s (%s, score %sx, floor %sx)", render.OneLine(e.ID), e.Verdict, ratio(e.Score), ratio(e.Floor))
	if e.Note != "" {
		s += ": " + render.OneLine(e.Note)
	}
	return s
}

// Doc is the audit for people: the counts, the table of the two rules,
// a sentence for each, the marked regressions, and what the presumption
// of health rested on.
func (v *Audit) Doc() *render.Doc {
	doc := &render.Doc{}
	md := render.In{Only: render.Markdown}
	doc.Add(&render.Heading{In: md, Level: 3, Text: "qoscal audit: " + v.Res.Floor.Verdict})
	doc.Add(&render.Lines{Lines: v.counts()})
	blank := &render.Blank{In: render.In{Only: render.Text}}
	doc.Add(blank, v.table(), blank)
	for i, n := range v.notes() {
		if i > 0 {
			doc.Add(blank)
		}
		doc.Add(&render.Paragraph{Text: n, Width: 79})
	}
	if t := v.profileTable(); t != nil {
		doc.Add(blank, &render.Lines{Lines: []string{"By profile (" + render.OneLine(v.Cal.By) + "), the floor:"}}, blank, t)
		for _, n := range v.profileNotes() {
			doc.Add(blank, &render.Paragraph{Text: n, Width: 79})
		}
	}
	if s := WatchAuditSentence(v.Watch); s != "" {
		doc.Add(blank, &render.Paragraph{Text: s, Width: 79})
	}
	return doc
}

// WatchAuditSentence says what the watch's issues came to: "The watch
// (qoscal watch) opened 2 issues over 120 pushes: 1 marked healthy (a
// false issue), 1 unmarked; 0.83 false issues per 100 pushes (exact 95%
// interval 0.02–4.56) against 0.15 stated: consistent with the stated
// rate." "" without an audit of the watch.
func WatchAuditSentence(a *watch.EpisodeAudit) string {
	if a == nil {
		return ""
	}
	return fmt.Sprintf("The watch (qoscal watch, replayed on the runs judged against the calibration) opened %s over %s: %d marked healthy (false issues), %d unmarked; %s false issues per 100 pushes (exact 95%% interval %s–%s) against %s stated: %s.",
		Plural(len(a.Episodes), "issue"), pushCount(a.Pushes), a.False, a.Unknown, dec(a.Realised, 2), dec(a.Lo, 2), dec(a.Hi, 2), dec(a.Stated, 3), a.Verdict)
}

// counts are the audit's first lines: the calibration audited and the
// store, then the runs gated and their verdicts.
func (v *Audit) counts() []string {
	r := v.Res
	lines := []string{
		fmt.Sprintf("audit of %s (sha256 %s, floor %sx) in %s", render.OneLine(v.CalPath), short(v.Cal.SHA256), v.Cal.FloorText, render.OneLine(v.Store)),
	}
	if v.profiled() {
		n := 0
		for _, p := range v.Profiles {
			n += p.Res.Gated
		}
		lines = append(lines, fmt.Sprintf("profiles by %s: %d, which judged %s (by profile, below); on the file's top level (a %s without a profile):",
			render.OneLine(v.Cal.By), len(v.Cal.Profiles), Plural(n, "run"), render.OneLine(v.Cal.By)))
	}
	return append(lines,
		fmt.Sprintf("%s gated: %d passed, %d failed, %d rerun, %d other", Plural(r.Gated, "run"), r.Passed, r.Failed, r.Rerun, r.Other))
}

// table is the floor's and the bands' figures: healthy runs, false
// alarms, the realised rate with its interval, and the claimed rate.
func (v *Audit) table() *render.Table {
	return render.NewTable(auditColumns(), []rateRow{{"floor", &v.Res.Floor}, {"bands", &v.Res.Bands}})
}

// notes are the audit's sentences: the verdict of each rule, the floor's
// false alarms, the marked regressions caught and missed, what the
// presumption of health rested on, and the calibration's own runs left
// out.
func (v *Audit) notes() []string {
	r := v.Res
	notes := []string{
		"Floor: " + v.rateSentence(&r.Floor) + ".",
		"Bands (family-wise): " + v.rateSentence(&r.Bands) + ".",
	}
	if len(r.Floor.Alarms) > 0 {
		var names []string
		for _, e := range r.Floor.Alarms {
			names = append(names, fmt.Sprintf("%s (%s)", render.OneLine(e.ID), e.Truth))
		}
		notes = append(notes, "The floor's false alarms: "+strings.Join(names, ", ")+".")
	}
	switch {
	case r.Regressed == 0:
		notes = append(notes, "No run is marked regressed, so no miss is known (qoscal mark RUN --regressed records one).")
	default:
		s := fmt.Sprintf("%s marked regressed: %d caught", Plural(r.Regressed, "run"), len(r.Caught))
		if len(r.Missed) > 0 {
			var m []string
			for _, e := range r.Missed {
				m = append(m, runWords(e))
			}
			s += fmt.Sprintf(", %d missed (passed): %s", len(r.Missed), strings.Join(m, "; "))
		}
		notes = append(notes, s+".")
	}
	notes = append(notes, v.presumptionWords())
	if r.InCalibration > 0 {
		notes = append(notes, fmt.Sprintf("%s of the calibration itself left out.", Plural(r.InCalibration, "verdict on a run")))
	}
	return notes
}

// presumptionWords says how runs were presumed healthy, and how many
// runs' health is unknown.
func (v *Audit) presumptionWords() string {
	r, p := v.Res, v.Res.Presumption
	check := fmt.Sprintf("a CUSUM at %s per %d runs", trimPct(p.FalseAlarm)+"%", p.PerRuns)
	if h := dec(p.H, 2); h != "-" {
		check += ", h " + h
	}
	s := fmt.Sprintf("Presumed healthy: unmarked runs of the calibrated branch (its labels%s) with no change of level at them and at least %d runs after them (%s: docs/STATS.md 5e)",
		labelWords(v.Cal.Labels), p.Follow, check)
	var not []string
	if len(p.Changed) > 0 {
		not = append(not, fmt.Sprintf("%d in a change of level", len(p.Changed)))
	}
	if len(p.Recent) > 0 {
		not = append(not, fmt.Sprintf("%d too recent", len(p.Recent)))
	}
	switch {
	case p.None != "":
		s += "; none: " + p.None
	case len(not) > 0:
		s += "; not " + strings.Join(not, " nor ")
	}
	s += "."
	if r.Unknown > 0 {
		s += fmt.Sprintf(" %s of unknown health: neither marked nor presumed, left out of the rates.", Plural(r.Unknown, "run"))
	}
	return s
}

// labelWords lists a calibration's labels: ", os=linux", or " none:
// every run".
func labelWords(labels map[string]string) string {
	if len(labels) == 0 {
		return " none: every run"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		parts = append(parts, render.OneLine(k+"="+labels[k]))
	}
	return " " + strings.Join(parts, ", ")
}

// short is the first 12 hex digits of a SHA-256.
func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// JSON is the audit's document (docs/json.md, "audit").
func (v *Audit) JSON() render.Object {
	labels := v.Labels
	if labels == nil {
		labels = map[string]string{}
	}
	o := render.Object{
		{Key: "calibration", Value: render.Object{{Key: "file", Value: v.CalPath}, {Key: "sha256", Value: v.Cal.SHA256},
			{Key: "floor", Value: v.Cal.Floor}, {Key: "runs", Value: v.Cal.Runs}}},
		{Key: "store", Value: v.Store},
		{Key: "labels", Value: labels},
	}
	o = append(o, v.resultJSON(v.Res)...)
	o = append(o, render.Field{Key: "watch", Value: watchAuditJSON(v.Watch)})
	if v.profiled() {
		profiles := []render.Object{}
		for _, p := range v.Profiles {
			po := render.Object{{Key: "value", Value: p.Value}, {Key: "floor", Value: p.Cal.Floor}, {Key: "runs", Value: p.Cal.Runs}}
			profiles = append(profiles, append(po, v.resultJSON(p.Res)...))
		}
		o = append(o, render.Field{Key: "by", Value: v.Cal.By}, render.Field{Key: "profiles", Value: profiles})
	}
	return o
}

// resultJSON is the figures of one audit: the file's top level, or a
// profile's.
func (v *Audit) resultJSON(r *calaudit.AuditResult) render.Object {
	o := render.Object{
		{Key: "gated", Value: r.Gated},
		{Key: "passed", Value: r.Passed},
		{Key: "failed", Value: r.Failed},
		{Key: "rerun", Value: r.Rerun},
		{Key: "other", Value: r.Other},
		{Key: "pairs", Value: r.Pairs},
		{Key: "reruns", Value: r.Reruns},
	}
	o = append(o, v.rateJSON(&r.Floor)...)
	o = append(o,
		render.Field{Key: "bands", Value: v.rateJSON(&r.Bands)},
		render.Field{Key: "regressions", Value: render.Object{{Key: "marked", Value: r.Regressed},
			{Key: "caught", Value: entriesJSON(r.Caught)}, {Key: "missed", Value: entriesJSON(r.Missed)}}},
		render.Field{Key: "unknown", Value: r.Unknown},
		render.Field{Key: "in_calibration", Value: r.InCalibration},
		render.Field{Key: "presumption", Value: presumptionJSON(r.Presumption)},
	)
	return o
}

// rateJSON is one rule's figures, with the names the issue gave them.
func (v *Audit) rateJSON(a *calaudit.RateAudit) render.Object {
	var interval any
	if a.Healthy > 0 {
		interval = []render.Float{render.Float(a.Lo), render.Float(a.Hi)}
	}
	var more any
	if a.Verdict == calaudit.AuditTooFew {
		more = a.MoreRuns
	}
	return render.Object{
		{Key: "healthy", Value: a.Healthy},
		{Key: "false_alarms", Value: a.FalseAlarms},
		{Key: "realised_rate", Value: render.Float(a.Rate)},
		{Key: "interval", Value: interval},
		{Key: "confidence", Value: v.Res.Options.Confidence},
		{Key: "claimed_rate", Value: render.Float(a.Claimed)},
		{Key: "claimed_from", Value: a.ClaimedFrom},
		{Key: "p", Value: render.Float(a.P)},
		{Key: "truth", Value: render.Object{{Key: "marked", Value: a.Marked}, {Key: "presumed", Value: a.Presumed}}},
		{Key: "false_alarm_truth", Value: render.Object{{Key: "marked", Value: a.FalseMarked}, {Key: "presumed", Value: a.FalsePresumed}}},
		{Key: "on_degraded", Value: a.OnDegraded},
		{Key: "left_out", Value: a.Left},
		{Key: "verdict", Value: a.Verdict},
		{Key: "more_runs", Value: more},
		{Key: "message", Value: v.rateSentence(a)},
		{Key: "false_alarm_runs", Value: entriesJSON(a.Alarms)},
	}
}

// entriesJSON lists audited runs.
func entriesJSON(es []calaudit.AuditEntry) []render.Object {
	out := []render.Object{}
	for _, e := range es {
		below := e.Below
		if below == nil {
			below = []string{}
		}
		out = append(out, render.Object{
			{Key: "run", Value: e.ID}, {Key: "verdict", Value: e.Verdict}, {Key: "score", Value: e.Score}, {Key: "floor", Value: e.Floor},
			{Key: "kind", Value: e.Kind}, {Key: "runner_health", Value: optional(e.RunnerHealth)}, {Key: "below", Value: below},
			{Key: "truth", Value: optional(e.Truth)}, {Key: "note", Value: optional(e.Note)},
		})
	}
	return out
}

func presumptionJSON(p calaudit.Presumption) render.Object {
	list := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	return render.Object{
		{Key: "k", Value: p.K}, {Key: "clip", Value: p.Clip}, {Key: "h", Value: render.Float(p.H)}, {Key: "rho", Value: p.Rho},
		{Key: "false_alarm_rate", Value: p.FalseAlarm}, {Key: "per_runs", Value: p.PerRuns}, {Key: "follow", Value: p.Follow},
		{Key: "branch_runs", Value: p.Branch}, {Key: "changed", Value: list(p.Changed)}, {Key: "recent", Value: list(p.Recent)},
		{Key: "none", Value: optional(p.None)},
	}
}

// watchAuditJSON is the audit of the watch's issues, null without one.
func watchAuditJSON(a *watch.EpisodeAudit) any {
	if a == nil {
		return nil
	}
	eps := []render.Object{}
	for _, e := range a.Episodes {
		var truth any
		if e.Truth != "" {
			truth = e.Truth
		}
		eps = append(eps, render.Object{{Key: "opened_at", Value: e.Opened}, {Key: "mark", Value: truth}})
	}
	return render.Object{
		{Key: "pushes", Value: a.Pushes},
		{Key: "episodes", Value: eps},
		{Key: "false_issues", Value: a.False},
		{Key: "unmarked", Value: a.Unknown},
		{Key: "false_issues_per_100", Value: render.Float(a.Realised)},
		{Key: "interval", Value: []render.Float{render.Float(a.Lo), render.Float(a.Hi)}},
		{Key: "stated_per_100", Value: render.Float(a.Stated)},
		{Key: "stated_se", Value: render.Float(a.SE)},
		{Key: "verdict", Value: a.Verdict},
		{Key: "message", Value: WatchAuditSentence(a)},
	}
}
