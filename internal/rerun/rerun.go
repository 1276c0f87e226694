// Package rerun runs the gate's rerun command (gate --rerun-command CMD)
// and checks what it did, apart from the decision it feeds
// (calibrate/gate's Decide) and the command line that names it: CMD once
// through the system's shell, in a process group of its own that a
// timeout or a stop kills whole (measure.Group), its output echoed a line
// at a time with each line bounded, the last lines of its stderr kept for
// the error, and the run's result files checked before and after: a
// command that failed, or left the files as they were, or rewrote them
// with the same bytes, measured nothing again and is refused.
//
// It imports measure (the process group), data/formats (the check of a
// file's kind before it is read) and render (a line of output on one
// line) only.
package rerun

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/measure"
	"github.com/qoscal/qoscal/render"
)

// TailLines and TailBytes bound what an error shows of a failed command's
// stderr: its last lines, each put on one line.
const (
	TailLines = 5
	TailBytes = 4096
)

// LineBytes bounds a line of the command's output as it is echoed: the
// rest of a longer line is dropped and counted, so that a command printing
// 100 MB without a newline costs neither 100 MB of memory nor a 100 MB
// line in the job's log.
const LineBytes = 4096

// WaitDelay is how long, once the command has exited, Run waits for what
// it left running to close the command's output before killing its
// process group: a benchmark script that starts a server in the
// background must not hold the gate until the job's own timeout.
const WaitDelay = 200 * time.Millisecond

// Options are what Run runs and checks.
type Options struct {
	Command string        // run through the system's shell (Shell)
	Timeout time.Duration // 0: no limit
	// Limit names what sets Timeout, for its error: "--rerun-timeout".
	Limit string
	// Files are the run's result files, which the command must rewrite
	// with other bytes.
	Files []string
	// Started is called once the files are recorded, before the command
	// starts; Echo with each line of its output, stdout and stderr.
	Started func()
	Echo    func(line string)
}

// Run records the result files, runs the command, and checks that it
// rewrote them. ctx done (a stop signal) kills the command's group, as
// the timeout does. Its errors say what happened to the command, to be
// put after the command's name: "timed out after 1s (...)".
func Run(ctx context.Context, o Options) error {
	before, err := snapshot(o.Files)
	if err != nil {
		return fmt.Errorf("not run: %v", err)
	}
	if o.Started != nil {
		o.Started()
	}
	out := &linePrefixer{echo: o.Echo, max: LineBytes}
	tail := &tailBuffer{max: TailBytes}
	run, cancel := ctx, context.CancelFunc(func() {})
	if o.Timeout > 0 {
		run, cancel = context.WithTimeout(ctx, o.Timeout)
	}
	defer cancel()
	cmd := Shell(run, o.Command)
	cmd.Stdout = out
	cmd.Stderr = io.MultiWriter(out, tail)
	measure.Group(cmd)
	cmd.WaitDelay = WaitDelay
	runErr := measure.StartGroup(cmd)
	if runErr == nil {
		runErr = cmd.Wait()
	}
	measure.ReapGroup(cmd)
	out.flush()
	if errors.Is(runErr, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success() {
		runErr = nil // what the command left running held its output: killed above
	}
	switch {
	case ctx.Err() != nil:
		return errors.New("was interrupted (killed with its process group): the run was not measured again")
	case run.Err() == context.DeadlineExceeded:
		return fmt.Errorf("timed out after %s (killed with its process group; %s sets the limit): the run was not measured again", o.Timeout, o.Limit)
	case runErr != nil:
		msg := runErr.Error()
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			msg = "could not start: " + msg
		}
		if t := tail.lines(TailLines); len(t) > 0 {
			msg += "; its stderr ended: " + strings.Join(t, " | ")
		}
		return fmt.Errorf("failed (%s): the run was not measured again", msg)
	}
	return checkRewritten(before)
}

// checkRewritten reads the files again. A file with the same bytes is no
// measurement taken again, whether its time changed (a command that
// touched or copied the results back) or not: the pair would be one
// measurement counted twice, its mean the first run's score, reported as
// confirmed by a rerun. It is refused, as a command that failed is,
// rather than judged: a measurement taken again differs in its values.
func checkRewritten(before []resultFile) error {
	after := make([]resultFile, len(before))
	for i, b := range before {
		var err error
		after[i], err = readResultFile(b.path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return fmt.Errorf("ran, but the run's result file is gone: %v", err)
		case err != nil:
			return fmt.Errorf("ran, but left a result file the gate cannot read: %v", err)
		}
	}
	for i, b := range before {
		switch a := after[i]; {
		case a.sum == b.sum && a.mod.Equal(b.mod):
			return fmt.Errorf("left %s as it was: it must measure again and rewrite the run's result files", render.OneLine(b.path))
		case a.sum == b.sum:
			return fmt.Errorf("rewrote %s with the same bytes: it must measure again, not copy or touch the results (the run and its rerun would be one measurement counted twice)", render.OneLine(b.path))
		}
	}
	return nil
}

// resultFile is one result file of the run, as it was before the rerun
// command ran: its modification time and the SHA-256 of its content.
type resultFile struct {
	path string
	mod  time.Time
	sum  [sha256.Size]byte
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

// linePrefixer hands the command's output to echo a line at a time. It
// keeps at most max bytes of a line: the rest is dropped and counted
// ("… (N more bytes)"). The command's stdout and stderr write to it from
// two goroutines of exec.Cmd, hence the lock.
type linePrefixer struct {
	echo func(string)
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
	if (len(bytes.TrimSpace(w.line)) > 0 || w.cut > 0) && w.echo != nil {
		line := string(w.line)
		if w.cut > 0 {
			line = string(cutRune(w.line)) + fmt.Sprintf("… (%d more bytes)", w.cut)
		}
		w.echo(line)
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

// flush hands on a last line that ended without a newline.
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
