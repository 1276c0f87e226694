package ci

import (
	"bytes"
	"io"

	"github.com/qoscal/qoscal/render"
)

// Guard passes text through a line at a time, except that a line whose
// first characters after blanks are "::" gets a backslash in front, so
// that the Actions runner does not take it for a workflow command. The
// runner trims what .NET calls white space before it looks, so that is
// what counts as blank here (Unicode spaces, and U+001C–U+001F). The
// runner reads lines with .NET's ReadLine, which ends a line at LF, CR or
// CRLF, so a lone CR ends a line here too.
type Guard struct {
	w    io.Writer
	n    int64  // bytes accepted, for "has anything been printed?"
	line []byte // the current line, not yet written
}

// NewGuard guards w.
func NewGuard(w io.Writer) *Guard { return &Guard{w: w} }

// Underlying is the writer the guard writes to.
func (s *Guard) Underlying() io.Writer { return s.w }

// Written is how many bytes the guard and its Raw writer accepted.
func (s *Guard) Written() int64 { return s.n }

func (s *Guard) Write(p []byte) (int, error) {
	n := len(p)
	s.n += int64(n)
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			s.line = append(s.line, p...)
			break
		}
		s.line = append(s.line, p[:i+1]...)
		p = p[i+1:]
		if err := s.Flush(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// Flush writes the line held so far (a last line without a newline).
func (s *Guard) Flush() error {
	if len(s.line) == 0 {
		return nil
	}
	line := s.line
	s.line = s.line[:0]
	if bytes.Contains(line, []byte(render.LegacyCommand)) {
		line = []byte(render.BreakLegacy(string(line)))
	}
	if render.IsCommandLine(line) {
		if _, err := s.w.Write([]byte{'\\'}); err != nil {
			return err
		}
	}
	_, err := s.w.Write(line)
	return err
}

// Raw writes past the guard, after what it holds: for the workflow
// commands that qoscal means.
func (s *Guard) Raw() io.Writer { return raw{s} }

type raw struct{ s *Guard }

func (r raw) Write(p []byte) (int, error) {
	if err := r.s.Flush(); err != nil {
		return 0, err
	}
	r.s.n += int64(len(p))
	return r.s.w.Write(p)
}
