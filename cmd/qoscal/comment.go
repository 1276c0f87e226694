package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/internal/github"
	"github.com/qoscal/qoscal/render"
)

var commentCmd = &command{
	name:      "comment",
	summary:   "post or update the gate's pull-request comment",
	annotates: "warnings that the comment could not be posted",
	usage: `qoscal comment --body FILE [--id NAME] [--pr N] [--when MODE]
qoscal comment --body FILE [--id NAME] --dry-run
`,
	intro: `Posts the gate's Markdown (what 'qoscal gate --format markdown' prints, or
its step summary) as a comment on the pull request, with a hidden marker as
its first line, <!-- qoscal-gate --> (with --id NAME, <!-- qoscal-gate:NAME
-->), and on later runs edits that comment instead of adding another: a
pull request keeps one comment per gate, always the latest. Only a comment
the token wrote is edited: the latest with the marker by a bot (a job's
token writes as github-actions[bot]), else by the token's user; another's
comment that starts with the marker is left alone. One that cannot be
edited (403, 404) is replaced by a new comment, with a warning.

It calls GitHub's REST API at $GITHUB_API_URL (default
https://api.github.com) for the repository $GITHUB_REPOSITORY with the token
$GITHUB_TOKEN, on the pull request of the event at $GITHUB_EVENT_PATH
(pull_request.number, or issue.number for a comment on a pull request), as
a GitHub Actions job has them. The token is never printed, and is sent
only to the API's origin: a redirect or a next-page link to another scheme,
host or port is refused. A body longer than GitHub's limit of 65,536
characters is cut, with a note.

A comment that cannot be posted (a fork's read-only token: 403; 404; the
network; no token, repository or pull request) is a warning, and comment
exits 0: a comment never fails a gate. A usage error (no --body, a body file
that cannot be read or is empty) exits 2.
`,
	notes: `--when writable posts only where GitHub gives the job's token write access to
the pull request: a pull_request, pull_request_review or
pull_request_review_comment event from a branch of the repository itself,
unless Dependabot opened it; a pull_request_target event; an issue_comment
on a pull request. A pull request from a fork gets a read-only token, as
does one from Dependabot: there, and on events that are no pull request
(push, schedule), comment posts nothing and says so on a plain line, not a
warning. The action's comment input, auto by default, is --when writable.

The workflow needs "permissions: pull-requests: write" (and contents: read)
for the token to comment.
`,
	example: `Example: the Windows runner's gate as it would be posted, without posting:

    $ qoscal gate --floor 1.25 --baseline system=baseline.txt \
        --candidate hoard=hoard.txt --summary gate.md
    ...
    $ qoscal comment --body gate.md --dry-run
    <!-- qoscal-gate -->
    ### qoscal gate: PASS

In a workflow, after the gate (the action's comment input does this for you):

    permissions:
      contents: read
      pull-requests: write
    steps:
      - run: qoscal gate --format markdown --floor 1.25 --baseline system=b.txt --candidate hoard=h.txt > gate.md
      - if: ${{ !cancelled() }}
        env:
          GITHUB_TOKEN: ${{ github.token }}
        run: qoscal comment --body gate.md --id windows --when writable
`,
	new: func() runner { return new(commentFlags) },
}

func init() {
	register(commentCmd)
}

// commentTimeout bounds the whole exchange with the API: the listing of
// the comments, page by page, and the edit or the post.
const commentTimeout = 30 * time.Second

// maxEventRead is the largest event file (GITHUB_EVENT_PATH) comment
// reads: GitHub's webhook payloads are capped at 25 MB
// (https://docs.github.com/en/webhooks/webhook-events-and-payloads), and
// the runner's event file is one of them.
const maxEventRead = 25 << 20

// maxPR is the largest pull request number --pr takes: GitHub's issue
// numbers are 32-bit.
const maxPR = 1<<31 - 1

// commentID is what --id takes: it goes inside the HTML comment of the
// marker, so it can neither end it (-->) nor hold a blank.
var commentID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// commentFlags are the comment command's flags.
type commentFlags struct {
	body, id, when string
	pr             int
	dryRun         bool
}

