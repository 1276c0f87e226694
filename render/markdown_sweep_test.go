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

// TestMDEscapeMentions: GitHub turns @login and @org/team in a comment
// into a mention that notifies them, and a benchmark name, a run id or a
// label is outside text (a fork's pull request chooses its benchmark
// names): each @ before a letter or digit gets a zero-width space after
// it, written as the entity &#8203; (as Dependabot writes the mentions it
// quotes), so the text reads the same and names nobody. An @ before a
// blank, the end or a character no login starts with is left as it is.
func TestMDEscapeMentions(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"@org/security-team", `@&#8203;org/security-team`},
		{"ping @octocat and @Octo-Cat9", `ping @&#8203;octocat and @&#8203;Octo-Cat9`},
		{"run-@1", `run-@&#8203;1`},
		{"a @ b @", `a @ b @`},
		{"@@x", `@@&#8203;x`},
		{"@_x", `@\_x`},
	} {
		if got := MDEscape(c.in); got != c.want {
			t.Errorf("MDEscape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
