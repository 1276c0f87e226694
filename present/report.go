package present

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/chartdata"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/mermaid"
	"github.com/qoscal/qoscal/render"
)

// Report is the view of the variance report (qoscal report): the
// recommendation, the spread, the charts and the inputs, as one HTML page
// (WriteHTML: the template report.html.tmpl beside this file, fed
// reportPage) or as a Markdown document (Markdown: a render.Doc), with
// the charts as image files or, for a step summary, as Mermaid charts.
type Report struct {
	A *calspread.Analysis
	// Rec is the floor the report is about, with what it costs and
	// catches on these runs: the recommendation, or, when Floor is
	// another (Floor.Label: "calibration", "--floor"), the
	// recommendation's figures at that floor
	// (calfloor.Recommendation.At). Recommended is then the
	// recommendation, shown in one row for comparison; nil otherwise.
	Rec, Recommended *calfloor.Recommendation
	// Floor is the floor the charts show: Rec's.
	Floor chartdata.Floor
	// Cal is the calibration file whose floor Floor is (CalPath the name
	// it was given by), nil when it is not a calibration file's.
	Cal     *model.File
	CalPath string
	// Audit is the audit of Cal on the verdicts the store's ledger kept
	// against it (qoscal audit's view), nil when there is no calibration,
	// no store or no such verdict: the report then has no audit section.
	// Gated are the runs the ledger holds a verdict on against Cal, by run
	// id: the latest verdict, and the run's mark ("fail, marked
	// healthy"), which the run listing shows.
	Audit *Audit
	Gated map[string]string
	// Charts are the charts drawn as SVG, in the order they were made;
	// ChartData their data, for the Mermaid charts of a step summary.
	Charts    []ReportChart
	ChartData []chartdata.Chart
	// Sources are where each run was read from, by run id; Source where
	// the runs were read from ("paths", or a store), with the labels
	// Filter chose.
	Sources map[string]string
	Source  string
	Filter  map[string]string
	// Version is qoscal's; When the time the report was made, "" when it
	// is not printed.
	Version, When string
}

// ReportChart is a chart as the report shows it.
type ReportChart struct {
	Name, Caption string
	// SVG is the chart drawn; LeftOut says why it is not, when it is not.
	SVG     []byte
	LeftOut string
}

func (r *Report) spread() *Spread       { return &Spread{A: r.A} }
func (r *Report) recommend() *Recommend { return &Recommend{A: r.A, Rec: r.Rec, Given: r.given()} }

// given says where the report's floor comes from when it is not the
// recommended one: "the calibration file gate.json (margin method, 9
// runs)", "--floor"; "" for the recommended floor.
func (r *Report) given() string {
	switch {
	case r.Floor.Label == "recommended" || r.Floor.Label == "":
		return ""
	case r.Cal != nil:
		return fmt.Sprintf("the calibration file %s (%s method, %s)", r.CalPath, r.Cal.Method, Plural(r.Cal.Runs, "run"))
	}
	return r.Floor.Label
}

// floorLine is the report's floor, first under its title: "Recommended
// floor: 1.16x", "Floor: 1.14x, from the calibration file gate.json",
// "Floor: 1.20x, from --floor".
func (r *Report) floorLine() string {
	f := r.Rec.FormatFloor(r.Rec.Floor) + "x"
	switch {
	case r.given() == "":
		return "Recommended floor: " + f
	case r.Cal != nil:
		return "Floor: " + f + ", from the calibration file " + r.CalPath
	}
	return "Floor: " + f + ", from " + r.given()
}

// figuresTitle heads the table of the floor's figures.
func (r *Report) figuresTitle() string {
	if r.given() == "" {
		return "The recommended floor and what it costs"
	}
	return "The floor and what it costs"
}

// reading is what a reviewer reads from the chart name.
func (r *Report) reading(name string) string {
	if name == "floor-tradeoff" && r.given() != "" {
		return strings.Replace(chartReading[name], "the recommended floor is the vertical line", "the floor is the vertical line", 1)
	}
	return chartReading[name]
}

