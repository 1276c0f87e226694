package render

import (
	"strings"
	"testing"
)

// TestOneLine: outside text comes out on one line, its control
// characters, line and paragraph separators and bidirectional controls
// escaped, everything else as it was.
func TestOneLine(t *testing.T) {
	for _, tt := range []struct{ in, want, reason string }{
		{"baseline.txt", "baseline.txt", "printable ASCII is kept"},
		{`C:\runs\a b.txt`, `C:\runs\a b.txt`, "backslashes are kept: Windows paths stay readable"},
		{"a\n::error::x", `a\n::error::x`, "LF would start a workflow command"},
		{"a\r::error::x", `a\r::error::x`, "a lone CR ends a line for the runner"},
		{"a\r\nb\tc", `a\r\nb\tc`, "CRLF and tab"},
		{"\x1b[31mred\x7f", `\x1b[31mred\x7f`, "ESC and DEL"},
		{"a\u0085b\u2028c\u2029d", `a\u0085b\u2028c\u2029d`, "NEL, the line and paragraph separators"},
		{"abc\u202edef", `abc\u202edef`, "a bidirectional override reorders the rest of a line"},
		{"café ✓ 日本", "café ✓ 日本", "printable Unicode is kept"},
		{"", "", "empty"},
	} {
		if got := OneLine(tt.in); got != tt.want {
			t.Errorf("%s: OneLine(%q) = %q, want %q", tt.reason, tt.in, got, tt.want)
		}
	}
}

// TestCode: outside text in Markdown is one code span, on one line; a
// fence longer than any run of backticks in it, and padding where the
// text starts or ends with one.
func TestCode(t *testing.T) {
	for _, tt := range []struct{ in, want, reason string }{
		{"store s: boom", "`store s: boom`", "plain"},
		{"a`b", "``a`b``", "a backtick inside: a longer fence"},
		{"``x", "``` ``x ```", "a backtick at an end: padded"},
		{" x ", "`  x  `", "spaces at both ends: padded, CommonMark strips one each side"},
		{"x\n::error::y", "`x\\n::error::y`", "on one line"},
		{"<script>$x$|*a*", "`<script>$x$|*a*`", "markup, HTML and math are literal in a span"},
		{"", "", "empty"},
	} {
		got := Code(tt.in)
		if got != tt.want {
			t.Errorf("%s: Code(%q) = %q, want %q", tt.reason, tt.in, got, tt.want)
		}
		if strings.ContainsAny(got, "\r\n") {
			t.Errorf("%s: Code(%q) holds a line break", tt.reason, tt.in)
		}
	}
}

// TestMDEscapeControls: Markdown from inputs holds no control character.
func TestMDEscapeControls(t *testing.T) {
	if got, want := MDEscape("a\nb\x1b[1m*"), `a b\\x1b\[1m\*`; got != want {
		t.Errorf("MDEscape = %q, want %q", got, want)
	}
}
