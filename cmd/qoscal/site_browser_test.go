package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/internal/testenv"
)

// siteCheck is what testdata/site-check.js finds in the page.
type siteCheck struct {
	Errors      []string       `json:"errors"`
	Violations  []string       `json:"violations"`
	Problems    []string       `json:"problems"`
	Drawn       float64        `json:"drawn"`
	Requests    []string       `json:"requests"`
	Status      string         `json:"status"`
	FloorLabel  string         `json:"floorLabel"`
	Points      map[string]int `json:"points"`
	Marks       int            `json:"marks"`
	Tip         string         `json:"tip"`
	ChangedRows int            `json:"changedRows"`
	Multiples   int            `json:"multiples"`
	Width       int            `json:"width"`
	ScrollWidth int            `json:"scrollWidth"`
}

// chromium finds Debian's chromium; without it the test skips, or fails
// when QOSCAL_REQUIRE_BROWSER is set (scripts/site-check.sh, as .ci/run
// runs it).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("QOSCAL_REQUIRE_BROWSER") != "" {
		t.Fatal("no chromium on this machine, and QOSCAL_REQUIRE_BROWSER is set (apt-get install chromium)")
	}
	t.Skip("no chromium on this machine (apt-get install chromium; scripts/site-check.sh runs this test)")
	return ""
}

// headless runs Chromium on a file with args and returns its stdout.
func headless(t *testing.T, browser string, args ...string) []byte {
	t.Helper()
	profile := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--user-data-dir=" + profile}, args...)
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, browser, all...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, tail(stderr.String(), 2000))
	}
	return stdout.Bytes()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// TestSiteBrowser builds the site of the generated history (TestSiteScale's)
