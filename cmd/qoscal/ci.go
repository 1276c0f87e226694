package main

// GitHub Actions output: annotations (workflow commands) and the step
// summary entry of an error. The rules of tui.go hold: under Actions a
// warning or an error is written once, as an annotation, and not again as
// a plain line (the runner shows the annotation in the log where it was
// written, and on the pull request); every piece of text in an annotation
// is escaped, so that a file name or a benchmark name cannot end it and
// start a command of its own.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"qoscal/data/formats"
	"qoscal/render"
)

// annotation is one GitHub Actions workflow command that qoscal means:
// ::KIND title=TITLE[,file=FILE][,line=N]::MSG.
type annotation struct {
	kind  string // error, warning or notice
	title string // "qoscal gate: FAIL"; starts with "qoscal "
	file  string // the input file it is about, if known
	line  int    // the line in file, if known (1-based)
	msg   string
}

// write writes the workflow command, with its data and properties escaped
// as the runner expects (%, CR, LF; and : and , in properties), and the
// runner's older command form ##[ broken up.
func (a annotation) write(w io.Writer) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	var b strings.Builder
	fmt.Fprintf(&b, "::%s title=%s", a.kind, prop.Replace(render.BreakLegacy(render.OneLine(a.title))))
	if a.file != "" {
		fmt.Fprintf(&b, ",file=%s", prop.Replace(render.BreakLegacy(render.OneLine(a.file))))
		if a.line > 0 {
			fmt.Fprintf(&b, ",line=%d", a.line)
		}
	}
	fmt.Fprintf(&b, "::%s\n", esc.Replace(render.BreakLegacy(strings.TrimRight(a.msg, "\r\n"))))
	io.WriteString(w, b.String())
}

// ghCommand writes one annotation without a file, its message on one
// line (render.OneLine).
func ghCommand(w io.Writer, kind, title, msg string) {
	annotation{kind: kind, title: title, msg: render.OneLine(msg)}.write(w)
}

// warnAbout prints a warning about something named in the annotation's
// title under Actions ("qoscal gate: drift"), a plain warning line with
// the same text otherwise.
func (u *ui) warnAbout(about, msg string) {
	msg = render.OneLine(msg)
	if u.github {
		u.annotate(annotation{kind: "warning", title: u.title(about), msg: msg})
		return
	}
	u.prefixed("warning: ", msg)
}

// annotate writes an annotation where qoscal's annotations go.
func (u *ui) annotate(a annotation) { a.write(u.annotations()) }

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
	for _, l := range errorLines(err) {
		lines = append(lines, render.OneLine(l))
	}
	for _, h := range hints {
		lines = append(lines, "hint: "+render.OneLine(h))
	}
	msg := strings.Join(lines, "\n")
	u.annotate(annotation{kind: "error", title: u.title("error"), file: file, line: line, msg: msg})
}

// noteError appends a short entry for an error to the step summary, when
// there is one (GITHUB_STEP_SUMMARY, or the gate's --summary), so that a
// red job says why in its summary too. A summary that cannot be written
// is said on stderr: the exit code is the error's.
func (u *ui) noteError(err error, code int, hints []string) {
	if u.summary == "" {
		return
	}
	// The error's lines hold outside text (file names, a server's
	// message): each is quoted as code, on one line (render.Code).
	var b bytes.Buffer
	d := &render.Doc{}
	d.Add(&render.Heading{Level: 3, Text: fmt.Sprintf("%s (exit %d)", u.title("error"), code)})
	d.WriteMarkdown(&b)
	b.WriteString("\n")
	for _, l := range errorLines(err) {
		b.WriteString(render.Code(l) + "\n")
	}
	d = &render.Doc{}
	if len(hints) > 0 {
		b.WriteString("\n")
		d.Add(&render.List{Items: prefixAll("hint: ", hints)})
	}
	d.Add(&render.Blank{})
	d.WriteMarkdown(&b)
	if werr := appendFile(u.summary, b.Bytes()); werr != nil {
		u.prefixed("warning: ", fmt.Sprintf("step summary %s: %v", u.summary, werr))
	}
}

func prefixAll(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
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

// output is one step output: name=value.
type output struct{ name, value string }

// setOutputs appends step outputs to $GITHUB_OUTPUT when it is set (under
// Actions), as name=value lines. A value never holds a line break (the
// callers give words and numbers; a break is refused rather than let it
// forge another output).
func (u *ui) setOutputs(outs []output) error {
	path := u.stepOutputs
	if path == "" {
		return nil
	}
	var b strings.Builder
	for _, o := range outs {
		if strings.ContainsAny(o.name+o.value, "\r\n") {
			return fmt.Errorf("step output %s: a value with a line break (this is a bug in qoscal)", o.name)
		}
		fmt.Fprintf(&b, "%s=%s\n", o.name, o.value)
	}
	// Tried once: a file that cannot be written is said once, by the
	// error this returns.
	u.outputsSet = true
	if err := appendFile(path, []byte(b.String())); err != nil {
		return fmt.Errorf("step outputs $GITHUB_OUTPUT %s: %v", path, err)
	}
	return nil
}

// outputError writes the gate's exit-code output for an error that
// stopped it before its outputs were written (exit 2), as the action
// promises an exit code for every outcome; there is no verdict. Only the
// gate writes step outputs. A $GITHUB_OUTPUT that cannot be written is
// said on stderr: the exit code is the error's.
func (u *ui) outputError(code int) {
	if (u.cmd != "gate" && !u.gating) || u.outputsSet {
		return
	}
	if err := u.setOutputs([]output{{"exit-code", strconv.Itoa(code)}}); err != nil {
		u.prefixed("warning: ", err.Error())
	}
}
