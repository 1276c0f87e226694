package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/qoscal/qoscal/calibrate/drift"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/watch"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/internal/github"
	"github.com/qoscal/qoscal/internal/prcomment"
	"github.com/qoscal/qoscal/internal/watchissue"
	"github.com/qoscal/qoscal/measure"
	"github.com/qoscal/qoscal/present"
	"github.com/qoscal/qoscal/render"
)

var watchCmd = &command{
	name:      "watch",
	summary:   "after the merge: one GitHub issue per fall of the score on main",
	format:    true,
	annotates: "a fall of the score (a ::warning::), warnings that the issue could not be posted, and an error",
	usage: `qoscal watch --calibration FILE [--db STORE] [--label KEY=VALUE...] [flags]
qoscal watch --calibration FILE [flags] PATH...
qoscal watch --calibration FILE --replay [flags] [PATH...]
`,
	intro: `Watches the main branch after the merge, one push at a time: reads the runs
judged against the calibration (the ledger's verdicts that 'gate --record'
kept against the file's exact bytes, in the order stored; with --label, the
store's runs that carry the labels, such as branch=main; or PATHs), runs a
CUSUM drift check on them, fall side only (the check 'qoscal drift' ran
before its AR(1) scan: docs/STATS.md 5f), and decides for the current
episode one of:

  quiet   no fall (or too few runs since the calibration);
  open    the score fell: a GitHub issue is opened naming the last run at
          the calibration's level and the first below it (the change point
          of the runs), with their commits (the commit label that
          'gate --emit-meta' and 'measure' record), the fall with its 95%
          interval, the benchmarks that moved most, a link to each run,
          and the command that bisects the range;
  update  the issue is open and the score still down: its text is
          refreshed with the runs since (the estimate refined);
  close   the score came back (the mean of the last 5 runs, all after the
          push that opened the issue, within 0.5 SD of the calibration's
          mean), or a new calibration superseded the one the issue was
          opened against: the issue is closed with a comment saying which.

One episode is one issue: the issue carries a hidden first line with the
calibration's SHA-256, <!-- qoscal-watch calibration=SHA --> (with --id
NAME, <!-- qoscal-watch:NAME calibration=SHA -->), and the label
qoscal-watch, and is found again by them; a closed one tells the next
episode where to start. Only an issue the token opened is edited (a bot's,
or the token's user's): a stranger's issue that carries the marker is left
alone. The watch states its false-alarm rate as false issues per 100
pushes of unchanged code, and its delay (pushes until an issue, median and
90th percentile) for falls of 3, 5 and 10%, for this calibration: a seeded
simulation of the calibration's fitted model through the same decision.

It calls GitHub's REST API at $GITHUB_API_URL for $GITHUB_REPOSITORY with
$GITHUB_TOKEN, as comment does (the token only to the API's origin, never
printed; no @-mention from outside text; Markdown escaped). An issue that
cannot be written (a fork's or a read-only token: 403; the network; no
token) is not an error: watch prints what it would have posted and exits
0. --dry-run writes nothing (it reads the issues when it has a token, to
decide as it would) and prints the issue as it would be posted.
`,
	notes: `The workflow needs "permissions: issues: write" (and contents: read). Run it
on pushes to the main branch after 'gate --record' (docs/github-actions.md).

--replay prints the action the watch would have taken on each push of the
runs, from the calibration on, with no issue open: what it would have filed
over a history (the slow tests check the stated figures with it).
`,
	example: `Example: the bundled regressed runs against a calibration on the healthy
ones, as they would be filed:

    $ qoscal recommend --write settled.json --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
    ...
    $ qoscal watch --dry-run --calibration settled.json --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/regressed
    open: the score fell between run run-12 (1.26x) and run run-01 (1.15x): 9.4% (95% CI 7.1%–11.7%).
    ...

In a workflow, on pushes to main:

    permissions:
      contents: read
      issues: write
    steps:
      - run: qoscal gate --calibration gate.json --db qoscal.db --record --label branch=main ...
      - env:
          GITHUB_TOKEN: ${{ github.token }}
        run: qoscal watch --calibration gate.json --db qoscal.db
`,
	new: func() runner { return new(watchFlags) },
}

func init() {
	register(watchCmd)
}

// watchTimeout bounds the exchange with the API.
const watchTimeout = 60 * time.Second

// watchFlags are the watch command's flags.
type watchFlags struct {
	runFlags
	dirFlags
	calPath, db, id, gitDir, bisectArgs string
	labels                              []string
	dryRun, replay                      bool
	seed                                uint64
	falseAlarm                          float64
	per, sims                           int
}