func (c *commentFlags) flags(fs *flagSet) {
	fs.group("The comment:")
	fs.StringVar(&c.body, "body", "", "the Markdown `FILE` to post, - for standard input: what 'qoscal gate --format markdown' prints, or the gate's step summary (UTF-8, or UTF-16 with a byte-order mark)")
	fs.StringVar(&c.id, "id", "", "a `NAME` that tells this gate's comment from another's on the same pull request (two gates in one workflow, one per runner system): up to 64 letters, digits, '.', '_' or '-'")
	fs.BoolVar(&c.dryRun, "dry-run", false, "print the comment as it would be posted, marker included, and post nothing (needs no token)")
	fs.group("The pull request:")
	fs.IntVar(&c.pr, "pr", 0, fmt.Sprintf("the pull request's number `N`, in [0, %d] (default 0: the event's, from $GITHUB_EVENT_PATH)", maxPR))
	fs.StringVar(&c.when, "when", "always", "when to post, `MODE`: always (a comment that cannot be posted is a warning) or writable (only where the token can write: see below; elsewhere a plain note)")
}

func (c *commentFlags) run(u *ui, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q: the comment's text is given with --body FILE", args[0])
	}
	if c.body == "" {
		return usagef("--body is required: the Markdown file to post ('qoscal gate --format markdown' prints it), or - for standard input")
	}
	if c.id != "" && !commentID.MatchString(c.id) {
		return usagef("--id %s: expected up to 64 letters, digits, '.', '_' or '-'", shownValue(c.id))
	}
	if c.pr < 0 || c.pr > maxPR {
		return usagef("--pr must be in [0, %d] (0: the event's pull request), got %d", maxPR, c.pr)
	}
	if c.when != "always" && c.when != "writable" {
		return usagef("--when must be always or writable, got %q", c.when)
	}
	md, more, err := c.readBody(u)
	if err != nil {
		return err
	}
	marker := commentMarker(c.id)
	body, cut := composeComment(marker, md, more, runFooter(u.getenv, c.id), github.MaxBody)
	if cut > 0 {
		u.notef("comment: the text was cut to GitHub's limit of %d characters (%s left out)", github.MaxBody, linesLeft(cut, more))
	}
	if c.dryRun {
		_, err := io.WriteString(u.stdout, body)
		return err
	}
	t, skip := commentTarget(u.getenv, c.pr, c.when == "writable")
	token := strings.TrimSpace(u.getenv("GITHUB_TOKEN"))
	if skip != "" {
		u.notef("comment: not posted: %s", skip)
		return nil
	}
	if t.problem != "" {
		u.notPosted(token, t.problem, t.hint)
		return nil
	}
	if token == "" {
		u.notPosted("", "GITHUB_TOKEN is not set", "give the step the job's token: env: GITHUB_TOKEN: ${{ github.token }} (the action passes its token input)")
		return nil
	}
	client, err := github.NewClient(u.getenv("GITHUB_API_URL"), t.repo, token, &http.Client{Timeout: commentTimeout})
	if err != nil {
		u.notPosted(token, err.Error(), "")
		return nil
	}
	client.UserAgent = "github.com/qoscal/qoscal/" + version
	ctx, cancel := context.WithTimeout(u.ctx, commentTimeout)
	defer cancel()
	res, err := client.Upsert(ctx, t.pr, marker, body)
	if err != nil {
		u.notPosted(token, err.Error(), apiHint(err, t))
		return nil
	}
	if res.What == github.Replaced {
		by := "a deleted account"
		if res.Old.User != nil {
			by = res.Old.User.Login
		}
		u.warnAbout("comment replaced", scrubToken(token, fmt.Sprintf("the earlier comment %d (by %s) with the marker %s could not be edited (%v): a new comment was posted", res.Old.ID, by, marker, res.NotEdited)))
	}
	got := res.Comment
	where := render.OneLine(scrubToken(token, got.HTMLURL))
	if where == "" {
		where = fmt.Sprintf("%s#%d", t.repo, t.pr)
	}
	fmt.Fprintf(u.stdout, "comment: %s %s\n", res.What, where)
	return nil
}

// notPosted says that the comment was not posted, and why: a warning (an
// annotation under Actions, with the hint in it), never an error. Every
// text is scrubbed of the token, though none should hold it.
func (u *ui) notPosted(token, why, hint string) {
	scrub := func(s string) string {
		return render.OneLine(scrubToken(token, s))
	}
	msg := "comment not posted: " + scrub(why)
	if u.github {
		if hint != "" {
			msg += "\nhint: " + scrub(hint)
		}
		u.annotate(annotation{kind: "warning", title: u.title("not posted"), msg: msg})
		return
	}
	u.prefixed("warning: ", msg)
	if hint != "" {
		u.hintf("%s", scrub(hint))
	}
}