// Title is the report's title.
func (r *Report) Title() string {
	return "qoscal variance report: geomean(" + Metric(r.A) + ")"
}

// warnings are the analysis' and the recommendation's warnings.
func (r *Report) warnings() []string {
	return WarningTexts(r.A.Warnings, r.Rec.Warnings)
}

// figures is the table of the floor's figures; for a floor that is not
// the recommended one, with the floor recommend gives on these runs in
// its second row, for comparison.
func (r *Report) figures() *render.Table {
	t := r.recommend().Figures()
	if rec := r.Recommended; rec != nil && r.given() != "" {
		InsertRow(t, 1, "the floor recommend gives on these runs, for comparison", rec.FormatFloor(rec.Floor)+"x")
	}
	return t
}

// inputs is the table of the runs: each run's labels, score and source,
// then the runs left out; with a ledger's verdicts (Gated), a column
// says which runs the gate judged against the calibration, and how.
func (r *Report) inputs() *render.Table {
	t := &render.Table{Head: []string{"run", "labels", "score", "source"}, Align: []render.Align{render.Left, render.Left, render.Right, render.Left}}
	gated := len(r.Gated) > 0
	if gated {
		t.Head = append(t.Head, "gated")
		t.Align = append(t.Align, render.Left)
	}
	for _, run := range r.A.Runs {
		row := []string{run.ID, data.FormatLabels(run.Labels), X(run.Score), filepath.ToSlash(r.Sources[run.ID])}
		if gated {
			row = append(row, r.gatedCell(run.ID))
		}
		t.AddRow(row...)
	}
	for _, e := range r.A.Excluded {
		row := []string{e.ID, "", "left out", "lacks " + strings.Join(e.Missing, ", ")}
		if gated {
			row = append(row, r.gatedCell(e.ID))
		}
		t.AddRow(row...)
	}
	return t
}

// gatedCell says whether the gate judged a run against the calibration:
// its verdict ("fail, marked healthy"), or "-".
func (r *Report) gatedCell(id string) string {
	if v, ok := r.Gated[id]; ok {
		return v
	}
	return "-"
}

// auditTitle heads the audit section: the floor's verdict in words.
func (r *Report) auditTitle() string {
	return "Audit of the calibration: " + r.Audit.Res.Floor.Verdict
}

// provenance says what the report was made from and with.
func (r *Report) provenance() []string {
	a := r.A
	from := r.Source
	if len(r.Filter) > 0 {
		from += " with labels " + data.FormatLabels(r.Filter)
	}
	out := []string{
		fmt.Sprintf("baseline %s, candidate %s; %d benchmarks (%s)", a.Baseline, a.Candidate, len(a.Suite), DirectionNote(a)),
		"runs read from " + from,
		fmt.Sprintf("qoscal %s; bootstrap seed %d", r.Version, r.Rec.Options.Seed),
	}
	if r.When != "" {
		out = append(out, "made "+r.When+" (SOURCE_DATE_EPOCH)")
	}
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

// reportOrder puts the charts in the order a reviewer reads them: the
// runs against the floor and what the floor costs first, the benchmarks
// behind the score after.
func reportOrder(cs []ReportChart) []ReportChart {
	rank := map[string]int{"score-sequence": 0, "floor-tradeoff": 1, "score-distribution": 2, "ratio-spread": 3, "history": 4, "noise": 5}
	out := slices.Clone(cs)
	slices.SortStableFunc(out, func(a, b ReportChart) int { return rank[a.Name] - rank[b.Name] })
	return out
}

//go:embed report.html.tmpl
var reportHTML string

// reportTemplate is the HTML page: one self-contained file, styles
// inline, no scripts, nothing fetched; html/template escapes every piece
// of text.
var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{"nb": noBreak}).Parse(reportHTML))

