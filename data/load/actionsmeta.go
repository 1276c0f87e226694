package load

import (
	"time"

	"github.com/qoscal/qoscal/data"
)

// ActionsMeta is a run's qoscal.json as the GitHub Actions environment
// (getenv) gives it: the Actions run and attempt, the commit, the
// runner's OS and name, the time now and the qoscal version; Version is
// the caller's to set. A value that is no valid name (a line break, say)
// is an error naming its variable, returned with the Meta.
func ActionsMeta(getenv func(string) string, now time.Time, version string) (Meta, error) {
	m := Meta{RunID: getenv("GITHUB_RUN_ID"), Attempt: getenv("GITHUB_RUN_ATTEMPT"),
		Commit: getenv("GITHUB_SHA"), RunnerOS: getenv("RUNNER_OS"), RunnerName: getenv("RUNNER_NAME"),
		Time: now.Format(time.RFC3339), QoscalVersion: version}
	for _, f := range []struct{ name, v string }{{"GITHUB_RUN_ID", m.RunID}, {"GITHUB_RUN_ATTEMPT", m.Attempt},
		{"GITHUB_SHA", m.Commit}, {"RUNNER_OS", m.RunnerOS}, {"RUNNER_NAME", m.RunnerName}} {
		if err := data.CheckName("$"+f.name, f.v); err != nil {
			return m, err
		}
	}
	return m, nil
}
