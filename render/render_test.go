package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type row struct {
	Name  string
	Ratio float64
}

var cols = []Column[row]{
	{Head: "benchmark", Cell: func(r row) string { return r.Name }, Key: "name", JSON: func(r row) any { return r.Name }},
	{Key: "hidden", JSON: func(r row) any { return 1 }},
	{Head: "ratio", Align: Right, Cell: func(r row) string { return "x" + strings.Repeat("9", int(r.Ratio)) }, Key: "ratio", JSON: func(r row) any { return Float(r.Ratio) }},
}

// TestOneTableEveryFormat: a table's columns give the text, the Markdown
// and the JSON at once, each with its own layout.
func TestOneTableEveryFormat(t *testing.T) {
	rows := []row{{"larson", 1}, {"::error::x|<b>", 3}}
	tb := NewTable(cols, rows)
	tb.AddRow("geomean", "x9", "extra cell dropped")
	var text, md bytes.Buffer
	d := &Doc{}
	d.Add(&Heading{Level: 2, Text: "Title"}, &Paragraph{Text: "one two three four", Width: 9}, tb)
	d.WriteText(&text)
	d.WriteMarkdown(&md)
	wantText := "one two\nthree\nfour\n" +
		"benchmark        ratio\n" +
		"larson              x9\n" +
		"\\::error::x|<b>   x999\n" +
		"geomean             x9\n"
	if diff := cmp.Diff(wantText, text.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
	wantMD := "## Title\n\none two three four\n\n| benchmark | ratio |\n|---|---:|\n| larson | x9 |\n| ::error::x\\|\\<b\\> | x999 |\n| geomean | x9 |\n"
	if diff := cmp.Diff(wantMD, md.String()); diff != "" {
		t.Errorf("markdown (-want +got):\n%s", diff)
	}
	b, err := json.Marshal(Objects(cols, rows))
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := `[{"name":"larson","hidden":1,"ratio":1},{"name":"::error::x|\u003cb\u003e","hidden":1,"ratio":3}]`
	if string(b) != wantJSON {
		t.Errorf("JSON\n got %s\nwant %s", b, wantJSON)
	}
}

func TestFloatNull(t *testing.T) {
	b, _ := json.Marshal([]Float{1.5, Float(nan()), Float(inf())})
	if string(b) != "[1.5,null,null]" {
		t.Errorf("got %s", b)
	}
}

func nan() float64 { z := 0.0; return z / z }
func inf() float64 { z := 0.0; return 1 / z }

// TestReportBlocks: the blocks a report needs beyond prose and tables,
// in both formats: a bold paragraph, a paragraph with an emphasised lead,
// an image beside the document, and a fenced diagram whose fence no line
// of it can end.
func TestReportBlocks(t *testing.T) {
	d := &Doc{}
	d.Add(&Paragraph{Text: "Recommended floor: 1.25x", Strong: true},
		&Paragraph{Lead: "Score sequence.", Text: "Every run's score in order."},
		&Image{Alt: "Score sequence", Src: "r-score-sequence.svg"},
		&Fenced{Info: "mermaid", Text: "xychart-beta\n    bar [1]\n"},
		&Fenced{Text: "```\nnot the end\n````"})
	var text, md bytes.Buffer
	d.WriteText(&text)
	d.WriteMarkdown(&md)
	wantText := "Recommended floor: 1.25x\n" +
		"Score sequence. Every run's score in order.\n" +
		"Score sequence: r-score-sequence.svg\n" +
		"xychart-beta\n    bar [1]\n" +
		"```\nnot the end\n````\n"
	if diff := cmp.Diff(wantText, text.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
	wantMD := "**Recommended floor: 1.25x**\n\n" +
		"*Score sequence.* Every run's score in order.\n\n" +
		"![Score sequence](r-score-sequence.svg)\n\n" +
		"```mermaid\nxychart-beta\n    bar [1]\n```\n\n" +
		"`````\n```\nnot the end\n````\n`````\n"
	if diff := cmp.Diff(wantMD, md.String()); diff != "" {
		t.Errorf("markdown (-want +got):\n%s", diff)
	}
}

// TestCodeColumn: a column marked Code is a code span in Markdown, so
// that a text bar's characters line up in a monospaced font; what it holds
// is shown as it is, a backtick cannot end the span and a pipe cannot end
// the cell; its header and the other columns are escaped as ever; text
// output lays it out like any column.
func TestCodeColumn(t *testing.T) {
	type bar struct{ name, strip string }
	cols := []Column[bar]{
		{Head: "benchmark", Cell: func(b bar) string { return b.name }},
		{Head: "ratios *log*", Code: true, Cell: func(b bar) string { return b.strip }},
	}
	tb := NewTable(cols, []bar{{"a_b", "··[━●━]··"}, {"c", "a`b|c *d*"}})
	var md, text bytes.Buffer
	tb.WriteMarkdown(&md)
	want := "| benchmark | ratios \\*log\\* |\n|---|---|\n| a\\_b | `··[━●━]··` |\n| c | ``a`b\\|c *d*`` |\n"
	if diff := cmp.Diff(want, md.String()); diff != "" {
		t.Errorf("markdown (-want +got):\n%s", diff)
	}
	(&Doc{Blocks: []Block{tb}}).WriteText(&text)
	if !strings.Contains(text.String(), "a_b        ··[━●━]··\n") || !strings.Contains(text.String(), "c          a`b|c *d*\n") {
		t.Errorf("text output shows the code column other than as it is:\n%s", text.String())
	}
}
