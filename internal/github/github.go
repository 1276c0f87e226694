// Package github is the little of GitHub's REST API that qoscal uses: the
// comments of an issue or a pull request (a pull request is an issue to
// this API), listed, created and edited, so that a gate keeps one comment
// per pull request up to date (Upsert); and issues, listed by label,
// opened and edited (closed), so that the watch on main keeps one issue
// per fall of the score (FindIssues, CreateIssue, EditIssue). Standard
// library only.
//
// The token is sent in the Authorization header and nowhere else, and is
// never part of an error: a server's message is cut to MaxMessage
// characters and any copy of the token in it (as sent, or base64-encoded)
// is replaced by "***", as it is in a comment's html_url. A next-page
// link or a redirect to another origin (scheme, host and port) than the
// API's is refused rather than followed with the token, and the token is
// sent over plain http only to the local machine (a test server, a proxy
// on loopback).
//
// Reference: https://docs.github.com/en/rest/issues/comments,
// https://docs.github.com/en/rest/issues/issues (API version
// 2022-11-28) and https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api.
package github

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultAPI is GitHub's API on github.com; GitHub Enterprise Server's is
// https://HOST/api/v3 (the runner sets GITHUB_API_URL to the right one).
const DefaultAPI = "https://api.github.com"

// MaxBody is the longest comment body GitHub accepts, in characters
// (Unicode code points): a longer one is refused with 422 "body is too
// long (maximum is 65536 characters)".
const MaxBody = 65536

// MaxMessage is the most characters of a server's message an error
// holds.
const MaxMessage = 200

// maxRedirects is how many redirects one request follows, as Go's
// client does by default.
const maxRedirects = 10

// perPage is the page size of a listing: the API's maximum.
const perPage = 100

// maxResponse bounds what one response may hold: a page of 100 comments
// of at most MaxBody characters each, JSON-escaped, fits with room.
const maxResponse = 64 << 20

// repoName is OWNER/NAME as GitHub allows them.
var repoName = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

// Client calls the API of one repository with one token.
type Client struct {
	api   *url.URL
	repo  string
	token string
	// HTTP is the client requests go through; its Timeout bounds each.
	HTTP *http.Client
	// UserAgent is sent with every request (GitHub refuses requests
	// without one).
	UserAgent string
}

// NewClient returns a client of the API at api (DefaultAPI when empty)
// for the repository repo (OWNER/NAME) with token. It refuses an API URL
// that is not http(s), that holds a user or password, a query or a
// fragment, or that is plain http to another machine than this one (the
// token would cross the network unencrypted), a repo that is not
// OWNER/NAME, and an empty token or one with blanks or control
// characters in it (it would not be a valid header, and the error would
// not say so without showing it).
func NewClient(api, repo, token string, hc *http.Client) (*Client, error) {
	if api == "" {
		api = DefaultAPI
	}
	u, err := url.Parse(api)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("the API URL %q is not an http(s) URL", api)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("the API URL %s holds a user, a query or a fragment: expected https://HOST[/PATH]", u.Redacted())
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return nil, fmt.Errorf("the API URL %s is plain http to another machine: the token is sent only over https (or to this machine)", u.Redacted())
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	if !repoName.MatchString(repo) {
		return nil, fmt.Errorf("the repository %q is not OWNER/NAME", repo)
	}
	if token == "" {
		return nil, errors.New("no token")
	}
	for _, r := range token {
		if r <= ' ' || r == 0x7f {
			return nil, errors.New("the token holds a blank or a control character")
		}
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{api: u, repo: repo, token: token, HTTP: hc, UserAgent: "qoscal"}, nil
}

// loopback reports whether host is this machine: localhost or a loopback
// address.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Comment is an issue comment, as much of it as qoscal reads.
type Comment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	HTMLURL string `json:"html_url"`
	// User is who wrote it; nil for a deleted account.
	User *User `json:"user"`
}

// User is a comment's author, or the token's user (GET /user).
type User struct {
	Login string `json:"login"`
	// Type is "Bot" for a GitHub App's comments (a job's token writes
	// as github-actions[bot]), "User" for a person's.
	Type string `json:"type"`
}

// bot reports whether u is a GitHub App's account.
func (u *User) bot() bool {
	return u != nil && u.Type == "Bot"
}