// hyphenated is a word holding a hyphen between letters or digits, in
// escaped HTML text (an entity ends it).
var hyphenated = regexp.MustCompile(`[^\s<>&]*[A-Za-z0-9]-[^\s<>&]*`)

// noBreakRunes is the longest hyphenated word kept on one line: a run id
// or a range of them (run-04..run-12), not a path, which must still wrap
// on a phone rather than make the page scroll sideways.
const noBreakRunes = 24

// noBreak escapes s for HTML and keeps each hyphenated word of up to
// noBreakRunes characters on one line (class nb: white-space nowrap): on
// a 390 px phone run ids broke at their hyphens ("run-04..run-" / "12",
// issue 35).
func noBreak(s string) template.HTML {
	esc := template.HTMLEscapeString(s)
	return template.HTML(hyphenated.ReplaceAllStringFunc(esc, func(w string) string {
		if utf8.RuneCountInString(w) > noBreakRunes {
			return w
		}
		return `<span class="nb">` + w + `</span>`
	}))
}

// reportPage is what the HTML template shows.
type reportPage struct {
	Title, Floor, FiguresTitle                    string
	Decision, Summary, Warnings, Provenance       []string
	Figures, Candidates, Distribution, Benchmarks htmlTable
	Inputs                                        htmlTable
	Charts                                        []htmlChart
	// Audit is the audit section, nil without one.
	Audit *htmlAudit
}

