package present

import (
	"fmt"
	"path/filepath"
	"strings"

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
	// Phone is the chart drawn for a phone's width (plots.DrawPhone),
	// which the HTML report shows in place of SVG on a narrow screen; nil
	// for none (SVG is then scaled to every screen).
	Phone []byte
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

// title is the report's title.
func (r *Report) title() string {
	return "qoscal variance report: geomean(" + metric(r.A) + ")"
}

// warnings are the analysis' and the recommendation's warnings.
func (r *Report) warnings() []string {
	return WarningTexts(r.A.Warnings, r.Rec.Warnings)
}

// figures is the table of the floor's figures; for a floor that is not
// the recommended one, with the floor recommend gives on these runs in
// its second row, for comparison.
func (r *Report) figures() *render.Table {
	t := r.recommend().figures()
	if rec := r.Recommended; rec != nil && r.given() != "" {
		insertRow(t, 1, "the floor recommend gives on these runs, for comparison", rec.FormatFloor(rec.Floor)+"x")
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
		row := []string{run.ID, data.FormatLabels(run.Labels), ratio(run.Score), filepath.ToSlash(r.Sources[run.ID])}
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
		fmt.Sprintf("baseline %s, candidate %s; %d benchmarks (%s)", a.Baseline, a.Candidate, len(a.Suite), directionNote(a)),
		"runs read from " + from,
		fmt.Sprintf("qoscal %s; bootstrap seed %d", r.Version, r.Rec.Options.Seed),
	}
	if r.When != "" {
		out = append(out, "made "+r.When+" (SOURCE_DATE_EPOCH)")
	}
	return out
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
	d.Add(&render.Heading{Level: 1, Text: r.title()},
		&render.Paragraph{Text: r.floorLine(), Strong: true},
		&render.List{Items: rec.decisionItems()},
		&render.Paragraph{Text: spread.summary()}, &render.Paragraph{Text: rec.summary()})
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
		d.Add(&render.Heading{Level: 2, Text: r.auditTitle()}, &render.List{Items: v.counts()}, v.table())
		for _, n := range v.notes() {
			d.Add(&render.Paragraph{Text: n})
		}
		if t := v.profileTable(); t != nil {
			d.Add(t)
			for _, n := range v.profileNotes() {
				d.Add(&render.Paragraph{Text: n})
			}
		}
	}
	for _, s := range []struct {
		title string
		t     *render.Table
	}{
		{"Candidate floors", rec.candidateTable()},
		{"Score distribution", spread.distributionTable()},
		{"Benchmarks, noisiest first", spread.benchmarkTable()},
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
		{Head: "min", Align: render.Right, Cell: func(r chartdata.RatioRow) string { return ratio(r.Box.Min) }},
		{Head: "median", Align: render.Right, Cell: func(r chartdata.RatioRow) string { return ratio(r.Box.Median) }},
		{Head: "max", Align: render.Right, Cell: func(r chartdata.RatioRow) string { return ratio(r.Box.Max) }},
	}
	if c.BandLegend != "" {
		cols = append(cols, render.Column[chartdata.RatioRow]{Head: "band", Align: render.Right, Cell: func(r chartdata.RatioRow) string {
			if r.Band == nil {
				return "-"
			}
			return ratio(r.Band.Lo) + "–" + ratio(r.Band.Hi)
		}})
	}
	if c.ThisLegend != "" {
		cols = append(cols, render.Column[chartdata.RatioRow]{Head: c.ThisLegend, Align: render.Right, Cell: func(r chartdata.RatioRow) string {
			switch {
			case r.Band != nil && r.This < r.Band.Lo:
				return ratio(r.This) + " below band"
			case r.Band != nil && r.This > r.Band.Hi:
				return ratio(r.This) + " above band"
			}
			return ratio(r.This)
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
		{Head: "score", Align: render.Right, Cell: func(p chartdata.Point) string { return ratio(p.Y) }},
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