// StatusError is a response the API gave with a status other than 2xx.
type StatusError struct {
	Method string
	// Path is the request's path under the API URL
	// (/repos/OWNER/NAME/issues/7/comments).
	Path   string
	Status int
	// Message is the server's message (its JSON "message", else the
	// start of the body), on one line at most MaxMessage characters
	// long, without the token.
	Message string
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Upserted says what Upsert did.
type Upserted int

const (
	// Created: no comment had the marker; a new one was posted.
	Created Upserted = iota
	// Updated: the comment with the marker was edited.
	Updated
	// Unchanged: the comment with the marker already had the body.
	Unchanged
	// Replaced: the comment with the marker could not be edited (403 or
	// 404); a new one was posted.
	Replaced
)

func (u Upserted) String() string {
	switch u {
	case Created, Replaced:
		return "created"
	case Updated:
		return "updated"
	}
	return "unchanged"
}

// Upsert is what Upsert did: the comment written (or left alone, when
// Unchanged), and with Replaced the comment that could not be edited and
// why.
type Upsert struct {
	Comment *Comment
	What    Upserted
	// Old and NotEdited, with Replaced: the comment with the marker, and
	// the error of its edit (a *StatusError).
	Old       *Comment
	NotEdited error
}

// Upsert makes body the comment of issue (a pull request's number) that
// carries marker: the comment FindComment finds is edited (or left alone
// when its body is already body), else a new comment is posted. body
// should start with marker's line, or the next run will not find the
// comment. A comment whose edit is refused (403: the token may not edit
// it) or that is gone (404: deleted between the listing and the edit) is
// replaced by a new one (Replaced), rather than no comment at all.
func (c *Client) Upsert(ctx context.Context, issue int, marker, body string) (Upsert, error) {
	old, err := c.FindComment(ctx, issue, marker)
	if err != nil {
		return Upsert{}, err
	}
	res := Upsert{What: Created}
	if old != nil {
		if old.Body == body {
			return Upsert{Comment: old, What: Unchanged}, nil
		}
		got, err := c.UpdateComment(ctx, old.ID, body)
		var se *StatusError
		if !errors.As(err, &se) || (se.Status != http.StatusNotFound && se.Status != http.StatusForbidden) {
			return Upsert{Comment: got, What: Updated}, err
		}
		res = Upsert{What: Replaced, Old: old, NotEdited: err}
	}
	res.Comment, err = c.CreateComment(ctx, issue, body)
	return res, err
}

// FindComment returns the comment of issue whose first line is marker
// and that the token wrote (nil when there is none), reading all the
// comments a page of 100 at a time in the order GitHub lists them
// (oldest first), following each page's Link rel="next". Anyone may
// write the marker, so its author counts: the latest such comment by a
// bot (a job's token and a GitHub App's write as one, "Bot") is taken;
// failing that, the latest by the token's own user, which GET /user
// names for a person's token (a job's token gets a 403 there: then none
// is taken). A stranger's comment that starts with the marker is never
// edited, so it can neither hold the gate's verdict nor keep the gate
// from commenting; and the latest is the one Upsert posted in place of
// one it could not edit, so later runs edit that one.
func (c *Client) FindComment(ctx context.Context, issue int, marker string) (*Comment, error) {
	next := c.endpoint(fmt.Sprintf("/repos/%s/issues/%d/comments", c.repo, issue))
	q := next.Query()
	q.Set("per_page", strconv.Itoa(perPage))
	next.RawQuery = q.Encode()
	seen := map[string]bool{}
	var bot *Comment
	var others []Comment
	for next != nil {
		if seen[next.String()] {
			return nil, fmt.Errorf("GET %s: the pages' next links go round in a circle", c.path(next))
		}
		seen[next.String()] = true
		var page []Comment
		resp, err := c.do(ctx, http.MethodGet, next, nil, &page)
		if err != nil {
			return nil, err
		}
		for i := range page {
			if firstLine(page[i].Body) != marker {
				continue
			}
			if page[i].User.bot() {
				bot = &page[i]
				continue
			}
			if page[i].User != nil {
				others = append(others, page[i])
			}
		}
		if next, err = c.nextPage(resp.Header); err != nil {
			return nil, err
		}
	}
	if bot != nil {
		bot.HTMLURL = c.scrub(bot.HTMLURL)
		return bot, nil
	}
	if len(others) == 0 {
		return nil, nil
	}
	var me User
	if _, err := c.do(ctx, http.MethodGet, c.endpoint("/user"), nil, &me); err != nil || me.Login == "" {
		// Not a person's token (a job's token may not read /user):
		// whoever wrote these, it was not this token.
		return nil, nil
	}
	for i := len(others) - 1; i >= 0; i-- {
		if strings.EqualFold(others[i].User.Login, me.Login) {
			others[i].HTMLURL = c.scrub(others[i].HTMLURL)
			return &others[i], nil
		}
	}
	return nil, nil
}

// firstLine is s up to its first line break, without a CR before it.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// CreateComment posts a new comment on issue.
func (c *Client) CreateComment(ctx context.Context, issue int, body string) (*Comment, error) {
	var got Comment
	u := c.endpoint(fmt.Sprintf("/repos/%s/issues/%d/comments", c.repo, issue))
	if _, err := c.do(ctx, http.MethodPost, u, map[string]string{"body": body}, &got); err != nil {
		return nil, err
	}
	got.HTMLURL = c.scrub(got.HTMLURL)
	return &got, nil
}

// UpdateComment replaces the body of the comment id.
func (c *Client) UpdateComment(ctx context.Context, id int64, body string) (*Comment, error) {
	var got Comment
	u := c.endpoint(fmt.Sprintf("/repos/%s/issues/comments/%d", c.repo, id))
	if _, err := c.do(ctx, http.MethodPatch, u, map[string]string{"body": body}, &got); err != nil {
		return nil, err
	}
	got.HTMLURL = c.scrub(got.HTMLURL)
	return &got, nil
}

// endpoint is the URL of path under the API.
func (c *Client) endpoint(path string) *url.URL {
	u := *c.api
	u.Path += path
	return &u
}

// path is u's path under the API's, with its query: what an error shows
// of a URL.
func (c *Client) path(u *url.URL) string {
	p := strings.TrimPrefix(u.EscapedPath(), c.api.EscapedPath())
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}

// nextPage is the URL of the Link header's rel="next" (nil when there is
// none). It must be on the API's host, with the API's scheme: the token
// goes with it.
func (c *Client) nextPage(h http.Header) (*url.URL, error) {
	raw := nextLink(h.Values("Link"))
	if raw == "" {
		return nil, nil
	}
	u, err := c.api.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("the next page's link %q: %v", clip(raw), err)
	}
	if !sameOrigin(u, c.api) || u.User != nil {
		return nil, fmt.Errorf("the next page's link %s leads away from the API at %s: not followed with the token", clip(u.Redacted()), c.api.Host)
	}
	return u, nil
}

