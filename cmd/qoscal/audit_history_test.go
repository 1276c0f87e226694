package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The seeded history the audit is checked on: a calibration of 30 runs of
// five benchmarks on the main branch, then 300 runs gated against it and
// recorded, 250 on main and 50 of pull requests (every sixth), of which a
// known few are regressed and a known few healthy but unlucky. Every
// healthy run's benchmarks sit at the calibration's mean log ratio plus
// one shift, so that its score is exactly where the test puts it: a
// steady run within ±0.7 SD of the calibration's mean log score (the
// drift check's CUSUM, with a reference value of 1 SD, never leaves 0
// on them), an unlucky one just below the floor.
const (
	histBenchmarks = 5
	histCalRuns    = 30
	histSigma      = 0.03 // SD of each benchmark's log ratio
	histGated      = 300
)

// histMain and histPR say what each main-branch and pull-request run is,
// by its index among the runs of its branch.
var (
	histUnlucky     = map[int]bool{20: true, 70: true, 120: true}            // main, healthy, score just below the floor
	histBandUnlucky = map[int]bool{45: true, 95: true, 145: true, 195: true} // main, healthy, one benchmark far below its band
	histStretch     = map[int]bool{160: true, 161: true, 162: true, 163: true}
	histStretchMark = map[int]bool{160: true, 161: true}        // of the stretch, marked regressed
	histPRRegressed = map[int]bool{5: true, 15: true, 25: true} // fail, marked regressed
	histPRMissed    = map[int]bool{35: true}                    // a regression that passed, marked regressed
	histPRFine      = map[int]bool{10: true, 40: true}          // fail, marked healthy: false alarms a person found
)

