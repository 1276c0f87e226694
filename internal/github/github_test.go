package github

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

const testToken = "ghs_TESTTOKEN0123456789"

// server plays the comments API of one issue (7 of o/r): comments are
// listed 100 a page, oldest first, with GitHub's Link header.
type server struct {
	mu       sync.Mutex
	comments []Comment
	requests []string
	// status, when not 0, is the status every request gets, with the
	// token the request carried echoed in the message.
	status int
	// nextLink, when not "", replaces the next page's link.
	nextLink string
	// login, when not "", is the token's user (GET /user answers it, as
	// for a personal access token); else GET /user is a 403, as for a
	// job's token. Comments posted are by this user, or by
	// github-actions[bot].
	login string
	// locked are the comments whose edit is a 403 (another's comment).
	locked map[int64]bool
	srv    *httptest.Server
}

func newServer(t *testing.T, n int) *server {
	s := &server{}
	for i := 1; i <= n; i++ {
		s.comments = append(s.comments, Comment{ID: int64(i), Body: fmt.Sprintf("comment %d", i)})
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Method+" "+r.URL.RequestURI())
	if s.status != 0 {
		w.WriteHeader(s.status)
		json.NewEncoder(w).Encode(map[string]string{"message": "no: " + r.Header.Get("Authorization") + "\nline two"})
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+testToken || r.Header.Get("User-Agent") == "" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/v3/user":
		if s.login == "" {
			w.WriteHeader(http.StatusForbidden)
			json.NewEncoder(w).Encode(map[string]string{"message": "Resource not accessible by integration"})
			return
		}
		json.NewEncoder(w).Encode(User{Login: s.login, Type: "User"})
	case r.Method == http.MethodGet && r.URL.Path == "/api/v3/repos/o/r/issues/7/comments":
		per := 30
		fmt.Sscan(r.URL.Query().Get("per_page"), &per)
		page := 1
		fmt.Sscan(r.URL.Query().Get("page"), &page)
		from, to := min((page-1)*per, len(s.comments)), min(page*per, len(s.comments))
		if to < len(s.comments) {
			next := fmt.Sprintf("%s/api/v3/repos/o/r/issues/7/comments?per_page=%d&page=%d", s.srv.URL, per, page+1)
			if s.nextLink != "" {
				next = s.nextLink
			}
			w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next", <%s/x?page=99>; rel="last"`, next, s.srv.URL))
		}
		json.NewEncoder(w).Encode(s.comments[from:to])
	case r.Method == http.MethodPost && r.URL.Path == "/api/v3/repos/o/r/issues/7/comments":
		var in struct{ Body string }
		json.NewDecoder(r.Body).Decode(&in)
		c := Comment{ID: int64(len(s.comments) + 1), Body: in.Body, HTMLURL: "https://example.test/c", User: s.author()}
		s.comments = append(s.comments, c)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(c)
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/api/v3/repos/o/r/issues/comments/"):
		var id int64
		fmt.Sscan(strings.TrimPrefix(r.URL.Path, "/api/v3/repos/o/r/issues/comments/"), &id)
		var in struct{ Body string }
		json.NewDecoder(r.Body).Decode(&in)
		if s.locked[id] {
			w.WriteHeader(http.StatusForbidden)
			json.NewEncoder(w).Encode(map[string]string{"message": "Resource not accessible by integration"})
			return
		}
		for i := range s.comments {
			if s.comments[i].ID == id {
				s.comments[i].Body = in.Body
				json.NewEncoder(w).Encode(s.comments[i])
				return
			}
		}
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]string{"message": "Not Found"})
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// author is who the comments the client posts are by: the token's user.
func (s *server) author() *User {
	if s.login != "" {
		return &User{Login: s.login, Type: "User"}
	}
	return &User{Login: "github-actions[bot]", Type: "Bot"}
}

