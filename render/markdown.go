package render

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown renders the document as GitHub-flavoured Markdown: every
// piece of text from inputs is escaped, so that a benchmark name cannot
// break a table or inject markup. Blocks are separated by blank lines; a
// Blank adds one more.
func (d *Doc) WriteMarkdown(w io.Writer) {
	first := true
	sep := func() {
		if !first {
			fmt.Fprintln(w)
		}
		first = false
	}
	for _, b := range d.Blocks {
		if b.formats()&Markdown == 0 {
			continue
		}
		switch b := b.(type) {
		case *Heading:
			sep()
			fmt.Fprintf(w, "%s %s\n", strings.Repeat("#", max(1, min(b.Level, 6))), MDEscape(b.Text))
		case *Paragraph:
			sep()
			text := MDEscape(b.Text)
			if b.Strong {
				text = "**" + text + "**"
			}
			if b.Lead != "" {
				text = "*" + MDEscape(b.Lead) + "* " + text
			}
			fmt.Fprintln(w, text)
		case *Image:
			sep()
			fmt.Fprintf(w, "![%s](%s)\n", MDEscape(b.Alt), b.Src)
		case *Fenced:
			sep()
			fence := "```"
			for strings.Contains("\n"+b.Text, "\n"+fence) {
				fence += "`"
			}
			text := b.Text
			if text != "" && !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			fmt.Fprintf(w, "%s%s\n%s%s\n", fence, b.Info, text, fence)
		case *Lines:
			sep()
			for _, l := range b.Lines {
				fmt.Fprintln(w, MDEscape(l))
			}
		case *List:
			sep()
			for _, it := range b.Items {
				fmt.Fprintf(w, "- %s\n", MDEscape(it))
			}
		case *Table:
			sep()
			b.WriteMarkdown(w)
		case *Blank:
			fmt.Fprintln(w)
		}
	}
}

// WriteMarkdown writes the table as a GitHub-flavoured Markdown table,
// with cell text escaped.
func (t *Table) WriteMarkdown(w io.Writer) {
	row := func(cells []string, code bool) string {
		out := make([]string, len(cells))
		for i, c := range cells {
			if code && i < len(t.Code) && t.Code[i] {
				// GitHub splits a table's row at every pipe not escaped,
				// even inside a code span, and unescapes \| there.
				out[i] = strings.ReplaceAll(Code(c), "|", `\|`)
			} else {
				out[i] = MDEscape(c)
			}
		}
		return "| " + strings.Join(out, " | ") + " |"
	}
	head := t.MarkdownHead
	if len(head) != len(t.Head) {
		head = t.Head
	}
	fmt.Fprintln(w, row(head, false))
	seps := make([]string, len(t.Head))
	for i := range seps {
		seps[i] = "---"
		if t.Align[i] == Right {
			seps[i] = "---:"
		}
	}
	fmt.Fprintln(w, "|"+strings.Join(seps, "|")+"|")
	for _, r := range t.Rows {
		fmt.Fprintln(w, row(r, true))
	}
}

// MDEscape escapes text from inputs for Markdown (a paragraph or a table
// cell): markup characters get a backslash, line breaks become spaces,
// other control characters are escaped as OneLine escapes them. GitHub's
// own markup counts: $ (math: a benchmark named "$\Huge\text{PASS}$"
// would draw a large PASS) and ~ (struck-out text). So do mentions: an @
// before a letter or a digit (@login, @org/team) would notify whoever it
// names, from a comment on every gate run, so a zero-width space follows
// it, as the entity &#8203; (GitHub's mentions start with a letter or a
// digit right after the @; Dependabot quotes release notes so). The text
// reads the same.
func MDEscape(s string) string {
	s = OneLine(strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s))
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '|', '\\', '`', '*', '_', '[', ']', '<', '>', '#', '&', '$', '~':
			b.WriteByte('\\')
		case '\n', '\r':
			r = ' '
		case '@':
			if i+1 < len(s) && isASCIIAlnum(s[i+1]) {
				b.WriteString("@&#8203;")
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isASCIIAlnum reports whether c is an ASCII letter or digit: what a
// GitHub login starts with.
func isASCIIAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
