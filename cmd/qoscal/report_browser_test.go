package main

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"
)

// reportCheck is what testdata/report-check.js finds in a report shown
// in a frame of the viewport's size.
type reportCheck struct {
	Width       int      `json:"width"`
	ScrollWidth int      `json:"scrollWidth"`
	Charts      int      `json:"charts"`
	MinText     float64  `json:"minText"`
	FloorLabel  string   `json:"floorLabel"`
	IDCells     int      `json:"idCells"`
	Problems    []string `json:"problems"`
}

// TestReportBrowser shows the HTML report in headless Chromium at a
// phone's viewport (390 by 844 CSS pixels) and a laptop's (1280 by
// 900), each as the page of a frame of that size (headless Chromium's
// window is at least 500 px wide), and checks, as a phone's user first
// sees it (issue 35 item 12: the charts needed sideways scrolling, the
// floor's label and half the runs were off-screen, run ids broke over
// two lines): the page does not scroll sideways
// (document.documentElement.scrollWidth within the viewport), every
// chart shown fits the viewport's width with all its text, the floor's
// label on the score chart among it, the smallest chart text is 11 px
// or more, and every cell of a table's run column is one line. Two
// reports: the bundled healthy samples (12 runs, two regimes), and 12
// runs whose ids are 33 characters long. With QOSCAL_REPORT_SHOTS=DIR
// it also writes the charts' screenshots at both widths there
// (docs/report-phone.png, docs/report-desktop.png). It costs about 7
// CPU-seconds (Chromium, four pages): a long check, which .ci/run runs
// through scripts/browser-check.sh.
func TestReportBrowser(t *testing.T) {
	testenv.SkipUnlessSlow(t)
	if testenv.Race {
		t.Skip("the page is checked without the race detector (it checks the page, not Go's concurrency)")
	}
	browser := chromium(t)
	t.Setenv("QOSCAL_DB", "")
	t.Setenv("SOURCE_DATE_EPOCH", "")
	dir := t.TempDir()
	samples := filepath.Join("..", "..", "data", "samples", "linux-glibc-vs-mimalloc", "healthy")
	runQoscal(t, "report", "--out", filepath.Join(dir, "samples.html"),
		"--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", samples)
	runQoscal(t, "report", "--out", filepath.Join(dir, "long-ids.html"), longIDRuns(t, dir))
	check, err := os.ReadFile(filepath.Join("testdata", "report-check.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "report-check.js"), check, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, report := range []string{"samples.html", "long-ids.html"} {
		for _, vp := range [][2]int{{390, 844}, {1280, 900}} {
			t.Run(fmt.Sprintf("%s/%dpx", strings.TrimSuffix(report, ".html"), vp[0]), func(t *testing.T) {
				frame := framePage(t, dir, report, vp[0], vp[1], `<script src="report-check.js"></script>`)
				dom := headless(t, browser, "--allow-file-access-from-files", fmt.Sprintf("--window-size=%d,%d", max(vp[0], 500), vp[1]+20),
					"--dump-dom", "file://"+filepath.ToSlash(frame))
				text := html.UnescapeString(string(dom))
				i, j := strings.Index(text, "REPORTCHECK"), strings.Index(text, "ENDCHECK")
				if i < 0 || j < i {
					t.Fatalf("the page check reported nothing: %s", tail(text, 1500))
				}
				var r reportCheck
				if err := json.Unmarshal([]byte(text[i+len("REPORTCHECK"):j]), &r); err != nil {
					t.Fatalf("the page check's result: %v", err)
				}
				t.Logf("viewport %d px: page %d px wide, %d charts shown, smallest chart text %.1f px, floor label %q, %d run-id cells",
					r.Width, r.ScrollWidth, r.Charts, r.MinText, r.FloorLabel, r.IDCells)
				if r.Width != vp[0] {
					t.Fatalf("the report was laid out %d px wide, not %d", r.Width, vp[0])
				}
				if r.ScrollWidth > vp[0] {
					t.Errorf("the page scrolls sideways: %d px wide in a %d px viewport", r.ScrollWidth, vp[0])
				}
				for _, p := range r.Problems {
					t.Error(p)
				}
				if r.Charts != 6 {
					t.Errorf("%d charts shown, want 6", r.Charts)
				}
				if r.MinText < 11 {
					t.Errorf("the smallest chart text is %.1f px, under 11", r.MinText)
				}
				if r.FloorLabel == "" {
					t.Errorf("the score chart's floor label was not found (%q)", r.FloorLabel)
				}
				if r.IDCells < 9 {
					t.Errorf("%d cells in run columns, want 9 or more (a row per run)", r.IDCells)
				}
			})
		}
	}
	if shots := os.Getenv("QOSCAL_REPORT_SHOTS"); shots != "" {
		if err := os.MkdirAll(shots, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, s := range []struct {
			name string
			w, h int
		}{{"report-desktop.png", 1280, 1040}, {"report-phone.png", 390, 1480}} {
			frame := framePage(t, dir, "samples.html#charts", s.w, s.h, "")
			p, _ := filepath.Abs(filepath.Join(shots, s.name))
			headless(t, browser, "--allow-file-access-from-files", fmt.Sprintf("--window-size=%d,%d", s.w, s.h), "--hide-scrollbars",
				"--screenshot="+p, "file://"+filepath.ToSlash(frame))
			shrinkPNG(t, p)
			t.Logf("screenshot %s", p)
		}
	}
}

// framePage writes a page that shows src in a frame of w by h CSS
// pixels at its top left, with extra in its head, and returns its path.
// The frame has no scroll bars, as a phone's page has none that take
// room.
func framePage(t *testing.T, dir, src string, w, h int, extra string) string {
	t.Helper()
	page := fmt.Sprintf(`<!DOCTYPE html>
<html><head><meta charset="utf-8">%s</head>
<body style="margin:0"><iframe src="%s" scrolling="no" style="border:0;display:block;width:%dpx;height:%dpx"></iframe></body></html>
`, extra, html.EscapeString(src), w, h)
	path := filepath.Join(dir, fmt.Sprintf("frame-%d.html", w))
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// longIDRuns writes 12 runs whose ids are 33 characters long, hyphenated
// (longer than the report keeps on one line in its prose), as a CSV file
// in dir.
func longIDRuns(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("run,benchmark,variant,value,unit,role,label.note\n")
	for i := range 12 {
		run := fmt.Sprintf("ci-2026-12-07-linux-x86_64-job-%02d", i+1)
		for j, bench := range []string{"alloc-test", "cache-thrash", "larson"} {
			base := 1000.0 * float64(j+1)
			cand := base * (1.25 + 0.01*float64((i*7+j*3)%5))
			b.WriteString(csvLine(run, bench, "sys", base, "baseline"))
			b.WriteString(csvLine(run, bench, "new", cand, "candidate"))
		}
	}
	path := filepath.Join(dir, "long-ids.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