// nextLink finds the target of rel="next" in Link header values:
// <URL>; rel="next", <URL>; rel="last" (RFC 8288; rel may list several
// relation types, and be unquoted).
func nextLink(values []string) string {
	for _, v := range values {
		for _, link := range splitLinks(v) {
			target, params, ok := strings.Cut(link, ";")
			target = strings.TrimSpace(target)
			if !ok || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
				continue
			}
			for _, p := range strings.Split(params, ";") {
				k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
				if !strings.EqualFold(strings.TrimSpace(k), "rel") {
					continue
				}
				for _, rel := range strings.Fields(strings.Trim(strings.TrimSpace(val), `"`)) {
					if strings.EqualFold(rel, "next") {
						return target[1 : len(target)-1]
					}
				}
			}
		}
	}
	return ""
}

// splitLinks splits a Link header value at the commas between links, not
// at those inside <URL> or a quoted parameter.
func splitLinks(v string) []string {
	var out []string
	start, inURL, inQuote := 0, false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '<' && !inQuote:
			inURL = true
		case c == '>' && !inQuote:
			inURL = false
		case c == '"' && !inURL:
			inQuote = !inQuote
		case c == ',' && !inURL && !inQuote:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

// do sends one request (in, when not nil, as its JSON body) and decodes
// a 2xx response's JSON into out. Any other status is a *StatusError.
func (c *Client) do(ctx context.Context, method string, u *url.URL, in, out any) (*http.Response, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", method, c.path(u), err)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("User-Agent", c.UserAgent)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	// The client as given, but for its redirects: a copy shares the
	// Transport (its connections) and the Timeout.
	hc := *c.HTTP
	hc.CheckRedirect = c.checkRedirect
	resp, err := hc.Do(req)
	var re *redirectError
	if errors.As(err, &re) {
		return nil, fmt.Errorf("%s %s: %s", method, c.path(u), re.msg)
	}
	if err != nil {
		// A *url.Error names the URL (which holds no token) and the
		// cause; it is scrubbed anyway, as everything shown is.
		return nil, fmt.Errorf("%s", c.scrub(err.Error()))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the response: %s", method, c.path(u), c.scrub(err.Error()))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &StatusError{Method: method, Path: c.path(u), Status: resp.StatusCode, Message: c.message(b)}
	}
	if len(b) > maxResponse {
		return nil, fmt.Errorf("%s %s: a response of more than %d MiB", method, c.path(u), maxResponse>>20)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return nil, fmt.Errorf("%s %s: the response is not the JSON expected: %s", method, c.path(u), c.scrub(err.Error()))
		}
	}
	return resp, nil
}

