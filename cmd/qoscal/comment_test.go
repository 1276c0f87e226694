package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/qoscal/qoscal/internal/github"
)

// fakeGitHub plays GitHub's issue-comments API for one repository, as
// much as 'qoscal comment' uses: comments listed 100 a page (oldest first,
// with GitHub's Link header), created, edited; 401 for another token,
// 403 on writes with a read-only token (as a fork's pull request has),
// its message echoing the Authorization header, so that a token that
// reaches an output is seen.
type fakeGitHub struct {
	mu    sync.Mutex
	repo  string
	token string
	// readOnly makes every write a 403.
	readOnly bool
	// htmlURL, when not "", is the html_url of every comment written
	// (as a hostile server might answer).
	htmlURL string
	// locked are the comments whose edit is a 403: another's, which
	// the job's token may not edit.
	locked map[int64]bool
	// comments are the comments of each pull request, oldest first; a
	// number that is not a key is no pull request (404).
	comments map[int][]github.Comment
	nextID   int64
	// requests are the requests served, "METHOD /path?query".
	requests []string
	// issues are the repository's issues, oldest first (watch_test.go).
	issues []fakeIssue
	srv    *httptest.Server
}

func newFakeGitHub(t *testing.T) *fakeGitHub {
	g := &fakeGitHub{repo: "octo/hoard", token: "ghs_fakeTOKEN_0123456789abcdef", comments: map[int][]github.Comment{}, nextID: 1000}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

// add opens pull request pr, if it is not, and gives it n comments by
// others.
func (g *fakeGitHub) add(pr, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.comments[pr] == nil {
		g.comments[pr] = []github.Comment{}
	}
	for range n {
		g.nextID++
		g.comments[pr] = append(g.comments[pr], github.Comment{ID: g.nextID, Body: fmt.Sprintf("LGTM %d", g.nextID)})
	}
}

// writes counts the requests that changed a comment.
func (g *fakeGitHub) writes(method string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, r := range g.requests {
		if strings.HasPrefix(r, method+" ") {
			n++
		}
	}
	return n
}

func (g *fakeGitHub) reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

var (
	listPath = regexp.MustCompile(`^/repos/([^/]+/[^/]+)/issues/(\d+)/comments$`)
	editPath = regexp.MustCompile(`^/repos/([^/]+/[^/]+)/issues/comments/(\d+)$`)
)

func (g *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.requests = append(g.requests, r.Method+" "+r.URL.RequestURI())
	if r.Header.Get("Authorization") != "Bearer "+g.token {
		g.reply(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials"})
		return
	}
	if r.Header.Get("User-Agent") == "" || r.Header.Get("Accept") != "application/vnd.github+json" {
		g.reply(w, http.StatusForbidden, map[string]string{"message": "Request forbidden by administrative rules. Please make sure your request has a User-Agent header"})
		return
	}
	var body fakeRequest
	if r.Method != http.MethodGet {
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			g.reply(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
			return
		}
		if g.readOnly {
			g.reply(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration (" + r.Header.Get("Authorization") + ")"})
			return
		}
		if utf8.RuneCountInString(body.Body) > github.MaxBody {
			g.reply(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed", "errors": []map[string]string{{"message": "Body is too long (maximum is 65536 characters)"}}})
			return
		}
	}
	if m := listPath.FindStringSubmatch(r.URL.Path); m != nil && m[1] == g.repo {
		var pr int
		fmt.Sscan(m[2], &pr)
		if _, open := g.comments[pr]; !open {
			g.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		switch r.Method {
		case http.MethodGet:
			per, page := 30, 1
			fmt.Sscan(r.URL.Query().Get("per_page"), &per)
			fmt.Sscan(r.URL.Query().Get("page"), &page)
			all := g.comments[pr]
			from, to := min((page-1)*per, len(all)), min(page*per, len(all))
			last := max(1, (len(all)+per-1)/per)
			if page < last {
				link := func(p int) string {
					return fmt.Sprintf("<%s%s?per_page=%d&page=%d>", g.srv.URL, r.URL.Path, per, p)
				}
				w.Header().Set("Link", link(page+1)+`; rel="next", `+link(last)+`; rel="last"`)
			}
			g.reply(w, http.StatusOK, all[from:to])
		case http.MethodPost:
			g.nextID++
			// A job's token comments as the github-actions app.
			c := github.Comment{ID: g.nextID, Body: body.Body, HTMLURL: fmt.Sprintf("https://github.com/%s/pull/%d#issuecomment-%d", g.repo, pr, g.nextID), User: &github.User{Login: "github-actions[bot]", Type: "Bot"}}
			g.comments[pr] = append(g.comments[pr], c)
			if g.htmlURL != "" {
				c.HTMLURL = g.htmlURL
			}
			g.reply(w, http.StatusCreated, c)
		default:
			g.reply(w, http.StatusMethodNotAllowed, map[string]string{"message": "Not allowed"})
		}
		return
	}
	if m := editPath.FindStringSubmatch(r.URL.Path); m != nil && m[1] == g.repo && r.Method == http.MethodPatch {
		var id int64
		fmt.Sscan(m[2], &id)
		if g.locked[id] {
			g.reply(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
			return
		}
		for pr, cs := range g.comments {
			for i := range cs {
				if cs[i].ID == id {
					cs[i].Body = body.Body
					cs[i].HTMLURL = fmt.Sprintf("https://github.com/%s/pull/%d#issuecomment-%d", g.repo, pr, id)
					g.reply(w, http.StatusOK, cs[i])
					return
				}
			}
		}
	}
	if g.serveIssues(w, r, body) {
		return
	}
	g.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
}

// ours returns the comments of pr that carry marker as their first line.
func (g *fakeGitHub) ours(pr int, marker string) []github.Comment {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []github.Comment
	for _, c := range g.comments[pr] {
		if strings.HasPrefix(c.Body, marker+"\n") {
			out = append(out, c)
		}
	}
	return out
}

// prEventFile writes an event payload of a pull request from head into
// base, number pr, as GitHub writes it at GITHUB_EVENT_PATH (trimmed).
func prEventFile(t *testing.T, pr int, head, base, user string) string {
	t.Helper()
	ev := map[string]any{
		"action": "synchronize",
		"number": pr,
		"pull_request": map[string]any{
			"number": pr,
			"user":   map[string]any{"login": user},
			"head":   map[string]any{"ref": "feature", "repo": map[string]any{"full_name": head}},
			"base":   map[string]any{"ref": "main", "repo": map[string]any{"full_name": base}},
		},
	}
	return writeJSONFile(t, ev)
}

func writeJSONFile(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// githubEnv sets the environment of a GitHub Actions job of a
// pull_request event against g, with every variable the command reads
// set (so that none leaks in from the machine's own CI).
func (g *fakeGitHub) env(t *testing.T, event, eventPath string) {
	for k, v := range map[string]string{
		"GITHUB_ACTIONS":      "",
		"GITHUB_STEP_SUMMARY": "",
		"GITHUB_OUTPUT":       "",
		"GITHUB_API_URL":      g.srv.URL,
		"GITHUB_SERVER_URL":   "https://github.com",
		"GITHUB_REPOSITORY":   g.repo,
		"GITHUB_EVENT_NAME":   event,
		"GITHUB_EVENT_PATH":   eventPath,
		"GITHUB_TOKEN":        g.token,
		"GITHUB_ACTOR":        "someone",
		"GITHUB_RUN_ID":       "",
		"GITHUB_RUN_ATTEMPT":  "",
		"GITHUB_JOB":          "",
	} {
		t.Setenv(k, v)
	}
}

// runComment runs qoscal with args and stdin, and fails the test if the
// token is in anything it printed.
func (g *fakeGitHub) run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	if strings.Contains(out.String()+errb.String(), g.token) {
		t.Errorf("qoscal %s printed the token:\n%s%s", strings.Join(args, " "), out.String(), errb.String())
	}
	return code, out.String(), errb.String()
}

func writeBody(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gate.md")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCommentCreatedThenEdited: the first run posts one comment, with the
// marker as its first line, on a pull request that already has 120
// comments (so the listing reads two pages); the second run finds it on
// the second page and edits it, posting nothing; the third, with the same
// text, changes nothing.
func TestCommentCreatedThenEdited(t *testing.T) {
	g := newFakeGitHub(t)
	g.add(7, 120)
	g.env(t, "pull_request", prEventFile(t, 7, g.repo, g.repo, "someone"))
	first := writeBody(t, "### qoscal gate: PASS\n\nPASS: hoard is 1.55x system (geomean), >= 1.25x floor.\n")

	code, stdout, stderr := g.run(t, "", "comment", "--body", first)
	if code != 0 || stderr != "" {
		t.Fatalf("first run: exit %d, stderr:\n%s", code, stderr)
	}
	ours := g.ours(7, "<!-- qoscal-gate -->")
	if len(ours) != 1 || g.writes("POST") != 1 || g.writes("PATCH") != 0 {
		t.Fatalf("after the first run: %d comments with the marker, %d POST, %d PATCH; want 1, 1, 0", len(ours), g.writes("POST"), g.writes("PATCH"))
	}
	if want := "<!-- qoscal-gate -->\n### qoscal gate: PASS\n\nPASS: hoard is 1.55x system (geomean), >= 1.25x floor.\n"; ours[0].Body != want {
		t.Errorf("the comment:\n%q\nwant:\n%q", ours[0].Body, want)
	}
	if want := fmt.Sprintf("comment: created https://github.com/octo/hoard/pull/7#issuecomment-%d\n", ours[0].ID); stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}

	g.requests = nil
	second := writeBody(t, "### qoscal gate: FAIL\n\nFAIL: hoard is 1.10x system (geomean), below the 1.25x floor.\n")
	code, stdout, stderr = g.run(t, "", "comment", "--body", second)
	if code != 0 || stderr != "" {
		t.Fatalf("second run: exit %d, stderr:\n%s", code, stderr)
	}
	again := g.ours(7, "<!-- qoscal-gate -->")
	if len(again) != 1 || again[0].ID != ours[0].ID || !strings.Contains(again[0].Body, "FAIL: hoard is 1.10x") {
		t.Fatalf("after the second run: comments with the marker %+v; want comment %d edited", again, ours[0].ID)
	}
	wantReqs := []string{
		"GET /repos/octo/hoard/issues/7/comments?per_page=100",
		"GET /repos/octo/hoard/issues/7/comments?per_page=100&page=2",
		fmt.Sprintf("PATCH /repos/octo/hoard/issues/comments/%d", ours[0].ID),
	}
	if got := strings.Join(g.requests, "\n"); got != strings.Join(wantReqs, "\n") {
		t.Errorf("second run's requests:\n%s\nwant:\n%s", got, strings.Join(wantReqs, "\n"))
	}
	if len(g.comments[7]) != 121 {
		t.Errorf("%d comments on the pull request, want the 120 and ours", len(g.comments[7]))
	}
	if !strings.HasPrefix(stdout, "comment: updated ") {
		t.Errorf("stdout %q, want comment: updated ...", stdout)
	}

	g.requests = nil
	code, stdout, _ = g.run(t, "", "comment", "--body", second)
	if code != 0 || g.writes("PATCH")+g.writes("POST") != 0 || !strings.HasPrefix(stdout, "comment: unchanged ") {
		t.Errorf("third run, same text: exit %d, stdout %q, requests %q; want no write", code, stdout, g.requests)
	}
}

// TestCommentReadOnly: a read-only token (a fork's pull request) gets a
// 403: nothing is posted, and comment warns and exits 0, as an annotation
// under Actions, with the server's message but not the token it echoed.
func TestCommentReadOnly(t *testing.T) {
	for _, actions := range []bool{false, true} {
		t.Run(fmt.Sprintf("GITHUB_ACTIONS=%v", actions), func(t *testing.T) {
			g := newFakeGitHub(t)
			g.readOnly = true
			g.add(7, 3)
			g.env(t, "pull_request", prEventFile(t, 7, "fork/hoard", g.repo, "someone"))
			if actions {
				t.Setenv("GITHUB_ACTIONS", "true")
			}
			code, stdout, stderr := g.run(t, "", "comment", "--body", writeBody(t, "### qoscal gate: PASS\n"))
			// Under Actions the warning is an annotation, which qoscal
			// writes on stdout (tui.go); else a line on stderr.
			got := stderr
			if actions {
				got, stdout = stdout, stderr
			}
			if code != 0 || stdout != "" {
				t.Errorf("exit %d, and %q; want 0 and nothing but the warning", code, stdout)
			}
			if len(g.comments[7]) != 3 || g.writes("POST") != 1 {
				t.Errorf("%d comments, %d POSTs: want the 3 there were and the one refused", len(g.comments[7]), g.writes("POST"))
			}
			want := "comment not posted: POST /repos/octo/hoard/issues/7/comments: 403 Forbidden: Resource not accessible by integration (Bearer ***)"
			if actions {
				want = "::warning title=qoscal comment%3A not posted::" + want + "%0Ahint: a pull request from a fork gets a read-only token"
			} else {
				want = "qoscal: warning: " + want + "\nqoscal: hint: a pull request from a fork gets a read-only token"
			}
			if !strings.HasPrefix(got, want) {
				t.Errorf("the warning:\n%s\nwant it to start:\n%s", got, want)
			}
		})
	}
}

// TestCommentWhenWritable: with --when writable, a fork's pull request,
// Dependabot's and a push are left alone without a request or a warning;
// a pull request from a branch of the repository is commented on.
func TestCommentWhenWritable(t *testing.T) {
	cases := []struct {
		reason, event string
		head, user    string
		actor         string
		posted        bool
		note          string
	}{
		{"a branch of the repository", "pull_request", "octo/hoard", "someone", "someone", true, ""},
		{"a fork", "pull_request", "fork/hoard", "someone", "someone", false, "qoscal: comment: not posted: a pull request from a fork gets a read-only token\n"},
		{"a fork's name in other capitals is the same repository", "pull_request", "Octo/Hoard", "someone", "someone", true, ""},
		{"Dependabot", "pull_request", "octo/hoard", "dependabot[bot]", "dependabot[bot]", false, "qoscal: comment: not posted: a pull request from Dependabot gets a read-only token\n"},
		{"pull_request_target has the base's token", "pull_request_target", "fork/hoard", "someone", "someone", true, ""},
		{"a push", "push", "", "", "someone", false, "qoscal: comment: not posted: the event push is not about a pull request\n"},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			g := newFakeGitHub(t)
			g.add(7, 0)
			ev := writeJSONFile(t, map[string]any{"ref": "refs/heads/main"})
			if c.head != "" {
				ev = prEventFile(t, 7, c.head, g.repo, c.user)
			}
			g.env(t, c.event, ev)
			t.Setenv("GITHUB_ACTIONS", "true")
			t.Setenv("GITHUB_ACTOR", c.actor)
			code, _, stderr := g.run(t, "", "comment", "--body", writeBody(t, "### qoscal gate: PASS\n"), "--when", "writable")
			if code != 0 || stderr != c.note {
				t.Errorf("exit %d, stderr %q; want 0, %q", code, stderr, c.note)
			}
			if posted := len(g.ours(7, "<!-- qoscal-gate -->")) == 1; posted != c.posted {
				t.Errorf("posted %v, want %v (requests %q)", posted, c.posted, g.requests)
			}
			if !c.posted && len(g.requests) != 0 {
				t.Errorf("requests %q: want none", g.requests)
			}
		})
	}
}

// TestCommentTwoGates: two gates with their --id keep a comment each, and
// an issue_comment event on a pull request finds it by issue.number; --pr
// wins over the event's number.
func TestCommentTwoGates(t *testing.T) {
	g := newFakeGitHub(t)
	g.add(9, 0)
	g.add(12, 0)
	g.env(t, "issue_comment", writeJSONFile(t, map[string]any{"issue": map[string]any{"number": 9, "pull_request": map[string]any{"url": "x"}}}))
	for _, run := range []string{"first", "second"} {
		for _, id := range []string{"linux", "windows"} {
			if code, _, stderr := g.run(t, "", "comment", "--body", writeBody(t, id+" "+run+"\n"), "--id", id); code != 0 || stderr != "" {
				t.Fatalf("--id %s, %s run: exit %d, %s", id, run, code, stderr)
			}
		}
	}
	for _, id := range []string{"linux", "windows"} {
		got := g.ours(9, "<!-- qoscal-gate:"+id+" -->")
		if len(got) != 1 || !strings.HasSuffix(got[0].Body, id+" second\n") {
			t.Errorf("--id %s: comments %+v, want one, of the second run", id, got)
		}
	}
	if n := len(g.comments[9]); n != 2 {
		t.Errorf("%d comments, want 2", n)
	}
	if code, _, stderr := g.run(t, "### qoscal gate: PASS\n", "comment", "--body", "-", "--pr", "12"); code != 0 || stderr != "" || len(g.ours(12, "<!-- qoscal-gate -->")) != 1 {
		t.Errorf("--pr 12 --body -: exit %d, %s, comments on 12: %+v", code, stderr, g.comments[12])
	}
}

// TestCommentNotPosted: what stops a comment is a warning and exit 0,
// never the gate's failure: no token, no repository, no pull request,
// a refused token, a server that is not there.
func TestCommentNotPosted(t *testing.T) {
	g := newFakeGitHub(t)
	g.add(7, 0)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	// away redirects every request to g, another origin (port): g would
	// take the token, so it must not be sent there.
	away := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, g.srv.URL+"/redirected"+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	defer away.Close()
	cases := []struct {
		reason string
		env    map[string]string
		args   []string
		want   string
	}{
		{"no token", map[string]string{"GITHUB_TOKEN": ""}, nil,
			"qoscal: warning: comment not posted: GITHUB_TOKEN is not set\nqoscal: hint: give the step the job's token: env: GITHUB_TOKEN: ${{ github.token }} (the action passes its token input)\n"},
		{"no repository", map[string]string{"GITHUB_REPOSITORY": ""}, nil,
			"qoscal: warning: comment not posted: GITHUB_REPOSITORY is not set\nqoscal: hint: it is OWNER/NAME under GitHub Actions; elsewhere set it, with GITHUB_TOKEN, and give --pr N\n"},
		{"a push has no pull request", map[string]string{"GITHUB_EVENT_NAME": "push"}, nil,
			"qoscal: warning: comment not posted: no pull request to comment on: the push event is about no pull request\nqoscal: hint: give --pr N, or run comment in a job of a pull_request event\n"},
		{"a refused token", map[string]string{"GITHUB_TOKEN": "ghs_other"}, nil,
			"qoscal: warning: comment not posted: GET /repos/octo/hoard/issues/7/comments?per_page=100: 401 Unauthorized: Bad credentials\nqoscal: hint: the token was refused: give the step the job's token (GITHUB_TOKEN: ${{ github.token }}) or a token of the repository\n"},
		{"no such pull request", nil, []string{"--pr", "404"},
			"qoscal: warning: comment not posted: GET /repos/octo/hoard/issues/404/comments?per_page=100: 404 Not Found: Not Found\nqoscal: hint: no pull request 404 in octo/hoard, or the token cannot see the repository\n"},
		{"a server that is not there", map[string]string{"GITHUB_API_URL": gone.URL}, nil,
			"qoscal: warning: comment not posted: Get \"" + gone.URL + "/repos/octo/hoard/issues/7/comments?per_page=100\": dial tcp "},
		{"a redirect to another origin", map[string]string{"GITHUB_API_URL": away.URL}, nil,
			"qoscal: warning: comment not posted: GET /repos/octo/hoard/issues/7/comments?per_page=100: redirected to " + g.srv.URL + "/redirected/repos/octo/hoard/issues/7/comments?per_page=100, another origin than the API's " + away.URL + ": not followed with the token\n"},
		{"plain http to another machine", map[string]string{"GITHUB_API_URL": "http://ghe.example/api/v3"}, nil,
			"qoscal: warning: comment not posted: the API URL http://ghe.example/api/v3 is plain http to another machine: the token is sent only over https (or to this machine)\n"},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			g.env(t, "pull_request", prEventFile(t, 7, g.repo, g.repo, "someone"))
			if c.reason == "a push has no pull request" {
				t.Setenv("GITHUB_EVENT_PATH", writeJSONFile(t, map[string]any{"ref": "refs/heads/main"}))
			}
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			args := append([]string{"comment", "--body", writeBody(t, "### qoscal gate: PASS\n")}, c.args...)
			code, stdout, stderr := g.run(t, "", args...)
			if code != 0 || stdout != "" || !strings.HasPrefix(stderr, c.want) {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 0, no stdout, stderr starting:\n%s", code, stdout, stderr, c.want)
			}
		})
	}
	if n := len(g.comments[7]); n != 0 {
		t.Errorf("%d comments posted, want none", n)
	}
	for _, r := range g.requests {
		if strings.Contains(r, "/redirected/") {
			t.Errorf("a redirect reached another origin: %s", r)
		}
	}
}

// TestComposeComment: the comment is the marker's line, then the text;
// a text over the limit keeps the whole lines that fit, closes a code
// block it cut, and says how many lines it left out, within the limit.
func TestComposeComment(t *testing.T) {
	const marker = "<!-- qoscal-gate -->"
	if got, cut := composeComment(marker, "a\r\nb\n\n\n", false, "", 100); got != marker+"\na\nb\n" || cut != 0 {
		t.Errorf("a short text: %q, cut %d", got, cut)
	}
	if got, _ := composeComment(marker, "a\n", false, "<sub>run</sub>", 100); got != marker+"\na\n\n<sub>run</sub>\n" {
		t.Errorf("with a footer: %q", got)
	}
	var md strings.Builder
	md.WriteString("### qoscal gate: FAIL\n\n```mermaid\n")
	for i := range 8000 {
		fmt.Fprintf(&md, "bar %d é\n", i)
	}
	md.WriteString("```\n\nthe end\n")
	got, cut := composeComment(marker, md.String(), false, "<sub>run</sub>", github.MaxBody)
	if n := utf8.RuneCountInString(got); n > github.MaxBody || n < github.MaxBody-200 {
		t.Errorf("a long text is cut to %d characters, want at most %d and close to it", n, github.MaxBody)
	}
	if !strings.HasPrefix(got, marker+"\n### qoscal gate: FAIL\n") || !strings.HasSuffix(got, fmt.Sprintf("\n```\n\n*Cut to fit GitHub's limit of 65536 characters for a comment: %d more lines of the gate's summary left out.*\n\n<sub>run</sub>\n", cut)) {
		t.Errorf("the cut text's start or end is wrong:\n%s\n...\n%s", got[:80], got[len(got)-300:])
	}
	if lines := strings.Count(md.String(), "\n"); cut < 100 || cut > lines {
		t.Errorf("%d lines left out of %d", cut, lines)
	}
	// A file cut short of its end: its last (partial) line is left out.
	if got, cut := composeComment(marker, "a\nb\npartial li", true, "", 1000); cut != 1 || !strings.Contains(got, "\nb\n\n*Cut to fit GitHub's limit of 1000 characters for a comment: 1 or more lines of the gate's summary left out.*\n") {
		t.Errorf("a body read in part: cut %d, %q", cut, got)
	}
}

// TestCommentBodyDecoded: a body PowerShell wrote (UTF-16 with its mark)
// and one with a UTF-8 mark are posted as their text; --dry-run prints
// the comment and posts nothing, without a token.
func TestCommentBodyDecoded(t *testing.T) {
	g := newFakeGitHub(t)
	g.env(t, "pull_request", prEventFile(t, 7, g.repo, g.repo, "someone"))
	t.Setenv("GITHUB_TOKEN", "")
	text := "### qoscal gate: PASS — 1.55x\n"
	le := []byte{0xFF, 0xFE}
	for _, r := range text {
		le = append(le, byte(r), byte(r>>8))
	}
	for name, b := range map[string][]byte{"utf-16le": le, "utf-8 with BOM": append([]byte("\xEF\xBB\xBF"), text...)} {
		p := filepath.Join(t.TempDir(), "gate.md")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := g.run(t, "", "comment", "--body", p, "--dry-run")
		if code != 0 || stdout != "<!-- qoscal-gate -->\n"+text || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, code, stdout, stderr)
		}
	}
	if len(g.requests) != 0 {
		t.Errorf("--dry-run made requests: %q", g.requests)
	}
}

