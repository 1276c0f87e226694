package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/qoscal/qoscal/calibrate/watch"
	"github.com/qoscal/qoscal/internal/github"
	"github.com/rogpeppe/go-internal/testscript"
)

// fakeRequest is what fakeGitHub reads of a request's JSON body: a
// comment's body, or an issue's fields.
type fakeRequest struct {
	Body        string   `json:"body"`
	Title       string   `json:"title"`
	State       string   `json:"state"`
	StateReason string   `json:"state_reason"`
	Labels      []string `json:"labels"`
}

// fakeIssue is an issue of fakeGitHub.
type fakeIssue struct {
	github.Issue
	Labels      []string         `json:"labels_given"`
	StateReason string           `json:"state_reason"`
	Comments    []github.Comment `json:"comments"`
	Edits       int              `json:"edits"`
}

var (
	issuesPath = regexp.MustCompile(`^/repos/([^/]+/[^/]+)/issues$`)
	issuePath  = regexp.MustCompile(`^/repos/([^/]+/[^/]+)/issues/(\d+)$`)
)

// serveIssues plays GitHub's issues API, as much as 'qoscal watch' uses:
// issues listed by label (state=all, newest first, 100 a page), opened
// (by the github-actions bot, as a job's token opens them) and edited
// (title, body, state and its reason); an issue's comments are served as
// a pull request's are. It reports whether it answered.
func (g *fakeGitHub) serveIssues(w http.ResponseWriter, r *http.Request, body fakeRequest) bool {
	if m := issuesPath.FindStringSubmatch(r.URL.Path); m != nil && m[1] == g.repo {
		switch r.Method {
		case http.MethodGet:
			label := r.URL.Query().Get("labels")
			var out []github.Issue
			for i := len(g.issues) - 1; i >= 0; i-- {
				if is := g.issues[i]; label == "" || slices.Contains(is.Labels, label) {
					out = append(out, is.Issue)
				}
			}
			per, page := 30, 1
			fmt.Sscan(r.URL.Query().Get("per_page"), &per)
			fmt.Sscan(r.URL.Query().Get("page"), &page)
			from, to := min((page-1)*per, len(out)), min(page*per, len(out))
			if to < len(out) {
				w.Header().Set("Link", fmt.Sprintf(`<%s%s?labels=%s&state=all&per_page=%d&page=%d>; rel="next"`, g.srv.URL, r.URL.Path, label, per, page+1))
			}
			g.reply(w, http.StatusOK, out[from:to])
		case http.MethodPost:
			g.nextID++
			n := len(g.issues) + 1
			is := fakeIssue{Issue: github.Issue{Number: n, Title: body.Title, Body: body.Body, State: "open",
				HTMLURL: fmt.Sprintf("https://github.com/%s/issues/%d", g.repo, n), User: &github.User{Login: "github-actions[bot]", Type: "Bot"}},
				Labels: body.Labels}
			g.issues = append(g.issues, is)
			g.comments[n] = []github.Comment{}
			g.reply(w, http.StatusCreated, is.Issue)
		default:
			g.reply(w, http.StatusMethodNotAllowed, map[string]string{"message": "Not allowed"})
		}
		return true
	}
	if m := issuePath.FindStringSubmatch(r.URL.Path); m != nil && m[1] == g.repo && r.Method == http.MethodPatch {
		var n int
		fmt.Sscan(m[2], &n)
		if n < 1 || n > len(g.issues) {
			g.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return true
		}
		is := &g.issues[n-1]
		if is.User.Type != "Bot" {
			// A job's token may edit anyone's issue: the fake lets
			// it, so that a watch that did would be seen.
			is.Edits += 1000
		}
		if body.Title != "" {
			is.Title = body.Title
		}
		if body.Body != "" {
			is.Body = body.Body
		}
		if body.State != "" {
			is.State, is.StateReason = body.State, body.StateReason
		}
		is.Edits++
		g.reply(w, http.StatusOK, is.Issue)
		return true
	}
	return false
}

// fakeGitHubs are the scripts' fake APIs, by the script's work folder
// (scripts run in parallel).
var (
	fakeGitHubsMu sync.Mutex
	fakeGitHubs   = map[string]*fakeGitHub{}
)