func (w *watchFlags) flags(fs *flagSet) {
	fs.group("Input:")
	fs.StringVar(&w.calPath, "calibration", "", "the calibration `FILE` ('qoscal recommend --write'), required")
	fs.arg("PATH...", "run folders, folders of run folders, CSV files, in push order (instead of a store)")
	w.addLoadFlags(fs, calibratedLoadHelp, "input-format")
	fs.StringVar(&w.db, "db", "", "without PATHs, the `STORE`: a SQLite file or a postgres:// URL (default $QOSCAL_DB, else qoscal.db)")
	fs.StringArrayVar(&w.labels, "label", nil, "with the store, the runs with this `KEY=VALUE` label (branch=main) instead of those the ledger judged against the calibration")
	w.dirFlags.add(fs)
	fs.group("The check:")
	fs.Float64Var(&w.falseAlarm, "false-alarm", watch.DefaultFalseAlarm, "the CUSUM check's chance `P` of a false drift (either way) in --per runs checked after each, in (0, 0.5]")
	fs.IntVar(&w.per, "per", watch.DefaultPerRuns, fmt.Sprintf("the runs `N` --false-alarm covers, in [%d, %d]", drift.MinNewRuns, drift.MaxDriftRuns))
	fs.IntVar(&w.sims, "simulations", watch.DefaultSims, "the simulated sequences `N` behind each stated figure, in [100, 100000]")
	fs.Uint64Var(&w.seed, "seed", 1, "the seed `N` of the check's null and of the simulation, any whole number from 0 to 2^64-1")
	fs.BoolVar(&w.replay, "replay", false, "print the action on each push of the runs as if watched from the calibration on, and post nothing")
	fs.group("The issue:")
	fs.StringVar(&w.id, "id", "", "a `NAME` that tells this watch's issues from another's in the same repository (one per runner system): up to 64 letters, digits, '.', '_' or '-'")
	fs.BoolVar(&w.dryRun, "dry-run", false, "print the issue as it would be posted, and write nothing to GitHub")
	fs.StringVar(&w.bisectArgs, "bisect-args", "", "the `ARGS` of 'qoscal measure' that measure a commit in the bisect command, as a shell would read them (default: the bad run's recorded measure arguments, from its folder's qoscal.json)")
	fs.StringVar(&w.gitDir, "git", ".", "the clone `DIR` whose history counts the commits between the two runs (a range of one commit names it as the cause); none: do not count")
}