// TestCommentFooter: under Actions the comment ends with the run that
// wrote it, linked; a variable that does not look as the runner sets it
// leaves the footer out rather than put it in the Markdown.
func TestCommentFooter(t *testing.T) {
	env := map[string]string{"GITHUB_REPOSITORY": "octo/hoard", "GITHUB_RUN_ID": "987654321", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_JOB": "bench"}
	get := func(k string) string { return env[k] }
	if got, want := runFooter(get, "Windows"), "<sub>qoscal · [workflow run 987654321](https://github.com/octo/hoard/actions/runs/987654321), attempt 2, job bench, comment Windows</sub>"; got != want {
		t.Errorf("footer %q, want %q", got, want)
	}
	env["GITHUB_SERVER_URL"] = "https://x)[y](javascript:z"
	if got := runFooter(get, ""); got != "" {
		t.Errorf("a server URL with Markdown in it gives the footer %q, want none", got)
	}
	delete(env, "GITHUB_SERVER_URL")
	env["GITHUB_RUN_ID"] = ""
	if got := runFooter(get, ""); got != "" {
		t.Errorf("outside Actions the footer is %q, want none", got)
	}
}

// TestCommentLongBody: a summary far over GitHub's limit (2 MiB, more
// than comment reads) is posted cut to fit (the fake refuses a longer
// one with GitHub's 422), with the note, and said on stderr.
func TestCommentLongBody(t *testing.T) {
	g := newFakeGitHub(t)
	g.add(7, 0)
	g.env(t, "pull_request", prEventFile(t, 7, g.repo, g.repo, "someone"))
	var md strings.Builder
	md.WriteString("### qoscal gate: PASS\n\n| benchmark | ratio |\n|---|---:|\n")
	for i := 0; md.Len() < 2<<20; i++ {
		fmt.Fprintf(&md, "| bench-%06d | 1.00x |\n", i)
	}
	code, stdout, stderr := g.run(t, "", "comment", "--body", writeBody(t, md.String()))
	if code != 0 || !strings.HasPrefix(stdout, "comment: created ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if !regexp.MustCompile(`^qoscal: comment: the text was cut to GitHub's limit of 65536 characters \(\d+ or more lines left out\)\n$`).MatchString(stderr) {
		t.Errorf("stderr %q, want the note of the cut", stderr)
	}
	ours := g.ours(7, "<!-- qoscal-gate -->")
	if len(ours) != 1 || !strings.Contains(ours[0].Body, "\n| bench-000000 | 1.00x |\n") || !strings.Contains(ours[0].Body, "*Cut to fit GitHub's limit") {
		t.Errorf("the comment posted does not hold the start and the note")
	}
}

// TestCommentEventTooLarge: an event file larger than maxEventRead (a
// sparse file: no disk is spent) is refused with a warning before it is
// read whole, and the comment is not posted; one just under the cap is
// read (and, holding only zero bytes, is not JSON).
func TestCommentEventTooLarge(t *testing.T) {
	g := newFakeGitHub(t)
	g.add(7, 0)
	for _, c := range []struct {
		size int64
		want string
	}{
		{maxEventRead + 1, fmt.Sprintf(": more than %d MiB: not an event payload of GitHub's\n", maxEventRead>>20)},
		{maxEventRead, ": invalid character '\\x00' looking for beginning of value\n"},
	} {
		p := filepath.Join(t.TempDir(), "event.json")
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, c.size); err != nil {
			t.Fatal(err)
		}
		g.env(t, "pull_request", p)
		code, stdout, stderr := g.run(t, "", "comment", "--body", writeBody(t, "### qoscal gate: PASS\n"))
		want := "qoscal: warning: comment not posted: the event file $GITHUB_EVENT_PATH " + p + c.want
		if code != 0 || stdout != "" || stderr != want {
			t.Errorf("event file of %d bytes: exit %d, stdout %q, stderr:\n%s\nwant exit 0, no stdout, stderr:\n%s", c.size, code, stdout, stderr, want)
		}
	}
	if n := g.writes("POST") + g.writes("PATCH"); n != 0 {
		t.Errorf("%d comments written, want none", n)
	}
}

