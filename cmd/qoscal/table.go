package main

import (
	"fmt"
	"io"
	"qoscal/render"
	"strings"
	"unicode/utf8"
)

// table is a result table rendered as aligned text or GitHub Markdown.
type table struct {
	head  []string
	right []bool // right-align column i
	rows  [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) widths() []int {
	w := make([]int, len(t.head))
	for i, h := range t.head {
		w[i] = utf8.RuneCountInString(neutralise(h))
	}
	for _, r := range t.rows {
		for i, c := range r {
			if n := utf8.RuneCountInString(neutralise(c)); n > w[i] {
				w[i] = n
			}
		}
	}
	return w
}

// text writes the table with columns separated by two spaces and no
// trailing blanks.
func (t *table) text(w io.Writer) {
	wd := t.widths()
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			c = neutralise(c)
			pad := strings.Repeat(" ", wd[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if t.right[i] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(t.head)
	for _, r := range t.rows {
		line(r)
	}
}

// neutralise puts a backslash before a cell that starts with "::", which
// GitHub Actions would run as a workflow command were it to start a line
// (tui.go's safeWriter guards whole lines; this keeps every column alike).
func neutralise(c string) string {
	if isCommandLine([]byte(c)) {
		return `\` + c
	}
	return c
}

// markdown writes the table as a GitHub-flavoured Markdown table, with
// cell text escaped.
func (t *table) markdown(w io.Writer) {
	esc := func(cells []string) string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = render.MDEscape(c)
		}
		return "| " + strings.Join(out, " | ") + " |"
	}
	fmt.Fprintln(w, esc(t.head))
	seps := make([]string, len(t.head))
	for i := range seps {
		seps[i] = "---"
		if t.right[i] {
			seps[i] = "---:"
		}
	}
	fmt.Fprintln(w, "|"+strings.Join(seps, "|")+"|")
	for _, r := range t.rows {
		fmt.Fprintln(w, esc(r))
	}
}