func (w *watchFlags) run(u *ui, paths []string) error {
	rf := &w.runFlags
	if w.calPath == "" {
		return usagef("--calibration FILE is required: the calibration the runs are judged against")
	}
	if w.id != "" && !commentID.MatchString(w.id) {
		return usagef("--id %s: expected up to 64 letters, digits, '.', '_' or '-'", shownValue(w.id))
	}
	if !(w.falseAlarm > 0 && w.falseAlarm <= 0.5) {
		return usagef("--false-alarm must be in (0, 0.5], got %v", w.falseAlarm)
	}
	if w.per < drift.MinNewRuns || w.per > drift.MaxDriftRuns {
		return usagef("--per must be from %d to %d runs, got %d", drift.MinNewRuns, drift.MaxDriftRuns, w.per)
	}
	if w.sims < 100 || w.sims > 100000 {
		return usagef("--simulations must be from 100 to 100000, got %d", w.sims)
	}
	if len(paths) > 0 && len(w.labels) > 0 {
		return usagef("--label selects stored runs: give PATHs or --db with --label, not both")
	}
	fc := u.newFiles()
	fc.in("the calibration file", w.calPath)
	if len(paths) > 0 {
		fc.runs(rf, paths)
	} else {
		fc.store(storePath(u, w.db))
	}
	if err := fc.check(); err != nil {
		return err
	}
	cal, dir, filter, lopt, err := readCalibrated(u, rf, &w.dirFlags, w.calPath, w.labels, paths)
	if err != nil {
		return err
	}
	runs, err := w.runs(u, cal, paths, lopt, filter)
	if err != nil {
		return err
	}
	opt := watch.Options{FalseAlarm: w.falseAlarm, PerRuns: w.per, Seed: w.seed, Sims: w.sims}
	if w.replay {
		if len(runs) == 0 {
			return errors.New("no run judged against the calibration to replay")
		}
		ids, actions, rates, err := watch.Replay(cal, runs, dir, opt)
		if err != nil {
			return err
		}
		return show(u, &present.WatchReplay{Runs: ids, Actions: actions, Rates: rates})
	}

	// The issues: read when there is a token (also with --dry-run: to
	// decide as the watch would), written only without --dry-run.
	gh := w.github(u)
	marker := watchissue.Marker(w.id, cal.SHA256)
	var found watchissue.Found
	if gh.client != nil {
		ctx, cancel := context.WithTimeout(u.ctx, watchTimeout)
		issues, err := gh.client.FindIssues(ctx, watchissue.Label, watchissue.Prefix(w.id))
		cancel()
		if err != nil {
			gh.fail(u, err)
		}
		found = watchissue.Sort(issues, marker)
	}
	current, older := found.Current, found.Older
	st := watch.State{Open: current != nil, OpenedAt: found.State.OpenedAt, Through: found.State.Through}
	var res *watch.Result
	if len(runs) > 0 {
		if res, err = watch.Decide(cal, runs, dir, st, opt); err != nil {
			return err
		}
	} else {
		res = &watch.Result{Action: watch.Quiet, Recent: math.NaN()}
		u.notef("watch: no run has been judged against %s yet", render.OneLine(w.calPath))
	}
	v := &present.Watch{Res: res, Cal: cal, CalName: w.calPath, Action: res.Action, Why: res.Why, FalseAlarm: w.falseAlarm, PerRuns: w.per,
		Links: prcomment.RunLinks(u.getenv, runs)}
	if res.Bad != nil {
		v.Bisect = w.bisect(res, runs, cal)
		v.OneCommit = w.oneCommit(u, res)
	}
	if current != nil {
		v.Issue, v.IssueURL = current.Number, current.HTMLURL
	}
	if res.Action == watch.Quiet && len(older) > 0 {
		v.Action, v.Why = watch.Close, watch.Superseded
	}
	var title, body string
	switch res.Action {
	case watch.Open:
		title, body = present.IssueTitle(res, w.id), v.IssueBody(marker, watchissue.StateLine(watchissue.State{OpenedAt: res.Runs[len(res.Runs)-1]}))
	case watch.Update:
		title, body = present.IssueTitle(res, w.id), v.IssueBody(marker, watchissue.StateLine(watchissue.State{OpenedAt: st.OpenedAt}))
	case watch.Close:
		body = v.IssueBody(marker, watchissue.StateLine(watchissue.State{OpenedAt: st.OpenedAt, Through: res.Runs[len(res.Runs)-1]}))
	}
	v.Body = body
	gh.act(u, v, title, body, current, older)
	if summary := u.summary; summary != "" {
		// Under Actions, the decision in the step summary.
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
	if !u.json && body != "" && (w.dryRun || gh.notPosted) {
		// What would be posted: in Markdown as it is; in text indented,
		// so that its code fence cannot close a fence it is shown in.
		// Each line neutralised as the renderers neutralise theirs: a
		// run id in it cannot make a line of the log a workflow command.
		if u.markdown {
			fmt.Fprintf(u.stdout, "\n---\n\n")
			for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
				fmt.Fprintln(u.stdout, render.Neutralise(l))
			}
		} else {
			fmt.Fprintf(u.stdout, "\nThe issue as it would be posted (%s):\n\n", render.OneLine(gh.target(current)))
			if title != "" {
				fmt.Fprintf(u.stdout, "    title: %s\n\n", title)
			}
			for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
				if l == "" {
					fmt.Fprintln(u.stdout)
					continue
				}
				fmt.Fprintf(u.stdout, "    %s\n", render.Neutralise(l))
			}
		}
	}
	if u.github && (res.Action == watch.Open || res.Action == watch.Update) {
		ghCommand(u.annotations(), "warning", "qoscal watch", present.FallSentence(res))
	}
	return nil
}

// runs reads the runs to watch: PATHs; the store's runs with the labels;
// or the store's runs that the ledger judged against the calibration, in
// the order stored (source.Judged).
func (w *watchFlags) runs(u *ui, cal *model.File, paths []string, lopt load.Options, filter map[string]string) ([]data.Run, error) {
	loc := storePath(u, w.db)
	if len(paths) > 0 || len(filter) > 0 {
		src := source.Source{Paths: paths, Load: lopt, Store: loc, Labels: filter}
		return src.Runs(u.ctx)
	}
	return source.Judged(u.ctx, loc, cal.SHA256, nil)
}

// runSource is the folder (or file) the run id was read from.
func runSource(runs []data.Run, id string) string {
	var src string
	for _, r := range runs {
		if r.ID == id {
			src = r.Source
		}
	}
	return src
}