// scrubToken replaces every copy of token in s with "***" (the API
// client scrubs what it returns; this is the last check before printing).
func scrubToken(token, s string) string {
	if token == "" {
		return s
	}
	return strings.ReplaceAll(s, token, "***")
}

// apiHint is what to do about an error of the API.
func apiHint(err error, t commentTo) string {
	var se *github.StatusError
	if !errors.As(err, &se) {
		return ""
	}
	switch se.Status {
	case http.StatusUnauthorized:
		return "the token was refused: give the step the job's token (GITHUB_TOKEN: ${{ github.token }}) or a token of the repository"
	case http.StatusForbidden:
		return "a pull request from a fork gets a read-only token (the action's comment: auto skips those); otherwise the workflow needs 'permissions: pull-requests: write'"
	case http.StatusNotFound:
		return fmt.Sprintf("no pull request %d in %s, or the token cannot see the repository", t.pr, t.repo)
	}
	return ""
}

// maxBodyRead is the most of a body file read: GitHub's limit of 65,536
// characters is at most 256 KiB of UTF-8 (or UTF-16), so the rest would be
// cut anyway.
const maxBodyRead = 1 << 20

// readBody reads --body: the file, or standard input for "-", decoded
// from UTF-8 (a byte-order mark dropped) or UTF-16 with a byte-order mark
// (PowerShell 5's "> FILE" writes that). more is set when the file holds
// more than was read. A file that cannot be read, or holds nothing but
// blanks, is an error (exit 2).
func (c *commentFlags) readBody(u *ui) (md string, more bool, err error) {
	var r io.Reader
	name := c.body
	if name == "-" {
		name = "standard input"
		if u.stdin == nil {
			return "", false, usagef("--body -: there is no standard input")
		}
		r = u.stdin
	} else {
		if st, err := os.Stat(c.body); err == nil && st.IsDir() {
			return "", false, usagef("--body %s is a folder: expected the Markdown file to post", c.body)
		} else if err == nil && !st.Mode().IsRegular() {
			// A named pipe would block the step until a writer came;
			// standard input is the way to stream a body.
			return "", false, usagef("--body %s: not a regular file but %s: expected the Markdown file to post, or - for standard input", c.body, data.FileKind(st.Mode()))
		}
		f, err := os.Open(c.body)
		if err != nil {
			return "", false, fmt.Errorf("--body %s: %v", c.body, pathErr(err))
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxBodyRead+1))
	if err != nil {
		return "", false, fmt.Errorf("--body %s: %v", name, pathErr(err))
	}
	if len(b) > maxBodyRead {
		b, more = b[:maxBodyRead], true
	}
	md = decodeText(b)
	if strings.TrimSpace(md) == "" {
		return "", false, fmt.Errorf("--body %s is empty: nothing to post (did the gate stop before it printed its Markdown?)", name)
	}
	return md, more, nil
}

