package mermaid

import (
	"regexp"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/chartdata"
)

// TestMermaidCategoriesDistinct: names that the safe alphabet or the cut
// to 32 characters makes equal ("a<b" and "a>b", "~~~" and "```", two long
// names alike but for their last character) are still distinct
// categories: Mermaid's band axis keeps one band per distinct label, so
// two bars of one label were drawn on top of each other and the last band
// left empty.
func TestMermaidCategoriesDistinct(t *testing.T) {
	long := strings.Repeat("x", 130)
	names := []string{"a<b", "a>b", "~~~", "```", long + "1", long + "2", "a_b (2)", "a_b"}
	c := &chartdata.RatioSpread{Head: chartdata.Head{Title: "t", X: chartdata.Axis{Min: 0.5, Max: 2}}}
	for _, n := range names {
		c.Rows = append(c.Rows, chartdata.RatioRow{Benchmark: n, Box: chartdata.Box{Min: 1, Median: 1, Max: 1}})
	}
	d := RatioSpread(c).Diagram
	m := regexp.MustCompile(`(?m)^    x-axis "benchmark" \[(.*)\]$`).FindStringSubmatch(d)
	if m == nil {
		t.Fatalf("no x-axis line in\n%s", d)
	}
	cats := regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(m[1], -1)
	if len(cats) != len(names) {
		t.Fatalf("%d categories for %d benchmarks: %s", len(cats), len(names), m[1])
	}
	seen := map[string]bool{}
	for i, c := range cats {
		if seen[c[1]] {
			t.Errorf("category %q (of %q) given twice: %s", c[1], names[i], m[1])
		}
		seen[c[1]] = true
		if n := len([]rune(c[1])); n > labelRunes {
			t.Errorf("category %q is %d characters, more than %d", c[1], n, labelRunes)
		}
		if c[1] != safe(c[1]) {
			t.Errorf("category %q is not in the safe alphabet", c[1])
		}
	}
}
