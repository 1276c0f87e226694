// Package render is qoscal's small document model and its renderers: a
// view (package present) is built once as a Doc of headings, paragraphs,
// tables with typed columns, lists and preformatted lines, and each output
// format is a renderer of that Doc (text for terminals and CI logs,
// GitHub-flavoured Markdown for step summaries and reports). Machine
// output is the view's JSON, with the names of docs/json.md; tables carry
// their JSON keys, so that a column lands in every format at once.
//
// Nothing here computes a statistic, reads a file or knows a flag.
package render

// Formats is a set of output formats a block appears in.
type Formats uint8

const (
	Text Formats = 1 << iota
	Markdown
	// All is every format.
	All = Text | Markdown
)

// Doc is a document: blocks in order.
type Doc struct {
	Blocks []Block
}

// Block is one part of a document. Each block says in which formats it
// appears: a terminal table and a summary table may lay the same figures
// out differently, but each figure is computed once, in the view.
type Block interface {
	formats() Formats
}

// In limits a block to some formats; the zero value means all.
type In struct{ Only Formats }

func (i In) formats() Formats {
	if i.Only == 0 {
		return All
	}
	return i.Only
}

// Heading is a section title (Markdown # to ####); text output leaves
// headings out unless Text is set, as a terminal reads a plain layout.
type Heading struct {
	In
	Level int // 1 to 4
	Text  string
}

// Paragraph is running text. Text output wraps it at Width columns (0:
// not wrapped); Markdown escapes it.
type Paragraph struct {
	In
	Text  string
	Width int
	// Lead, when set, comes first, emphasised in Markdown: "*Score
	// sequence.* Every run's score in order".
	Lead string
	// Strong sets the whole paragraph in bold in Markdown.
	Strong bool
}

// Lines are lines shown as they are (an indented block of figures in a
// terminal); Markdown escapes each and ends each with a line break.
type Lines struct {
	In
	Lines []string
}

// List is a bulleted list.
type List struct {
	In
	Items []string
}

// Blank is an empty line (Markdown also separates blocks by one itself).
type Blank struct{ In }

// Image is a picture in a file beside the document: in Markdown, an
// image link to Src (a relative path the command chose, written as it
// is) with Alt as its text; in text, "Alt: Src".
type Image struct {
	In
	Alt, Src string
}

// Fenced is a block of code or a diagram drawn by another renderer (a
// Mermaid chart: Info "mermaid"): in Markdown, inside a fence, as it is;
// in text, its lines as they are. Its renderer answers for what Text
// holds; the fence is made longer than any run of backticks that starts
// one of its lines, so Text cannot end it.
type Fenced struct {
	In
	Info string
	Text string
}

// Add appends blocks.
func (d *Doc) Add(b ...Block) { d.Blocks = append(d.Blocks, b...) }