// pathErr is the cause of a file error without the path (the message
// names the flag and its value), in qoscal's words for the usual two.
func pathErr(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file or folder")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// decodeText decodes b: UTF-16 (LE or BE) when it starts with that
// byte-order mark, else UTF-8, its mark dropped and invalid bytes shown
// as U+FFFD. A last odd byte of UTF-16 (a file cut short) is dropped.
func decodeText(b []byte) string {
	if len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF) {
		le := b[0] == 0xFF
		b = b[2:]
		u := make([]uint16, len(b)/2)
		for i := range u {
			if le {
				u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
			} else {
				u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
			}
		}
		return string(utf16.Decode(u))
	}
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// commentMarker is the hidden first line that finds the comment again:
// an HTML comment, which GitHub does not show.
func commentMarker(id string) string {
	if id == "" {
		return "<!-- qoscal-gate -->"
	}
	return "<!-- qoscal-gate:" + id + " -->"
}

// composeComment is the comment's body: the marker's line, the Markdown
// md with its line breaks as LF, and footer (when not ""), at most limit
// characters. A longer one keeps as many whole lines of md as fit, closes
// a code block left open, and says how many lines were left out (cut);
// more says that md was itself cut short of its file, which counts as a
// line left out.
func composeComment(marker, md string, more bool, footer string, limit int) (body string, cut int) {
	md = strings.ReplaceAll(strings.ReplaceAll(md, "\r\n", "\n"), "\r", "\n")
	md = strings.TrimRight(md, "\n \t")
	tail := ""
	if footer != "" {
		tail = "\n\n" + footer
	}
	whole := marker + "\n" + md + tail + "\n"
	if !more && utf8.RuneCountInString(whole) <= limit {
		return whole, 0
	}
	lines := strings.Split(md, "\n")
	if more {
		// The last line read may be a part of a line.
		lines = lines[:len(lines)-1]
	}
	// size[k] is the length of the first k lines joined: the search
	// starts at the most lines that could fit, and builds a body only
	// for the few it tries from there (a text of 1 MiB has 100,000
	// lines).
	size := make([]int, len(lines)+1)
	for i, l := range lines {
		size[i+1] = size[i] + utf8.RuneCountInString(l) + 1
	}
	keep := len(lines)
	for keep > 0 && utf8.RuneCountInString(marker)+size[keep] > limit {
		keep--
	}
	for ; keep >= 0; keep-- {
		kept := strings.Join(lines[:keep], "\n")
		if openFence(lines[:keep]) {
			kept += "\n```"
		}
		left := len(lines) - keep
		if more {
			left++
		}
		note := fmt.Sprintf("*Cut to fit GitHub's limit of %d characters for a comment: %s of the gate's summary left out.*", limit, linesLeft(left, more))
		b := marker + "\n" + kept + "\n\n" + note + tail + "\n"
		if utf8.RuneCountInString(b) <= limit {
			return b, left
		}
	}
	// Not even the marker and the note fit: a limit this small is a bug.
	return marker + "\n", len(lines)
}

// openFence reports whether lines leave a fenced code block (```) open.
func openFence(lines []string) bool {
	open := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "```") {
			open = !open
		}
	}
	return open
}

// linesLeft says how many lines were left out: n, or "n or more" when the
// file was not read to its end.
func linesLeft(n int, more bool) string {
	switch {
	case more:
		return fmt.Sprintf("%d or more lines", n)
	case n == 1:
		return "1 more line"
	}
	return fmt.Sprintf("%d more lines", n)
}

// runFooter is the comment's last line under Actions: which workflow run
// (and attempt) and job wrote it, linked, so that a reader of a comment
// edited in place knows how fresh it is. "" outside Actions, or when a
// variable does not look as the runner sets it (nothing from the
// environment goes into the Markdown unchecked).
func runFooter(getenv func(string) string, id string) string {
	server := strings.TrimRight(getenv("GITHUB_SERVER_URL"), "/")
	if server == "" {
		server = "https://github.com"
	}
	repo, runID := getenv("GITHUB_REPOSITORY"), getenv("GITHUB_RUN_ID")
	if !safeURL.MatchString(server) || !repoPattern.MatchString(repo) || !digits.MatchString(runID) {
		return ""
	}
	s := fmt.Sprintf("<sub>qoscal · [workflow run %s](%s/%s/actions/runs/%s)", runID, server, repo, runID)
	if a := getenv("GITHUB_RUN_ATTEMPT"); digits.MatchString(a) && a != "1" {
		s += ", attempt " + a
	}
	if job := getenv("GITHUB_JOB"); safeWord.MatchString(job) {
		s += ", job " + job
	}
	if id != "" {
		s += ", comment " + id
	}
	return s + "</sub>"
}

var (
	safeURL     = regexp.MustCompile(`^https?://[A-Za-z0-9.:-]+(/[A-Za-z0-9._~/-]*)?$`)
	repoPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)
	digits      = regexp.MustCompile(`^[0-9]{1,20}$`)
	safeWord    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)
)

// commentTo is where the comment goes: the repository and the pull
// request, or the problem that leaves none (a warning, with a hint).
type commentTo struct {
	repo          string
	pr            int
	problem, hint string
}

// prEvents are the events about a pull request whose token is the head
// repository's: read-only for a fork's pull request.
var prEvents = map[string]bool{"pull_request": true, "pull_request_review": true, "pull_request_review_comment": true}

