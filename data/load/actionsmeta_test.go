package load

import (
	"strings"
	"testing"
	"time"
)

func TestActionsMeta(t *testing.T) {
	env := map[string]string{"GITHUB_RUN_ID": "12", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_SHA": "abc", "RUNNER_OS": "Linux", "RUNNER_NAME": "runner 7"}
	now := time.Date(2026, 12, 8, 0, 20, 0, 0, time.FixedZone("x", 3600))
	m, err := ActionsMeta(func(k string) string { return env[k] }, now, "v1.2")
	if err != nil {
		t.Fatal(err)
	}
	want := Meta{RunID: "12", Attempt: "2", Commit: "abc", RunnerOS: "Linux", RunnerName: "runner 7", Time: "2026-12-08T00:20:00+01:00", QoscalVersion: "v1.2"}
	if m.RunID != want.RunID || m.Attempt != want.Attempt || m.Commit != want.Commit || m.RunnerOS != want.RunnerOS ||
		m.RunnerName != want.RunnerName || m.Time != want.Time || m.QoscalVersion != want.QoscalVersion || m.Version != 0 {
		t.Errorf("got %+v, want %+v", m, want)
	}
	env["RUNNER_NAME"] = "a\nb"
	if m, err := ActionsMeta(func(k string) string { return env[k] }, now, "v1.2"); err == nil || !strings.Contains(err.Error(), "$RUNNER_NAME") || m.RunnerName != "a\nb" {
		t.Errorf("a line break: %v, %q", err, m.RunnerName)
	}
	// Outside Actions: every field but the time and version empty, no error.
	if m, err := ActionsMeta(func(string) string { return "" }, now, "v"); err != nil || m.RunID != "" || m.Time == "" {
		t.Errorf("no Actions: %+v, %v", m, err)
	}
}