func (s *server) client(t *testing.T) *Client {
	t.Helper()
	c, err := NewClient(s.srv.URL+"/api/v3/", "o/r", testToken, s.srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestUpsert: a marker found on the second page is edited there (the
// listing follows the Link header and stops at the page that holds it);
// without one a comment is posted; the same body again changes nothing;
// a comment that quotes the marker below its first line is not taken.
func TestUpsert(t *testing.T) {
	const marker = "<!-- m -->"
	s := newServer(t, 150)
	s.comments[20].Body = "quoting\n" + marker
	c := s.client(t)
	ctx := context.Background()

	res, err := c.Upsert(ctx, 7, marker, marker+"\nfirst")
	if what := res.What; err != nil || what != Created {
		t.Fatalf("first Upsert: %v, %v; want created", what, err)
	}
	if n := len(s.comments); n != 151 || s.comments[150].Body != marker+"\nfirst" {
		t.Fatalf("after the first Upsert: %d comments, the last %q", n, s.comments[n-1].Body)
	}
	want := []string{
		"GET /api/v3/repos/o/r/issues/7/comments?per_page=100",
		"GET /api/v3/repos/o/r/issues/7/comments?per_page=100&page=2",
		"POST /api/v3/repos/o/r/issues/7/comments",
	}
	if got := strings.Join(s.requests, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}

	s.requests = nil
	res, err = c.Upsert(ctx, 7, marker, marker+"\nsecond")
	if err != nil || res.What != Updated || res.Comment.ID != 151 {
		t.Fatalf("second Upsert: %+v, %v; want comment 151 updated", res, err)
	}
	if n := len(s.comments); n != 151 || s.comments[150].Body != marker+"\nsecond" {
		t.Errorf("after the second Upsert: %d comments, the last %q", n, s.comments[n-1].Body)
	}
	if last := s.requests[len(s.requests)-1]; last != "PATCH /api/v3/repos/o/r/issues/comments/151" {
		t.Errorf("the last request is %q, want the PATCH of comment 151", last)
	}

	s.requests = nil
	if res, err := c.Upsert(ctx, 7, marker, marker+"\nsecond"); err != nil || res.What != Unchanged {
		t.Errorf("third Upsert, same body: %+v, %v; want unchanged", res, err)
	}
	for _, r := range s.requests {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("an unchanged comment was written: %s", r)
		}
	}
}

// TestStatusError: a 403 is a *StatusError whose message is the server's
// on one line, without the token (which the server echoed), clipped.
func TestStatusError(t *testing.T) {
	s := newServer(t, 0)
	s.status = http.StatusForbidden
	_, err := s.client(t).Upsert(context.Background(), 7, "<!-- m -->", "<!-- m -->\nx")
	var se *StatusError
	if !errors.As(err, &se) || se.Status != http.StatusForbidden {
		t.Fatalf("err = %v, want a 403 StatusError", err)
	}
	msg := err.Error()
	if strings.Contains(msg, testToken) || strings.ContainsAny(msg, "\n\r") {
		t.Errorf("the error shows the token or a line break: %q", msg)
	}
	if want := "GET /repos/o/r/issues/7/comments?per_page=100: 403 Forbidden: no: Bearer *** line two"; msg != want {
		t.Errorf("error %q, want %q", msg, want)
	}
	long := strings.Repeat("é", 3*MaxMessage)
	if m := (&Client{token: testToken}).message([]byte(`{"message":"` + long + `"}`)); utf8.RuneCountInString(m) != MaxMessage || !strings.HasSuffix(m, "…") {
		t.Errorf("a long message is kept as %d characters, want %d ending in …", utf8.RuneCountInString(m), MaxMessage)
	}
}

// TestNextLinkElsewhere: a next page on another host is not followed
// with the token.
func TestNextLinkElsewhere(t *testing.T) {
	s := newServer(t, 120)
	s.nextLink = "https://elsewhere.test/steal?page=2"
	_, err := s.client(t).FindComment(context.Background(), 7, "<!-- m -->")
	if err == nil || !strings.Contains(err.Error(), "leads away from the API") {
		t.Fatalf("err = %v, want a refusal to follow the link", err)
	}
	if len(s.requests) != 1 {
		t.Errorf("requests %q: want the first page alone", s.requests)
	}
}

// TestNextLinkLoop: pages whose next links go round are an error, not a
// loop until the deadline.
func TestNextLinkLoop(t *testing.T) {
	s := newServer(t, 120)
	s.nextLink = s.srv.URL + "/api/v3/repos/o/r/issues/7/comments?per_page=100"
	if _, err := s.client(t).FindComment(context.Background(), 7, "<!-- m -->"); err == nil || !strings.Contains(err.Error(), "circle") {
		t.Fatalf("err = %v, want the circle found", err)
	}
}

// TestUpdateGone: a comment deleted between the listing and the edit (404
// on PATCH) is posted anew (Replaced).
func TestUpdateGone(t *testing.T) {
	s := newServer(t, 0)
	c := s.client(t)
	s.comments = []Comment{{ID: 99, Body: "<!-- m -->\nold", User: s.author()}}
	srv := s.srv.Config.Handler
	s.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch {
			s.mu.Lock()
			s.comments = nil
			s.mu.Unlock()
		}
		srv.ServeHTTP(w, r)
	})
	res, err := c.Upsert(context.Background(), 7, "<!-- m -->", "<!-- m -->\nnew")
	if err != nil || res.What != Replaced || len(s.comments) != 1 || s.comments[0].Body != "<!-- m -->\nnew" {
		t.Fatalf("Upsert: %+v, %v, comments %+v; want one created in place of the one gone", res, err, s.comments)
	}
}

