package main

// GitHub Actions output (the rules of tui.go hold): under Actions a
// warning or an error is written once, as an annotation, and not again as
// a plain line (the runner shows the annotation in the log where it was
// written, and on the pull request). How annotations, the job's ledger of
// them, step summary entries and step outputs are written is internal/ci;
// what is said, and where, is decided here. A command warns of each fact
// once (ui.warning: the same text is said once; present.Unsaid: two
// warnings of one fact are one).

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/internal/ci"
	"github.com/qoscal/qoscal/render"
)

// ghCommand writes one annotation without a file (ci.Command).
func ghCommand(w io.Writer, kind, title, msg string) { ci.Command(w, kind, title, msg) }

// output is one step output: name=value (ci.Output).
type output struct{ name, value string }

// warnAbout prints a warning about something named in the annotation's
// title under Actions ("qoscal gate: drift"), a plain warning line with
// the same text otherwise; a text said before by this command is not said
// again.
func (u *ui) warnAbout(about, msg string) {
	msg = render.OneLine(msg)
	if u.warned[msg] {
		return
	}
	if u.warned == nil {
		u.warned = map[string]bool{}
	}
	u.warned[msg] = true
	if u.github {
		u.annotate(ci.Annotation{Kind: "warning", Title: u.title(about), Msg: msg})
		return
	}
	u.prefixed("warning: ", msg)
}

// annotate writes an annotation where qoscal's annotations go, but a
// warning the job's ledger (ci.Ledger) turns into a plain line: one the
// job annotated already, or one past the step's share (the latter also
// listed in the step summary, by noteUnannotated). An error is always
// written.
func (u *ui) annotate(a ci.Annotation) {
	if a.Kind != "error" {
		if u.ledger == nil {
			u.ledger = ci.OpenLedger(u.getenv)
		}
		switch u.ledger.Admit(a) {
		case ci.Earlier:
			u.prefixed("warning: ", a.Msg+" (annotated earlier in this job)")
			return
		case ci.StepFull:
			u.prefixed("warning: ", a.Msg)
			u.unannotated = append(u.unannotated, a.Msg)
			return
		}
	}
	a.Write(u.annotations())
}

// noteUnannotated lists in the step summary the warnings that were plain
// lines because the step had written its share of annotations.
func (u *ui) noteUnannotated() {
	if len(u.unannotated) == 0 || u.summary == "" {
		return
	}
	u.appendSummary(ci.UnannotatedNote(u.title(""), u.unannotated))
	u.unannotated = nil
}

// appendSummary appends b to the step summary; a summary that cannot be
// written is said on stderr: the exit code is the command's.
func (u *ui) appendSummary(b []byte) {
	if err := appendFile(u.summary, b); err != nil {
		u.prefixed("warning: ", fmt.Sprintf("step summary %s: %v", u.summary, err))
	}
}

// title is an annotation title: "qoscal CMD" and what it is about.
func (u *ui) title(about string) string {
	t := "qoscal"
	if u.cmd != "" {
		t += " " + u.cmd
	}
	if about != "" {
		t += ": " + about
	}
	return t
}

// errorPlace is the file and line an error is about, when it says: the
// first syntax error of an input error.
func errorPlace(err error) (file string, line int) {
	var ie *formats.InputError
	if errors.As(err, &ie) && len(ie.Errs) > 0 {
		return ie.Errs[0].File, ie.Errs[0].Line
	}
	var se *formats.SyntaxError
	if errors.As(err, &se) {
		return se.File, se.Line
	}
	return "", 0
}

// annotateError writes the one ::error:: annotation of an error that
// stops the command, its hints as lines of the message.
func (u *ui) annotateError(err error, hints []string) {
	file, line := errorPlace(err)
	var lines []string
	for _, l := range ci.ErrorLines(err) {
		lines = append(lines, render.OneLine(l))
	}
	for _, h := range hints {
		lines = append(lines, "hint: "+render.OneLine(h))
	}
	u.annotate(ci.Annotation{Kind: "error", Title: u.title("error"), File: file, Line: line, Msg: strings.Join(lines, "\n")})
}

// noteError appends a short entry for an error to the step summary, when
// there is one (GITHUB_STEP_SUMMARY, or the gate's --summary).
func (u *ui) noteError(err error, code int, hints []string) {
	if u.summary != "" {
		u.appendSummary(ci.ErrorNote(u.title("error"), code, ci.ErrorLines(err), hints))
	}
}

// annotationMode applies a command's --annotations flag: auto leaves the
// environment's choice (GITHUB_ACTIONS=true), github and none force it.
// Any other mode is an error, and changes nothing.
func (u *ui) annotationMode(mode string) error {
	switch mode {
	case "auto":
	case "github":
		u.github = true
	case "none":
		u.github = false
	default:
		return usagef("--annotations must be auto, github or none, got %q", mode)
	}
	return nil
}

// setOutputs appends step outputs to $GITHUB_OUTPUT when it is set (under
// Actions), as name=value lines.
func (u *ui) setOutputs(outs []output) error {
	path := u.stepOutputs
	if path == "" {
		return nil
	}
	cio := make([]ci.Output, len(outs))
	for i, o := range outs {
		cio[i] = ci.Output{Name: o.name, Value: o.value}
	}
	b, err := ci.Outputs(cio)
	if err != nil {
		return err
	}
	// Tried once: a file that cannot be written is said once, by the
	// error this returns.
	u.outputsSet = true
	if err := appendFile(path, b); err != nil {
		return fmt.Errorf("step outputs $GITHUB_OUTPUT %s: %w", path, err)
	}
	return nil
}

// outputError writes the gate's exit-code output for an error that
// stopped it before its outputs were written (exit 2), as the action
// promises an exit code for every outcome; there is no verdict. Only the
// gate writes step outputs.
func (u *ui) outputError(code int) {
	if (u.cmd != "gate" && !u.gating) || u.outputsSet {
		return
	}
	if err := u.setOutputs([]output{{"exit-code", strconv.Itoa(code)}}); err != nil {
		u.prefixed("warning: ", err.Error())
	}
}