// and checks it in headless Chromium, from disk, at a laptop's width and
// a phone's (390 CSS pixels): no request leaves the page's folder and no
// policy is violated, no error is logged, the status line (latest verdict,
// floor and stated rate, the audit with its interval), the score chart
// (the floor, points in each verdict's colour, the marks, a run shown by
// the arrow key with its link), the what-changed table, the filter (a name
// leaves only its small multiple, hostile names included), no sideways
// scroll, and hostile names inert. It prints the first paint's time
// (first-contentful-paint, from the page's own performance entries).
// With QOSCAL_SITE_SHOTS=DIR it also writes screenshots of the top of the
// page (the status line and the score chart) at both widths there
// (docs/site-desktop.png, docs/site-phone.png). It costs about 90
// CPU-seconds (Chromium, two widths): a long check, which .ci/run and
// scripts/site-check.sh run.
func TestSiteBrowser(t *testing.T) {
	testenv.SkipUnlessSlow(t)
	if testenv.Race {
		t.Skip("the page is checked without the race detector (it checks the page, not Go's concurrency)")
	}
	browser := chromium(t)
	dir := memDir(t)
	t.Setenv("SOURCE_DATE_EPOCH", "1796112000")
	t.Setenv("QOSCAL_DB", "")
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	t.Setenv("GITHUB_SERVER_URL", "")
	db, cals := genSiteStore(t, dir)
	out := filepath.Join(dir, "site")
	args := []string{"site", "--out", out, "--db", db, "--repository", "https://github.com/qoscal/qoscal"}
	for _, c := range cals {
		args = append(args, "--calibration", c)
	}
	var stdout, stderr bytes.Buffer
	if code := run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("qoscal site: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	// The check page: the site's page with the check's script first.
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	check, err := os.ReadFile(filepath.Join("testdata", "site-check.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "check.js"), check, 0o644); err != nil {
		t.Fatal(err)
	}
	checkPage := strings.Replace(string(page), `<script src="data.js"`, `<script src="check.js"></script>`+"\n"+`<script src="data.js"`, 1)
	if checkPage == string(page) {
		t.Fatal("index.html does not load data.js as the check expects")
	}
	if err := os.WriteFile(filepath.Join(out, "index-check.html"), []byte(checkPage), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, width := range []string{"1280", "390"} {
		t.Run(width+"px", func(t *testing.T) {
			dom := headless(t, browser, "--window-size="+width+",900", "--dump-dom",
				"file://"+filepath.ToSlash(filepath.Join(out, "index-check.html"))+"#width="+width)
			text := html.UnescapeString(string(dom))
			i, j := strings.Index(text, "SITECHECK"), strings.Index(text, "ENDCHECK")
			if i < 0 || j < i {
				t.Fatalf("the page check reported nothing: %s", tail(text, 1500))
			}
			var r siteCheck
			if err := json.Unmarshal([]byte(text[i+len("SITECHECK"):j]), &r); err != nil {
				t.Fatalf("the page check's result: %v", err)
			}
			t.Logf("at %s px: every chart and table drawn %.0f ms after the navigation began (from disk, this machine); %d requests, all the site's own; page %d px wide, its content %d px",
				width, r.Drawn, len(r.Requests), r.Width, r.ScrollWidth)
			t.Logf("status line: %s", r.Status)
			t.Logf("score chart: %s, points by colour %v, %d marks; arrow key: %s", r.FloorLabel, r.Points, r.Marks, r.Tip)
			for _, e := range r.Errors {
				t.Errorf("at %s px: %s", width, e)
			}
			for _, v := range r.Violations {
				t.Errorf("at %s px: the Content-Security-Policy blocked %s", width, v)
			}
			for _, p := range r.Problems {
				t.Errorf("at %s px: %s", width, p)
			}
			if r.Width != 0 && width == "390" && r.Width > 390 {
				t.Errorf("the page was laid out %d px wide, not at the phone's 390", r.Width)
			}
			if !(r.Drawn > 0) {
				t.Errorf("at %s px: the site's script never finished drawing", width)
			}
		})
	}
	// The first paint, from Chromium's own trace of the page (not the
	// check's copy): from the navigation's start to its first contentful
	// paint, and to its last meaningful paint candidate (the charts).
	trace := filepath.Join(dir, "trace.json")
	headless(t, browser, "--window-size=1280,900", "--trace-startup=loading,blink.user_timing", "--trace-startup-format=json",
		"--trace-startup-file="+trace, "--trace-startup-duration=60", "--screenshot="+filepath.Join(dir, "trace.png"),
		"file://"+filepath.ToSlash(filepath.Join(out, "index.html")))
	fcp, charts, err := paintTimes(trace, "file://"+filepath.ToSlash(filepath.Join(out, "index.html")))
	if err != nil {
		t.Errorf("the first paint: %v", err)
	} else {
		t.Logf("first contentful paint %.0f ms after the navigation began, the charts (last meaningful paint candidate) at %.0f ms (from disk, Chromium's trace; this machine, not checked)", fcp, charts)
	}
	if shots := os.Getenv("QOSCAL_SITE_SHOTS"); shots != "" {
		for _, s := range []struct{ name, size string }{{"site-desktop.png", "1100,1040"}, {"site-phone.png", "390,1480"}} {
			p, _ := filepath.Abs(filepath.Join(shots, s.name))
			headless(t, browser, "--window-size="+s.size, "--hide-scrollbars", "--virtual-time-budget=15000", "--screenshot="+p,
				"file://"+filepath.ToSlash(filepath.Join(out, "index.html")))
			shrinkPNG(t, p)
			t.Logf("screenshot %s", p)
		}
	}
}

// shrinkPNG writes the screenshot at path again with a palette of its 256
// most frequent colours (the page's flat colours, Okabe–Ito's among them,
// and their edges): a third of the size, for docs/.
func shrinkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	count := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			count[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}]++
		}
	}
	type entry struct {
		c color.RGBA
		n int
	}
	var all []entry
	for c, n := range count {
		all = append(all, entry{c, n})
	}
	slices.SortFunc(all, func(a, b entry) int {
		if a.n != b.n {
			return cmp.Compare(b.n, a.n)
		}
		return cmp.Compare(uint32(a.c.R)<<16|uint32(a.c.G)<<8|uint32(a.c.B), uint32(b.c.R)<<16|uint32(b.c.G)<<8|uint32(b.c.B))
	})
	var pal color.Palette
	for _, e := range all[:min(256, len(all))] {
		pal = append(pal, e.c)
	}
	p := image.NewPaletted(b, pal)
	draw.Draw(p, b, img, b.Min, draw.Src)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// paintTimes reads a Chromium trace (JSON) and returns, for the
// navigation to url, the milliseconds from its start to its first
// contentful paint and to its last meaningful paint candidate.
func paintTimes(path, url string) (fcp, last float64, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	var tr struct {
		TraceEvents []struct {
			Name string  `json:"name"`
			TS   float64 `json:"ts"`
			Args struct {
				Data struct {
					URL          string `json:"documentLoaderURL"`
					NavigationID string `json:"navigationId"`
				} `json:"data"`
			} `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		return 0, 0, err
	}
	var nav string
	var start float64
	for _, e := range tr.TraceEvents {
		if e.Name == "navigationStart" && e.Args.Data.URL == url {
			nav, start = e.Args.Data.NavigationID, e.TS
		}
	}
	if nav == "" {
		var seen []string
		for _, e := range tr.TraceEvents {
			if e.Name == "navigationStart" {
				seen = append(seen, e.Args.Data.URL)
			}
		}
		return 0, 0, fmt.Errorf("no navigation to %s in the trace (%d events; navigations to %q)", url, len(tr.TraceEvents), seen)
	}
	for _, e := range tr.TraceEvents {
		if e.Args.Data.NavigationID != nav {
			continue
		}
		switch e.Name {
		case "firstContentfulPaint":
			fcp = (e.TS - start) / 1000
		case "firstMeaningfulPaintCandidate":
			last = max(last, (e.TS-start)/1000)
		}
	}
	if fcp == 0 {
		return 0, 0, fmt.Errorf("no first contentful paint of %s in the trace", url)
	}
	return fcp, last, nil
}