// bisect is the command that bisects the range (measure.BisectCommand)
// with the job's own measure arguments: --bisect-args, else the bad run's
// recorded ones.
func (w *watchFlags) bisect(res *watch.Result, runs []data.Run, cal *model.File) string {
	args := w.bisectArgs
	if args == "" {
		args = measure.RecordedArgs(runSource(runs, res.Bad.Run))
	}
	if args == "" {
		args = "--variant " + measure.ShellQuote(cal.Baseline+"=COMMAND") + " --variant " + measure.ShellQuote(cal.Candidate+"=COMMAND")
	}
	var good string
	if res.Good != nil {
		good = res.Good.Commit
	}
	return measure.BisectCommand(good, res.Bad.Commit, w.calPath, args)
}

// oneCommit asks git (in --git) whether one commit leads from the good
// run's commit to the bad one's: that commit is the cause.
func (w *watchFlags) oneCommit(u *ui, res *watch.Result) bool {
	return w.gitDir != "none" && res.Good != nil && res.Bad != nil && measure.OneCommit(u.ctx, w.gitDir, res.Good.Commit, res.Bad.Commit)
}

// watchGitHub is the watch's link to GitHub: a client when there is a
// token and a repository, and what became of the writes.
type watchGitHub struct {
	client    *github.Client
	token     string
	dryRun    bool
	notPosted bool
	why       string
}

// github makes the client from the environment, as comment does.
func (w *watchFlags) github(u *ui) *watchGitHub {
	g := &watchGitHub{dryRun: w.dryRun, token: strings.TrimSpace(u.getenv("GITHUB_TOKEN"))}
	repo := u.getenv("GITHUB_REPOSITORY")
	switch {
	case g.token == "":
		g.why = "GITHUB_TOKEN is not set"
	case repo == "":
		g.why = "GITHUB_REPOSITORY is not set"
	default:
		c, err := github.NewClient(u.getenv("GITHUB_API_URL"), repo, g.token, &http.Client{Timeout: watchTimeout})
		if err != nil {
			g.why = scrubToken(g.token, err.Error())
			break
		}
		c.UserAgent = "github.com/qoscal/qoscal/" + version
		g.client = c
	}
	return g
}

// fail notes an error of the API: nothing more is written.
func (g *watchGitHub) fail(u *ui, err error) {
	g.client = nil
	g.notPosted = true
	msg := render.OneLine(scrubToken(g.token, err.Error()))
	var se *github.StatusError
	if errors.As(err, &se) && se.Status == http.StatusForbidden {
		g.why = "the token may not write issues (403: a fork's or a read-only token; the workflow needs 'permissions: issues: write'): " + msg
		u.notef("watch: not posted: %s", g.why)
		return
	}
	g.why = msg
	u.warnAbout("issue not posted", "issue not posted: "+msg)
}

// target names the issue a body goes to.
func (g *watchGitHub) target(current *github.Issue) string {
	if current != nil {
		return fmt.Sprintf("issue #%d", current.Number)
	}
	return "a new issue"
}

// act writes the decision to GitHub: the issue opened, edited or closed
// (with a comment saying why), and the issues of older calibrations
// closed as superseded.
func (g *watchGitHub) act(u *ui, v *present.Watch, title, body string, current *github.Issue, older []github.Issue) {
	if v.Body == "" && len(older) == 0 {
		return
	}
	switch {
	case g.dryRun:
		v.Posted = "dry run: not posted"
		return
	case g.client == nil:
		if !g.notPosted {
			g.notPosted = true
			u.notef("watch: not posted: %s", g.why)
		}
		v.Posted = "not posted: " + g.why
		return
	}
	ctx, cancel := context.WithTimeout(u.ctx, watchTimeout)
	defer cancel()
	note := func(why string) func() string {
		return func() string { return "Closed by qoscal watch: " + render.MDEscape(v.CloseSentenceFor(why)) + "." }
	}
	out, err := watchissue.Apply(ctx, g.client, watchissue.Plan{Action: v.Res.Action, Title: title, Body: body, Current: current, Older: older,
		CloseNote: note(v.Why), SupersededNote: note(watch.Superseded)})
	v.Superseded, v.Posted = out.Superseded, out.Posted
	if out.Issue != 0 {
		v.Issue = out.Issue
	}
	if out.URL != "" {
		v.IssueURL = out.URL
	}
	if err != nil {
		g.fail(u, err)
		v.Posted = "not posted: " + g.why
	}
	v.IssueURL = render.OneLine(scrubToken(g.token, v.IssueURL))
}
