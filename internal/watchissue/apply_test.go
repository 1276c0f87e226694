package watchissue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/internal/github"
)

// fakeWriter logs each call, and fails the call numbered failAt (from 1).
type fakeWriter struct {
	calls  []string
	failAt int
}

func (f *fakeWriter) call(s string) error {
	f.calls = append(f.calls, s)
	if len(f.calls) == f.failAt {
		return errors.New("403")
	}
	return nil
}

func (f *fakeWriter) CreateIssue(_ context.Context, title, body string, labels []string) (*github.Issue, error) {
	err := f.call(fmt.Sprintf("create %q %v", title, labels))
	return &github.Issue{Number: 9, HTMLURL: "https://github.example/i/9"}, err
}

func (f *fakeWriter) EditIssue(_ context.Context, number int, title, body, state, reason string) (*github.Issue, error) {
	return &github.Issue{Number: number}, f.call(fmt.Sprintf("edit %d %q %s %s", number, title, state, reason))
}

func (f *fakeWriter) CreateComment(_ context.Context, issue int, body string) (*github.Comment, error) {
	return &github.Comment{}, f.call(fmt.Sprintf("comment %d %s", issue, body))
}

func TestApply(t *testing.T) {
	current := &github.Issue{Number: 4, Title: "t", Body: "b"}
	older := []github.Issue{{Number: 2}, {Number: 3}}
	notes := func(p Plan) Plan {
		p.CloseNote = func() string { return "came back" }
		p.SupersededNote = func() string { return "superseded" }
		return p
	}
	cases := []struct {
		name   string
		plan   Plan
		failAt int
		want   Outcome
		calls  string
		err    bool
	}{
		{"open", Plan{Action: "open", Title: "fell"}, 0, Outcome{Issue: 9, URL: "https://github.example/i/9", Posted: "opened"}, `create "fell" [qoscal-watch]`, false},
		{"update", Plan{Action: "update", Title: "t2", Body: "b", Current: current}, 0, Outcome{Posted: "updated"}, `edit 4 "t2"  `, false},
		{"unchanged", Plan{Action: "update", Title: "t", Body: "b", Current: current}, 0, Outcome{Posted: "unchanged"}, ``, false},
		{"close", Plan{Action: "close", Current: current}, 0, Outcome{Posted: "closed"}, `comment 4 came back|edit 4 "" closed completed`, false},
		{"older closed", Plan{Action: "quiet", Older: older}, 0, Outcome{Issue: 2, Posted: "closed", Superseded: []int{2, 3}},
			`comment 2 superseded|edit 2 "" closed not_planned|comment 3 superseded|edit 3 "" closed not_planned`, false},
		{"fails midway", Plan{Action: "open", Older: older}, 4, Outcome{Superseded: []int{2}},
			`comment 2 superseded|edit 2 "" closed not_planned|comment 3 superseded|edit 3 "" closed not_planned`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := &fakeWriter{failAt: tc.failAt}
			got, err := Apply(context.Background(), w, notes(tc.plan))
			if (err != nil) != tc.err {
				t.Fatalf("Apply: error %v, want one: %v", err, tc.err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("outcome %+v, want %+v", got, tc.want)
			}
			if calls := strings.Join(w.calls, "|"); calls != tc.calls {
				t.Errorf("calls\n%s\nwant\n%s", calls, tc.calls)
			}
		})
	}
}