// TestCommentURLScrubbed: the html_url a server answers is printed
// without the token, even when the server put it there (g.run fails the
// test on any copy of the token printed).
func TestCommentURLScrubbed(t *testing.T) {
	g := newFakeGitHub(t)
	g.add(7, 0)
	g.htmlURL = "https://github.com/" + g.token
	g.env(t, "pull_request", prEventFile(t, 7, g.repo, g.repo, "someone"))
	code, stdout, stderr := g.run(t, "", "comment", "--body", writeBody(t, "### qoscal gate: PASS\n"))
	if code != 0 || stdout != "comment: created https://github.com/***\n" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 0 and comment: created https://github.com/***", code, stdout, stderr)
	}
}

// TestCommentStrangersMarker: a stranger's comment that starts with the
// marker (a forged verdict) is not taken for the gate's: the gate posts
// its own, leaves the stranger's as it was, and edits its own on the
// next run. A comment of the gate's own that the token may no longer
// edit (403) is replaced by a new one, with a warning that says so.
func TestCommentStrangersMarker(t *testing.T) {
	g := newFakeGitHub(t)
	g.add(7, 1)
	const forged = "<!-- qoscal-gate -->\n### qoscal gate: PASS (forged by a stranger)"
	g.comments[7] = append(g.comments[7], github.Comment{ID: 99, Body: forged, User: &github.User{Login: "mallory", Type: "User"}})
	g.locked = map[int64]bool{99: true}
	g.env(t, "pull_request", prEventFile(t, 7, g.repo, g.repo, "someone"))
	body := writeBody(t, "### qoscal gate: FAIL\n")
	for i, want := range []string{"created", "updated"} {
		code, stdout, stderr := g.run(t, "", "comment", "--body", body, "--pr", "7")
		if code != 0 || !strings.HasPrefix(stdout, "comment: "+want+" ") || stderr != "" {
			t.Errorf("run %d: exit %d, stdout %q, stderr %q; want exit 0, comment: %s", i+1, code, stdout, stderr, want)
		}
		body = writeBody(t, "### qoscal gate: PASS\n")
	}
	if ours := g.ours(7, "<!-- qoscal-gate -->"); len(ours) != 2 || ours[0].Body != forged || ours[1].Body != "<!-- qoscal-gate -->\n### qoscal gate: PASS\n" {
		t.Errorf("comments with the marker: %+v; want the stranger's, untouched, and the gate's of the second run", ours)
	}
	if n := g.writes("PATCH"); n != 1 {
		t.Errorf("%d edits, want 1 (the gate's own comment, on the second run)", n)
	}

	// The gate's own comment, now locked: a new one, and a warning.
	own := g.ours(7, "<!-- qoscal-gate -->")[1].ID
	g.locked[own] = true
	code, stdout, stderr := g.run(t, "", "comment", "--body", writeBody(t, "### qoscal gate: FAIL\n"), "--pr", "7")
	want := fmt.Sprintf("qoscal: warning: the earlier comment %d (by github-actions[bot]) with the marker <!-- qoscal-gate --> could not be edited (PATCH /repos/octo/hoard/issues/comments/%d: 403 Forbidden: Resource not accessible by integration): a new comment was posted\n", own, own)
	if code != 0 || !strings.HasPrefix(stdout, "comment: created ") || stderr != want {
		t.Errorf("a locked comment: exit %d, stdout %q, stderr:\n%s\nwant exit 0, comment: created, stderr:\n%s", code, stdout, stderr, want)
	}
	if n := len(g.ours(7, "<!-- qoscal-gate -->")); n != 3 {
		t.Errorf("%d comments with the marker, want 3", n)
	}
	// The next run edits the new one: no new comment on every run.
	code, stdout, stderr = g.run(t, "", "comment", "--body", writeBody(t, "### qoscal gate: PASS again\n"), "--pr", "7")
	if code != 0 || !strings.HasPrefix(stdout, "comment: updated ") || stderr != "" || len(g.ours(7, "<!-- qoscal-gate -->")) != 3 {
		t.Errorf("after the replacement: exit %d, stdout %q, stderr %q, %d comments with the marker; want the new one updated", code, stdout, stderr, len(g.ours(7, "<!-- qoscal-gate -->")))
	}
}
