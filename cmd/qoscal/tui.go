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
//     An error never leaves with 0.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

type ui struct {
	stdout, stderr io.Writer
	getenv         func(string) string
}

func (u *ui) warnf(format string, args ...any) {
	u.prefixed("warning: ", fmt.Sprintf(format, args...))
}

func (u *ui) hintf(format string, args ...any) {
	u.prefixed("hint: ", fmt.Sprintf(format, args...))
}

func (u *ui) notef(format string, args ...any) {
	u.prefixed("", fmt.Sprintf(format, args...))
}

func (u *ui) prefixed(kind, msg string) {
	for _, line := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		fmt.Fprintf(u.stderr, "qoscal: %s%s\n", kind, line)
		kind = strings.Repeat(" ", len(kind))
	}
}

// isTerminal reports whether w is a terminal (for progress display).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// usageError is a mistake in the command line: exit 2, with a pointer to
// the command's help.
type usageError struct {
	cmd string
	err error
}

func (e *usageError) Error() string { return e.err.Error() }

func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, err: fmt.Errorf(format, args...)}
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
	code := exitInput
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
		if ee.err == nil {
			return code
		}
	}
	u.prefixed("error: ", err.Error())
	var he *hintError
	if errors.As(err, &he) {
		u.hintf("%s", he.hint)
	}
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.cmd != "" {
			u.hintf("run 'qoscal help %s' for its usage", ue.cmd)
		} else {
			u.hintf("run 'qoscal help' for the commands")
		}
	}
	return code
}
