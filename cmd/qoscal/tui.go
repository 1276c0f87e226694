package main

// Output policy. Every message qoscal prints goes through this file.
//
//   - Results (tables, JSON, summaries a user asked for) go to stdout, and
//     only results: with --format json, stdout is one JSON document.
//   - Everything else goes to stderr, prefixed "qoscal: ": "error: " for
//     what stopped the command, "warning: " for what the user should know
//     but did not stop it, "hint: " for a suggestion of what to do next.
//   - Exit codes are decided in one place, exitCode: 0 success or pass,
//     1 the gate failed, 2 usage or input error, 3 the gate could not judge.
//     An error never leaves with 0. With --format json, a command that
//     fails before it printed its document prints {"error": ...,
//     "exit_code": ...} instead, so stdout is always one JSON document.
//   - Under GitHub Actions (GITHUB_ACTIONS=true, or --annotations github,
//     which the opening applies: ui.open) a warning or an error is an annotation instead of a plain
//     line, never both, so that every line is in the log once (ci.go);
//     an error also leaves a short entry in the step summary.
//   - No line of stdout that qoscal did not mean as a workflow command
//     starts with "::": GitHub Actions runs such lines as commands
//     (::error::, ::add-mask::, ::stop-commands::), and benchmark names,
//     run ids and variant names come from files. Such a line is written
//     with a backslash before it (ci.Guard); qoscal's own annotations go
//     through ci.Annotation, which escapes its data as the runner expects.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/qoscal/qoscal/internal/ci"
	"github.com/qoscal/qoscal/present"
	"github.com/qoscal/qoscal/render"
)

type ui struct {
	stdout, stderr io.Writer
	getenv         func(string) string

	// stdin is standard input, for a command that reads a file named "-"
	// (comment --body -); nil when there is none.
	stdin io.Reader
	// out is stdout behind the "::" guard; stdout is out.
	out *ci.Guard
	// json is set by outputFormat when the command prints JSON.
	json bool
	// markdown is set by outputFormat when the command prints Markdown,
	// a document for a step summary or a comment.
	markdown bool
	// ctx is the context of the command's work (store access).
	ctx context.Context
	// cmd is the command being run ("" before dispatch), for annotation
	// titles.
	cmd string
	// github is set when warnings and errors are GitHub Actions
	// annotations rather than plain lines.
	github bool
	// summary is the step summary file an error is noted in ("": none).
	summary string
	// summaryFlag names where summary came from, when not
	// $GITHUB_STEP_SUMMARY: "--summary".
	summaryFlag string
	// stepOutputs is $GITHUB_OUTPUT, where the gate writes its step
	// outputs ("": none, or refused as one of the command's inputs).
	stepOutputs string
	// gating is set by a command other than gate that gives a verdict
	// (measure --calibration): it writes the gate's step outputs.
	gating bool
	// outputsSet is set once the step outputs were written (or tried), so
	// that an error after them does not write exit-code a second time.
	outputsSet bool
	// warned are the warnings said so far, so that none is said twice
	// (warnAbout).
	warned map[string]bool
	// ledger counts the job's annotations (ci.go), once opened;
	// unannotated are the warnings past the step's share, for the step
	// summary (noteUnannotated).
	ledger      *ci.Ledger
	unannotated []string
}

func newUI(stdout, stderr io.Writer, getenv func(string) string) *ui {
	out := ci.NewGuard(stdout)
	return &ui{stdout: out, stderr: stderr, getenv: getenv, out: out, ctx: context.Background(),
		github: getenv("GITHUB_ACTIONS") == "true", summary: getenv("GITHUB_STEP_SUMMARY"),
		stepOutputs: getenv("GITHUB_OUTPUT")}
}

// flush writes what the "::" guard still holds (a last line without a
// newline).
func (u *ui) flush() { u.out.Flush() }

// annotations returns where qoscal's own workflow commands go: stdout past
// the guard, or stderr when stdout holds a document, JSON or Markdown (a
// Markdown document goes into a step summary or a comment: an annotation
// there would be a line of text, and missing from the log). The runner
// reads workflow commands on both. (stderr needs no guard: every line
// qoscal writes there starts with "qoscal: ".)
func (u *ui) annotations() io.Writer {
	if u.json || u.markdown {
		return u.stderr
	}
	return u.out.Raw()
}

