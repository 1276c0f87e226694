package mermaid

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qoscal/qoscal/chartdata"
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

// TestMermaidScoreSequence: one xychart-beta diagram with its size and
// palette, a bar per run from 1 (every value is a ratio of at least 1),
// the floor and the lowest score as flat lines, and a key that names each
// statement with its colour, in the order drawn.
func TestMermaidScoreSequence(t *testing.T) {
	c := &chartdata.ScoreSequence{
		Head:   chartdata.Head{Title: `Score "x"`, Y: chartdata.Axis{Label: "score", Min: 1.2, Max: 1.7}},
		Scores: chartdata.Series{Points: []chartdata.Point{{X: 1, Y: 1.55, Label: "r1"}, {X: 2, Y: 1.44, Label: "r\n2"}}},
		Refs: []chartdata.Ref{{Kind: chartdata.RefFloor, At: 1.25, Label: "floor 1.25 (recommended)"},
			{Kind: chartdata.RefLowest, At: 1.44, Label: "lowest observed 1.44"}, {Kind: chartdata.RefParity, At: 1, Label: "parity 1.0"}},
	}
	got := ScoreSequence(c)
	want := `%%{init: {"xyChart": {"width": 860, "height": 420, "titleFontSize": 16, "xAxis": {"labelFontSize": 14}, "yAxis": {"labelFontSize": 14}}, "themeVariables": {"xyChart": {"backgroundColor": "#ffffff", "plotColorPalette": "#3b76d6, #f08a00, #333333"}}}}%%` + "\n" +
		"xychart-beta\n" +
		"    title \"Score _x_\"\n" +
		"    x-axis \"run\" [\"r1\", \"r 2\"]\n" +
		"    y-axis \"score\" 1 --> 1.6\n" +
		"    bar [1.5500, 1.4400]\n" +
		"    line [1.2500, 1.2500]\n" +
		"    line [1.4400, 1.4400]\n"
	if got.Diagram != want {
		t.Errorf("got\n%s\nwant\n%s", got.Diagram, want)
	}
	key := "Key: 🟦 blue bars: run score, at or above the floor; 🟧 orange line: floor 1.25 (recommended); ⬛ black line: lowest observed 1.44. Bars start at 1, parity: their length is the candidate's advantage."
	if got.KeyLine() != key {
		t.Errorf("key\n%s\nwant\n%s", got.KeyLine(), key)
	}
	if got := ScoreSequence(&chartdata.ScoreSequence{Head: chartdata.Head{LeftOut: "no runs"}}); got.Diagram != "" || got.KeyLine() != "" {
		t.Errorf("a chart left out drew %+v", got)
	}
}

// TestValueAxis: bars start at 0, or at 1 when every value is a ratio of
// at least 1; the axis is cut, and says so, only when the values would
// look alike from there; its ends are round and hold every value.
func TestValueAxis(t *testing.T) {
	for _, c := range []struct {
		vals   []float64
		ratio  bool
		lo, hi float64
		cut    bool
		reason string
	}{
		{[]float64{1.39, 1.45, 1.23, 1.16}, true, 1, 1.5, false, "scores and a floor above parity: from 1"},
		{[]float64{0.68, 2.42, 1.26}, true, 0, 3, false, "a ratio below 1: from 0"},
		{[]float64{0.85, 0.95}, true, 0, 1, false, "all below 1: from 0"},
		{[]float64{3.01, 3.05, 3.02}, true, 2.99, 3.06, true, "close together far from 1: cut below them"},
		{[]float64{1.16, 1.17, 0.98}, true, 0, 1.4, false, "a floor just under 1: from 0, the gap to the floor shows"},
		{[]float64{1.557, 1.577, 1.56}, true, 1.545, 1.58, true, "scores and a floor within 3% of the axis from 1: cut"},
		{[]float64{40, 60}, false, 0, 70, false, "not a ratio: from 0"},
		{[]float64{2, 2}, true, 1, 2.2, false, "values all alike have nothing to compare: no cut"},
		{[]float64{math.NaN(), 1.5}, true, 1, 1.6, false, "a value that is not a number is left out"},
	} {
		a := newValueAxis(c.vals, c.ratio)
		if math.Abs(a.lo-c.lo) > 1e-9 || math.Abs(a.hi-c.hi) > 1e-9 || a.cut != c.cut {
			t.Errorf("%v: axis %v --> %v cut %v, want %v --> %v cut %v (%s)", c.vals, a.lo, a.hi, a.cut, c.lo, c.hi, c.cut, c.reason)
		}
		for _, v := range c.vals {
			if !math.IsNaN(v) && (v < a.lo || v > a.hi) {
				t.Errorf("%v: %v is off the axis %v --> %v (%s)", c.vals, v, a.lo, a.hi, c.reason)
			}
		}
		if a.none() >= a.lo {
			t.Errorf("%v: a bar not drawn is at %v, on the axis from %v", c.vals, a.none(), a.lo)
		}
	}
}