// redirectError is a redirect that checkRedirect refused; msg says why,
// scrubbed.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// checkRedirect follows a redirect only within the API's origin, and at
// most maxRedirects of them. Go's client would send the Authorization
// header on to another port or scheme of the same host (it compares host
// names only), and then over plain http: another origin is refused, the
// error naming it.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return &redirectError{fmt.Sprintf("redirected more than %d times (a redirect loop?)", maxRedirects)}
	}
	if !sameOrigin(req.URL, c.api) || req.URL.User != nil {
		return &redirectError{fmt.Sprintf("redirected to %s, another origin than the API's %s://%s: not followed with the token", clip(c.scrub(req.URL.Redacted())), c.api.Scheme, c.api.Host)}
	}
	return nil
}

// sameOrigin reports whether a and b have one origin (RFC 6454): the
// scheme, the host (in any case) and the port, a missing port being the
// scheme's.
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		switch strings.ToLower(u.Scheme) {
		case "http":
			return "80"
		case "https":
			return "443"
		}
		return ""
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// message is what an error shows of a response body: the "message" of a
// JSON error document (with its first error's, for a 422), else the
// body's start; on one line, without the token, clipped.
func (c *Client) message(b []byte) string {
	var doc struct {
		Message string `json:"message"`
		Errors  []struct {
			Message string `json:"message"`
			Code    string `json:"code"`
		} `json:"errors"`
	}
	s := string(b)
	if json.Unmarshal(b, &doc) == nil && doc.Message != "" {
		s = doc.Message
		if len(doc.Errors) > 0 {
			if m := doc.Errors[0].Message; m != "" {
				s += " (" + m + ")"
			} else if m := doc.Errors[0].Code; m != "" {
				s += " (" + m + ")"
			}
		}
	}
	return clip(c.scrub(strings.Join(strings.Fields(s), " ")))
}

// scrub replaces every copy of the token in s with "***": as it is, and
// base64-encoded (as in an HTTP Basic header echoed back, user:TOKEN), in
// either alphabet, at any of the three alignments the token can have in
// an encoded text. Of an encoded copy, the few characters that also
// encode the bytes around it are left: they do not spell the token.
func (c *Client) scrub(s string) string {
	if c.token == "" {
		return s
	}
	s = strings.ReplaceAll(s, c.token, "***")
	for k := range 3 {
		b := append(make([]byte, k), c.token...)
		// The characters from the first group that holds none of the
		// k bytes before the token to the last whole group.
		from, to := 0, 4*(len(b)/3)
		if k > 0 {
			from = 4
		}
		if to-from < 8 {
			// Too short a token to tell its encoding from chance.
			continue
		}
		for _, e := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			s = strings.ReplaceAll(s, e.EncodeToString(b)[from:to], "***")
		}
	}
	return s
}

// clip cuts s to MaxMessage characters, valid UTF-8, with "…" where it
// was cut.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= MaxMessage {
		return s
	}
	r := []rune(s)
	return string(r[:MaxMessage-1]) + "…"
}