// htmlAudit is the audit section of the page: its title, the counts, the
// table of the floor's and the bands' figures, and the sentences; then,
// with profiles, the table of each profile's floor and its sentences.
type htmlAudit struct {
	Title        string
	Lines, Notes []string
	Table        htmlTable
	// Profiles is the floor's figures by profile, nil without profiles,
	// and ProfileNotes a sentence for each profile.
	Profiles     *htmlTable
	ProfileNotes []string
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

// htmlChart is a chart in the page: inline SVG, or why it is left out.
type htmlChart struct {
	Name, Title string
	Read        string // what to read from the chart, one sentence
	SVG         template.HTML
	LeftOut     string // why the chart is not drawn; "" when it is
}

// WriteHTML writes the report as one self-contained HTML page.
func (r *Report) WriteHTML(w io.Writer) error {
	var cs []htmlChart
	for _, c := range reportOrder(r.Charts) {
		cs = append(cs, htmlChart{Name: c.Name, Title: c.Caption, Read: r.reading(c.Name), SVG: template.HTML(inlineSVG(string(c.SVG))), LeftOut: c.LeftOut})
	}
	spread, rec := r.spread(), r.recommend()
	var audit *htmlAudit
	if r.Audit != nil {
		audit = &htmlAudit{Title: r.auditTitle(), Lines: r.Audit.Counts(), Table: forHTML(r.Audit.Table()), Notes: r.Audit.Notes()}
		if t := r.Audit.ProfileTable(); t != nil {
			pt := forHTML(t)
			audit.Profiles, audit.ProfileNotes = &pt, r.Audit.ProfileNotes()
		}
	}
	return reportTemplate.Execute(w, reportPage{
		Title:        r.Title(),
		Floor:        r.floorLine(),
		FiguresTitle: r.figuresTitle(),
		Decision:     rec.DecisionItems(),
		Summary:      []string{spread.Summary(), rec.Summary()},
		Warnings:     r.warnings(),
		Figures:      forHTML(r.figures()),
		Candidates:   forHTML(rec.CandidateTable()),
		Distribution: forHTML(spread.DistributionTable()),
		Benchmarks:   forHTML(spread.BenchmarkTable()),
		Charts:       cs,
		Inputs:       forHTML(r.inputs()),
		Provenance:   r.provenance(),
		Audit:        audit,
	})
}

// inlineSVG drops the XML prolog and comment of a gonum SVG so that it can
// stand inside HTML. Its text is already escaped by the SVG writer.
func inlineSVG(s string) string {
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return s
}

// Markdown is the report as a Markdown document: with the charts as the
// image files chartFiles (one per chart of Charts, "" for one left out),
// or, when chartFiles is nil, for a step summary or a pull-request
// comment, which show no image files: the score sequence and the
// per-benchmark spread as Mermaid charts, each with the table of its
// numbers.
func (r *Report) Markdown(chartFiles []string) *render.Doc {
	spread, rec := r.spread(), r.recommend()
	d := &render.Doc{}
	d.Add(&render.Heading{Level: 1, Text: r.Title()},
		&render.Paragraph{Text: r.floorLine(), Strong: true},
		&render.List{Items: rec.DecisionItems()},
		&render.Paragraph{Text: spread.Summary()}, &render.Paragraph{Text: rec.Summary()})
	if ws := r.warnings(); len(ws) > 0 {
		d.Add(&render.Heading{Level: 2, Text: "Warnings"}, &render.List{Items: ws})
	}
	d.Add(&render.Heading{Level: 2, Text: "Charts"})
	if chartFiles == nil {
		r.mermaidCharts(d)
	} else {
		for i, c := range r.Charts {
			if c.LeftOut != "" {
				d.Add(&render.Paragraph{Text: c.Caption + ": left out, " + c.LeftOut + "."})
				continue
			}
			d.Add(&render.Image{Alt: c.Caption, Src: filepath.ToSlash(filepath.Base(chartFiles[i]))})
			if s := r.reading(c.Name); s != "" {
				d.Add(&render.Paragraph{Lead: c.Caption + ".", Text: s})
			}
		}
	}
	d.Add(&render.Heading{Level: 2, Text: r.figuresTitle()}, r.figures())
	if v := r.Audit; v != nil {
		d.Add(&render.Heading{Level: 2, Text: r.auditTitle()}, &render.List{Items: v.Counts()}, v.Table())
		for _, n := range v.Notes() {
			d.Add(&render.Paragraph{Text: n})
		}
		if t := v.ProfileTable(); t != nil {
			d.Add(t)
			for _, n := range v.ProfileNotes() {
				d.Add(&render.Paragraph{Text: n})
			}
		}
	}
	for _, s := range []struct {
		title string
		t     *render.Table
	}{
		{"Candidate floors", rec.CandidateTable()},
		{"Score distribution", spread.DistributionTable()},
		{"Benchmarks, noisiest first", spread.BenchmarkTable()},
		{"Inputs", r.inputs()},
	} {
		d.Add(&render.Heading{Level: 2, Text: s.title}, s.t)
	}
	d.Add(&render.List{Items: r.provenance()})
	return d
}

// mermaidCharts adds the charts a step summary can show: the score
// sequence with the floor, and the per-benchmark spread, each as a
// Mermaid chart followed by the table of its exact numbers. The other
// charts need images, which a step summary cannot show; the HTML report
// has them.
func (r *Report) mermaidCharts(d *render.Doc) {
	for _, c := range r.ChartData {
		h := c.Header()
		if h.LeftOut != "" {
			switch c.(type) {
			case *chartdata.ScoreSequence, *chartdata.RatioSpread:
				d.Add(&render.Paragraph{Text: h.Caption + ": left out, " + h.LeftOut + "."})
			}
			continue
		}
		// Each chart, its key right under it, then the table of its
		// numbers (for the spread, with each benchmark's text strip).
		switch c := c.(type) {
		case *chartdata.ScoreSequence:
			m := mermaid.ScoreSequence(c)
			d.Add(&render.Heading{Level: 3, Text: h.Caption}, &render.Fenced{Info: "mermaid", Text: m.Diagram},
				&render.Paragraph{Text: m.KeyLine()},
				render.NewTable(scoreSeqColumns(c, r.Gated), c.Scores.Points))
		case *chartdata.RatioSpread:
			// The strips show the bands the gate would accept: the
			// calibration's when the chart has them, else those of these
			// runs, which a calibration file written from them holds.
			if c.BandLegend == "" && len(r.Rec.Bands) > 0 {
				c = c.Clone()
				c.AddBands(r.Rec.Bands, "these runs")
			}
			m, s := mermaid.RatioSpread(c), mermaid.RatioStrips(c)
			d.Add(&render.Heading{Level: 3, Text: h.Caption}, &render.Fenced{Info: "mermaid", Text: m.Diagram},
				&render.Paragraph{Text: m.KeyLine()},
				render.NewTable(spreadStripColumns(c, s), c.Rows),
				&render.Paragraph{Text: s.Key})
		}
	}
	d.Add(&render.Paragraph{Text: "The score distribution, the noise by benchmark and the floor's trade-off are charts of the HTML report (qoscal report --out)."})
}

// spreadStripColumns are the ratio spread's numbers, a row per benchmark
// in the chart's order, with its text strip (mermaid.RatioStrips): the
// range, the median, the band and the marked run's ratio, where the
// Mermaid chart, whose lines would join unrelated benchmarks, cannot
// show them.
func spreadStripColumns(c *chartdata.RatioSpread, s mermaid.Strips) []render.Column[chartdata.RatioRow] {
	index := map[string]int{}
	for i, r := range c.Rows {
		index[r.Benchmark] = i
	}
	cols := []render.Column[chartdata.RatioRow]{
		{Head: "benchmark", Cell: func(r chartdata.RatioRow) string { return r.Benchmark }},
		{Head: fmt.Sprintf("ratios, log scale %s … %s", chartdata.Num(s.Lo), chartdata.Num(s.Hi)), Code: true,
			Cell: func(r chartdata.RatioRow) string { return s.Lines[index[r.Benchmark]] }},
		{Head: "min", Align: render.Right, Cell: func(r chartdata.RatioRow) string { return X(r.Box.Min) }},
		{Head: "median", Align: render.Right, Cell: func(r chartdata.RatioRow) string { return X(r.Box.Median) }},
		{Head: "max", Align: render.Right, Cell: func(r chartdata.RatioRow) string { return X(r.Box.Max) }},
	}
	if c.BandLegend != "" {
		cols = append(cols, render.Column[chartdata.RatioRow]{Head: "band", Align: render.Right, Cell: func(r chartdata.RatioRow) string {
			if r.Band == nil {
				return "-"
			}
			return X(r.Band.Lo) + "–" + X(r.Band.Hi)
		}})
	}
	if c.ThisLegend != "" {
		cols = append(cols, render.Column[chartdata.RatioRow]{Head: c.ThisLegend, Align: render.Right, Cell: func(r chartdata.RatioRow) string {
			switch {
			case r.Band != nil && r.This < r.Band.Lo:
				return X(r.This) + " below band"
			case r.Band != nil && r.This > r.Band.Hi:
				return X(r.This) + " above band"
			}
			return X(r.This)
		}})
	}
	return cols
}

// scoreSeqColumns are the score sequence's numbers: each run's score and
// whether it is below the floor; with a ledger's verdicts (gated, by run
// id), whether the gate judged the run against the calibration, and how.
func scoreSeqColumns(c *chartdata.ScoreSequence, gated map[string]string) []render.Column[chartdata.Point] {
	floor := 0.0
	for _, r := range c.Refs {
		if r.Kind == chartdata.RefFloor {
			floor = r.At
		}
	}
	cols := []render.Column[chartdata.Point]{
		{Head: "n", Align: render.Right, Cell: func(p chartdata.Point) string { return fmt.Sprintf("%.0f", p.X) }},
		{Head: "run", Cell: func(p chartdata.Point) string { return p.Label }},
		{Head: "score", Align: render.Right, Cell: func(p chartdata.Point) string { return X(p.Y) }},
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
	if len(gated) > 0 {
		cols = append(cols, render.Column[chartdata.Point]{Head: "gated", Cell: func(p chartdata.Point) string {
			if v, ok := gated[p.Label]; ok {
				return v
			}
			return "-"
		}})
	}
	return cols
}
