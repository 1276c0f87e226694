package main

// GitHub Actions output: annotations (workflow commands) and the step
// summary entry of an error. The rules of tui.go hold: under Actions a
// warning or an error is written once, as an annotation, and not again as
// a plain line (the runner shows the annotation in the log where it was
// written, and on the pull request); every piece of text in an annotation
// is escaped, so that a file name or a benchmark name cannot end it and
// start a command of its own.
//
// Annotations are few, so that the ones written are read:
//   - a command warns of each fact once (ui.warning: the same text is
//     said once; present.Unsaid: two warnings of one fact are one);
//   - a warning that an earlier qoscal command of the same job already
//     annotated, word for word (recommend and report on the same runs
//     in one calibration job), is a plain line, not a second annotation;
//   - one step writes at most maxStepWarnings warning annotations (GitHub
//     shows 10 a step); the rest are plain lines, and the step summary
//     lists them under a line saying how many more there were. The one
//     annotation that ends a command (an error, the gate's verdict) is
//     always written, in the place kept for it.
//
// The job's annotations are recorded in a file in $RUNNER_TEMP (which the
// runner empties at the start and end of every job), named for the run,
// attempt and job: a line per annotation, the step ($GITHUB_ACTION), the
// kind and a hash of the message. Without $RUNNER_TEMP (annotations asked
// for with --annotations github outside Actions) the count is the
// command's own.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/render"
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
		u.annotate(annotation{kind: "warning", title: u.title(about), msg: msg})
		return
	}
	u.prefixed("warning: ", msg)
}

// maxStepWarnings is how many warning annotations one step writes: GitHub
// shows 10 annotations of a kind a step, and one place is kept for the
// annotation that ends a command (an error, or the gate's verdict).
const maxStepWarnings = 9

// annotate writes an annotation where qoscal's annotations go, by the
// rules at the top of this file: a warning the job already annotated, or
// one past the step's maxStepWarnings, is a plain line instead (the
// latter also listed in the step summary, by noteUnannotated). An error
// is always written.
func (u *ui) annotate(a annotation) {
	if a.kind != "error" {
		l := u.annotationLedger()
		key := l.key(a)
		switch {
		case l.seen[key]:
			u.prefixed("warning: ", a.msg+" (annotated earlier in this job)")
			return
		case l.inStep >= maxStepWarnings:
			u.prefixed("warning: ", a.msg)
			u.unannotated = append(u.unannotated, a.msg)
			return
		}
		l.add(key)
	}
	a.write(u.annotations())
}

// ledger is what the job's qoscal commands have annotated (see the top
// of this file): the hashes of the warnings annotated in the job, and
// how many in this step.
type ledger struct {
	path, step string // path "" keeps the count in memory
	seen       map[string]bool
	inStep     int
}

// annotationLedger opens the job's ledger, once per command.
func (u *ui) annotationLedger() *ledger {
	if u.ledger != nil {
		return u.ledger
	}
	l := &ledger{step: oneField(u.getenv("GITHUB_ACTION")), seen: map[string]bool{}}
	u.ledger = l
	tmp := u.getenv("RUNNER_TEMP")
	if tmp == "" || !filepath.IsAbs(tmp) {
		return l
	}
	job := oneField(u.getenv("GITHUB_RUN_ID") + "-" + u.getenv("GITHUB_RUN_ATTEMPT") + "-" + u.getenv("GITHUB_JOB"))
	l.path = filepath.Join(tmp, "qoscal-annotations-"+jobFileName.ReplaceAllString(job, "_"))
	b, err := os.ReadFile(l.path)
	if err != nil {
		return l
	}
	for _, line := range strings.Split(string(b), "\n") {
		step, rest, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		l.seen[rest] = true
		if step == l.step {
			l.inStep++
		}
	}
	return l
}

// jobFileName matches what a ledger's file name leaves out of the job's
// name.
var jobFileName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// oneField puts text from the environment in one field of a ledger line.
func oneField(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}

// key is what tells one warning from another in the ledger: a hash of
// its kind and its message, the same in every command that says it.
func (l *ledger) key(a annotation) string {
	h := sha256.Sum256([]byte(a.kind + "\x00" + a.msg))
	return a.kind + "\t" + hex.EncodeToString(h[:16])
}

// add records an annotation: in memory, and in the job's file when
// there is one (a line appended whole, so that the commands of a step
// that run at once do not cut each other's lines; a file that cannot be
// written costs only the count).
func (l *ledger) add(key string) {
	l.seen[key] = true
	l.inStep++
	if l.path == "" {
		return
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	f.WriteString(l.step + "\t" + key + "\n")
	f.Close()
}

// noteUnannotated lists in the step summary the warnings that were plain
// lines because the step had written its share of annotations, under a
// line saying how many they are, so that none is seen only in the log.
func (u *ui) noteUnannotated() {
	if len(u.unannotated) == 0 || u.summary == "" {
		return
	}
	var b bytes.Buffer
	d := &render.Doc{}
	more := "1 more warning"
	if n := len(u.unannotated); n > 1 {
		more = fmt.Sprintf("%d more warnings", n)
	}
	d.Add(&render.Paragraph{Text: fmt.Sprintf("%s: %s, not annotated (a step shows %d annotations of a kind; the log has them too):",
		u.title(""), more, maxStepWarnings+1)})
	d.Add(&render.List{Items: prefixAll("warning: ", u.unannotated)}, &render.Blank{})
	d.WriteMarkdown(&b)
	if err := appendFile(u.summary, b.Bytes()); err != nil {
		u.prefixed("warning: ", fmt.Sprintf("step summary %s: %v", u.summary, err))
	}
	u.unannotated = nil
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
