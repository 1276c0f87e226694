package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/sqlite"
)

// The generated history the site is built from: 1,000 runs of 50
// benchmarks on the main branch of two runners (a: 600 runs, b: 400),
// each runner with a calibration of its first 30 runs, and every other
// run gated against its runner's calibration and recorded: verdicts of
// every kind (pass, fail, warn, inconclusive, rerun, ungated; judged
// alone, as a rerun of a CI job and as a pair), marks (healthy and
// regressed, one with a hostile note), and on runner a a regime change:
// from its 300th run to its 500th, 20 benchmarks fall by 6% (a
// regression, then its fix). Three benchmark names are hostile (markup,
// a script end, a workflow command).
const (
	siteBenchmarks = 50
	siteCalRuns    = 30
)

var siteHostile = []string{
	`<img src=x onerror="window.__pwned=1">`,
	`</script><script>window.__pwned=2</script>`,
	`::error::a & b "c" 'd'`,
}

// siteNames are the generated suite's benchmark names.
func siteNames() []string {
	var names []string
	for j := 0; j < siteBenchmarks-len(siteHostile); j++ {
		names = append(names, fmt.Sprintf("bench-%02d", j))
	}
	return append(names, siteHostile...)
}

type siteGen struct {
	rng   *rand.Rand
	names []string
	mu    []float64 // each benchmark's mean log ratio
	sd    []float64
	t0    time.Time
}

