package main

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"qoscal/calibrate"
	"qoscal/chartdata"
	"qoscal/data"
	"qoscal/plots"
	"qoscal/present"
	"qoscal/render"
)

var reportCmd = &command{
	name:    "report",
	summary: "full variance report (HTML and/or Markdown)",
	usage: `qoscal report [flags] [PATH...] --out FILE.html [--markdown FILE.md]
qoscal report [flags] [PATH...] --summary [FILE.md]
`,
	intro: `Writes the variance report of runs of unchanged code: the plain-language
summary, the score distribution, the per-benchmark spread, the recommended
floor with its false-positive rate and detection power, the table of
candidate floors, the six charts of 'qoscal plot', and the inputs (runs,
labels, variant names, qoscal version, seed).

--out writes one self-contained HTML file: charts inline as SVG, styles
inline, no scripts, nothing fetched; readable on a phone and printable.
--markdown writes the same content as GitHub-flavoured Markdown, with the
charts as SVG files next to it (FILE-ratio-spread.svg, ...).
--summary appends the Markdown report to $GITHUB_STEP_SUMMARY (or to
FILE.md), for a GitHub step summary or a pull-request comment: no image
files; the score sequence with the floor and the per-benchmark spread are
Mermaid charts, each with the table of its exact numbers. (--markdown
"$GITHUB_STEP_SUMMARY" does the same: it appends, never overwrites.)
The same inputs give byte-identical files: the time is printed only when
SOURCE_DATE_EPOCH is set.
`,
	example: `Example:

    $ qoscal report --out report.html --markdown report.md \
        --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
    report.html
    report.md
    report-ratio-spread.svg
    ...
`,
	rewrite: summaryArg,
	new:     func() runner { return new(reportFlags) },
}

func init() {
	register(reportCmd)
}

// reportFlags are the report command's flags.
type reportFlags struct {
	cf               chartFlags
	out, md, summary string
}

func (r *reportFlags) flags(fs *flagSet) {
	r.cf.add(fs)
	fs.group("Output:")
	fs.StringVar(&r.out, "out", "", "write the HTML report to `FILE.html`")
	fs.StringVar(&r.md, "markdown", "", "write the Markdown report to `FILE.md`, its charts as SVG files beside it")
	fs.StringVar(&r.summary, "summary", "", "append the report with Mermaid charts to $GITHUB_STEP_SUMMARY, or to `FILE.md` (a FILE not ending in .md: --summary=FILE)")
	fs.Lookup("summary").NoOptDefVal = stepSummary
}

