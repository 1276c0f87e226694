package github

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Issue is an issue, as much of it as qoscal watch reads.
type Issue struct {
	Number  int    `json:"number"`
	Title   string `json:"title"`
	Body    string `json:"body"`
	State   string `json:"state"`
	HTMLURL string `json:"html_url"`
	// User is who opened it; nil for a deleted account.
	User *User `json:"user"`
	// PullRequest is set on a pull request (the issues listing holds
	// them too).
	PullRequest json.RawMessage `json:"pull_request,omitempty"`
}

// MaxIssuePages bounds the pages of issues FindIssues reads (100 a page).
const MaxIssuePages = 20

// FindIssues returns the issues (open and closed, newest first) that
// carry label and whose body's first line starts with prefix, of those
// the token opened: a bot's (a job's token opens issues as
// github-actions[bot]), and the token's own user's (GET /user; none for a
// job's token, which may not read it). Anyone may write the marker, so a
// stranger's issue that carries it is never returned, and so never
// edited. It reads at most MaxIssuePages pages of 100, following each
// page's Link rel="next" on the API's origin only.
func (c *Client) FindIssues(ctx context.Context, label, prefix string) ([]Issue, error) {
	next := c.endpoint(fmt.Sprintf("/repos/%s/issues", c.repo))
	q := next.Query()
	q.Set("labels", label)
	q.Set("state", "all")
	q.Set("sort", "created")
	q.Set("direction", "desc")
	q.Set("per_page", strconv.Itoa(perPage))
	next.RawQuery = q.Encode()
	seen := map[string]bool{}
	var found []Issue
	others := false
	for pages := 0; next != nil && pages < MaxIssuePages; pages++ {
		if seen[next.String()] {
			return nil, fmt.Errorf("GET %s: the pages' next links go round in a circle", c.path(next))
		}
		seen[next.String()] = true
		var page []Issue
		resp, err := c.do(ctx, http.MethodGet, next, nil, &page)
		if err != nil {
			return nil, err
		}
		for _, is := range page {
			if len(is.PullRequest) > 0 && string(is.PullRequest) != "null" {
				continue
			}
			if !strings.HasPrefix(firstLine(is.Body), prefix) || is.User == nil {
				continue
			}
			is.HTMLURL = c.scrub(is.HTMLURL)
			found = append(found, is)
			others = others || !is.User.bot()
		}
		if next, err = c.nextPage(resp.Header); err != nil {
			return nil, err
		}
	}
	var me User
	if others {
		if _, err := c.do(ctx, http.MethodGet, c.endpoint("/user"), nil, &me); err != nil {
			me.Login = ""
		}
	}
	var out []Issue
	for _, is := range found {
		if is.User.bot() || (me.Login != "" && strings.EqualFold(is.User.Login, me.Login)) {
			out = append(out, is)
		}
	}
	return out, nil
}

// CreateIssue opens an issue with labels.
func (c *Client) CreateIssue(ctx context.Context, title, body string, labels []string) (*Issue, error) {
	var got Issue
	u := c.endpoint(fmt.Sprintf("/repos/%s/issues", c.repo))
	in := map[string]any{"title": title, "body": body}
	if len(labels) > 0 {
		in["labels"] = labels
	}
	if _, err := c.do(ctx, http.MethodPost, u, in, &got); err != nil {
		return nil, err
	}
	got.HTMLURL = c.scrub(got.HTMLURL)
	return &got, nil
}

// EditIssue sets an issue's title and body (each when not ""), and its
// state ("open", "closed"; "" leaves it) with the reason of a close
// ("completed", "not_planned").
func (c *Client) EditIssue(ctx context.Context, number int, title, body, state, reason string) (*Issue, error) {
	var got Issue
	u := c.endpoint(fmt.Sprintf("/repos/%s/issues/%d", c.repo, number))
	in := map[string]string{}
	for k, v := range map[string]string{"title": title, "body": body, "state": state, "state_reason": reason} {
		if v != "" {
			in[k] = v
		}
	}
	if _, err := c.do(ctx, http.MethodPatch, u, in, &got); err != nil {
		return nil, err
	}
	got.HTMLURL = c.scrub(got.HTMLURL)
	return &got, nil
}
