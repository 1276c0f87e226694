package render

import (
	"fmt"
	"strings"
	"unicode"
)

// Text from outside qoscal (a file name, an artifact's entry, a store
// server's error, a run id from the environment) reaches every output:
// stdout, stderr, the step summary, $GITHUB_OUTPUT, the HTML report. It
// may hold line breaks, and a line that starts with "::" is a workflow
// command to the GitHub Actions runner. One rule neutralises it
// everywhere: it is put on one line with its control characters escaped
// (OneLine), and in Markdown it is also quoted as code (Code), so that
// no markup in it is read either.

// OneLine returns s on one line: its control characters (C0, DEL, C1:
// CR, LF, tab, ESC among them), the Unicode line and paragraph separators
// and the bidirectional controls (which reorder the rest of a line) are
// written as Go escapes (\n, \r, \t, \x1b, \u2028). Other text is kept as
// it is, backslashes too (C:\runs stays readable).
func OneLine(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !escaped(r) {
			b.WriteRune(r)
			continue
		}
		switch r {
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x80 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		}
	}
	return b.String()
}

// escaped reports whether OneLine escapes r.
func escaped(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) || unicode.Is(unicode.Bidi_Control, r)
}

// needsEscape reports whether s holds a rune that OneLine escapes: the
// common case, printable ASCII, is passed over without building a copy.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			for _, r := range s[i:] {
				if escaped(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// Code quotes s as a Markdown code span, on one line (OneLine): nothing
// in it is read as markup, HTML or math, and the line it stands on starts
// with a backtick. The fence is one backtick longer than the longest run
// of backticks in s, as CommonMark asks; "" is an empty string.
func Code(s string) string {
	s = OneLine(s)
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ') {
		// CommonMark strips one space from each end of a span that has
		// both: pad, so that what is shown is s.
		s = " " + s + " "
	}
	return fence + s + fence
}
