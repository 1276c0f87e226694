package render

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WriteText renders the document for a terminal or a CI log: headings
// left out, paragraphs wrapped, tables aligned in columns two spaces apart
// without trailing blanks.
func (d *Doc) WriteText(w io.Writer) {
	for _, b := range d.Blocks {
		if b.formats()&Text == 0 {
			continue
		}
		switch b := b.(type) {
		case *Heading:
		case *Paragraph:
			text := b.Text
			if b.Lead != "" {
				text = b.Lead + " " + text
			}
			if b.Width > 0 {
				text = Wrap(text, b.Width)
			}
			fmt.Fprintln(w, text)
		case *Lines:
			for _, l := range b.Lines {
				fmt.Fprintln(w, l)
			}
		case *List:
			for _, it := range b.Items {
				fmt.Fprintf(w, "- %s\n", it)
			}
		case *Blank:
			fmt.Fprintln(w)
		case *Table:
			b.WriteText(w)
		case *Image:
			fmt.Fprintf(w, "%s: %s\n", b.Alt, b.Src)
		case *Fenced:
			fmt.Fprint(w, b.Text)
			if b.Text != "" && !strings.HasSuffix(b.Text, "\n") {
				fmt.Fprintln(w)
			}
		}
	}
}

// WriteText writes the table aligned in columns two spaces apart, with no
// trailing blanks. A cell that starts with "::" (a workflow command, were
// it to start a line of a CI log) is shown with a backslash before it.
func (t *Table) WriteText(w io.Writer) {
	wd := t.widths()
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString(t.Indent)
		for i, c := range cells {
			c = Neutralise(c)
			pad := strings.Repeat(" ", wd[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if t.Align[i] == Right {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(t.Head)
	for _, r := range t.Rows {
		line(r)
	}
}

func (t *Table) widths() []int {
	w := make([]int, len(t.Head))
	for i, h := range t.Head {
		w[i] = utf8.RuneCountInString(Neutralise(h))
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if n := utf8.RuneCountInString(Neutralise(c)); i < len(w) && n > w[i] {
				w[i] = n
			}
		}
	}
	return w
}

// Neutralise puts a cell on one line (OneLine), puts a backslash before
// text that starts with "::", which the GitHub Actions runner would run
// as a workflow command were it to start a line of the log, and breaks up
// the runner's older command form "##[", which it finds anywhere in a
// line (LegacyCommand).
func Neutralise(c string) string {
	c = BreakLegacy(OneLine(c))
	if IsCommandLine([]byte(c)) {
		return `\` + c
	}
	return c
}

// LegacyCommand is the older form of the runner's workflow commands,
// "##[error]message", recognised anywhere in a line of the log (the
// runner's ActionCommand.TryParse).
const LegacyCommand = "##["

// BreakLegacy writes "##[" as "#\#[" in text, so that the runner does not
// read it as a command.
func BreakLegacy(s string) string { return strings.ReplaceAll(s, LegacyCommand, `#\#[`) }

// BreakLegacyJSON writes "##[" inside JSON strings as "##\u005b", which
// decodes to the same text and is no command in a log ("##[" cannot occur
// outside a string in JSON).
func BreakLegacyJSON(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte(LegacyCommand), []byte(`##\u005b`))
}

// IsCommandLine reports whether the GitHub Actions runner would read line
// as a workflow command: it trims what .NET calls white space (Unicode
// spaces and U+001C–U+001F) and looks for "::".
func IsCommandLine(line []byte) bool {
	t := bytes.TrimLeftFunc(line, func(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) })
	return bytes.HasPrefix(t, []byte("::"))
}

// Wrap breaks text into lines of at most width characters, at spaces.
func Wrap(text string, width int) string {
	var lines []string
	var line []string
	n := 0
	for _, word := range strings.Fields(text) {
		if n > 0 && n+1+utf8.RuneCountInString(word) > width {
			lines = append(lines, strings.Join(line, " "))
			line, n = nil, 0
		}
		if n > 0 {
			n++
		}
		line = append(line, word)
		n += utf8.RuneCountInString(word)
	}
	if len(line) > 0 {
		lines = append(lines, strings.Join(line, " "))
	}
	return strings.Join(lines, "\n")
}