// run makes runner's k-th run, with shift added to the log ratio of
// the benchmarks shifted.
func (g *siteGen) run(runner string, k int, shift float64, commit string, attempt int) data.Run {
	r := data.Run{ID: fmt.Sprintf("%s-%04d-%d", runner, k, attempt), Baseline: "system", Candidate: "hoard",
		Labels: map[string]string{"runner": runner, "branch": "main", "commit": commit, "github_run": fmt.Sprint(9000000 + k*2 + boolInt(runner == "b")), "attempt": fmt.Sprint(attempt)},
		Time:   g.t0.Add(time.Duration(k) * time.Hour)}
	for j, name := range g.names {
		l := g.mu[j] + g.sd[j]*g.rng.NormFloat64()
		if j%2 == 0 && j < 40 {
			l += shift
		}
		r.Measurements = append(r.Measurements,
			data.Measurement{Benchmark: name, Variant: "system", Value: 1000, Unit: "ops/sec"},
			data.Measurement{Benchmark: name, Variant: "hoard", Value: 1000 * math.Exp(l), Unit: "ops/sec"})
	}
	return r
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// genSiteStore writes the generated history into dir/site.db and the two
// calibrations beside it; it returns the store and the calibration files.
func genSiteStore(t testing.TB, dir string) (string, []string) {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(dir, "site.db")
	g := &siteGen{rng: rand.New(rand.NewPCG(38, 1)), names: siteNames(), t0: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for range g.names {
		g.mu = append(g.mu, 0.05+0.5*g.rng.Float64())
		g.sd = append(g.sd, 0.005+0.03*g.rng.Float64())
	}
	runners := []struct {
		name string
		runs int
	}{{"a", 600}, {"b", 400}}
	st, err := sqlite.Open(db, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	// The calibrations' runs first, then a calibration file of each.
	var calRuns []data.Run
	for _, rn := range runners {
		for k := 0; k < siteCalRuns; k++ {
			calRuns = append(calRuns, g.run(rn.name, k, 0, fmt.Sprintf("%040x", 1000*boolInt(rn.name == "b")+k+1), 1))
		}
	}
	if _, err := st.Ingest(ctx, calRuns, store.IngestOptions{Now: g.t0}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	var files []string
	cals := map[string]*model.File{}
	for _, rn := range runners {
		f := filepath.Join(dir, "gate-"+rn.name+".json")
		var stdout, stderr bytes.Buffer
		if code := run([]string{"recommend", "--db", db, "--label", "runner=" + rn.name, "--label", "branch=main",
			"--baseline", "system", "--candidate", "hoard", "--write", f}, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("recommend for runner %s: exit %d\n%s%s", rn.name, code, stdout.String(), stderr.String())
		}
		cal, err := model.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		cals[rn.name] = cal
	}
	// The gated runs, interleaved by runner, each with its verdict.
	st, err = sqlite.Open(db, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var runs []data.Run
	var ledger store.Ledger
	at := g.t0.Add(24 * time.Hour)
	for k := siteCalRuns; k < 600; k++ {
		for _, rn := range runners {
			if k >= rn.runs {
				continue
			}
			cal := cals[rn.name]
			shift := 0.0
			if rn.name == "a" && k >= 300 && k < 500 {
				shift = -0.06
			}
			commit := fmt.Sprintf("%040x", 1000*boolInt(rn.name == "b")+k+1)
			attempt := 1
			if k%97 == 0 {
				attempt = 2 // a CI job run again: the same commit as the run before
				commit = fmt.Sprintf("%040x", 1000*boolInt(rn.name == "b")+k)
			}
			r := g.run(rn.name, k, shift, commit, attempt)
			runs = append(runs, r)
			at = at.Add(time.Minute)
			v := siteVerdict(t, cal, &r, at)
			switch {
			case attempt == 2:
				v.Kind = store.KindRerun
			case k%89 == 0:
				v.Kind, v.Other = store.KindPair, runs[len(runs)-3].ID
			}
			switch {
			case k%61 == 0:
				v.Verdict, v.Detail = "warn", "report only"
			case k%67 == 0:
				v.Verdict, v.RunnerHealth, v.Detail = "inconclusive", "degraded", "the runner looked degraded"
			case k%71 == 0:
				v.Verdict, v.Detail = "rerun", "below the floor: run again"
			case k%73 == 0:
				v.Verdict, v.Floor, v.FloorSource, v.Bands = "ungated", 0, "", nil
			}
			if k%5 != 4 || k == 599 || k == 399 { // every fifth run is not gated, but the last of each
				ledger.Verdicts = append(ledger.Verdicts, v)
			}
			switch k {
			case 360, 380:
				ledger.Marks = append(ledger.Marks, store.Mark{Run: r.ID, Truth: store.TruthRegressed, Note: "PR #12 slowed the allocator <b>bold</b>", Marked: at})
			case 100, 200, 250:
				ledger.Marks = append(ledger.Marks, store.Mark{Run: r.ID, Truth: store.TruthHealthy, Note: `fine: <script>window.__pwned=3</script>`, Marked: at})
			}
		}
	}
	if _, err := st.Ingest(ctx, runs, store.IngestOptions{Now: at, Ledger: &ledger}); err != nil {
		t.Fatal(err)
	}
	return db, files
}

// siteBands holds each calibration's bands, computed once: a band's
// tail bound is a root search (about 80 ms for 50 benchmarks), and
// computing them again for each of the 1,000 gated runs took two
// minutes of the default test run.
var siteBands sync.Map // *model.File → []model.Band

// siteVerdict is the verdict the gate would give r against cal on its
// whole suite: pass or fail by the floor, and each benchmark against its
// band (model.JudgeBands).
func siteVerdict(t testing.TB, cal *model.File, r *data.Run, at time.Time) store.Verdict {
	rr, err := calibrate.Ratios(r, cal.Baseline, cal.Candidate, calibrate.Auto, "")
	if err != nil {
		t.Fatal(err)
	}
	sc := rr.ScoreOver(cal.Suite)
	v := store.Verdict{Run: r.ID, Calibration: store.CalibrationRef{SHA256: cal.SHA256, Name: filepath.Base(cal.Path)},
		Verdict: "pass", Score: sc.Score, Floor: cal.Floor, FloorSource: "calibration", Kind: store.KindRun,
		RunnerHealth: "ok", RunnerZ: math.NaN(), Recorded: at}
	if sc.Score < cal.Floor {
		v.Verdict = "fail"
	}
	alpha := cal.RecommendOptions().FamilyAlpha
	logs := map[string]float64{}
	for _, b := range cal.Suite {
		logs[b] = math.Log(rr.Ratios[b].Ratio)
	}
	bands, ok := siteBands.Load(cal)
	if !ok {
		bands, _ = siteBands.LoadOrStore(cal, cal.Matrix.Bands(alpha))
	}
	j := model.JudgeBands(bands.([]model.Band), logs, alpha)
	for _, b := range cal.Suite { // the suite is sorted by name
		band := "within"
		if j.Below[b] {
			band = "below"
		} else if j.Above[b] {
			band = "above"
		}
		v.Bands = append(v.Bands, store.BandOutcome{Benchmark: b, Band: band})
	}
	return v
}

// siteDoc reads the document data.js holds.
func siteDoc(t testing.TB, b []byte) map[string]any {
	t.Helper()
	s := strings.TrimSpace(string(b))
	i := strings.Index(s, "window.QOSCAL_SITE = ")
	if i < 0 || !strings.HasSuffix(s, ";") {
		t.Fatalf("data.js does not set window.QOSCAL_SITE: %.200s", s)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSuffix(s[i+len("window.QOSCAL_SITE = "):], ";")), &doc); err != nil {
		t.Fatalf("data.js: %v", err)
	}
	return doc
}

// TestSiteScale builds the site of the generated history (1,000 runs of
// 50 benchmarks, two calibrations) and checks its data: at most 1 MB in
// all and 20 bytes a value; the figures and the time taken are printed
// (go test -v), the time not checked (it depends on the machine). The
// data is checked against what the test made: the runs of each
// calibration, the verdicts of every kind, the marks, the regime change,
// and data.js escaped so that no name can end its script.
//
// With QOSCAL_SITE_DIR set, the store, the calibrations and the site are
// written there and kept (scripts/site-check.sh looks at them in a
// browser).
func TestSiteScale(t *testing.T) {
	dir := os.Getenv("QOSCAL_SITE_DIR")
	if dir == "" {
		dir = memDir(t)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	} else {
		os.Remove(filepath.Join(dir, "site.db"))
	}
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
	start, cpu0 := time.Now(), processCPU()
	code := run(args, nil, &stdout, &stderr)
	took, cpu := time.Since(start), processCPU()-cpu0
	if code != 0 {
		t.Fatalf("qoscal site: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "data.js"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, name := range []string{"index.html", "site.css", "site.js", "data.js"} {
		st, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		total += int(st.Size())
	}
	points := 1000 * (siteBenchmarks + 1) // each run's ratios and its score
	t.Logf("site of 1,000 runs x %d benchmarks, 2 calibrations: written in %v (%v of CPU; this machine, not checked); data.js %d bytes (%.2f bytes a value, %d values); the site %d bytes in all",
		siteBenchmarks, took.Round(time.Millisecond), cpu.Round(time.Millisecond), len(b), float64(len(b))/float64(points), points, total)
	t.Logf("qoscal site's stderr: %s", strings.TrimSpace(stderr.String()))
	if len(b) > 1<<20 || total > 1<<20 {
		t.Errorf("data.js is %d bytes and the site %d: more than 1 MB", len(b), total)
	}
	if per := float64(len(b)) / float64(points); per > 20 {
		t.Errorf("data.js holds %.1f bytes a value: more than 20", per)
	}
	for _, bad := range []string{"</", "<img", "<script", "<!--", "\u2028", "\u2029"} {
		if bytes.Contains(b, []byte(bad)) {
			t.Errorf("data.js holds %q: a name could end its script or open a tag", bad)
		}
	}
	doc := siteDoc(t, b)
	cs := doc["cals"].([]any)
	if len(cs) != 2 {
		t.Fatalf("%d calibrations in the data, want 2", len(cs))
	}
	for i, want := range []int{600, 400} {
		c := cs[i].(map[string]any)
		if n := len(c["runs"].([]any)); n != want {
			t.Errorf("calibration %d: %d runs, want %d", i, n, want)
		}
		if n := len(c["in_cal"].([]any)); n != siteCalRuns {
			t.Errorf("calibration %d: %d calibration runs marked, want %d", i, n, siteCalRuns)
		}
		if n := len(c["benchmarks"].([]any)); n != siteBenchmarks {
			t.Errorf("calibration %d: %d benchmarks, want %d", i, n, siteBenchmarks)
		}
		if c["audit"] == nil {
			t.Errorf("calibration %d has no audit", i)
		}
		// The last run of each runner is gated, and it is the latest.
		if got := int(c["latest"].(float64)); got != want-1 {
			t.Errorf("calibration %d: latest gated run %d, want %d", i, got, want-1)
		}
	}
	a := cs[0].(map[string]any)
	v := a["verdicts"].(string)
	for _, letter := range "pfwiru-" {
		if !strings.ContainsRune(v, letter) {
			t.Errorf("runner a's verdicts hold no %q: %s", letter, v)
		}
	}
	if os.Getenv("SITE_DEBUG") != "" {
		sc := a["scores"].([]any)
		t.Logf("scores 300..500: %v", sc[300:500])
	}
	if n := len(a["regimes"].([]any)); n < 3 {
		t.Errorf("runner a: %d regimes, want the fall and the fix (3 or more): %v", n, a["regimes"])
	}
	if n := len(a["marks"].([]any)); n != 5 {
		t.Errorf("runner a: %d marks, want 5", n)
	}
	kinds := map[string]bool{}
	for _, l := range a["links"].([]any) {
		kinds[l.([]any)[2].(string)] = true
	}
	if !kinds["pair"] || !kinds["rerun"] {
		t.Errorf("runner a's links lack a pair or a rerun: %v", a["links"])
	}
	if rows := a["changed"].(map[string]any)["rows"].([]any); len(rows) != siteBenchmarks {
		t.Errorf("what changed has %d rows, want %d", len(rows), siteBenchmarks)
	}
	// The same inputs, the same bytes.
	out2 := filepath.Join(dir, "site2")
	args[2] = out2
	if code := run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("qoscal site again: exit %d\n%s", code, stderr.String())
	}
	b2, err := os.ReadFile(filepath.Join(out2, "data.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, b2) {
		t.Errorf("the same inputs gave another data.js")
	}
}
