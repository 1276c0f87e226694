package present

import "testing"

// TestNoBreak: a hyphenated word of up to 24 characters is kept on one
// line, and the text is escaped piece by piece, so that a span never
// opens inside an entity (a reviewer's names "a>b..run-12", `say"hi-there`
// and "it's-fine" showed "&gt;", "&#34;" and "&#39;" as text).
func TestNoBreak(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"run-04..run-12 moved", `<span class="nb">run-04..run-12</span> moved`},
		{"a>b..run-12", `<span class="nb">a&gt;b..run-12</span>`},
		{`say"hi-there`, `<span class="nb">say&#34;hi-there</span>`},
		{"it's-fine & x-y", `<span class="nb">it&#39;s-fine</span> &amp; <span class="nb">x-y</span>`},
		{"<img src=x onerror=alert(1)>-x", `&lt;img src=x onerror=alert(1)&gt;-x`},
		{"<b>x-y</b>", `<span class="nb">&lt;b&gt;x-y&lt;/b&gt;</span>`},
		{"no hyphen", "no hyphen"},
		{"/a/very/long/path/to/some-file/of/results.txt", "/a/very/long/path/to/some-file/of/results.txt"},
	} {
		if got := string(noBreak(c.in)); got != c.want {
			t.Errorf("noBreak(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
