package present

import (
	_ "embed"
	"html/template"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/qoscal/qoscal/render"
)

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
// the text before it is escaped.
var hyphenated = regexp.MustCompile(`\S*[A-Za-z0-9]-\S*`)

// noBreakRunes is the longest hyphenated word kept on one line: a run id
// or a range of them (run-04..run-12), not a path, which must still wrap
// on a phone rather than make the page scroll sideways.
const noBreakRunes = 24

// noBreak escapes s for HTML and keeps each hyphenated word of up to
// noBreakRunes characters on one line (class nb: white-space nowrap): on
// a 390 px phone run ids broke at their hyphens ("run-04..run-" / "12",
// issue 35). The words are found in s and each piece escaped on its own,
// so that no span opens inside an entity ("a&gt;b-c" showed "&gt;").
func noBreak(s string) template.HTML {
	var b strings.Builder
	last := 0
	for _, m := range hyphenated.FindAllStringIndex(s, -1) {
		b.WriteString(template.HTMLEscapeString(s[last:m[0]]))
		w := template.HTMLEscapeString(s[m[0]:m[1]])
		if utf8.RuneCountInString(s[m[0]:m[1]]) > noBreakRunes {
			b.WriteString(w)
		} else {
			b.WriteString(`<span class="nb">` + w + `</span>`)
		}
		last = m[1]
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	return template.HTML(b.String())
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
	Head []string
	// Class is each column's cells' class: "r" right-aligned, "id" run
	// ids, kept on one line (on a 390 px phone they broke over two,
	// issue 35: the table scrolls in its box instead).
	Class []string
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
	for i, a := range t.Align {
		var c []string
		if a == render.Right {
			c = append(c, "r")
		}
		if t.Head[i] == "run" {
			c = append(c, "id")
		}
		h.Class = append(h.Class, strings.Join(c, " "))
	}
	return h
}

// htmlChart is a chart in the page: inline SVG (and the phone's, shown
// in its place on a narrow screen), or why it is left out.
type htmlChart struct {
	Name, Title string
	Read        string // what to read from the chart, one sentence
	SVG, Phone  template.HTML
	LeftOut     string // why the chart is not drawn; "" when it is
}

// WriteHTML writes the report as one self-contained HTML page.
func (r *Report) WriteHTML(w io.Writer) error {
	var cs []htmlChart
	for _, c := range reportOrder(r.Charts) {
		cs = append(cs, htmlChart{Name: c.Name, Title: c.Caption, Read: r.reading(c.Name), SVG: template.HTML(inlineSVG(string(c.SVG))),
			Phone: template.HTML(inlineSVG(string(c.Phone))), LeftOut: c.LeftOut})
	}
	spread, rec := r.spread(), r.recommend()
	var audit *htmlAudit
	if r.Audit != nil {
		audit = &htmlAudit{Title: r.auditTitle(), Lines: r.Audit.counts(), Table: forHTML(r.Audit.table()), Notes: r.Audit.notes()}
		if t := r.Audit.profileTable(); t != nil {
			pt := forHTML(t)
			audit.Profiles, audit.ProfileNotes = &pt, r.Audit.profileNotes()
		}
	}
	return reportTemplate.Execute(w, reportPage{
		Title:        r.title(),
		Floor:        r.floorLine(),
		FiguresTitle: r.figuresTitle(),
		Decision:     rec.decisionItems(),
		Summary:      []string{spread.summary(), rec.summary()},
		Warnings:     r.warnings(),
		Figures:      forHTML(r.figures()),
		Candidates:   forHTML(rec.candidateTable()),
		Distribution: forHTML(spread.distributionTable()),
		Benchmarks:   forHTML(spread.benchmarkTable()),
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
