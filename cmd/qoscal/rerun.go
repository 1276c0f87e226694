package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"qoscal/data"
	"qoscal/data/load"
	"qoscal/render"
)

// The gate's automatic rerun (gate --rerun-command CMD): when the verdict
// is rerun, a score within --rerun-band below the floor, the gate runs
// CMD once through the system's shell, CMD measures again and rewrites
// the run's result files, and the gate reads them again and judges the
// two runs together by the mean of their log scores, with no band
// (calibrate.GatePair; docs/STATS.md 2.13, 2.14). A healthy job's first
// run lands in the band with the small chance recommend states
// (two_stage.rerun), and its pair then fails only when the mean of both
// is below the floor: the confirmation reviewers ask for, made by the
// job itself rather than by a maintainer re-running it by hand.

// rerunSuffix names the rerun of run ID: ID-rerun (calibrate.GatePair
// needs two different ids, and gate --record stores both runs).
const rerunSuffix = "-rerun"

// rerunTailLines and rerunTailBytes bound what an error shows of a failed
// rerun command's stderr: its last lines, each put on one line.
const (
	rerunTailLines = 5
	rerunTailBytes = 4096
)

// resultFile is one result file of the run, as it was before the rerun
// command ran: its modification time and the SHA-256 of its content.
type resultFile struct {
	path string
	mod  time.Time
	sum  [sha256.Size]byte
}

// resultFiles are the files that hold the judged variants' results: the
// paths --baseline and --candidate name, inside the run folder when one
// is given; a PATH that is a file (a CSV file of the run, an artifact's
// zip) is that file.
func (g *gateFlags) resultFiles(paths []string) []string {
	if len(paths) == 1 {
		if fi, err := os.Stat(paths[0]); err == nil && !fi.IsDir() {
			return []string{paths[0]}
		}
	}
	var out []string
	for _, s := range []string{g.baseline, g.candidate} {
		spec, err := load.ParseVariantSpec(s)
		if err != nil || spec.File == "" {
			continue
		}
		p := spec.File
		if len(paths) == 1 {
			p = filepath.Join(paths[0], p)
		}
		if len(out) == 0 || out[0] != p {
			out = append(out, p)
		}
	}
	return out
}

// snapshot records the result files as they are.
func snapshot(paths []string) ([]resultFile, error) {
	out := make([]resultFile, 0, len(paths))
	for _, p := range paths {
		f, err := readResultFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func readResultFile(p string) (resultFile, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return resultFile{}, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return resultFile{}, err
	}
	return resultFile{path: p, mod: fi.ModTime(), sum: sha256.Sum256(b)}, nil
}

// rerunError is a rerun command that failed, or did not rewrite the
// run's result files: an input error (exit 2) that names the command.
func (g *gateFlags) rerunError(format string, args ...any) error {
	return fmt.Errorf("--rerun-command %s %s", shownValue(render.OneLine(g.rerunCommand)), fmt.Sprintf(format, args...))
}

// rerun runs the rerun command once, checks that it rewrote the run's
// result files, and reads the run again: the rerun, named after the
// first run with rerunSuffix. The command's output goes to stderr, each
// line behind "qoscal: rerun: ", so that stdout holds the gate's results
// alone and no line of the command's is taken for a workflow command.
func (g *gateFlags) rerun(u *ui, paths []string, first *data.Run) (*data.Run, error) {
	files := g.resultFiles(paths)
	before, err := snapshot(files)
	if err != nil {
		return nil, g.rerunError("not run: %v", err)
	}
	u.notef("rerun: running %s", render.OneLine(g.rerunCommand))
	out := &linePrefixer{u: u}
	tail := &tailBuffer{max: rerunTailBytes}
	cmd := shellCommand(u, g.rerunCommand)
	cmd.Stdout = out
	cmd.Stderr = io.MultiWriter(out, tail)
	runErr := cmd.Run()
	out.flush()
	if runErr != nil {
		msg := runErr.Error()
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			msg = "could not start: " + msg
		}
		if t := tail.lines(rerunTailLines); len(t) > 0 {
			msg += "; its stderr ended: " + strings.Join(t, " | ")
		}
		return nil, g.rerunError("failed (%s): the run was not measured again", msg)
	}
	after := make([]resultFile, len(before))
	for i, b := range before {
		if after[i], err = readResultFile(b.path); err != nil {
			return nil, g.rerunError("ran, but the run's result file is gone: %v", err)
		}
	}
	for i, b := range before {
		if a := after[i]; a.sum == b.sum && a.mod.Equal(b.mod) {
			return nil, g.rerunError("left %s as it was: it must measure again and rewrite the run's result files", render.OneLine(b.path))
		}
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

// linePrefixer writes the rerun command's output to stderr a line at a
// time, each behind "qoscal: rerun: " (ui.prefixed puts it on one line).
type linePrefixer struct {
	u    *ui
	line []byte
}

func (w *linePrefixer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			w.line = append(w.line, p...)
			break
		}
		w.line = append(w.line, p[:i]...)
		w.emit()
		p = p[i+1:]
	}
	return n, nil
}

func (w *linePrefixer) emit() {
	if len(bytes.TrimSpace(w.line)) > 0 {
		w.u.prefixed("rerun: ", string(w.line))
	}
	w.line = w.line[:0]
}

// flush writes a last line that ended without a newline.
func (w *linePrefixer) flush() {
	if len(w.line) > 0 {
		w.emit()
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = t.b[over:]
	}
	return len(p), nil
}

// lines are the last n non-blank lines kept, each on one line.
func (t *tailBuffer) lines(n int) []string {
	var out []string
	for _, l := range strings.FieldsFunc(string(t.b), func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.TrimSpace(l) != "" {
			out = append(out, render.OneLine(strings.TrimSpace(l)))
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}
