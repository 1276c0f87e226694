package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"qoscal/chartdata"
	"qoscal/present"
	"qoscal/render"
)

// stepSummary is the value of a bare --summary: $GITHUB_STEP_SUMMARY.
const stepSummary = "$GITHUB_STEP_SUMMARY"

// summaryArg lets "--summary FILE.md" name the file, as "--summary=FILE.md"
// does: --summary takes an optional value (bare, it is the step summary),
// and pflag gives an optional value only after "=". A next argument that
// ends in .md is the file; any other is a PATH.
func summaryArg(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			return append(out, args[i:]...)
		}
		if args[i] == "--summary" && i+1 < len(args) && strings.EqualFold(filepath.Ext(args[i+1]), ".md") {
			out = append(out, "--summary="+args[i+1])
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// samePath reports whether two paths name the same file (the same path,
// or the same existing file).
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// mermaidCharts writes the charts a step summary can show: the score
// sequence with the floor, and the per-benchmark spread, each as a Mermaid
// chart followed by the table of its exact numbers. The other charts need
// images, which a step summary cannot show; the HTML report has them.
func (r *report) mermaidCharts(w io.Writer) {
	spread := &present.Spread{A: r.a}
	for _, c := range r.chartData {
		h := c.Header()
		if h.LeftOut != "" {
			switch c.(type) {
			case *chartdata.ScoreSequence, *chartdata.RatioSpread:
				fmt.Fprintf(w, "%s: left out, %s.\n\n", h.Caption, render.MDEscape(h.LeftOut))
			}
			continue
		}
		switch c := c.(type) {
		case *chartdata.ScoreSequence:
			fmt.Fprintf(w, "### %s\n\n", render.MDEscape(h.Caption))
			render.MermaidScoreSequence(w, c)
			fmt.Fprintln(w)
			fmt.Fprintf(w, "Bars: each run's score, in run order; lines: %s.\n\n", render.MDEscape(refLabels(c.Refs)))
			render.NewTable(scoreSeqColumns(c), c.Scores.Points).WriteMarkdown(w)
			fmt.Fprintln(w)
		case *chartdata.RatioSpread:
			fmt.Fprintf(w, "### %s\n\n", render.MDEscape(h.Caption))
			render.MermaidRatioSpread(w, c)
			fmt.Fprintln(w)
			fmt.Fprintf(w, "Bars: each benchmark's median ratio %s; lines: its lowest and highest ratio. The numbers:\n\n", render.MDEscape(present.Metric(r.a)))
			spread.BenchmarkTable().WriteMarkdown(w)
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w, "The score distribution, the noise by benchmark and the floor's trade-off are charts of the HTML report (qoscal report --out).")
	fmt.Fprintln(w)
}

// refLabels names the flat lines of the score sequence's Mermaid chart,
// in the order drawn (the floor, then the lowest score).
func refLabels(refs []chartdata.Ref) string {
	var l []string
	for _, r := range refs {
		if r.Kind == chartdata.RefFloor || r.Kind == chartdata.RefLowest {
			l = append(l, r.Label)
		}
	}
	return strings.Join(l, ", then ")
}

// scoreSeqColumns are the score sequence's numbers: each run's score and
// whether it is below the floor.
func scoreSeqColumns(c *chartdata.ScoreSequence) []render.Column[chartdata.Point] {
	floor := 0.0
	for _, r := range c.Refs {
		if r.Kind == chartdata.RefFloor {
			floor = r.At
		}
	}
	return []render.Column[chartdata.Point]{
		{Head: "n", Align: render.Right, Cell: func(p chartdata.Point) string { return fmt.Sprintf("%.0f", p.X) }},
		{Head: "run", Cell: func(p chartdata.Point) string { return p.Label }},
		{Head: "score", Align: render.Right, Cell: func(p chartdata.Point) string { return present.X(p.Y) }},
		{Head: "vs floor", Cell: func(p chartdata.Point) string {
			switch {
			case floor <= 0:
				return "no floor"
			case p.Y < floor:
				return "BELOW"
			}
			return "above"
		}},
	}
}
