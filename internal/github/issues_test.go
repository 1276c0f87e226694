package github

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// issuesServer answers GET /repos/o/r/issues with the issues given, one
// page of two at a time (newest first as given), GET /user with login
// (a 403 when ""), and records the requests.
func issuesServer(t *testing.T, issues []Issue, login, next string) (*Client, *[]string) {
	t.Helper()
	var reqs []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqs = append(reqs, r.Method+" "+r.URL.RequestURI())
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch {
		case r.URL.Path == "/user":
			if login == "" {
				w.WriteHeader(http.StatusForbidden)
				fmt.Fprintf(w, `{"message":"Resource not accessible by integration (%s)"}`, r.Header.Get("Authorization"))
				return
			}
			json.NewEncoder(w).Encode(User{Login: login, Type: "User"})
		case r.URL.Path == "/repos/o/r/issues" && r.Method == http.MethodGet:
			if got := r.URL.Query(); got.Get("labels") != "qoscal-watch" || got.Get("state") != "all" {
				t.Errorf("listing with %v", got)
			}
			page := 1
			fmt.Sscan(r.URL.Query().Get("page"), &page)
			from, to := min(2*(page-1), len(issues)), min(2*page, len(issues))
			if to < len(issues) {
				link := next
				if link == "" {
					link = fmt.Sprintf("%s/repos/o/r/issues?labels=qoscal-watch&state=all&page=%d", srv.URL, page+1)
				}
				w.Header().Set("Link", "<"+link+`>; rel="next"`)
			}
			json.NewEncoder(w).Encode(issues[from:to])
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL, "o/r", testToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, &reqs
}

// TestFindIssues: of the issues that carry the label, those whose first
// line starts with the prefix and that a bot opened are returned, over
// every page, newest first; a stranger's with the marker, a pull request
// and an issue without the marker are not; a person's token also finds
// its own user's (GET /user), and a job's token (403 there) only bots'.
func TestFindIssues(t *testing.T) {
	bot := &User{Login: "github-actions[bot]", Type: "Bot"}
	issues := []Issue{
		{Number: 6, Body: "<!-- qoscal-watch calibration=b -->\nnew", State: "open", User: bot},
		{Number: 5, Body: "<!-- qoscal-watch calibration=a -->\nby me", State: "open", User: &User{Login: "Me", Type: "User"}},
		{Number: 4, Body: "<!-- qoscal-watch calibration=a -->\nstranger", State: "open", User: &User{Login: "mallory", Type: "User"}},
		{Number: 3, Body: "<!-- qoscal-watch calibration=a -->\npr", State: "open", User: bot, PullRequest: json.RawMessage(`{"url":"x"}`)},
		{Number: 2, Body: "no marker", State: "open", User: bot},
		{Number: 1, Body: "<!-- qoscal-watch calibration=a -->\r\nold", State: "closed", User: bot},
	}
	for _, c := range []struct {
		login string
		want  string
	}{{"", "[6 1]"}, {"me", "[6 5 1]"}} {
		cl, _ := issuesServer(t, issues, c.login, "")
		got, err := cl.FindIssues(context.Background(), "qoscal-watch", "<!-- qoscal-watch ")
		if err != nil {
			t.Fatal(err)
		}
		var nums []int
		for _, is := range got {
			nums = append(nums, is.Number)
		}
		if fmt.Sprint(nums) != c.want {
			t.Errorf("token's user %q: found %v, want %s", c.login, nums, c.want)
		}
	}
}

// TestFindIssuesNextElsewhere: a next link to another origin is refused,
// with an error that names it and holds no token.
func TestFindIssuesNextElsewhere(t *testing.T) {
	bot := &User{Login: "github-actions[bot]", Type: "Bot"}
	issues := []Issue{{Number: 3, User: bot}, {Number: 2, User: bot}, {Number: 1, User: bot}}
	cl, reqs := issuesServer(t, issues, "", "https://evil.example/steal")
	_, err := cl.FindIssues(context.Background(), "qoscal-watch", "<!-- qoscal-watch ")
	if err == nil || !strings.Contains(err.Error(), "leads away from the API") || strings.Contains(err.Error(), testToken) {
		t.Errorf("error %v, want the next link refused", err)
	}
	if len(*reqs) != 1 {
		t.Errorf("requests %v, want the first page alone", *reqs)
	}
}
