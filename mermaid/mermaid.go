// Package mermaid draws the charts of package chartdata as Mermaid
// diagrams, for Markdown that GitHub renders in a step summary, a
// pull-request comment or an issue (```mermaid blocks; the xychart-beta
// diagram), where a local image link shows nothing. It is the second
// renderer of chartdata, beside package plots (SVG and PNG): it computes
// nothing, and draws what the data say. xychart-beta draws bars and lines
// over named categories, with no legend, so a document shows each chart
// with the table of its exact numbers, which also says which line is
// which (package present).
//
// Every piece of text from inputs (run ids, benchmark names, variant
// names) is reduced to a safe alphabet (safe): a quote, a line break,
// "%%", "#", a backtick or markup cannot end the string, the block or the
// fence, nor inject HTML.
package mermaid

import (
	"fmt"
	"strconv"
	"strings"

	"qoscal/chartdata"
)

// ScoreSequence draws the score sequence as an xychart: a bar per run in
// run order, and the floor and the lowest score as flat lines. It
// returns the diagram, the lines inside a ```mermaid fence; "" for a
// chart left out.
func ScoreSequence(c *chartdata.ScoreSequence) string {
	if c.LeftOut != "" || len(c.Scores.Points) == 0 {
		return ""
	}
	cats := make([]string, len(c.Scores.Points))
	vals := make([]float64, len(c.Scores.Points))
	for i, p := range c.Scores.Points {
		cats[i], vals[i] = p.Label, p.Y
	}
	var lines [][]float64
	for _, r := range c.Refs {
		if r.Kind == chartdata.RefFloor || r.Kind == chartdata.RefLowest {
			lines = append(lines, flat(r.At, len(vals)))
		}
	}
	return xy(c.Title, "run", c.Y.Label, c.Y.Min, c.Y.Max, cats, [][]float64{vals}, lines)
}

// RatioSpread draws the per-benchmark ratio spread as an xychart: a bar
// per benchmark at its median ratio, and lines through the minima and the
// maxima. The chart's axis is logarithmic; xychart-beta has only linear
// axes, so the range shown is the data's, and the table beside the chart
// gives the numbers. It returns the diagram; "" for a chart left out.
func RatioSpread(c *chartdata.RatioSpread) string {
	if c.LeftOut != "" || len(c.Rows) == 0 {
		return ""
	}
	n := len(c.Rows)
	cats := make([]string, n)
	med, lo, hi := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, r := range c.Rows {
		cats[i], med[i], lo[i], hi[i] = r.Benchmark, r.Box.Median, r.Box.Min, r.Box.Max
	}
	// The chart's axis label says "log scale"; this axis is linear.
	return xy(c.Title, "benchmark", "ratio (candidate better above 1)", c.X.Min, c.X.Max, cats, [][]float64{med}, [][]float64{lo, hi})
}

func flat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// xy is one xychart-beta diagram.
func xy(title, xLabel, yLabel string, yMin, yMax float64, cats []string, bars, lines [][]float64) string {
	labels := distinctLabels(cats)
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = `"` + l + `"`
	}
	var w strings.Builder
	fmt.Fprintln(&w, "xychart-beta")
	fmt.Fprintf(&w, "    title \"%s\"\n", safe(title))
	fmt.Fprintf(&w, "    x-axis \"%s\" [%s]\n", safe(xLabel), strings.Join(q, ", "))
	if yMax > yMin {
		fmt.Fprintf(&w, "    y-axis \"%s\" %s --> %s\n", safe(yLabel), num(yMin), num(yMax))
	} else {
		fmt.Fprintf(&w, "    y-axis \"%s\"\n", safe(yLabel))
	}
	for _, b := range bars {
		fmt.Fprintf(&w, "    bar [%s]\n", nums(b))
	}
	for _, l := range lines {
		fmt.Fprintf(&w, "    line [%s]\n", nums(l))
	}
	return w.String()
}

// distinctLabels reduces the categories to the safe alphabet and keeps
// them distinct: Mermaid's band axis has one band per distinct label, so
// two names the alphabet makes equal ("a<b", "a>b"; two long names alike
// in their first 120 characters) would have their bars drawn on top of
// each other. A label seen before gets " (2)", " (3)", ..., a number no
// other label holds, within the 120 characters.
func distinctLabels(cats []string) []string {
	labels := make([]string, len(cats))
	used := map[string]bool{}
	for i, c := range cats {
		labels[i] = safe(c)
		used[labels[i]] = true
	}
	first := map[string]bool{}
	for i, l := range labels {
		if !first[l] {
			first[l] = true
			continue
		}
		for k := 2; ; k++ {
			suffix := fmt.Sprintf(" (%d)", k)
			base := []rune(l)
			if len(base)+len(suffix) > 120 {
				base = base[:120-len(suffix)]
			}
			if cand := strings.TrimRight(string(base), " ") + suffix; !used[cand] {
				labels[i] = cand
				used[cand] = true
				break
			}
		}
	}
	return labels
}

func nums(vs []float64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = num(v)
	}
	return strings.Join(s, ", ")
}

// num prints a value with four decimals, enough for ratios and
// scores, and short enough for a long run sequence. A value that is not
// finite (which a chart never holds) is 0 rather than a word Mermaid
// cannot parse.
func num(v float64) string {
	if v != v || v > 1e300 || v < -1e300 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// safe reduces text from inputs to letters, digits, blanks and
// - _ . , / + = ( ) ; anything else becomes '_' (no quote, backtick, hash,
// percent, colon, bracket or angle bracket survives), runs of blanks are
// one space, and the result is cut to 120 characters.
func safe(s string) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		if n >= 120 {
			break
		}
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if space || b.Len() == 0 {
				continue
			}
			space = true
			b.WriteByte(' ')
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("-_.,/+=()", r):
			space = false
			b.WriteRune(r)
		case r > 0x7f && (r >= 0xa0 && r != 0x2028 && r != 0x2029 && r != 0xfeff) && isLetterLike(r):
			space = false
			b.WriteRune(r)
		default:
			space = false
			b.WriteByte('_')
		}
		n++
	}
	return strings.TrimRight(b.String(), " ")
}

// isLetterLike keeps the letters of other scripts and typographic
// dashes and signs of the charts' own labels (–, ×, ≥), which Mermaid
// shows as they are.
func isLetterLike(r rune) bool {
	switch r {
	case '–', '—', '×', '≥', '≤', '±', 'α', 'ρ', 'σ', 'μ':
		return true
	}
	return (r >= 0xc0 && r <= 0x24f) || (r >= 0x370 && r <= 0x3ff) || (r >= 0x400 && r <= 0x4ff)
}
