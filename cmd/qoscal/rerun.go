package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/measure"
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

// rerunTailLines and rerunTailBytes bound what an error shows of a failed
// rerun command's stderr: its last lines, each put on one line.
const (
	rerunTailLines = 5
	rerunTailBytes = 4096
)

// rerunLineBytes bounds a line of the rerun command's output as the gate
// echoes it: the rest of a longer line is dropped and counted, so that a
// command printing 100 MB without a newline costs neither 100 MB of
// memory nor a 100 MB line in the job's log.
const rerunLineBytes = 4096

// rerunWaitDelay is how long, once the rerun command has exited, the gate
// waits for what it left running to close the command's output before
// killing its process group: a benchmark script that starts a server in
// the background must not hold the gate until the job's own timeout.
const rerunWaitDelay = 200 * time.Millisecond

// defaultRerunTimeout is --rerun-timeout's default: the longest a rerun
// command may run, as long as measure's default --timeout for one
// invocation. A command that hangs is then killed with its process group
// and the gate exits 2, rather than holding the job until its own limit
// (six hours on GitHub's runners).
const defaultRerunTimeout = 30 * time.Minute

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
// zip) is that file; a folder 'qoscal measure' wrote is read from its
// results.csv, which holds every variant's results, unless --baseline
// and --candidate both name files it holds (the loader's rule).
func (g *gateFlags) resultFiles(paths []string) []string {
	if len(paths) == 1 {
		if fi, err := os.Stat(paths[0]); err == nil && !fi.IsDir() {
			return []string{paths[0]}
		}
	}
	var out []string
	named := 0
	for _, s := range []string{g.baseline, g.candidate} {
		spec, err := load.ParseVariantSpec(s)
		if err != nil || spec.File == "" {
			continue
		}
		p := spec.File
		if len(paths) == 1 {
			p = filepath.Join(paths[0], p)
		}
		if _, err := os.Stat(p); err == nil {
			named++
		}
		if len(out) == 0 || out[0] != p {
			out = append(out, p)
		}
	}
	if len(paths) == 1 && named < 2 && load.IsMeasuredFolder(paths[0]) {
		return []string{filepath.Join(paths[0], load.MeasuredFile)}
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

// readResultFile records one result file, checked as the loader checks
// it before reading (formats.StatFile): a command that left a named pipe
// or a link to a device in its place is refused, not read for ever. The
// file's bytes are hashed as they are read, never held whole.
func readResultFile(p string) (resultFile, error) {
	fi, err := formats.StatFile(p)
	if err != nil {
		return resultFile{}, err
	}
	f, err := os.Open(p)
	if err != nil {
		return resultFile{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return resultFile{}, err
	}
	r := resultFile{path: p, mod: fi.ModTime()}
	h.Sum(r.sum[:0])
	return r, nil
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
//
// The command runs in a process group of its own (measure.Group), as
// measure's invocations do: at --rerun-timeout, or on a stop signal to
// qoscal (stopSignals: the group no longer gets a terminal's Ctrl-C
// itself), the whole group is killed, and once the command has exited,
// whatever it left running in the group is killed too (after
// rerunWaitDelay for it to close the command's output).
func (g *gateFlags) rerun(u *ui, paths []string, first *data.Run) (*data.Run, error) {
	files := g.resultFiles(paths)
	before, err := snapshot(files)
	if err != nil {
		return nil, g.rerunError("not run: %v", err)
	}
	u.notef("rerun: running %s", render.OneLine(g.rerunCommand))
	out := &linePrefixer{u: u, max: rerunLineBytes}
	tail := &tailBuffer{max: rerunTailBytes}
	stopped, stop := signal.NotifyContext(u.ctx, stopSignals...)
	defer stop()
	ctx, cancel := stopped, context.CancelFunc(func() {})
	if g.rerunTimeout > 0 {
		ctx, cancel = context.WithTimeout(stopped, g.rerunTimeout)
	}
	defer cancel()
	cmd := shellCommand(ctx, g.rerunCommand)
	cmd.Stdout = out
	cmd.Stderr = io.MultiWriter(out, tail)
	measure.Group(cmd)
	cmd.WaitDelay = rerunWaitDelay
	runErr := measure.StartGroup(cmd)
	if runErr == nil {
		runErr = cmd.Wait()
	}
	measure.ReapGroup(cmd)
	out.flush()
	if errors.Is(runErr, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success() {
		runErr = nil // what the command left running held its output: killed above
	}
	withTail := func(msg string) string {
		if t := tail.lines(rerunTailLines); len(t) > 0 {
			msg += "; its stderr ended: " + strings.Join(t, " | ")
		}
		return msg
	}
	switch {
	case stopped.Err() != nil:
		return nil, g.rerunError("was interrupted (killed with its process group): the run was not measured again")
	case ctx.Err() == context.DeadlineExceeded:
		return nil, g.rerunError("timed out after %s (killed with its process group; --rerun-timeout sets the limit): the run was not measured again", g.rerunTimeout)
	case runErr != nil:
		msg := runErr.Error()
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			msg = "could not start: " + msg
		}
		return nil, g.rerunError("failed (%s): the run was not measured again", withTail(msg))
	}
	after := make([]resultFile, len(before))
	for i, b := range before {
		after[i], err = readResultFile(b.path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, g.rerunError("ran, but the run's result file is gone: %v", err)
		case err != nil:
			return nil, g.rerunError("ran, but left a result file the gate cannot read: %v", err)
		}
	}
	// A file with the same bytes is no measurement taken again, whether
	// its time changed (a command that touched or copied the results
	// back) or not: the pair would be one measurement counted twice, its
	// mean the first run's score, reported as confirmed by a rerun. It is
	// refused, as a command that failed is, rather than judged: a
	// measurement taken again differs in its values.
	for i, b := range before {
		switch a := after[i]; {
		case a.sum == b.sum && a.mod.Equal(b.mod):
			return nil, g.rerunError("left %s as it was: it must measure again and rewrite the run's result files", render.OneLine(b.path))
		case a.sum == b.sum:
			return nil, g.rerunError("rewrote %s with the same bytes: it must measure again, not copy or touch the results (the run and its rerun would be one measurement counted twice)", render.OneLine(b.path))
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
// It keeps at most max bytes of a line: the rest is dropped and counted
// ("… (N more bytes)"). The command's stdout and stderr write to it from
// two goroutines of exec.Cmd, hence the lock.
type linePrefixer struct {
	u    *ui
	max  int
	mu   sync.Mutex
	line []byte
	cut  int64 // bytes of the current line dropped beyond max
}

func (w *linePrefixer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			w.add(p)
			break
		}
		w.add(p[:i])
		w.emit()
		p = p[i+1:]
	}
	return n, nil
}

// add appends p to the line, up to max bytes.
func (w *linePrefixer) add(p []byte) {
	room := max(0, w.max-len(w.line))
	if len(p) > room {
		w.cut += int64(len(p) - room)
		p = p[:room]
	}
	w.line = append(w.line, p...)
}

func (w *linePrefixer) emit() {
	if len(bytes.TrimSpace(w.line)) > 0 || w.cut > 0 {
		line := string(w.line)
		if w.cut > 0 {
			line = string(cutRune(w.line)) + fmt.Sprintf("… (%d more bytes)", w.cut)
		}
		w.u.prefixed("rerun: ", line)
	}
	w.line, w.cut = w.line[:0], 0
}

// cutRune drops a character that the cut at max bytes split in two.
func cutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// flush writes a last line that ended without a newline.
func (w *linePrefixer) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.line) > 0 || w.cut > 0 {
		w.emit()
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	if len(p) >= t.max {
		t.b = append(t.b[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
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