// histRun writes a run folder's result files: each benchmark's candidate
// at 1000·exp(log ratio), the baseline at 1000.
func histRun(t *testing.T, dir string, logs []float64) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var base, cand strings.Builder
	for j, l := range logs {
		fmt.Fprintf(&base, "bench-%c: t=1 (1000 ops/sec)\n", 'a'+j)
		fmt.Fprintf(&cand, "bench-%c: t=1 (%.9f ops/sec)\n", 'a'+j, 1000*math.Exp(l))
	}
	for name, text := range map[string]string{"base.txt": base.String(), "cand.txt": cand.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAuditSeededHistory: audit reports the counts of the seeded history
// and the realised false-alarm rates that the test counts itself from
// what each gate printed and what it knows of each run, with the
// Clopper–Pearson interval of scipy (stats/testdata/binomial_vectors.json,
// made by stats/testdata/make_binomial.py for these counts), against the
// rate recommend claimed; its presumption finds exactly the runs the test
// made steady on main, and the test's own verdict from the interval is
// the audit's.
func TestAuditSeededHistory(t *testing.T) {
	dir := memDir(t)
	t.Setenv("SOURCE_DATE_EPOCH", "1796112000")
	t.Setenv("QOSCAL_DB", "")
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	t.Setenv("GITHUB_OUTPUT", "")
	t.Setenv("GITHUB_RUN_ATTEMPT", "")
	db := filepath.Join(dir, "h.db")
	qoscal := func(want int, args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != want {
			t.Fatalf("qoscal %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, stderr.String())
		}
		return stdout.String()
	}
	variants := []string{"--baseline", "system=base.txt", "--candidate", "hoard=cand.txt"}

	// The calibration: 30 runs of seeded noise, ingested as main's.
	rng := rand.New(rand.NewPCG(30, 300))
	mu := []float64{0.2, 0.5, 0.3, 0.6, 0.45}
	means := make([]float64, histBenchmarks)
	var calLogScores []float64
	for i := range histCalRuns {
		logs := make([]float64, histBenchmarks)
		score := 0.0
		for j := range logs {
			logs[j] = mu[j] + histSigma*rng.NormFloat64()
			means[j] += logs[j] / histCalRuns
			score += logs[j] / histBenchmarks
		}
		calLogScores = append(calLogScores, score)
		histRun(t, filepath.Join(dir, "cal", fmt.Sprintf("run-%02d", i+1)), logs)
	}
	qoscal(0, append([]string{"ingest", "--db", db, "--label", "branch=main"}, append(variants, filepath.Join(dir, "cal"))...)...)
	calPath := filepath.Join(dir, "cal.json")
	var rec struct {
		Floor float64
		FPR   struct{ Claimed float64 } `json:"false_positive_rate"`
	}
	if err := json.Unmarshal([]byte(qoscal(0, "recommend", "--db", db, "--label", "branch=main", "--write", calPath, "--format", "json")), &rec); err != nil {
		t.Fatal(err)
	}
	m, s := 0.0, 0.0
	for _, x := range calLogScores {
		m += x / histCalRuns
	}
	for _, x := range calLogScores {
		s += (x - m) * (x - m) / (histCalRuns - 1)
	}
	s = math.Sqrt(s)
	// A run whose benchmarks all sit shift above their calibration means
	// scores exp(m + shift).
	at := func(shift float64) []float64 {
		logs := make([]float64, histBenchmarks)
		for j := range logs {
			logs[j] = means[j] + shift
		}
		return logs
	}
	below := math.Log(rec.Floor-0.004) - m // just below the floor
	above := math.Log(rec.Floor+0.004) - m // just above it
	if !(below/s > -4.5 && above < 0) {
		t.Fatalf("the floor %v is %.1f SDs below the mean: the history's unlucky runs would not be one dip of the CUSUM", rec.Floor, below/s)
	}
	steady := []float64{0.6, -0.6, 0.3, -0.3, 0.7, -0.7, 0.1, -0.1, 0.5, -0.5, 0}

	// The gated runs, each recorded with its verdict; the test keeps what
	// each gate printed.
	type gated struct {
		id, branch         string
		healthy, presumed  bool // by construction
		mark               string
		verdict            string
		score, floor       float64
		belowBand          bool
		mainIndex, prIndex int
	}
	var runs []gated
	nMain, nPR := 0, 0
	for i := range histGated {
		g := gated{id: fmt.Sprintf("g-%03d", i+1), mainIndex: -1, prIndex: -1}
		var logs []float64
		if i%6 == 5 {
			g.branch, g.prIndex = "pr", nPR
			switch k := nPR; {
			case histPRRegressed[k]:
				logs, g.mark = at(-8*s), "regressed"
			case histPRMissed[k]:
				logs, g.mark = at(above), "regressed"
			case histPRFine[k]:
				logs, g.mark, g.healthy = at(below), "healthy", true
			default:
				logs, g.healthy = at(s*steady[k%len(steady)]), true
			}
			nPR++
		} else {
			g.branch, g.mainIndex = "main", nMain
			switch k := nMain; {
			case histUnlucky[k]:
				logs = at(below)
			case histBandUnlucky[k]:
				// One benchmark 8 SDs down, the others up by a quarter of
				// that: the score is the calibration's mean.
				logs = at(0)
				logs[0] -= 8 * histSigma
				for j := 1; j < histBenchmarks; j++ {
					logs[j] += 8 * histSigma / (histBenchmarks - 1)
				}
			case histStretch[k]:
				logs = at(-6 * s)
				if histStretchMark[k] {
					g.mark = "regressed"
				}
			default:
				logs = at(s * steady[k%len(steady)])
			}
			g.healthy = !histStretch[nMain]
			g.presumed = g.healthy && nMain < 250-3 // the last 3 have too few runs after them
			nMain++
		}
		folder := filepath.Join(dir, "gated", g.id)
		histRun(t, folder, logs)
		var out struct {
			Verdict      string
			Score, Floor float64
			PerBenchmark struct{ Below []string } `json:"per_benchmark"`
		}
		var stdout, stderr bytes.Buffer
		code := run([]string{"gate", "--calibration", calPath, "--record", "--db", db, "--run", g.id, "--label", "branch=" + g.branch, "--format", "json",
			"--drift-window", "0", // the drift check (a simulation each gate) is not what is tested
			"--baseline", "system=" + filepath.Join(folder, "base.txt"), "--candidate", "hoard=" + filepath.Join(folder, "cand.txt")}, strings.NewReader(""), &stdout, &stderr)
		if code != 0 && code != 1 {
			t.Fatalf("gate %s: exit %d\n%s", g.id, code, stderr.String())
		}
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("gate %s: %v", g.id, err)
		}
		g.verdict, g.score, g.floor, g.belowBand = out.Verdict, out.Score, out.Floor, len(out.PerBenchmark.Below) > 0
		runs = append(runs, g)
	}
	if nMain != 250 || nPR != 50 {
		t.Fatalf("%d main and %d pull-request runs, want 250 and 50", nMain, nPR)
	}
	for _, g := range runs {
		if g.mark != "" {
			qoscal(0, "mark", "--db", db, "--"+g.mark, g.id)
		}
	}

	// The test's own count.
	type rate struct{ healthy, alarms, marked, presumed int }
	var floor, bands rate
	count := map[string]int{}
	var missed []string
	for _, g := range runs {
		count[g.verdict]++
		if g.mark == "regressed" && g.verdict == "pass" {
			missed = append(missed, g.id)
		}
		if !(g.mark == "healthy" || g.mark == "" && g.presumed) {
			continue
		}
		for _, r := range []struct {
			r     *rate
			alarm bool
		}{{&floor, g.score < g.floor}, {&bands, g.belowBand}} {
			r.r.healthy++
			if r.alarm {
				r.r.alarms++
			}
			if g.mark == "healthy" {
				r.r.marked++
			} else {
				r.r.presumed++
			}
		}
	}
	// The history is what it was built to be: each unlucky run failed,
	// each band-unlucky one had a benchmark below its band, the steady ones
	// neither.
	if floor.alarms != len(histUnlucky)+len(histPRFine) || bands.alarms < len(histBandUnlucky) || floor.healthy != 243+len(histPRFine) {
		t.Fatalf("the history's healthy runs: floor %+v, bands %+v; want %d false alarms of the floor in %d runs, %d or more of the bands",
			floor, bands, len(histUnlucky)+len(histPRFine), 243+len(histPRFine), len(histBandUnlucky))
	}

	var audit struct {
		Gated, Passed, Failed, Rerun int
		Healthy                      int
		FalseAlarms                  int     `json:"false_alarms"`
		Realised                     float64 `json:"realised_rate"`
		Interval                     []float64
		Claimed                      float64 `json:"claimed_rate"`
		Truth                        struct{ Marked, Presumed int }
		Verdict                      string
		Bands                        struct {
			Healthy     int
			FalseAlarms int     `json:"false_alarms"`
			Realised    float64 `json:"realised_rate"`
			Interval    []float64
			Claimed     float64 `json:"claimed_rate"`
			Truth       struct{ Marked, Presumed int }
			Verdict     string
		}
		Regressions struct {
			Marked int
			Missed []struct{ Run string }
		}
		Presumption struct {
			Changed, Recent []string
		}
	}
	out := qoscal(0, "audit", "--calibration", calPath, "--db", db, "--format", "json")
	if err := json.Unmarshal([]byte(out), &audit); err != nil {
		t.Fatal(err)
	}
	if audit.Gated != histGated || audit.Passed != count["pass"] || audit.Failed != count["fail"] || audit.Rerun != count["rerun"] {
		t.Errorf("audit counts gated %d, passed %d, failed %d, rerun %d; the gates said %d: %v", audit.Gated, audit.Passed, audit.Failed, audit.Rerun, histGated, count)
	}
	if audit.Regressions.Marked != len(histPRRegressed)+len(histPRMissed)+len(histStretchMark) || len(audit.Regressions.Missed) != len(missed) || len(missed) != 1 || audit.Regressions.Missed[0].Run != missed[0] {
		t.Errorf("regressions %+v, want %d marked, missed %v", audit.Regressions, len(histPRRegressed)+len(histPRMissed)+len(histStretchMark), missed)
	}
	if got, want := strings.Join(audit.Presumption.Changed, " "), "g-193 g-194 g-195 g-196"; got != want {
		t.Errorf("runs in a change of level %s, want %s (main's 160th to 163rd)", got, want)
	}
	if got, want := strings.Join(audit.Presumption.Recent, " "), "g-297 g-298 g-299"; got != want {
		t.Errorf("runs too recent to presume %s, want %s", got, want)
	}
	if audit.Claimed != rec.FPR.Claimed {
		t.Errorf("claimed rate %v, recommend claimed %v", audit.Claimed, rec.FPR.Claimed)
	}
	vectors := binomialVectors(t)
	for _, c := range []struct {
		name            string
		r               rate
		healthy, alarms int
		realised        float64
		interval        []float64
		truth           struct{ Marked, Presumed int }
		claimed         float64
		verdict         string
	}{
		{"floor", floor, audit.Healthy, audit.FalseAlarms, audit.Realised, audit.Interval, audit.Truth, audit.Claimed, audit.Verdict},
		{"bands", bands, audit.Bands.Healthy, audit.Bands.FalseAlarms, audit.Bands.Realised, audit.Bands.Interval, audit.Bands.Truth, audit.Bands.Claimed, audit.Bands.Verdict},
	} {
		if c.healthy != c.r.healthy || c.alarms != c.r.alarms || c.truth.Marked != c.r.marked || c.truth.Presumed != c.r.presumed {
			t.Errorf("%s: audit %d false alarms in %d healthy runs (%d marked, %d presumed), the test counts %+v", c.name, c.alarms, c.healthy, c.truth.Marked, c.truth.Presumed, c.r)
		}
		if want := float64(c.r.alarms) / float64(c.r.healthy); c.realised != want {
			t.Errorf("%s: realised rate %v, want %d/%d = %v", c.name, c.realised, c.r.alarms, c.r.healthy, want)
		}
		iv, ok := vectors[[2]int{c.r.alarms, c.r.healthy}]
		lo, hi := iv[0], iv[1]
		if !ok {
			t.Fatalf("%s: stats/testdata/binomial_vectors.json has no 95%% interval for %d in %d: add it to AUDIT_CASES in make_binomial.py and run it", c.name, c.r.alarms, c.r.healthy)
		}
		if len(c.interval) != 2 || math.Abs(c.interval[0]-lo) > 1e-9*lo || math.Abs(c.interval[1]-hi) > 1e-9*hi {
			t.Errorf("%s: interval %v, scipy's [%v, %v]", c.name, c.interval, lo, hi)
		}
		want := "too few runs to tell"
		switch {
		case lo > c.claimed:
			want = "more false alarms than claimed: recalibrate, or look at runner health"
		case hi <= 2*c.claimed:
			want = "consistent with the claim"
		}
		if c.verdict != want {
			t.Errorf("%s: verdict %q, want %q ([%v, %v] against %v claimed)", c.name, c.verdict, want, lo, hi, c.claimed)
		}
		t.Logf("%s: %d false alarms in %d healthy runs, [%.4f, %.4f] against %.5f claimed: %s", c.name, c.r.alarms, c.r.healthy, lo, hi, c.claimed, c.verdict)
	}
}

// binomialVectors reads scipy's Clopper–Pearson 95% intervals, by (x, n).
func binomialVectors(t *testing.T) map[[2]int][2]float64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "stats", "testdata", "binomial_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		CP []struct {
			X, N   int
			Conf   float64
			Lo, Hi float64
		} `json:"clopper_pearson"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out := map[[2]int][2]float64{}
	for _, c := range v.CP {
		if c.Conf == 0.95 {
			out[[2]int{c.X, c.N}] = [2]float64{c.Lo, c.Hi}
		}
	}
	return out
}

// memDir is a temporary folder in memory (/dev/shm) where the machine has
// one, else on disk (t.TempDir): each of the 300 recorded gates commits
// to a SQLite store, and on disk the file system's syncs took two thirds
// of the test's 13 s.
func memDir(t *testing.T) string {
	t.Helper()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "qoscal-audit-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}
