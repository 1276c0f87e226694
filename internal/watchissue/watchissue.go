// Package watchissue is how 'qoscal watch' keeps its issues on GitHub
// apart from the API (internal/github) and the decision
// (calibrate/watch): the hidden first line that names the watch and the
// calibration an issue is for (Marker, Prefix), the hidden second line
// that keeps the episode's state (StateLine, ParseState), and which of
// the issues found is the current one, which are older calibrations'
// still open, and what the latest closed one went through (Sort). The
// standard library and internal/github only.
package watchissue

import (
	"encoding/json"
	"strings"

	"github.com/qoscal/qoscal/internal/github"
)

// Marker is the hidden first line of the watch's issue for the
// calibration of SHA-256 sha.
func Marker(id, sha string) string {
	return Prefix(id) + "calibration=" + sha + " -->"
}

// Prefix is the start of every marker of the watch --id id.
func Prefix(id string) string {
	if id == "" {
		return "<!-- qoscal-watch "
	}
	return "<!-- qoscal-watch:" + id + " "
}

// State is the episode's state, kept in the issue's second line.
type State struct {
	OpenedAt string `json:"opened_at,omitempty"`
	Through  string `json:"through,omitempty"`
}

const statePrefix = "<!-- qoscal-watch-state "

// StateLine is the hidden second line: the state as JSON, whose encoder
// escapes <, > and &, so that no run id can end the HTML comment.
func StateLine(s State) string {
	b, _ := json.Marshal(s)
	return statePrefix + string(b) + " -->"
}

// ParseState reads the state line of an issue's body (the zero state
// when it has none or it does not parse).
func ParseState(body string) State {
	var s State
	lines := strings.SplitN(body, "\n", 3)
	if len(lines) < 2 {
		return s
	}
	l := strings.TrimSuffix(lines[1], "\r")
	if !strings.HasPrefix(l, statePrefix) || !strings.HasSuffix(l, " -->") {
		return s
	}
	if json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(l, statePrefix), " -->")), &s) != nil {
		return State{}
	}
	return s
}

// Found is what the issues found say: the open issue of this marker
// (nil: none) with its state; the open issues of another calibration's
// marker of the same watch, to close as superseded; and, with no open
// one, how far the latest closed one of this marker went (State.Through).
type Found struct {
	Current *github.Issue
	Older   []github.Issue
	State   State
}

// Sort sorts the watch's issues, newest first as FindIssues lists them,
// by marker (this calibration's first line).
func Sort(issues []github.Issue, marker string) Found {
	var f Found
	for i := range issues {
		is := &issues[i]
		first, _, _ := strings.Cut(is.Body, "\n")
		first = strings.TrimSuffix(first, "\r")
		state := ParseState(is.Body)
		switch {
		case first != marker && is.State == "open":
			f.Older = append(f.Older, *is)
		case first != marker:
		case is.State == "open" && f.Current == nil:
			f.Current = is
			f.State.OpenedAt = state.OpenedAt
		case is.State == "closed" && f.State.Through == "" && state.Through != "":
			f.State.Through = state.Through
		}
	}
	return f
}
