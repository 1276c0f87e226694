// Package ci writes what qoscal says to GitHub Actions (standard library
// and render only): workflow-command annotations with their text escaped
// as the runner expects (Annotation), the job's ledger of annotations
// that keeps each warning to one annotation a job and a step to
// MaxStepWarnings (Ledger), the step summary's entries for an error and
// for the warnings past a step's share (ErrorNote, UnannotatedNote), the
// step outputs as $GITHUB_OUTPUT lines (Outputs), and the guard that keeps
// any other stdout line from being read as a workflow command (Guard).
//
// It knows nothing of commands or verdicts: the command decides what to
// say and where the files are, this package how it is written.
package ci

import (
	"fmt"
	"io"
	"strings"

	"github.com/qoscal/qoscal/render"
)

// Annotation is one GitHub Actions workflow command that qoscal means:
// ::KIND title=TITLE[,file=FILE][,line=N]::MSG.
type Annotation struct {
	Kind  string // error, warning or notice
	Title string // "qoscal gate: FAIL"; starts with "qoscal "
	File  string // the input file it is about, if known
	Line  int    // the line in File, if known (1-based)
	Msg   string
}

// Write writes the workflow command, with its data and properties escaped
// as the runner expects (%, CR, LF; and : and , in properties), and the
// runner's older command form ##[ broken up.
func (a Annotation) Write(w io.Writer) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	var b strings.Builder
	fmt.Fprintf(&b, "::%s title=%s", a.Kind, prop.Replace(render.BreakLegacy(render.OneLine(a.Title))))
	if a.File != "" {
		fmt.Fprintf(&b, ",file=%s", prop.Replace(render.BreakLegacy(render.OneLine(a.File))))
		if a.Line > 0 {
			fmt.Fprintf(&b, ",line=%d", a.Line)
		}
	}
	fmt.Fprintf(&b, "::%s\n", esc.Replace(render.BreakLegacy(strings.TrimRight(a.Msg, "\r\n"))))
	io.WriteString(w, b.String())
}

// Command writes one annotation without a file, its message on one line
// (render.OneLine).
func Command(w io.Writer, kind, title, msg string) {
	Annotation{Kind: kind, Title: title, Msg: render.OneLine(msg)}.Write(w)
}

// Output is one step output: name=value.
type Output struct{ Name, Value string }

// Outputs is the $GITHUB_OUTPUT lines of outs, name=value each. A value
// never holds a line break (the callers give words and numbers): a break
// is refused rather than let it forge another output.
func Outputs(outs []Output) ([]byte, error) {
	var b strings.Builder
	for _, o := range outs {
		if strings.ContainsAny(o.Name+o.Value, "\r\n") {
			return nil, fmt.Errorf("step output %s: a value with a line break (this is a bug in qoscal)", o.Name)
		}
		fmt.Fprintf(&b, "%s=%s\n", o.Name, o.Value)
	}
	return []byte(b.String()), nil
}