// show writes a command's result, a view of package present, in the
// format --format chose: its JSON document, or its document (render.Doc)
// as Markdown or text. It is the one place where a view meets an output
// format.
func show[J any](u *ui, v interface {
	Doc() *render.Doc
	JSON() J
}) error {
	switch {
	case u.json:
		return writeJSON(u, v.JSON())
	case u.markdown:
		v.Doc().WriteMarkdown(u.stdout)
	default:
		v.Doc().WriteText(u.stdout)
	}
	return nil
}

// writeJSON writes v as indented JSON on stdout.
func writeJSON(u *ui, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding JSON: %w", err)
	}
	_, err = fmt.Fprintf(u.stdout, "%s\n", render.BreakLegacyJSON(b))
	return err
}

// warnf prints a warning: a plain line, or under Actions an annotation
// (warnAbout); once.
func (u *ui) warnf(format string, args ...any) {
	u.warnAbout("", fmt.Sprintf(format, args...))
}

func (u *ui) hintf(format string, args ...any) {
	u.prefixed("hint: ", fmt.Sprintf(format, args...))
}

func (u *ui) notef(format string, args ...any) {
	u.prefixed("", fmt.Sprintf(format, args...))
}

// prefixed writes lines to stderr, each behind "qoscal: " and kind (the
// kind only on the first, blanks as long on the others). Each line is
// put on one line (render.OneLine): a path holding "\n::error::" or
// "\r::error::" (the Actions runner ends a line at a lone CR too) cannot
// start a line of its own, nor end the message early.
func (u *ui) prefixed(kind string, lines ...string) {
	for _, line := range lines {
		fmt.Fprintf(u.stderr, "qoscal: %s%s\n", kind, render.BreakLegacy(render.OneLine(line)))
		kind = strings.Repeat(" ", len(kind))
	}
}

// isTerminal reports whether w is a terminal (for progress display).
func isTerminal(w io.Writer) bool {
	if g, ok := w.(*ci.Guard); ok {
		w = g.Underlying()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// usageError is a mistake in the command line: exit 2, with a pointer to
// the help of the command being run (u.cmd: errors need not name it).
type usageError struct {
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// hintError carries a suggestion shown after the error.
type hintError struct {
	err  error
	hint string
}

func (e *hintError) Error() string { return e.err.Error() }
func (e *hintError) Unwrap() error { return e.err }

func withHint(err error, format string, args ...any) error {
	return &hintError{err: err, hint: fmt.Sprintf(format, args...)}
}

// exitError asks for a specific exit code once its message is printed.
// A nil err means the message was already printed.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

// Unwrap is the error behind the code, for its hints.
func (e *exitError) Unwrap() error { return e.err }

// Exit codes.
const (
	exitOK           = 0
	exitRegression   = 1
	exitInput        = 2
	exitInconclusive = 3
)

// exitCode prints err (if any) and returns the process exit code for it.
func (u *ui) exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	// The library's errors that a flag puts right, in the command
	// line's words.
	err = present.Error(err)
	code := exitInput
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
		if ee.err == nil {
			return code
		}
	}
	hints := u.errorHints(err)
	if u.github {
		u.annotateError(err, hints)
	} else {
		u.prefixed("error: ", ci.ErrorLines(err)...)
	}
	u.noteError(err, code, hints)
	u.outputError(code)
	if u.json && u.out.Written() == 0 {
		b, _ := json.MarshalIndent(struct {
			Error    string `json:"error"`
			ExitCode int    `json:"exit_code"`
		}{err.Error(), code}, "", "  ")
		// As writeJSON does: "##[" in a string is written escaped, so that
		// the document still parses after the stdout writer's rule.
		fmt.Fprintf(u.stdout, "%s\n", render.BreakLegacyJSON(b))
	}
	if !u.github {
		for _, h := range hints {
			u.hintf("%s", h)
		}
	}
	return code
}

// errorHints are the suggestions shown after an error: its own hint, and
// for a usage error where the usage is: the help of the command being run,
// or before one is, the list of commands.
func (u *ui) errorHints(err error) []string {
	var hints []string
	var he *hintError
	if errors.As(err, &he) {
		hints = append(hints, he.hint)
	}
	var ue *usageError
	if errors.As(err, &ue) {
		if u.cmd != "" {
			hints = append(hints, fmt.Sprintf("run 'qoscal help %s' for its usage", u.cmd))
		} else {
			hints = append(hints, "run 'qoscal help' for the commands")
		}
	}
	return hints
}
