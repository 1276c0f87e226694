package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// hostileRuns writes three runs whose benchmark, label and run names try
// to inject markup, as a CSV file in dir.
func hostileRuns(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("run,benchmark,variant,value,unit,role,label.note\n")
	for i, s := range []float64{1.30, 1.31, 1.29} {
		run := []string{"run-1", "run-2", `run-<b>3</b>`}[i]
		for j, bench := range []string{"<script>alert(1)</script>", "plain", `x" onmouseover="alert(2)`} {
			base := 1000.0 * float64(j+1)
			cand := base * (s + 0.01*float64(j))
			b.WriteString(csvLine(run, bench, "sys", base, "baseline"))
			b.WriteString(csvLine(run, bench, "new", cand, "candidate"))
		}
	}
	path := filepath.Join(dir, "hostile.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func csvLine(run, bench, variant string, v float64, role string) string {
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	return q(run) + "," + q(bench) + "," + variant + "," + strconv.FormatFloat(v, 'f', -1, 64) + ",ops/sec," + role + "," + q("<i>label</i>") + "\n"
}

func runQoscal(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, nil, &out, &errb); code != 0 {
		t.Fatalf("qoscal %v: exit %d\n%s", args, code, errb.String())
	}
	return out.String(), errb.String()
}

// TestReportHTML checks the HTML report as a browser would read it: it
// parses, holds the six charts (each drawn twice, for a desktop and a
// phone) and the tables, shows hostile names as
// text (no script or event-handler attribute comes from the input), and
// references nothing outside the file.
func TestReportHTML(t *testing.T) {
	dir := t.TempDir()
	csv := hostileRuns(t, dir)
	out := filepath.Join(dir, "report.html")
	runQoscal(t, "report", "--out", out, csv)
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	var text strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			counts[n.Data]++
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("<%s> has an event-handler attribute %s=%q", n.Data, a.Key, a.Val)
				}
				if (a.Key == "src" || a.Key == "href" || a.Key == "xlink:href") && !strings.HasPrefix(a.Val, "#") && !strings.HasPrefix(a.Val, "data:") {
					t.Errorf("<%s %s=%q> references something outside the file", n.Data, a.Key, a.Val)
				}
			}
		}
		if n.Type == html.TextNode {
			text.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if counts["script"] != 0 {
		t.Errorf("%d <script> elements", counts["script"])
	}
	if counts["link"] != 0 || counts["iframe"] != 0 || counts["b"] != 0 || counts["i"] != 0 {
		t.Errorf("elements from input or external: %v", counts)
	}
	if counts["svg"] != 12 {
		t.Errorf("%d inline SVG charts, want 12 (6 charts, each for a desktop and for a phone)", counts["svg"])
	}
	if counts["table"] != 5 {
		t.Errorf("%d tables, want the figures, candidates, distribution, benchmarks and inputs", counts["table"])
	}
	for _, want := range []string{"<script>alert(1)</script>", `x" onmouseover="alert(2)`, "run-<b>3</b>", "<i>label</i>", "Recommended floor:", "Candidate floors", "Benchmarks, noisiest first"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report's text lacks %q", want)
		}
	}
	if bytes.Contains(raw, []byte("http://")) && !bytes.Contains(raw, []byte(`xmlns="http://www.w3.org/2000/svg"`)) {
		t.Error("the report names an http URL")
	}
}

// TestReportDeterministic: the same inputs give byte-identical files.
func TestReportDeterministic(t *testing.T) {
	dir := t.TempDir()
	csv := hostileRuns(t, dir)
	var files [2][]byte
	var mds [2][]byte
	for i := range files {
		out := filepath.Join(dir, "r.html")
		md := filepath.Join(dir, "r.md")
		runQoscal(t, "report", "--out", out, "--markdown", md, csv)
		files[i], _ = os.ReadFile(out)
		mds[i], _ = os.ReadFile(md)
	}
	if !bytes.Equal(files[0], files[1]) || !bytes.Equal(mds[0], mds[1]) {
		t.Error("two runs of the same report differ")
	}
	if !bytes.Contains(mds[0], []byte("![Ratio spread per benchmark](r-ratio-spread.svg)")) {
		t.Error("the Markdown report does not reference its charts")
	}
	if bytes.Contains(mds[0], []byte("<script>")) {
		t.Error("the Markdown report holds unescaped markup")
	}
	if _, err := os.Stat(filepath.Join(dir, "r-noise.svg")); err != nil {
		t.Error(err)
	}
}
