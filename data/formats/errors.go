package formats

import (
	"errors"
	"fmt"
	"strings"
)

// SyntaxError is a problem with one line of one input file. Parsers return
// it as a value and go on with the next line, so that one bad line does not
// hide the others.
type SyntaxError struct {
	File string
	Line int // 1-based; 0 when the problem is with the file as a whole
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// InputError gathers the syntax errors of one or more input files. Loading
// stops with an InputError so that no run built from a bad file is used.
// It keeps the first MaxKept errors and counts the rest (More), so that a
// file of millions of bad lines does not hold millions of errors.
type InputError struct {
	Errs []*SyntaxError
	More int // errors seen after the first MaxKept
}

// MaxKept bounds how many syntax errors an InputError keeps.
const MaxKept = 20

// maxShown bounds how many syntax errors an InputError lists.
const maxShown = 10

// Add keeps se, or counts it once MaxKept errors are kept.
func (e *InputError) Add(se ...*SyntaxError) {
	for _, s := range se {
		if len(e.Errs) < MaxKept {
			e.Errs = append(e.Errs, s)
		} else {
			e.More++
		}
	}
}

// Merge adds the errors of another InputError.
func (e *InputError) Merge(o *InputError) {
	e.Add(o.Errs...)
	e.More += o.More
}

// Err returns e, or nil when it holds no error.
func (e *InputError) Err() error {
	if len(e.Errs) == 0 {
		return nil
	}
	return e
}

func (e *InputError) Error() string { return strings.Join(e.Lines(), "\n") }

// Lines are the lines the error is shown in: one per syntax error, up to
// maxShown, then how many more there are. (A line break inside one, from
// a file name, is not a line of its own: the command line shows each
// line neutralised.)
func (e *InputError) Lines() []string {
	var out []string
	for i, s := range e.Errs {
		if i == maxShown {
			out = append(out, fmt.Sprintf("... and %d more", len(e.Errs)-maxShown+e.More))
			break
		}
		out = append(out, s.Error())
	}
	return out
}

// asSyntax returns err as a *SyntaxError if it is one.
func asSyntax(err error) (*SyntaxError, bool) {
	var se *SyntaxError
	ok := errors.As(err, &se)
	return se, ok
}