func TestNextLink(t *testing.T) {
	cases := []struct {
		reason string
		values []string
		want   string
	}{
		{"GitHub's form", []string{`<https://a/x?page=2>; rel="next", <https://a/x?page=5>; rel="last"`}, "https://a/x?page=2"},
		{"next after last", []string{`<https://a/x?page=5>; rel="last", <https://a/x?page=2>; rel="next"`}, "https://a/x?page=2"},
		{"the last page", []string{`<https://a/x?page=1>; rel="first", <https://a/x?page=4>; rel="prev"`}, ""},
		{"rel unquoted, in capitals", []string{`<https://a/x?page=2>; REL=NEXT`}, "https://a/x?page=2"},
		{"several relation types", []string{`<https://a/x?page=2>; rel="prev next"`}, "https://a/x?page=2"},
		{"a comma inside the URL", []string{`<https://a/x?q=a,b&page=2>; rel="next"`}, "https://a/x?q=a,b&page=2"},
		{"two header lines", []string{`<https://a/x?page=9>; rel="last"`, `<https://a/x?page=2>; rel="next"`}, "https://a/x?page=2"},
		{"no header", nil, ""},
		{"not a link", []string{`rel="next"`}, ""},
	}
	for _, c := range cases {
		if got := nextLink(c.values); got != c.want {
			t.Errorf("%s: nextLink(%q) = %q, want %q", c.reason, c.values, got, c.want)
		}
	}
}

func TestNewClient(t *testing.T) {
	cases := []struct {
		reason, api, repo, token, err string
	}{
		{"github.com", "", "o/r", "t", ""},
		{"Enterprise Server", "https://ghe.example/api/v3", "o/r", "t", ""},
		{"a test server on this machine", "http://127.0.0.1:8080", "o/r", "t", ""},
		{"localhost", "http://localhost:8080/api", "o/r", "t", ""},
		{"plain http elsewhere would send the token in clear", "http://ghe.example/api/v3", "o/r", "t", "plain http"},
		{"a password in the URL", "https://u:secret@ghe.example", "o/r", "t", "holds a user"},
		{"not http", "ftp://ghe.example", "o/r", "t", "not an http(s) URL"},
		{"not a URL", "api.github.com", "o/r", "t", "not an http(s) URL"},
		{"a repository without its owner", "", "r", "t", "not OWNER/NAME"},
		{"a repository with a path in it", "", "o/r/../x", "t", "not OWNER/NAME"},
		{"no token", "", "o/r", "", "no token"},
		{"a token with a line break", "", "o/r", "t\nX-Evil: 1", "control character"},
	}
	for _, c := range cases {
		_, err := NewClient(c.api, c.repo, c.token, nil)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.reason, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: err = %v, want one saying %q", c.reason, err, c.err)
		}
		if err != nil && (strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "X-Evil")) {
			t.Errorf("%s: the error shows a secret: %v", c.reason, err)
		}
	}
}

