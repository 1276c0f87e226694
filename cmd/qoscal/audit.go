package main

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	calaudit "github.com/qoscal/qoscal/calibrate/audit"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/watch"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/present"
	"github.com/qoscal/qoscal/render"
)

var auditCmd = &command{
	name:      "audit",
	summary:   "a calibration's claimed false-alarm rate against the realised",
	format:    true,
	annotates: "more false alarms than claimed (a ::warning::), every warning and an error",
	usage: `qoscal audit --calibration FILE [--db STORE] [--label KEY=VALUE]... [flags]
`,
	intro: `Checks a calibration's claims against the verdicts it gave. The runs judged
against the calibration are those 'gate --record' kept in the store's ledger
with the SHA-256 of the calibration file's bytes: an edited file is another
calibration. Of them, audit counts how many were gated, passed, failed and
were told to rerun; then, among the runs known healthy (marked so: 'qoscal
mark') or presumed healthy, how often the floor failed a run (its score below
the floor, whatever the verdict made of it) against the false-alarm rate the
calibration claimed (as recommend stated it), with an exact (Clopper–Pearson)
95% interval, and the same for the per-benchmark bands' family-wise rate; and
the runs marked regressed that passed. A verdict in words says whether the
runs are consistent with the claim, show more false alarms than claimed, or
are too few to tell, and then how many more healthy runs would tell.

An unmarked run is presumed healthy when it is of the calibrated branch (it
carries every label the calibration was selected by), judged alone on the
whole suite, and no change of level is found at it: a two-sided CUSUM
of the branch's scores in the order they were recorded, with at least 3 runs
after it (docs/STATS.md 5e). Every figure says how many of its runs are
marked and how many presumed. Runs gated as a pair, on part of the suite or
on another floor are counted, but not in the rates. Exits 0 whatever the
verdict.

A calibration with profiles ('recommend --by KEY') is audited per profile:
each verdict against what judged it, as 'gate --record' kept it. Each
profile's verdicts are counted against its own floor, bands and claimed rate
(a table of the profiles' floors, and a sentence for each); the figures of
the file's top level are those of the verdicts judged on it, runs whose
value of KEY had no profile.
`,
	notes: `With --format json, one document; the figures of the floor at its top, those
of the bands under "bands" (docs/json.md, "audit"):
    {"gated", "passed", "failed", "rerun", "healthy", "false_alarms",
     "realised_rate", "interval": [lo, hi], "claimed_rate",
     "truth": {"marked", "presumed"}, "verdict", "more_runs", ...}
With profiles, those are the top level's, and "by" and "profiles": [{"value",
"floor", "runs", the same fields}] follow.

The watch's issues ('qoscal watch') are counted too, under "watch": its
decision replayed on the runs judged against the calibration opens the issues
it opened; an issue whose opening run is marked healthy is a false issue, and
the false issues per 100 pushes, with their exact interval, are set against
the rate the watch states for the calibration (docs/STATS.md 5f).
`,
	example: `Example: the run recorded as job-17 and marked regressed (see 'qoscal help
mark'), one more run marked healthy, and the audit of the worked example's
calibration on them, in text and in JSON:

    $ qoscal gate --calibration gate.json --record --db ledger.db --run job-18 \
        --baseline system=baseline.txt --candidate hoard=hoard.txt
    ...
    $ qoscal mark --healthy --db ledger.db job-18
    marked run job-18 healthy in ledger.db
    $ qoscal audit --calibration gate.json --db ledger.db
    audit of gate.json (sha256 ...
    2 runs gated: 2 passed, 0 failed, 0 rerun, 0 other
    $ qoscal audit --calibration gate.json --db ledger.db --format json
    {
    ...
      "gated": 2,
      "passed": 2,
      "failed": 0,
      "rerun": 0,
    ...
      "healthy": 1,
      "false_alarms": 0,
      "realised_rate": 0,
      "interval": [
        0,
        0.975
      ],
    ...
      "claimed_rate": 0.008373223488399506,
    ...
      "truth": {
        "marked": 1,
        "presumed": 0
      },
    ...
      "verdict": "too few runs to tell",
      "more_runs": 218,
    ...

The text says the same, with a table of the floor's and the bands' figures,
and names the miss: job-17 (pass, score 1.55x, floor 1.25x), marked regressed.
`,
	new: func() runner { return new(auditFlags) },
}

func init() {
	register(auditCmd)
}

// auditFlags are the audit command's flags.
type auditFlags struct {
	calPath, db, summary string
	labels               []string
}

func (a *auditFlags) flags(fs *flagSet) {
	fs.StringVar(&a.calPath, "calibration", "", "the calibration `FILE` to audit, required: its verdicts are those recorded against its exact bytes")
	fs.StringVar(&a.db, "db", "", "the `STORE` of the ledger: a SQLite file or a postgres:// URL (default $QOSCAL_DB, else qoscal.db)")
	fs.StringArrayVar(&a.labels, "label", nil, "audit only the runs with this `KEY=VALUE` label (a runner, an environment)")
	fs.StringVar(&a.summary, "summary", "", "append the audit in Markdown to `FILE`, its folders made if missing (default $GITHUB_STEP_SUMMARY when set)")
}

