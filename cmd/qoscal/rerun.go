package main

import (
	"fmt"
	"os/signal"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/internal/rerun"
	"github.com/qoscal/qoscal/render"
)

// The gate's automatic rerun (gate --rerun-command CMD): when the verdict
// is rerun, a score within --rerun-band below the floor, the gate runs
// CMD once through the system's shell, CMD measures again and rewrites
// the run's result files, and the gate reads them again and judges the
// two runs together by the mean of their log scores, with no band
// (gate.GatePair; docs/STATS.md 2.13, 2.14). A healthy job's first
// run lands in the band with the small chance recommend states
// (two_stage.rerun), and its pair then fails only when the mean of both
// is below the floor: the confirmation reviewers ask for, made by the
// job itself rather than by a maintainer re-running it by hand.

// rerunSuffix names the rerun of run ID: ID-rerun (gate.GatePair
// needs two different ids, and gate --record stores both runs).
const rerunSuffix = "-rerun"

// defaultRerunTimeout is --rerun-timeout's default: the longest a rerun
// command may run, as long as measure's default --timeout for one
// invocation. A command that hangs is then killed with its process group
// and the gate exits 2, rather than holding the job until its own limit
// (six hours on GitHub's runners).
const defaultRerunTimeout = 30 * time.Minute

// rerunError is a rerun command that failed, or did not rewrite the
// run's result files: an input error (exit 2) that names the command.
func (g *gateFlags) rerunError(format string, args ...any) error {
	return fmt.Errorf("--rerun-command %s %s", shownValue(render.OneLine(g.rerunCommand)), fmt.Sprintf(format, args...))
}

// rerun runs the rerun command once (internal/rerun: in a process group
// of its own, killed whole at --rerun-timeout or on a stop signal to
// qoscal, stopSignals), checks that it rewrote the run's result files,
// and reads the run again: the rerun, named after the first run with
// rerunSuffix. The command's output goes to stderr, each line behind
// "qoscal: rerun: ", so that stdout holds the gate's results alone and no
// line of the command's is taken for a workflow command.
func (g *gateFlags) rerun(u *ui, paths []string, first *data.Run) (*data.Run, error) {
	files := load.ResultFiles(paths, g.baseline, g.candidate)
	stopped, stop := signal.NotifyContext(u.ctx, stopSignals...)
	defer stop()
	err := rerun.Run(stopped, rerun.Options{
		Command: g.rerunCommand,
		Timeout: g.rerunTimeout,
		Limit:   "--rerun-timeout",
		Files:   files,
		Started: func() { u.notef("rerun: running %s", render.OneLine(g.rerunCommand)) },
		Echo:    func(line string) { u.prefixed("rerun: ", line) },
	})
	if err != nil {
		return nil, g.rerunError("%v", err)
	}
	second, err := g.readRun(u, paths)
	if err != nil {
		return nil, fmt.Errorf("the run after --rerun-command: %w", err)
	}
	second.ID = first.ID + rerunSuffix
	u.notef("rerun: read %s again as run %s", strings.Join(files, ", "), second.ID)
	return second, nil
}

// checkRerunID checks, before the run is judged, that the rerun of run
// id can be named (id and rerunSuffix, within the limit of a name):
// --rerun-command must not measure again only to be refused after.
func checkRerunID(id string) error {
	if err := data.CheckName("run id", id+rerunSuffix); err != nil {
		return usagef("--rerun-command: %v (the rerun of run ID is named ID%s): give the run a shorter --run ID", err, rerunSuffix)
	}
	return nil
}