// TestRedirectElsewhere: a redirect to another origin (here another port
// of this machine; as well another host or scheme) is refused, with an
// error naming where it pointed, and the other origin gets no request,
// so never the token; Go's client would send the Authorization header to
// another port or scheme of the same host.
func TestRedirectElsewhere(t *testing.T) {
	var mu sync.Mutex
	var stolen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		stolen = append(stolen, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("[]"))
	}))
	t.Cleanup(other.Close)
	for _, code := range []int{http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		s := newServer(t, 0)
		s.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/steal"+r.URL.Path+"?token="+testToken, code)
		})
		_, err := s.client(t).Upsert(context.Background(), 7, "<!-- m -->", "<!-- m -->\nx")
		want := fmt.Sprintf("GET /repos/o/r/issues/7/comments?per_page=100: redirected to %s/steal/api/v3/repos/o/r/issues/7/comments?token=***, another origin than the API's %s: not followed with the token", other.URL, s.srv.URL)
		if err == nil || err.Error() != want {
			t.Errorf("%d: err = %v\nwant %s", code, err, want)
		}
	}
	if len(stolen) != 0 {
		t.Errorf("the other origin was sent %q", stolen)
	}
}

// TestRedirectSameOrigin: a redirect within the API's origin (a renamed
// repository answers 301 to its new path) is followed with the token.
func TestRedirectSameOrigin(t *testing.T) {
	s := newServer(t, 3)
	s.comments[1] = Comment{ID: 2, Body: "<!-- m -->\nold", User: s.author()}
	serve := s.srv.Config.Handler
	s.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := strings.CutPrefix(r.URL.Path, "/api/v3/repos/old/r/"); ok {
			http.Redirect(w, r, "/api/v3/repos/o/r/"+p+"?"+r.URL.RawQuery, http.StatusMovedPermanently)
			return
		}
		serve.ServeHTTP(w, r)
	})
	c, err := NewClient(s.srv.URL+"/api/v3", "old/r", testToken, s.srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.FindComment(context.Background(), 7, "<!-- m -->")
	if err != nil || got == nil || got.ID != 2 {
		t.Fatalf("FindComment through a redirect: %+v, %v; want comment 2", got, err)
	}
}

// TestRedirectLoop: a redirect loop is an error in qoscal's words (the
// request, and how many redirects), not Go's "stopped after 10
// redirects" with the URL quoted.
func TestRedirectLoop(t *testing.T) {
	s := newServer(t, 0)
	s.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.RequestURI(), http.StatusFound)
	})
	_, err := s.client(t).FindComment(context.Background(), 7, "<!-- m -->")
	want := "GET /repos/o/r/issues/7/comments?per_page=100: redirected more than 10 times (a redirect loop?)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestScrubbedReply: the comment a server returns has its html_url
// scrubbed of the token, as its messages are, and so are the token's
// usual encodings (base64, URL-escaped) in a message.
func TestScrubbedReply(t *testing.T) {
	s := newServer(t, 0)
	serve := s.srv.Config.Handler
	s.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(Comment{ID: 1, Body: "x", HTMLURL: "https://github.com/" + testToken})
			return
		}
		serve.ServeHTTP(w, r)
	})
	res, err := s.client(t).Upsert(context.Background(), 7, "<!-- m -->", "<!-- m -->\nx")
	if err != nil || res.Comment.HTMLURL != "https://github.com/***" {
		t.Errorf("Upsert: %+v, %v; want the html_url https://github.com/***", res.Comment, err)
	}
	// A token too short to have an encoding worth scrubbing is scrubbed
	// as it is (and does not crash the scrubbing).
	for _, short := range []string{"x", "xyzw", "abcdefgh"} {
		if m := (&Client{token: short}).message([]byte(`{"message":"a ` + short + ` b"}`)); m != "a *** b" {
			t.Errorf("token %q: message %q, want %q", short, m, "a *** b")
		}
	}
	c := &Client{token: testToken}
	for _, enc := range []string{
		testToken,
		base64.StdEncoding.EncodeToString([]byte(testToken)),
		base64.RawURLEncoding.EncodeToString([]byte(testToken)),
		base64.StdEncoding.EncodeToString([]byte("x-access-token:" + testToken)),
		base64.StdEncoding.EncodeToString([]byte("x:" + testToken + "\n")),
		base64.URLEncoding.EncodeToString([]byte("u:" + testToken + "?")),
	} {
		m := c.message([]byte(`{"message":"bad: ` + enc + `"}`))
		// What is left of the encoding must not decode to the token:
		// at most a few characters of either end survive.
		for k := range 3 {
			for _, e := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
				core := e.EncodeToString(append(make([]byte, k), testToken[:len(testToken)-3]...))[4:]
				if strings.Contains(m, core) || strings.Contains(m, testToken) || !strings.Contains(m, "***") {
					t.Errorf("message %q shows the token (from %s)", m, enc)
				}
			}
		}
	}
}