func (a *auditFlags) run(u *ui, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q: audit reads the ledger of a store (--db)", render.OneLine(args[0]))
	}
	if a.calPath == "" {
		return usagef("--calibration FILE is required: the calibration whose verdicts to audit")
	}
	if a.summary != "" {
		u.summary, u.summaryFlag = a.summary, "--summary"
	}
	filter, err := data.ParseLabels(a.labels)
	if err != nil {
		return usagef("--label: %v", err)
	}
	loc := storePath(u, a.db)
	fc := u.newFiles()
	fc.in("the calibration file", a.calPath)
	fc.store(loc)
	if err := fc.check(); err != nil {
		return err
	}
	cal, err := model.ReadFile(a.calPath)
	if err != nil {
		return err
	}
	st, err := source.OpenStore(u.ctx, loc, store.ReadOnly)
	if err != nil {
		return err
	}
	defer st.Close()
	res, profiles, ledger, err := auditLedger(u, st, filter, cal)
	if err != nil {
		return err
	}
	if len(ledger.Verdicts) == 0 {
		a.noVerdicts(u, st, filter, cal)
	}
	v := &present.Audit{Res: res, Cal: cal, CalPath: a.calPath, Store: st.Location(), Labels: filter, Profiles: profiles}
	if len(ledger.Verdicts) > 0 && cal.Matrix != nil {
		// The watch's issues: its decision replayed on the runs judged
		// against the calibration, the episodes against the marks.
		runs, err := source.Judged(u.ctx, loc, cal.SHA256, filter)
		if err != nil {
			return err
		}
		marks := map[string]string{}
		for id, m := range ledger.LatestMarks() {
			marks[id] = m.Truth
		}
		if len(runs) > 0 {
			if v.Watch, err = watch.AuditEpisodes(cal, runs, calibrate.Auto, marks, watch.Options{}); err != nil {
				return err
			}
		}
	}
	if summary := u.summary; summary != "" {
		var md bytes.Buffer
		v.Doc().WriteMarkdown(&md)
		if err := appendFile(summary, md.Bytes()); err != nil {
			u.summary = ""
			return fmt.Errorf("step summary %s: %w", summary, err)
		}
	}
	if err := show(u, v); err != nil {
		return err
	}
	if msg := v.Warning(); u.github && msg != "" {
		ghCommand(u.annotations(), "warning", "qoscal audit", msg)
	}
	return nil
}

// auditLedger is calaudit.AuditLedger (what audit shows, and the report's
// and the site's audit sections), its profiles as present's, and a
// verdict judged by a profile the file does not have said in full.
func auditLedger(u *ui, st store.Store, filter map[string]string, cal *model.File) (*calaudit.AuditResult, []present.ProfileAudit, store.Ledger, error) {
	res, byValue, ledger, err := calaudit.AuditLedger(u.ctx, st, filter, cal)
	var pe *calaudit.ProfileError
	if errors.As(err, &pe) {
		vs := "none"
		if len(pe.Profiles) > 0 {
			vs = render.OneLine(strings.Join(pe.Profiles, ", "))
		}
		return nil, nil, ledger, fmt.Errorf("store %s: the verdict of run %s was judged by the profile %s=%s, which calibration %s (sha256 %s) does not have (its profiles: %s): the ledger was written by something else",
			st.Location(), render.OneLine(pe.Run), render.OneLine(cal.By), render.OneLine(pe.Profile), render.OneLine(pe.CalName), cal.SHA256[:min(12, len(cal.SHA256))], vs)
	}
	var profiles []present.ProfileAudit
	for _, p := range byValue {
		profiles = append(profiles, present.ProfileAudit{Value: p.Value, Cal: p.Cal, Res: p.Res})
	}
	return res, profiles, ledger, err
}

// noVerdicts warns that the store holds no verdict against the
// calibration, and names the calibrations it holds verdicts against.
func (a *auditFlags) noVerdicts(u *ui, st store.Store, filter map[string]string, cal *model.File) {
	u.warnf("no verdict in %s%s was judged against %s (sha256 %s): record them with 'gate --record --calibration %s'",
		st.Location(), filterNote(filter), a.calPath, cal.SHA256[:12], a.calPath)
	all, err := st.Ledger(u.ctx, store.LedgerQuery{Labels: filter})
	if err != nil {
		return
	}
	seen := map[string]string{}
	for _, v := range all.Verdicts {
		if v.Calibration.SHA256 != "" {
			seen[v.Calibration.SHA256] = v.Calibration.Name
		}
	}
	if len(seen) == 0 {
		return
	}
	var names []string
	for sha, name := range seen {
		names = append(names, fmt.Sprintf("%s (sha256 %s)", name, sha[:min(12, len(sha))]))
	}
	slices.Sort(names)
	u.hintf("its verdicts were judged against %s: an edited calibration file is another calibration", strings.Join(names, ", "))
}
