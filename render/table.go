package render

import "encoding/json"

// Align is how a column's cells line up.
type Align bool

const (
	Left  Align = false
	Right Align = true
)

// Column is one column of a table of rows of type R: its header, its
// alignment, how a row shows in it, and its JSON key and value. A column
// with no Cell is JSON only; a column with no Key is in the printed table
// only. Adding a figure to a table is adding one Column: it then appears
// in the text, the Markdown and the JSON of the view.
type Column[R any] struct {
	Head string
	// MarkdownHead is the header in Markdown, where a table must not have
	// an empty one; "" means Head.
	MarkdownHead string
	Align        Align
	// Cell formats a row's cell for text and Markdown.
	Cell func(R) string
	// Code shows the cells as code in Markdown (a code span, in a
	// monospaced font: text drawn with characters, such as a text bar,
	// whose characters must line up from row to row); text output shows
	// them as they are.
	Code bool
	// Key is the JSON field name (docs/json.md); JSON gives its value.
	Key  string
	JSON func(R) any
}

// Table is a table of strings ready to print: the columns' headers and
// alignments and one cell per column in every row, so that a row cannot
// have more or fewer cells than there are columns.
type Table struct {
	In
	Head []string
	// MarkdownHead are the headers in Markdown.
	MarkdownHead []string
	Align        []Align
	// Code marks the columns shown as code in Markdown (Column.Code);
	// nil for none.
	Code []bool
	Rows [][]string
	// Indent is put before every line of the text rendering.
	Indent string
}

// NewTable lays rows out in the printed columns of cols.
func NewTable[R any](cols []Column[R], rows []R) *Table {
	t := &Table{}
	var printed []Column[R]
	for _, c := range cols {
		if c.Cell != nil {
			printed = append(printed, c)
			t.Head = append(t.Head, c.Head)
			md := c.MarkdownHead
			if md == "" {
				md = c.Head
			}
			t.MarkdownHead = append(t.MarkdownHead, md)
			t.Align = append(t.Align, c.Align)
			t.Code = append(t.Code, c.Code)
		}
	}
	for _, r := range rows {
		cells := make([]string, len(printed))
		for i, c := range printed {
			cells[i] = c.Cell(r)
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// AddRow adds a row of cells; missing cells are empty, and cells beyond
// the columns are dropped (a programming error that must not take the
// output down with it).
func (t *Table) AddRow(cells ...string) {
	row := make([]string, len(t.Head))
	copy(row, cells)
	t.Rows = append(t.Rows, row)
}

// Objects returns the JSON objects of rows: one per row, with the fields
// of the columns that have a Key, in column order.
func Objects[R any](cols []Column[R], rows []R) []Object {
	out := make([]Object, 0, len(rows))
	for _, r := range rows {
		var o Object
		for _, c := range cols {
			if c.Key != "" && c.JSON != nil {
				o = append(o, Field{Key: c.Key, Value: c.JSON(r)})
			}
		}
		out = append(out, o)
	}
	return out
}

// Object is a JSON object whose fields keep their order.
type Object []Field

// Field is one field of an Object.
type Field struct {
	Key   string
	Value any
}

// MarshalJSON writes the fields in order.
func (o Object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}