// TestFindCommentAuthor: of the comments that start with the marker, the
// latest one a bot wrote is taken (a job's token comments as
// github-actions[bot]), though a stranger's comes first, on an earlier
// page; with a user's token (GET /user answers), that user's is taken;
// when neither is there, none is, and Upsert posts a new comment,
// leaving the stranger's alone.
func TestFindCommentAuthor(t *testing.T) {
	const marker = "<!-- m -->"
	mallory := &User{Login: "mallory", Type: "User"}
	ctx := context.Background()

	s := newServer(t, 150)
	s.comments[3] = Comment{ID: 4, Body: marker + "\nforged PASS", User: mallory}
	s.comments[120] = Comment{ID: 121, Body: marker + "\nours", User: &User{Login: "github-actions[bot]", Type: "Bot"}}
	if got, err := s.client(t).FindComment(ctx, 7, marker); err != nil || got == nil || got.ID != 121 {
		t.Errorf("job's token: FindComment = %+v, %v; want the bot's comment 121", got, err)
	}
	// Of two by the bot (one could not be edited and was replaced), the
	// latest.
	s.comments[140] = Comment{ID: 141, Body: marker + "\nreplacement", User: &User{Login: "github-actions[bot]", Type: "Bot"}}
	if got, err := s.client(t).FindComment(ctx, 7, marker); err != nil || got == nil || got.ID != 141 {
		t.Errorf("job's token, two of the bot's: FindComment = %+v, %v; want the latest, 141", got, err)
	}

	s = newServer(t, 5)
	s.login = "alice"
	s.comments[1] = Comment{ID: 2, Body: marker + "\nforged", User: mallory}
	s.comments[3] = Comment{ID: 4, Body: marker + "\nours", User: &User{Login: "Alice", Type: "User"}}
	if got, err := s.client(t).FindComment(ctx, 7, marker); err != nil || got == nil || got.ID != 4 {
		t.Errorf("a user's token: FindComment = %+v, %v; want alice's comment 4", got, err)
	}

	for _, login := range []string{"", "alice"} {
		s = newServer(t, 3)
		s.login = login
		s.comments[0] = Comment{ID: 1, Body: marker + "\nforged", User: mallory}
		s.comments[2] = Comment{ID: 3, Body: marker + "\nghost's"} // a deleted account: no user
		res, err := s.client(t).Upsert(ctx, 7, marker, marker+"\nnew")
		if err != nil || res.What != Created || len(s.comments) != 4 || s.comments[3].Body != marker+"\nnew" {
			t.Errorf("token of %q, only others' markers: Upsert = %+v, %v; want a new comment", login, res, err)
		}
		if s.comments[0].Body != marker+"\nforged" {
			t.Errorf("token of %q: the stranger's comment was edited: %q", login, s.comments[0].Body)
		}
	}
}

// TestUpsertEditRefused: when the comment with the marker cannot be
// edited (403: the token may not edit it), a new one is posted, and the
// result says which and why.
func TestUpsertEditRefused(t *testing.T) {
	const marker = "<!-- m -->"
	s := newServer(t, 2)
	s.comments[1] = Comment{ID: 2, Body: marker + "\nold", User: s.author()}
	s.locked = map[int64]bool{2: true}
	res, err := s.client(t).Upsert(context.Background(), 7, marker, marker+"\nnew")
	if err != nil || res.What != Replaced || res.Comment == nil || res.Comment.ID != 3 || len(s.comments) != 3 {
		t.Fatalf("Upsert = %+v, %v; want comment 3 posted in place of 2", res, err)
	}
	var se *StatusError
	if !errors.As(res.NotEdited, &se) || se.Status != http.StatusForbidden || res.Old == nil || res.Old.ID != 2 {
		t.Errorf("NotEdited = %v, Old = %+v; want the 403 of comment 2", res.NotEdited, res.Old)
	}
	if res.What.String() != "created" {
		t.Errorf("Replaced says %q, want created", res.What)
	}
}
