package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/internal/ci"
	"github.com/qoscal/qoscal/internal/github"
	"github.com/qoscal/qoscal/internal/prcomment"
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
	fs.IntVar(&c.pr, "pr", 0, fmt.Sprintf("the pull request's number `N`, in [0, %d] (default 0: the event's, from $GITHUB_EVENT_PATH)", prcomment.MaxPR))
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
	if c.pr < 0 || c.pr > prcomment.MaxPR {
		return usagef("--pr must be in [0, %d] (0: the event's pull request), got %d", prcomment.MaxPR, c.pr)
	}
	if c.when != "always" && c.when != "writable" {
		return usagef("--when must be always or writable, got %q", c.when)
	}
	md, more, err := c.readBody(u)
	if err != nil {
		return err
	}
	marker := prcomment.Marker(c.id)
	body, cut := prcomment.Compose(marker, md, more, prcomment.RunFooter(u.getenv, c.id), github.MaxBody)
	if cut > 0 {
		u.notef("comment: the text was cut to GitHub's limit of %d characters (%s left out)", github.MaxBody, prcomment.LinesLeft(cut, more))
	}
	if c.dryRun {
		_, err := io.WriteString(u.stdout, body)
		return err
	}
	t, skip := prcomment.FindTarget(u.getenv, c.pr, c.when == "writable")
	token := strings.TrimSpace(u.getenv("GITHUB_TOKEN"))
	if skip != "" {
		u.notef("comment: not posted: %s", skip)
		return nil
	}
	if t.Problem != "" {
		u.notPosted(token, t.Problem, t.Hint)
		return nil
	}
	if token == "" {
		u.notPosted("", "GITHUB_TOKEN is not set", "give the step the job's token: env: GITHUB_TOKEN: ${{ github.token }} (the action passes its token input)")
		return nil
	}
	client, err := github.NewClient(u.getenv("GITHUB_API_URL"), t.Repo, token, &http.Client{Timeout: commentTimeout})
	if err != nil {
		u.notPosted(token, err.Error(), "")
		return nil
	}
	client.UserAgent = "github.com/qoscal/qoscal/" + version
	ctx, cancel := context.WithTimeout(u.ctx, commentTimeout)
	defer cancel()
	res, err := client.Upsert(ctx, t.PR, marker, body)
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
		where = fmt.Sprintf("%s#%d", t.Repo, t.PR)
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
		u.annotate(ci.Annotation{Kind: "warning", Title: u.title("not posted"), Msg: msg})
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
func apiHint(err error, t prcomment.Target) string {
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
		return fmt.Sprintf("no pull request %d in %s, or the token cannot see the repository", t.PR, t.Repo)
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
			return "", false, fmt.Errorf("--body %s: %v", c.body, prcomment.PathErr(err))
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxBodyRead+1))
	if err != nil {
		return "", false, fmt.Errorf("--body %s: %v", name, prcomment.PathErr(err))
	}
	if len(b) > maxBodyRead {
		b, more = b[:maxBodyRead], true
	}
	md = prcomment.DecodeText(b)
	if strings.TrimSpace(md) == "" {
		return "", false, fmt.Errorf("--body %s is empty: nothing to post (did the gate stop before it printed its Markdown?)", name)
	}
	return md, more, nil
}
