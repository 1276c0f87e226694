package render

import (
	"strings"
	"testing"
)

// TestMDEscapeMathAndStrike: GitHub renders $...$ as math and ~~...~~ as
// struck-out text in a step summary or a comment, so a benchmark named
// "$\Huge\text{PASS}$" drew a large PASS in the table. Both are escaped,
// with the other markup characters.
func TestMDEscapeMathAndStrike(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`$\Huge\text{PASS}$`, `\$\\Huge\\text{PASS}\$`},
		{"~~x~~", `\~\~x\~\~`},
		{"a|b", `a\|b`},
	} {
		if got := MDEscape(c.in); got != c.want {
			t.Errorf("MDEscape(%q) = %q, want %q", c.in, got, c.want)
		}
		if strings.Contains(MDEscape(c.in), "\n") {
			t.Errorf("MDEscape(%q) holds a line break", c.in)
		}
	}
}
