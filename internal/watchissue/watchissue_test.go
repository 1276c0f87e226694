package watchissue

import (
	"strings"
	"testing"

	"github.com/qoscal/qoscal/internal/github"
)

// TestStateLine: the state survives its line, and a run id cannot end
// the HTML comment it is kept in.
func TestStateLine(t *testing.T) {
	s := State{OpenedAt: "run --> <b>", Through: "r9"}
	line := StateLine(s)
	if strings.Count(line, "-->") != 1 || !strings.HasSuffix(line, " -->") {
		t.Fatalf("StateLine = %q: the comment ends early", line)
	}
	if got := ParseState("marker\n" + line + "\r\nbody"); got != s {
		t.Errorf("ParseState = %+v, want %+v", got, s)
	}
	for _, body := range []string{"", "marker", "marker\nno state", "marker\n" + statePrefix + "{bad -->"} {
		if got := ParseState(body); got != (State{}) {
			t.Errorf("ParseState(%q) = %+v, want the zero state", body, got)
		}
	}
}

func TestMarker(t *testing.T) {
	if got := Marker("", "abc"); got != "<!-- qoscal-watch calibration=abc -->" || !strings.HasPrefix(got, Prefix("")) {
		t.Errorf("Marker = %q", got)
	}
	if got := Marker("linux", "abc"); got != "<!-- qoscal-watch:linux calibration=abc -->" || !strings.HasPrefix(got, Prefix("linux")) {
		t.Errorf("Marker(linux) = %q", got)
	}
}

// TestSort: the newest open issue of the marker is the current one, an
// older calibration's open issues are to close, and the latest closed
// one's state says how far it went.
func TestSort(t *testing.T) {
	m, other := Marker("", "new"), Marker("", "old")
	issues := []github.Issue{
		{Number: 5, State: "open", Body: m + "\r\n" + StateLine(State{OpenedAt: "r4"})},
		{Number: 4, State: "open", Body: m + "\n" + StateLine(State{OpenedAt: "r1"})},
		{Number: 3, State: "closed", Body: m + "\n" + StateLine(State{OpenedAt: "r1", Through: "r3"})},
		{Number: 2, State: "closed", Body: m + "\n" + StateLine(State{Through: "r2"})},
		{Number: 1, State: "open", Body: other + "\n"},
		{Number: 0, State: "closed", Body: other + "\n"},
	}
	f := Sort(issues, m)
	if f.Current == nil || f.Current.Number != 5 || f.State != (State{OpenedAt: "r4", Through: "r3"}) {
		t.Errorf("current %v, state %+v", f.Current, f.State)
	}
	if len(f.Older) != 1 || f.Older[0].Number != 1 {
		t.Errorf("older %v, want issue 1", f.Older)
	}
	if f := Sort(nil, m); f.Current != nil || f.Older != nil || f.State != (State{}) {
		t.Errorf("no issues: %+v", f)
	}
}
