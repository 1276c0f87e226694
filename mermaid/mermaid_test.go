package mermaid

import (
	"strings"
	"testing"

	"qoscal/chartdata"
)

// TestMermaidTextSafe: text from inputs cannot end a Mermaid string, start
// a Mermaid comment or directive, end the Markdown fence, or carry markup.
func TestMermaidTextSafe(t *testing.T) {
	for _, c := range []struct{ in, want, reason string }{
		{"run-01", "run-01", "a plain run id is kept"},
		{`a"b`, "a_b", "a quote would end the string"},
		{"x %%{init: {}}%%", "x ___init_ _____", "%% starts a comment or a directive"},
		{"a\nb\r\nc", "a b c", "a line break would end the block's line"},
		{"```", "___", "a fence would end the Markdown block"},
		{"<img src=x onerror=alert(1)>", "_img src=x onerror=alert(1)_", "no angle bracket: no HTML"},
		{"#35; ::error::x ##[set-output]", "_35_ __error__x ___set-output_", "no entity code, no colon, no legacy command"},
		{"ratio 0.87–0.90 ×2", "ratio 0.87–0.90 ×2", "the labels' own signs stay"},
		{strings.Repeat("a", 200), strings.Repeat("a", 120), "cut to 120 characters"},
	} {
		if got := safe(c.in); got != c.want {
			t.Errorf("safe(%q) = %q, want %q (%s)", c.in, got, c.want, c.reason)
		}
	}
}

// TestMermaidScoreSequence: one xychart-beta diagram, a bar per run,
// a flat line per reference line drawn, every line a Mermaid statement.
func TestMermaidScoreSequence(t *testing.T) {
	c := &chartdata.ScoreSequence{
		Head:   chartdata.Head{Title: `Score "x"`, Y: chartdata.Axis{Label: "score", Min: 1.2, Max: 1.7}},
		Scores: chartdata.Series{Points: []chartdata.Point{{X: 1, Y: 1.55, Label: "r1"}, {X: 2, Y: 1.44, Label: "r\n2"}}},
		Refs:   []chartdata.Ref{{Kind: chartdata.RefFloor, At: 1.25}, {Kind: chartdata.RefLowest, At: 1.44}, {Kind: chartdata.RefParity, At: 1}},
	}
	got := ScoreSequence(c)
	want := "xychart-beta\n" +
		"    title \"Score _x_\"\n" +
		"    x-axis \"run\" [\"r1\", \"r 2\"]\n" +
		"    y-axis \"score\" 1.2000 --> 1.7000\n" +
		"    bar [1.5500, 1.4400]\n" +
		"    line [1.2500, 1.2500]\n" +
		"    line [1.4400, 1.4400]\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := ScoreSequence(&chartdata.ScoreSequence{Head: chartdata.Head{LeftOut: "no runs"}}); got != "" {
		t.Errorf("a chart left out drew %q", got)
	}
}
