package ci

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/qoscal/qoscal/render"
)

// UnannotatedNote is the step summary's entry for the warnings that were
// plain lines because the step had written its share of annotations,
// under a line saying how many they are, so that none is seen only in the
// log; title is the command's annotation title.
func UnannotatedNote(title string, warnings []string) []byte {
	var b bytes.Buffer
	d := &render.Doc{}
	more := "1 more warning"
	if n := len(warnings); n > 1 {
		more = fmt.Sprintf("%d more warnings", n)
	}
	d.Add(&render.Paragraph{Text: fmt.Sprintf("%s: %s, not annotated (a step shows %d annotations of a kind; the log has them too):",
		title, more, MaxStepWarnings+1)})
	d.Add(&render.List{Items: PrefixAll("warning: ", warnings)}, &render.Blank{})
	d.WriteMarkdown(&b)
	return b.Bytes()
}

// ErrorNote is the step summary's short entry for an error that stopped
// a command with code, so that a red job says why in its summary too:
// title, the error's lines and its hints.
func ErrorNote(title string, code int, lines, hints []string) []byte {
	// The error's lines hold outside text (file names, a server's
	// message): each is quoted as code, on one line (render.Code).
	var b bytes.Buffer
	d := &render.Doc{}
	d.Add(&render.Heading{Level: 3, Text: fmt.Sprintf("%s (exit %d)", title, code)})
	d.WriteMarkdown(&b)
	b.WriteString("\n")
	for _, l := range lines {
		b.WriteString(render.Code(l) + "\n")
	}
	d = &render.Doc{}
	if len(hints) > 0 {
		b.WriteString("\n")
		d.Add(&render.List{Items: PrefixAll("hint: ", hints)})
	}
	d.Add(&render.Blank{})
	d.WriteMarkdown(&b)
	return b.Bytes()
}

// PrefixAll is ss, each behind p.
func PrefixAll(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

// ErrorLines are the lines an error is shown in, on stderr, in its
// annotation and in the step summary: one per error of an error that
// holds several (one with a Lines method, such as formats.InputError: one
// per file and line), else one. Each is to be neutralised by the one rule
// for outside text (render.OneLine) where it is written: a line break
// inside a file name or a server's message is no line of its own.
func ErrorLines(err error) []string {
	text := err.Error()
	var multi interface{ Lines() []string }
	if errors.As(err, &multi) {
		lines := multi.Lines()
		// The error may wrap them with words before or after
		// ("--backtest: ..."): keep those on the first and last line.
		if joined := strings.Join(lines, "\n"); len(lines) > 1 && strings.Contains(text, joined) {
			before, after, _ := strings.Cut(text, joined)
			out := append([]string(nil), lines...)
			out[0] = before + out[0]
			out[len(out)-1] += after
			return out
		}
	}
	return []string{text}
}