// TestScoreSequenceLayout: runs are columns labelled with their ids while
// the ids fit side by side, numbered as in the table when only numbers
// fit, rows beyond that, and the latest 60 rows of a longer sequence; the
// key says which.
func TestScoreSequenceLayout(t *testing.T) {
	seq := func(n int, id string) *chartdata.ScoreSequence {
		c := &chartdata.ScoreSequence{Head: chartdata.Head{Title: "t"}}
		for i := range n {
			c.Scores.Points = append(c.Scores.Points, chartdata.Point{X: float64(i + 1), Y: 1.2 + float64(i%5)/100, Label: fmt.Sprintf(id, i+1)})
		}
		return c
	}
	for _, c := range []struct {
		n          int
		id         string
		horizontal bool
		first      string
		cats       int
		note       string
		reason     string
	}{
		{12, "run-%02d", false, `"run-01"`, 12, "", "twelve short ids fit side by side"},
		{12, "nightly-build-%04d", false, `"1"`, 12, "Runs are numbered as in the table below", "long ids do not, their numbers do"},
		{45, "wide-run-%04d", true, `"wide-run-0001"`, 45, "", "45 numbers do not fit side by side: rows"},
		{45, "a-very-long-run-identifier-from-ci-%04d", true, `"a-very-long-…tifier-from-ci-0001"`, 45, "Long run ids are cut in the middle", "long ids in rows are cut, keeping their ends"},
		{45, "ci/nightly-builds/of-the-main-branch/%04d", true, `"0001"`, 45, "The labels leave out ci/nightly-builds/of-the-main-branch/, the start all run ids share", "the folder all long ids share is left out"},
		{45, "ci/nightly/%04d", true, `"ci/nightly/0001"`, 45, "", "short ids stay whole"},
		{100, "r%03d", true, `"r041"`, 60, "The chart shows the latest 60 of the 100 runs", "the latest 60 of a long sequence"},
	} {
		ch := ScoreSequence(seq(c.n, c.id))
		horizontal := strings.Contains(ch.Diagram, "xychart-beta horizontal")
		m := regexp.MustCompile(`x-axis "[^"]*" \[(.*)\]`).FindStringSubmatch(ch.Diagram)
		cats := strings.Split(m[1], ", ")
		if horizontal != c.horizontal || cats[0] != c.first || len(cats) != c.cats {
			t.Errorf("%d runs %q: horizontal %v, %d categories from %s; want %v, %d from %s (%s)", c.n, c.id, horizontal, len(cats), cats[0], c.horizontal, c.cats, c.first, c.reason)
		}
		if c.note != "" && !strings.Contains(ch.KeyLine(), c.note) {
			t.Errorf("%d runs %q: the key does not say %q: %s (%s)", c.n, c.id, c.note, ch.KeyLine(), c.reason)
		}
	}
}

// TestShortLabels: long names lose the start they all share and are cut
// in the middle, keeping the ends that tell them apart; short names stay.
func TestShortLabels(t *testing.T) {
	for _, c := range []struct {
		names, want []string
		reason      string
	}{
		{[]string{"cfrac", "larson"}, []string{"cfrac", "larson"}, "short names stay"},
		{[]string{"suite/alpha-with-a-long-name-threads=1-size=16", "suite/alpha-with-a-long-name-threads=2-size=16"},
			[]string{"alpha-with-a…e-threads=1-size=16", "alpha-with-a…e-threads=2-size=16"}, "the shared start up to its last slash goes, the rest is cut in the middle"},
		{[]string{"x-" + strings.Repeat("a", 40), "y-" + strings.Repeat("a", 40)},
			[]string{"x-aaaaaaaaaa…" + strings.Repeat("a", 19), "y-aaaaaaaaaa…" + strings.Repeat("a", 19)}, "no shared start"},
	} {
		got, _ := shortLabels(c.names, "names")
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q (%s)", c.names, got, c.want, c.reason)
		}
	}
}

// TestStrips: each strip is stripWidth characters on the chart's log
// range, its marks at their cells: the range, the median, the band's
// edges with its fill past the range, the marked run, parity.
func TestStrips(t *testing.T) {
	c := &chartdata.RatioSpread{
		Head: chartdata.Head{X: chartdata.Axis{Min: 0.5, Max: 2}},
		Rows: []chartdata.RatioRow{
			{Benchmark: "a", Box: chartdata.Box{Min: 1.2, Median: 1.3, Max: 1.5}, Ratios: []float64{1.2, 1.3, 1.5},
				Band: &chartdata.Interval{Lo: 1.05, Hi: 1.7}, This: 0.8},
			{Benchmark: "b", Box: chartdata.Box{Min: 0.6, Median: 0.7, Max: 0.75}, Ratios: []float64{0.6, 0.7, 0.75}},
		},
		Refs:       []chartdata.Ref{{Kind: chartdata.RefParity, At: 1, Label: "parity (1.0)"}},
		BandLegend: "band: the ratios the gate accepts (calibration file)", ThisLegend: "run r9",
	}
	s := RatioStrips(c)
	// log2 scale over 2 octaves, 40 cells: cell(v) = floor((log2 v + 1) * 20):
	// 0.8 in 13, 1 in 20, 1.05 in 21, 1.2 in 25, 1.3 in 27, 1.5 in 31,
	// 1.7 in 35; 0.6 in 5, 0.7 in 9, 0.75 in 11.
	want := []string{
		"·············◆······┆[░░░━━●━━━━░░░]····",
		"·····━━━━●━━········┆···················",
	}
	if !slices.Equal(s.Lines, want) {
		t.Errorf("strips\n%s\nwant\n%s", strings.Join(s.Lines, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range s.Lines {
		if n := utf8.RuneCountInString(l); n != stripWidth {
			t.Errorf("strip %q is %d characters", l, n)
		}
		for _, r := range l {
			if !strings.ContainsRune(stripRunesOK, r) {
				t.Errorf("strip %q holds %q, no mark of the key", l, r)
			}
		}
	}
	for _, w := range []string{"from 0.5 at the left end to 2 at the right", "━ lowest to highest ratio over the 3 runs", "● median", "[ ] band: the ratios the gate accepts (calibration file), ░ where", "◆ run r9", "┆ parity"} {
		if !strings.Contains(s.Key, w) {
			t.Errorf("the strips' key lacks %q: %s", w, s.Key)
		}
	}
}