// commentTarget finds the repository and the pull request from the
// environment (GITHUB_REPOSITORY, GITHUB_EVENT_NAME, GITHUB_EVENT_PATH),
// pr when it is not 0. With writable, it also decides whether the token
// may write (see the command's notes): skip, when not "", is why
// nothing is posted, quietly.
func commentTarget(getenv func(string) string, pr int, writable bool) (t commentTo, skip string) {
	t.repo = getenv("GITHUB_REPOSITORY")
	name, path := getenv("GITHUB_EVENT_NAME"), getenv("GITHUB_EVENT_PATH")
	if writable && !prEvents[name] && name != "pull_request_target" && name != "issue_comment" {
		if name == "" {
			return t, "no GitHub Actions event (GITHUB_EVENT_NAME is not set)"
		}
		return t, fmt.Sprintf("the event %s is not about a pull request", render.OneLine(name))
	}
	if t.repo == "" {
		t.problem = "GITHUB_REPOSITORY is not set"
		t.hint = "it is OWNER/NAME under GitHub Actions; elsewhere set it, with GITHUB_TOKEN, and give --pr N"
		return t, ""
	}
	var ev prEvent
	if path != "" {
		b, err := readEvent(path)
		if err == nil {
			err = json.Unmarshal(b, &ev)
		}
		if err != nil && (pr == 0 || writable) {
			t.problem = fmt.Sprintf("the event file $GITHUB_EVENT_PATH %s: %v", render.OneLine(path), pathErr(err))
			return t, ""
		}
	}
	onPR := ev.PullRequest != nil || ev.issueOnPR()
	if writable {
		switch {
		case !onPR:
			return t, fmt.Sprintf("the %s event is not about a pull request", render.OneLine(name))
		case prEvents[name] && ev.fromFork():
			return t, "a pull request from a fork gets a read-only token"
		case prEvents[name] && (getenv("GITHUB_ACTOR") == "dependabot[bot]" || ev.PullRequest != nil && ev.PullRequest.User.Login == "dependabot[bot]"):
			return t, "a pull request from Dependabot gets a read-only token"
		}
	}
	t.pr = pr
	if t.pr == 0 {
		switch {
		case ev.PullRequest != nil && validPR(ev.PullRequest.Number):
			t.pr = ev.PullRequest.Number
		case ev.issueOnPR() && validPR(ev.Issue.Number):
			t.pr = ev.Issue.Number
		default:
			what := "no event file (GITHUB_EVENT_PATH is not set)"
			switch {
			case onPR:
				// An event file made by hand, or damaged: its pull
				// request has no number (or one that is none).
				what = fmt.Sprintf("the %s event's pull request has no number", render.OneLine(name))
			case path != "":
				what = fmt.Sprintf("the %s event is about no pull request", render.OneLine(name))
			}
			t.problem = "no pull request to comment on: " + what
			t.hint = "give --pr N, or run comment in a job of a pull_request event"
		}
	}
	return t, ""
}

// readEvent reads the event file at path: a regular file (a named pipe
// would block the step until a writer came, /dev/zero would never end)
// of at most maxEventRead bytes. The kind is checked before the file is
// opened, as opening a pipe blocks, and again on the file opened.
func readEvent(path string) ([]byte, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file but %s", data.FileKind(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file but %s", data.FileKind(st.Mode()))
	}
	b, err := io.ReadAll(io.LimitReader(f, maxEventRead+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxEventRead {
		return nil, fmt.Errorf("more than %d MiB: not an event payload of GitHub's", maxEventRead>>20)
	}
	return b, nil
}

// prEvent is what commentTarget reads of an event: the pull request (on
// pull_request events) or the issue (on issue_comment events; a pull
// request's issue has a pull_request key).
type prEvent struct {
	PullRequest *struct {
		Number int `json:"number"`
		Head   struct {
			Repo *struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"head"`
		Base struct {
			Repo *struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"base"`
		User struct {
			Login string `json:"login"`
		} `json:"user"`
	} `json:"pull_request"`
	Issue *struct {
		Number      int             `json:"number"`
		PullRequest json.RawMessage `json:"pull_request"`
	} `json:"issue"`
}

// issueOnPR reports whether the event's issue is a pull request's: it
// has a pull_request key (issue_comment events).
func (e *prEvent) issueOnPR() bool {
	return e.Issue != nil && len(e.Issue.PullRequest) > 0 && string(e.Issue.PullRequest) != "null"
}

// validPR reports whether n can be a pull request's number.
func validPR(n int) bool {
	return n > 0 && n <= maxPR
}

// fromFork reports whether the pull request's head is in another
// repository than its base (or in one since deleted): GitHub then gives a
// pull_request job a read-only token.
func (e *prEvent) fromFork() bool {
	pr := e.PullRequest
	if pr == nil {
		return false
	}
	if pr.Head.Repo == nil || pr.Base.Repo == nil {
		return true
	}
	return !strings.EqualFold(pr.Head.Repo.FullName, pr.Base.Repo.FullName)
}
