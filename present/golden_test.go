package present

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/qoscal/qoscal/render"
)

// update rewrites the golden files: go test ./present -run TestGolden -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the views' output")

// goldenCase is one view on fixed inputs, shown in each of its formats.
// Its goldens are the sections NAME.txt (the text document), NAME.md
// (Markdown), NAME.json (the JSON document, as the command writes it)
// and NAME.EXT for each of extra, of one keyed file per view.
type goldenCase struct {
	name, reason string
	doc          func() *render.Doc
	json         func() any // nil: the view has no JSON document
	extra        map[string]func() string
}

// outputs are the case's outputs by section name.
func (c goldenCase) outputs(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	if c.doc != nil {
		var text, md bytes.Buffer
		c.doc().WriteText(&text)
		c.doc().WriteMarkdown(&md)
		out[c.name+".txt"], out[c.name+".md"] = text.String(), md.String()
	}
	if c.json != nil {
		out[c.name+".json"] = roundJSON(jsonText(t, c.json()))
	}
	for ext, f := range c.extra {
		out[c.name+"."+ext] = f()
	}
	return out
}

// jsonText is v as the command writes it (cmd/qoscal's writeJSON):
// indented, with what a legacy parser could misread broken.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatalf("encoding JSON: %v", err)
	}
	return string(render.BreakLegacyJSON(b)) + "\n"
}

// longNumber is a number of the indented JSON, a field's value or an
// element of an array: never inside a string.
var longNumber = regexp.MustCompile(`(?m)(": |^\s+)(-?[0-9]+\.[0-9]{10,}(?:e[-+]?[0-9]+)?)(,?)$`)

// roundJSON keeps the JSON's numbers to 12 significant digits, so that a
// difference in the last bits of a float (another architecture's fused
// multiply-add) is no diff, while every name, every structure and every
// figure to 12 digits is.
func roundJSON(s string) string {
	return longNumber.ReplaceAllStringFunc(s, func(m string) string {
		g := longNumber.FindStringSubmatch(m)
		v, err := strconv.ParseFloat(g[2], 64)
		if err != nil {
			return m
		}
		return g[1] + strconv.FormatFloat(v, 'g', 12, 64) + g[3]
	})
}

// checkGolden compares each case's outputs with the sections of
// testdata/FILE.txtar (go-cmp's diff, -want +got), or, with -update,
// writes them there, each case's reason in the archive's comment.
func checkGolden(t *testing.T, file string, cases []goldenCase) {
	t.Helper()
	path := filepath.Join("testdata", file+".txtar")
	got := map[string]string{}
	reasons := map[string]string{}
	var order []string
	for _, c := range cases {
		if _, dup := reasons[c.name]; dup {
			t.Fatalf("%s: two cases named %s", file, c.name)
		}
		reasons[c.name] = c.reason
		outs := c.outputs(t)
		names := make([]string, 0, len(outs))
		for n := range outs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			s := outs[n]
			if !strings.HasSuffix(s, "\n") {
				s += "\n" // txtar ends every file with a newline
			}
			got[n] = s
			order = append(order, n)
		}
	}
	if *update {
		var comment strings.Builder
		fmt.Fprintf(&comment, "Goldens of present's %s view: one section per case and format.\nRewrite with: go test ./present -run TestGolden -update\n\n", file)
		for _, c := range cases {
			fmt.Fprintf(&comment, "%s: %s\n", c.name, c.reason)
		}
		a := &txtar.Archive{Comment: []byte(comment.String())}
		for _, n := range order {
			a.Files = append(a.Files, txtar.File{Name: n, Data: []byte(got[n])})
		}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatalf("%v (write it with -update)", err)
	}
	want := map[string]string{}
	for _, f := range a.Files {
		want[f.Name] = string(f.Data)
	}
	for _, n := range order {
		c := strings.TrimSuffix(n, filepath.Ext(n))
		w, ok := want[n]
		if !ok {
			t.Errorf("%s: %s (%s): no golden; write it with -update", path, n, reasons[c])
			continue
		}
		if diff := cmp.Diff(w, got[n]); diff != "" {
			t.Errorf("%s: %s (%s) (-want +got):\n%s", path, n, reasons[c], diff)
		}
	}
	for n := range want {
		if _, ok := got[n]; !ok {
			t.Errorf("%s: %s: a golden no case makes; rewrite the file with -update", path, n)
		}
	}
}
