package prcomment

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/render"
)

// MaxEventRead is the largest event file (GITHUB_EVENT_PATH) FindTarget
// reads: GitHub's webhook payloads are capped at 25 MB
// (https://docs.github.com/en/webhooks/webhook-events-and-payloads), and
// the runner's event file is one of them.
const MaxEventRead = 25 << 20

// MaxPR is the largest pull request number --pr takes: GitHub's issue
// numbers are 32-bit.
const MaxPR = 1<<31 - 1

// Target is where the comment goes: the repository and the pull
// request, or the problem that leaves none (a warning, with a hint).
type Target struct {
	Repo          string
	PR            int
	Problem, Hint string
}

// prEvents are the events about a pull request whose token is the head
// repository's: read-only for a fork's pull request.
var prEvents = map[string]bool{"pull_request": true, "pull_request_review": true, "pull_request_review_comment": true}

// FindTarget finds the repository and the pull request from the
// environment (GITHUB_REPOSITORY, GITHUB_EVENT_NAME, GITHUB_EVENT_PATH),
// pr when it is not 0. With writable, it also decides whether the token
// may write (a fork's or Dependabot's pull request gets a read-only token): skip, when not "", is why
// nothing is posted, quietly.
func FindTarget(getenv func(string) string, pr int, writable bool) (t Target, skip string) {
	t.Repo = getenv("GITHUB_REPOSITORY")
	name, path := getenv("GITHUB_EVENT_NAME"), getenv("GITHUB_EVENT_PATH")
	if writable && !prEvents[name] && name != "pull_request_target" && name != "issue_comment" {
		if name == "" {
			return t, "no GitHub Actions event (GITHUB_EVENT_NAME is not set)"
		}
		return t, fmt.Sprintf("the event %s is not about a pull request", render.OneLine(name))
	}
	if t.Repo == "" {
		t.Problem = "GITHUB_REPOSITORY is not set"
		t.Hint = "it is OWNER/NAME under GitHub Actions; elsewhere set it, with GITHUB_TOKEN, and give --pr N"
		return t, ""
	}
	var ev prEvent
	if path != "" {
		b, err := readEvent(path)
		if err == nil {
			err = json.Unmarshal(b, &ev)
		}
		if err != nil && (pr == 0 || writable) {
			t.Problem = fmt.Sprintf("the event file $GITHUB_EVENT_PATH %s: %v", render.OneLine(path), PathErr(err))
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
	t.PR = pr
	if t.PR == 0 {
		switch {
		case ev.PullRequest != nil && validPR(ev.PullRequest.Number):
			t.PR = ev.PullRequest.Number
		case ev.issueOnPR() && validPR(ev.Issue.Number):
			t.PR = ev.Issue.Number
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
			t.Problem = "no pull request to comment on: " + what
			t.Hint = "give --pr N, or run comment in a job of a pull_request event"
		}
	}
	return t, ""
}

// readEvent reads the event file at path: a regular file (a named pipe
// would block the step until a writer came, /dev/zero would never end)
// of at most MaxEventRead bytes. The kind is checked before the file is
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
	b, err := io.ReadAll(io.LimitReader(f, MaxEventRead+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxEventRead {
		return nil, fmt.Errorf("more than %d MiB: not an event payload of GitHub's", MaxEventRead>>20)
	}
	return b, nil
}

// prEvent is what FindTarget reads of an event: the pull request (on
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
	return n > 0 && n <= MaxPR
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