func (r *reportFlags) run(u *ui, paths []string) error {
	cf, out, md, summary := &r.cf, r.out, r.md, r.summary
	if summary == stepSummary {
		if summary = u.getenv("GITHUB_STEP_SUMMARY"); summary == "" {
			return usagef("--summary without a FILE appends to $GITHUB_STEP_SUMMARY, which is not set: name the file (--summary report.md)")
		}
	}
	// The step summary is appended to, never overwritten, and cannot show
	// image files: --markdown naming it is --summary.
	if ss := u.getenv("GITHUB_STEP_SUMMARY"); md != "" && ss != "" && samePath(md, ss) {
		if summary == "" {
			summary = md
		}
		md = ""
	}
	if out == "" && md == "" && summary == "" {
		return usagef("name the report: --out FILE.html, --markdown FILE.md and/or --summary [FILE.md]")
	}
	fc := cf.files(u, paths)
	fc.out("--out", out)
	if md != "" {
		fc.out("--markdown", md)
		chartFiles(fc, "--markdown's chart", filepath.Dir(md), mdChartPrefix(md), plots.SVG)
	}
	fc.appendTo("--summary", summary)
	if err := fc.check(); err != nil {
		return err
	}
	in, rec, floor, err := cf.read(u, paths)
	if err != nil {
		return err
	}
	// Both reports show the charts as SVG: compute their data and draw
	// them once (and warn once about a chart left out).
	cd, err := cf.charts(in, rec, floor)
	if err != nil {
		return err
	}
	ds, err := drawCharts(u, cd, plots.SVG)
	if err != nil {
		return err
	}
	rep := &report{in: in, a: in.analysis, rec: rec, floor: floor, charts: ds, chartData: cd,
		spread: &present.Spread{A: in.analysis}, recv: &present.Recommend{A: in.analysis, Rec: rec}}
	if s := u.getenv("SOURCE_DATE_EPOCH"); s != "" {
		t, err := u.now()
		if err != nil {
			return err
		}
		rep.when = t.Format(time.RFC3339)
	}
	if out != "" {
		var buf bytes.Buffer
		if err := rep.html(&buf); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := writeFile(out, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintln(u.stdout, render.OneLine(out))
	}
	if md != "" {
		paths, err := writeCharts(filepath.Dir(md), mdChartPrefix(md), rep.charts, plots.SVG)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		rep.markdown(&buf, paths)
		if err := writeFile(md, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintln(u.stdout, render.OneLine(md))
		for _, p := range paths {
			if p != "" {
				fmt.Fprintln(u.stdout, render.OneLine(p))
			}
		}
	}
	if summary != "" {
		var buf bytes.Buffer
		rep.markdown(&buf, nil)
		// A blank line first, so that the report starts a block of its own
		// after whatever the summary holds.
		if err := appendFile(summary, append([]byte("\n"), buf.Bytes()...)); err != nil {
			return fmt.Errorf("step summary %s: %v", summary, err)
		}
		fmt.Fprintln(u.stdout, render.OneLine(summary))
	}
	return nil
}

// mdChartPrefix is the prefix of the chart files of the Markdown report
// md: its stem and a dash (report.md: report-ratio-spread.svg, ...).
func mdChartPrefix(md string) string {
	return strings.TrimSuffix(filepath.Base(md), filepath.Ext(md)) + "-"
}

type report struct {
	spread *present.Spread
	recv   *present.Recommend
	in     *input
	a      *calibrate.Analysis
	rec    *calibrate.Recommendation
	floor  chartdata.Floor
	charts []drawn
	// chartData are the charts' data, for the Mermaid charts of --summary.
	chartData []chartdata.Chart
	when      string
}

func (r *report) title() string {
	return "qoscal variance report: geomean(" + present.Metric(r.a) + ")"
}

func (r *report) warnings() []string {
	return warningTexts(r.a.Warnings, r.rec.Warnings)
}

// figures is the recommendation's table of figures, with the floor the
// charts show when it is not the recommended one.
func (r *report) figures() *render.Table {
	t := r.recv.Figures()
	if r.floor.Label != "recommended" {
		present.InsertRow(t, 1, "floor shown in the charts ("+r.floor.Label+")", present.TrimFloat(r.floor.Value)+"x")
	}
	return t
}

func (r *report) inputs() *render.Table {
	t := &render.Table{Head: []string{"run", "labels", "score", "source"}, Align: []render.Align{render.Left, render.Left, render.Right, render.Left}}
	byID := map[string]*runInfo{}
	for i := range r.in.runs {
		byID[r.in.runs[i].ID] = &r.in.runs[i]
	}
	for _, run := range r.a.Runs {
		src := ""
		if d := byID[run.ID]; d != nil {
			src = filepath.ToSlash(d.Source)
		}
		t.AddRow(run.ID, data.FormatLabels(run.Labels), present.X(run.Score), src)
	}
	for _, e := range r.a.Excluded {
		t.AddRow(e.ID, "", "left out", "lacks "+strings.Join(e.Missing, ", "))
	}
	return t
}

func (r *report) provenance() []string {
	a := r.a
	out := []string{
		fmt.Sprintf("baseline %s, candidate %s; %d benchmarks (%s)", a.Baseline, a.Candidate, len(a.Suite), present.DirectionNote(a)),
		fmt.Sprintf("runs read from %s%s", r.in.source, filterNote(r.in.filter)),
		fmt.Sprintf("qoscal %s; bootstrap seed %d", version, r.rec.Options.Seed),
	}
	if r.when != "" {
		out = append(out, "made "+r.when+" (SOURCE_DATE_EPOCH)")
	}
	return out
}

// htmlTable is a table ready for the template; cells are escaped by
// html/template.
type htmlTable struct {
	Head  []string
	Right []bool
	Rows  [][]string
	// Wide is a table of more columns than a phone shows at once: it
	// says that it scrolls sideways there.
	Wide bool
}

func forHTML(t *render.Table) htmlTable {
	h := htmlTable{Head: t.Head, Wide: len(t.Head) > 3}
	// Cells hold outside text (run ids, sources): on one line, as in
	// every output (render.OneLine); html/template escapes the rest.
	for _, r := range t.Rows {
		row := make([]string, len(r))
		for i, c := range r {
			row[i] = render.OneLine(c)
		}
		h.Rows = append(h.Rows, row)
	}
	for _, a := range t.Align {
		h.Right = append(h.Right, a == render.Right)
	}
	return h
}

type htmlChart struct {
	Name, Title string
	Read        string // what to read from the chart, one sentence
	SVG         template.HTML
	LeftOut     string // why the chart is not drawn; "" when it is
}

var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45; color: #1a1a1a; background: #fff; margin: 0; }
main { max-width: 62rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
p.summary { font-size: 1.05rem; }
.floor { font-size: 1.3rem; font-weight: 600; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch;
  background: linear-gradient(to right, #fff 30%, rgba(255,255,255,0)) left / 2rem 100% no-repeat local,
    linear-gradient(to left, #fff 30%, rgba(255,255,255,0)) right / 2rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.25), rgba(0,0,0,0)) left / 0.8rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.25), rgba(0,0,0,0)) right / 0.8rem 100% no-repeat scroll; }
.hint { display: none; font-size: 0.8rem; color: #555; margin: 0.2rem 0; }
.chart { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5rem 0; font-variant-numeric: tabular-nums; font-size: 0.92rem; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #e5e5e5; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
td.r, th.r { text-align: right; }
figure { margin: 1rem 0 2rem; }
figure svg { width: 100%; height: auto; display: block; min-width: 40rem; }
figcaption { font-size: 0.95rem; color: #333; }
figcaption strong { color: #1a1a1a; }
@media (max-width: 48rem) { .hint { display: block; } main { padding: 0.6rem; } }
ul.warnings li { color: #8a4b00; }
footer { font-size: 0.85rem; color: #555; margin-top: 2rem; }
@media print { main { max-width: none; } figure, table { break-inside: avoid; } h2 { break-after: avoid; } }
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
<p class="floor">Recommended floor: {{.Floor}}x</p>
<ul class="decision">{{range .Decision}}<li>{{.}}</li>{{end}}</ul>
{{range .Summary}}<p class="summary">{{.}}</p>
{{end}}
{{if .Warnings}}<h2 id="warnings">Warnings</h2>
<ul class="warnings">{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>
{{end}}
<h2 id="charts">Charts</h2>
{{range .Charts}}{{if .LeftOut}}<p class="left-out" id="{{.Name}}">{{.Title}}: left out, {{.LeftOut}}.</p>
{{else}}<figure id="{{.Name}}">
<p class="hint">The chart is wider than the screen: scroll it sideways.</p>
<div class="chart">{{.SVG}}</div>
<figcaption><strong>{{.Title}}.</strong> {{.Read}}</figcaption>
</figure>
{{end}}{{end}}
<h2 id="recommendation">The recommended floor and what it costs</h2>
{{template "table" .Figures}}
<h2 id="candidates">Candidate floors</h2>
<p>A snugger floor catches smaller regressions, and trips healthy runs more often.</p>
{{template "table" .Candidates}}
<h2 id="distribution">Score distribution</h2>
{{template "table" .Distribution}}
<h2 id="benchmarks">Benchmarks, noisiest first</h2>
<p>Ratio across runs: min, median, max; range as % of the median; CV; CV in log space; IQR (type 7 quartiles); scaled MAD; share of the variance of ln(score); LOO, the median score with the benchmark left out; shifts, the runs where the benchmark's ratio changed regime.</p>
{{template "table" .Benchmarks}}
<h2 id="inputs">Inputs</h2>
{{template "table" .Inputs}}
<footer>{{range .Provenance}}<div>{{.}}</div>{{end}}</footer>
</main>
</body>
</html>
{{define "table"}}{{if .Wide}}<p class="hint">Wide table: scroll it sideways.</p>{{end}}<div class="scroll"><table>
<thead><tr>{{range $i, $h := .Head}}<th{{if index $.Right $i}} class="r"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range $i, $c := .}}<td{{if index $.Right $i}} class="r"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>{{end}}
`))

func (r *report) html(w io.Writer) error {
	var cs []htmlChart
	for _, c := range reportOrder(r.charts) {
		cs = append(cs, htmlChart{Name: c.name, Title: c.caption, Read: chartReading[c.name], SVG: template.HTML(inlineSVG(string(c.image))), LeftOut: c.leftOut})
	}
	return reportTemplate.Execute(w, map[string]any{
		"Title":        r.title(),
		"Floor":        r.rec.FormatFloor(r.rec.Floor),
		"Decision":     r.recv.DecisionItems(),
		"Summary":      []string{r.spread.Summary(), r.recv.Summary()},
		"Warnings":     r.warnings(),
		"Figures":      forHTML(r.figures()),
		"Candidates":   forHTML(r.recv.CandidateTable()),
		"Distribution": forHTML(r.spread.DistributionTable()),
		"Benchmarks":   forHTML(r.spread.BenchmarkTable()),
		"Charts":       cs,
		"Inputs":       forHTML(r.inputs()),
		"Provenance":   r.provenance(),
	})
}

// reportOrder puts the charts in the order a reviewer reads them: the
// runs against the floor and what the floor costs first, the benchmarks
// behind the score after.
func reportOrder(ds []drawn) []drawn {
	rank := map[string]int{"score-sequence": 0, "floor-tradeoff": 1, "score-distribution": 2, "ratio-spread": 3, "history": 4, "noise": 5}
	out := slices.Clone(ds)
	slices.SortStableFunc(out, func(a, b drawn) int { return rank[a.name] - rank[b.name] })
	return out
}

// chartReading says, for each chart, what a reviewer reads from it.
var chartReading = map[string]string{
	"score-sequence":     "Every run's score in order: the floor should sit clearly below all of the shaded regime calibrated on, and a step between regimes means the score moved.",
	"score-distribution": "How the scores spread: the floor should sit well left of the bars and of the fitted curve's tail.",
	"floor-tradeoff":     "Each candidate floor's false alarms per healthy run (above) against the smallest uniform slide it catches half the time (below); the recommended floor is the vertical line.",
	"ratio-spread":       "Which benchmark moves: a wide box or a long range is a noisy benchmark, and a box away from the others is one the score leans on.",
	"history":            "Each benchmark's ratio run by run: a step out of its shaded band shows which benchmark moved, and when.",
	"noise":              "Which benchmarks make the score noisy: a long orange bar carries much of the score's variance; a bar below zero steadies it.",
}

// inlineSVG drops the XML prolog and comment of a gonum SVG so that it can
// stand inside HTML. Its text is already escaped by the SVG writer.
func inlineSVG(s string) string {
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return s
}

func (r *report) markdown(w io.Writer, chartPaths []string) {
	fmt.Fprintf(w, "# %s\n\n", render.MDEscape(r.title()))
	fmt.Fprintf(w, "**Recommended floor: %sx**\n\n", r.rec.FormatFloor(r.rec.Floor))
	for _, d := range r.recv.DecisionItems() {
		fmt.Fprintf(w, "- %s\n", render.MDEscape(d))
	}
	fmt.Fprintf(w, "\n%s\n\n%s\n\n", render.MDEscape(r.spread.Summary()), render.MDEscape(r.recv.Summary()))
	if ws := r.warnings(); len(ws) > 0 {
		fmt.Fprintln(w, "## Warnings")
		fmt.Fprintln(w)
		for _, s := range ws {
			fmt.Fprintf(w, "- %s\n", render.MDEscape(s))
		}
		fmt.Fprintln(w)
	}
	section := func(title string, t *render.Table) {
		fmt.Fprintf(w, "## %s\n\n", title)
		t.WriteMarkdown(w)
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "## Charts")
	fmt.Fprintln(w)
	if chartPaths == nil {
		r.mermaidCharts(w)
	}
	for i, c := range r.charts {
		if chartPaths == nil {
			break
		}
		if c.leftOut != "" {
			fmt.Fprintf(w, "%s: left out, %s.\n\n", c.caption, render.MDEscape(c.leftOut))
			continue
		}
		fmt.Fprintf(w, "![%s](%s)\n\n", c.caption, filepath.ToSlash(filepath.Base(chartPaths[i])))
		if s := chartReading[c.name]; s != "" {
			fmt.Fprintf(w, "*%s.* %s\n\n", c.caption, s)
		}
	}
	section("The recommended floor and what it costs", r.figures())
	section("Candidate floors", r.recv.CandidateTable())
	section("Score distribution", r.spread.DistributionTable())
	section("Benchmarks, noisiest first", r.spread.BenchmarkTable())
	section("Inputs", r.inputs())
	for _, p := range r.provenance() {
		fmt.Fprintf(w, "- %s\n", render.MDEscape(p))
	}
}