// cmdFakeGitHub runs a fake GitHub API on 127.0.0.1 for a script:
//
//	fakegithub start               start it; sets GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_TOKEN
//	fakegithub readonly on|off     every write a 403 (a fork's token)
//	fakegithub stranger FILE CAL   a stranger opens an issue labelled qoscal-watch: the marker of calibration CAL, then FILE
//	fakegithub dump FILE           write the issues, with their comments, as JSON
//
// Every request's comments are kept with their issue; the comments of
// issue N are those GitHub would list.
func cmdFakeGitHub(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: fakegithub start|readonly on|off|stranger FILE|dump FILE")
	}
	work := ts.Getenv("WORK")
	fakeGitHubsMu.Lock()
	g := fakeGitHubs[work]
	fakeGitHubsMu.Unlock()
	if args[0] != "start" && g == nil {
		ts.Fatalf("fakegithub: not started")
	}
	switch args[0] {
	case "start":
		g = &fakeGitHub{repo: "octo/hoard", token: "ghs_fakeTOKEN_0123456789abcdef", comments: map[int][]github.Comment{}, nextID: 1000}
		g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
		fakeGitHubsMu.Lock()
		fakeGitHubs[work] = g
		fakeGitHubsMu.Unlock()
		ts.Defer(func() {
			g.srv.Close()
			fakeGitHubsMu.Lock()
			delete(fakeGitHubs, work)
			fakeGitHubsMu.Unlock()
		})
		ts.Setenv("GITHUB_API_URL", g.srv.URL)
		ts.Setenv("GITHUB_REPOSITORY", g.repo)
		ts.Setenv("GITHUB_TOKEN", g.token)
		ts.Setenv("GITHUB_SERVER_URL", "https://github.com")
	case "readonly":
		g.mu.Lock()
		g.readOnly = len(args) > 1 && args[1] == "on"
		g.mu.Unlock()
	case "stranger":
		if len(args) != 3 {
			ts.Fatalf("usage: fakegithub stranger FILE CALIBRATION")
		}
		sum := sha256.Sum256([]byte(ts.ReadFile(args[2])))
		b := "<!-- qoscal-watch calibration=" + hex.EncodeToString(sum[:]) + " -->\n" + ts.ReadFile(args[1])
		g.mu.Lock()
		n := len(g.issues) + 1
		g.issues = append(g.issues, fakeIssue{Issue: github.Issue{Number: n, Title: "a stranger's issue", Body: b, State: "open",
			HTMLURL: fmt.Sprintf("https://github.com/%s/issues/%d", g.repo, n), User: &github.User{Login: "mallory", Type: "User"}}, Labels: []string{"qoscal-watch"}})
		g.comments[n] = []github.Comment{}
		g.mu.Unlock()
	case "dump":
		g.mu.Lock()
		out := make([]fakeIssue, len(g.issues))
		copy(out, g.issues)
		for i := range out {
			out[i].Comments = g.comments[out[i].Number]
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err := enc.Encode(map[string]any{"issues": out, "requests": g.requests})
		g.mu.Unlock()
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), b.Bytes(), 0o644))
	default:
		ts.Fatalf("fakegithub: unknown %q", strings.Join(args, " "))
	}
}

// TestWatchOneCommit: git says how many commits lead from the good run's
// commit to the bad one's; one, and the bad one is the cause. Two apart,
// a commit unknown to the clone, no clone and a label that is no commit
// name are not one.
func TestWatchOneCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com",
			"GIT_AUTHOR_DATE=2026-12-01T08:00:00Z", "GIT_COMMITTER_DATE=2026-12-01T08:00:00Z", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	var commits []string
	for i := range 3 {
		git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("c", i))
		commits = append(commits, git("rev-parse", "HEAD"))
	}
	u := newUI(io.Discard, io.Discard, func(string) string { return "" })
	for _, c := range []struct {
		gitDir, good, bad string
		want              bool
	}{
		{dir, commits[1], commits[2], true},
		{dir, commits[0], commits[2], false},
		{dir, commits[0], "0123456789abcdef0123456789abcdef01234567", false},
		{t.TempDir(), commits[1], commits[2], false},
		{"none", commits[1], commits[2], false},
		{dir, "--output=/tmp/x", commits[2], false},
	} {
		res := &watch.Result{Good: &watch.Suspect{Commit: c.good}, Bad: &watch.Suspect{Commit: c.bad}}
		if got := (&watchFlags{gitDir: c.gitDir}).oneCommit(u, res); got != c.want {
			t.Errorf("git in %s, %s..%s: one commit %v, want %v", c.gitDir, c.good, c.bad, got, c.want)
		}
	}
}
