package measure

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
)

// config is a measurement of two helper variants printing benchmarks A and
// B, the candidate 20% faster.
func config(t testing.TB) Config {
	return Config{
		Variants: []Variant{
			{Name: "system", Command: helperCmd(t, "print", "A=100", "B=200")},
			{Name: "hoard", Command: helperCmd(t, "print", "A=80", "B=160")},
		},
		Baseline: "system", Candidate: "hoard",
		Repetitions: 3, Warmup: 1, Order: Random, Seed: 1, RunID: "job-1",
		Labels:  map[string]string{"suite": "alloc"},
		Environ: append(os.Environ(), helperVar+"=1"),
		Getenv: func(k string) string {
			return map[string]string{"ImageOS": "ubuntu24", "ImageVersion": "20261124.1"}[k]
		},
		Meta: load.Meta{RunnerName: "runner 7"},
	}
}

// leftovers lists what is in dir besides the names given: a failed
// measurement must leave nothing (no partial folder, no temporary one).
func leftovers(t *testing.T, dir string, allowed ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !slices.Contains(allowed, e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestRunFolder: a measurement writes one run folder, whole: results.csv
// with a row per benchmark, variant, repetition (warm-ups left out),
// raw/ with every invocation's output, and a qoscal.json that data reads
// (labels, fingerprint, the order run, each invocation's wall time); data
// then reads the folder as a run with its roles and repetitions.
func TestRunFolder(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "run")
	var seen []Invocation
	cfg := config(t)
	cfg.Progress = func(inv Invocation) { seen = append(seen, inv) }
	res, err := Run(context.Background(), cfg, out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Repetitions != 3 || res.Invocations != 8 || res.Stopped != "" {
		t.Errorf("result %+v: want 3 repetitions, 8 invocations (2 of them warm-ups)", res)
	}
	if left := leftovers(t, root, "run"); left != nil {
		t.Errorf("left beside the run folder: %v", left)
	}
	f, err := os.Open(filepath.Join(out, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"run", "benchmark", "variant", "role", "repetition", "sample", "value", "unit", "label.suite"}; !slices.Equal(rows[0], want) {
		t.Errorf("header %v, want %v", rows[0], want)
	}
	if len(rows) != 1+3*2*2 {
		t.Errorf("%d rows, want 12 and the header", len(rows)-1)
	}
	raw, _ := os.ReadDir(filepath.Join(out, RawDir))
	if len(raw) != 8 {
		t.Errorf("raw/ holds %d files, want the stdout of 8 invocations (their stderr is empty: no file)", len(raw))
	}
	b, err := os.ReadFile(filepath.Join(out, load.MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	meta, err := load.ParseMeta("qoscal.json", b)
	if err != nil {
		t.Fatalf("qoscal.json does not read: %v\n%s", err, b)
	}
	env := meta.Environment
	if meta.Version != 2 || meta.RunnerName != "runner 7" || meta.Labels["suite"] != "alloc" || env == nil ||
		env.CPUs != runtime.NumCPU() || env.OS != runtime.GOOS || env.ImageOS != "ubuntu24" || env.ImageVersion != "20261124.1" {
		t.Errorf("qoscal.json: %+v, environment %+v", meta, env)
	}
	if runtime.GOOS == "linux" && (env.CPUModel == "" && env.Kernel == "" || len(env.LoadBefore) != 3 || len(env.LoadAfter) != 3) {
		t.Errorf("on Linux the fingerprint has the CPU model or kernel and both load averages: %+v", env)
	}
	var lg Log
	if err := json.Unmarshal(meta.Measure, &lg); err != nil {
		t.Fatal(err)
	}
	if len(lg.Invocations) != 8 || lg.Order != Random || lg.Seed != 1 || lg.Repetitions != 3 || len(lg.Variants) != 2 {
		t.Errorf("measure log %+v", lg)
	}
	for i, inv := range lg.Invocations {
		if inv.N != i+1 || !(inv.Wall > 0) || (i < 2) != (inv.Warmup == 1) {
			t.Errorf("invocation %d: %+v", i+1, inv)
		}
		if _, err := os.Stat(filepath.Join(out, inv.Stdout)); err != nil || inv.Stderr != "" {
			t.Errorf("invocation %d: stdout %v, stderr %q", i+1, err, inv.Stderr)
		}
	}
	if len(seen) != 8 || seen[7].N != 8 {
		t.Errorf("Progress saw %d invocations", len(seen))
	}
	s, ok := RepetitionSeconds(meta.Measure)
	if !ok || !(s > 0) {
		t.Errorf("RepetitionSeconds = %v, %v", s, ok)
	}
	// The folder, or the folder that holds it, gives its time; a folder
	// that is no run folder gives none.
	for _, paths := range [][]string{{out}, {root}, {root, filepath.Join(out, "raw")}} {
		if got := FolderRepetitionSeconds(paths); len(got) != 1 || got[0] != s {
			t.Errorf("FolderRepetitionSeconds(%q) = %v, want [%v]", paths, got, s)
		}
	}
	if got := FolderRepetitionSeconds([]string{filepath.Join(root, "none")}); len(got) != 0 {
		t.Errorf("no folder: %v", got)
	}

	runs, err := load.All([]string{out}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	if r.ID != "job-1" || r.Baseline != "system" || r.Candidate != "hoard" || r.Labels["suite"] != "alloc" || r.Labels["runner"] != "runner 7" {
		t.Errorf("the folder read as run %s (%s vs %s), labels %v", r.ID, r.Candidate, r.Baseline, r.Labels)
	}
	count := map[int]int{}
	for _, m := range r.Measurements {
		count[m.Repetition]++
		if m.Unit != "sec/op" {
			t.Errorf("unit %q", m.Unit)
		}
	}
	if count[1] != 4 || count[2] != 4 || count[3] != 4 {
		t.Errorf("measurements per repetition %v, want 4 each", count)
	}

	if _, err := Run(context.Background(), cfg, out); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a second measurement into the same folder: %v", err)
	}
}

// TestOrderSeeded: a seeded random order is reproducible, fresh in each
// repetition, and balanced (each of two variants first in about half the
// repetitions: 4 standard errors of a fair coin over 2,000); alternate
// keeps the order given.
func TestOrderSeeded(t *testing.T) {
	cfg := config(t)
	firsts := func(cfg Config, n int) []int {
		p := newPlan(&cfg)
		var out []int
		for r := 1; r <= n; r++ {
			out = append(out, p.round(r, 0)[0][0].variant)
		}
		return out
	}
	a, b := firsts(cfg, 2000), firsts(cfg, 2000)
	if !slices.Equal(a, b) {
		t.Error("the same seed gave another order")
	}
	cfg2 := cfg
	cfg2.Seed = 2
	if slices.Equal(a, firsts(cfg2, 2000)) {
		t.Error("another seed gave the same order")
	}
	n0 := 0
	for _, v := range a {
		if v == 0 {
			n0++
		}
	}
	if n0 < 1000-4*22 || n0 > 1000+4*22 {
		t.Errorf("variant 0 first in %d of 2000 repetitions: not balanced", n0)
	}
	cfg.Order = Alternate
	for _, v := range firsts(cfg, 50) {
		if v != 0 {
			t.Fatal("alternate put another variant first")
		}
	}
}

// TestBenchmarksInterleaved: with benchmarks named, each command runs
// once per benchmark, {benchmark} its name, the two variants of a
// benchmark back to back and the benchmarks in a fresh random order.
func TestBenchmarksInterleaved(t *testing.T) {
	cfg := config(t)
	cfg.Benchmarks = []string{"larson", "sh8bench", "cache-thrash"}
	cfg.Variants[0].Command = helperCmd(t, "bench") + " {benchmark}"
	cfg.Variants[1].Command = helperCmd(t, "bench") + " {benchmark}"
	cfg.Warmup = 0
	out := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), cfg, out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, load.MetaFile))
	meta, err := load.ParseMeta("q", b)
	if err != nil {
		t.Fatal(err)
	}
	var lg Log
	json.Unmarshal(meta.Measure, &lg)
	if len(lg.Invocations) != 3*3*2 {
		t.Fatalf("%d invocations, want 18", len(lg.Invocations))
	}
	var orders []string
	for i := 0; i < len(lg.Invocations); i += 2 {
		x, y := lg.Invocations[i], lg.Invocations[i+1]
		if x.Benchmark != y.Benchmark || x.Variant == y.Variant || x.Repetition != y.Repetition {
			t.Errorf("invocations %d and %d: %s/%s then %s/%s: want both variants of one benchmark", x.N, y.N, x.Benchmark, x.Variant, y.Benchmark, y.Variant)
		}
		if i%6 == 0 {
			orders = append(orders, x.Benchmark+lg.Invocations[i+2].Benchmark+lg.Invocations[i+4].Benchmark)
		}
	}
	runs, err := load.All([]string{out}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range runs[0].Measurements {
		names[m.Benchmark] = true
	}
	if len(names) != 3 || !names["larson"] {
		t.Errorf("benchmarks %v", names)
	}
	_ = orders
}

// TestDuet: with duet, the variants of a repetition run at the same time:
// one step each, started together.
func TestDuet(t *testing.T) {
	cfg := config(t)
	cfg.Order = Duet
	cfg.Warmup = 0
	out := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), cfg, out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, load.MetaFile))
	meta, _ := load.ParseMeta("q", b)
	var lg Log
	json.Unmarshal(meta.Measure, &lg)
	for i := 0; i < len(lg.Invocations); i += 2 {
		x, y := lg.Invocations[i], lg.Invocations[i+1]
		if x.Step != y.Step || x.Repetition != y.Repetition || y.Start > x.Start+x.Wall {
			t.Errorf("invocations %+v and %+v did not run together", x, y)
		}
	}
}

// TestDecide: a decision after each repetition sees that repetition's
// measurements and may stop the measurement; without stopping, it runs
// to the limit.
func TestDecide(t *testing.T) {
	cfg := config(t)
	cfg.Repetitions = 5
	var got []int
	cfg.Decide = func(rep int, ms []data.Measurement) (bool, error) {
		got = append(got, len(ms))
		for _, m := range ms {
			if m.Repetition != rep {
				t.Errorf("repetition %d saw a measurement of %d", rep, m.Repetition)
			}
		}
		return rep == 2, nil
	}
	out := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), cfg, out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Repetitions != 2 || res.Stopped != "decided" || !slices.Equal(got, []int{4, 4}) {
		t.Errorf("result %+v, measurements per decision %v", res, got)
	}
	cfg.Decide = func(int, []data.Measurement) (bool, error) { return false, nil }
	res, err = Run(context.Background(), cfg, filepath.Join(t.TempDir(), "run"))
	if err != nil || res.Repetitions != 5 || res.Stopped != "limit" {
		t.Errorf("result %+v, %v: want 5 repetitions, stopped at the limit", res, err)
	}
	cfg.Order = Blocks
	if _, err := Run(context.Background(), cfg, filepath.Join(t.TempDir(), "run")); err == nil {
		t.Error("blocks with a decision after each repetition: no error")
	}
}

// TestShell: with Shell, the command is a shell's line.
func TestShell(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the line below is for /bin/sh")
	}
	cfg := config(t)
	cfg.Shell = true
	cfg.Warmup = 0
	cfg.Variants[0].Command = "echo 'BenchmarkA 1 100 ns/op' | cat"
	cfg.Variants[1].Command = "printf 'BenchmarkA 1 %d ns/op\\n' 90"
	if _, err := Run(context.Background(), cfg, filepath.Join(t.TempDir(), "run")); err != nil {
		t.Fatal(err)
	}
	cfg.Shell = false
	if _, err := Run(context.Background(), cfg, filepath.Join(t.TempDir(), "run")); err == nil || !strings.Contains(err.Error(), `variant system: "|" at byte 31 is for a shell`) {
		t.Errorf("a pipe without --shell: %v", err)
	}
}

// TestBadCommands: a command that fails, prints nothing, hangs past the
// timeout, prints another suite, or cannot start is an error naming the
// variant, the repetition, what happened and the tail of its stderr, and
// leaves no run folder (nor a temporary one) behind; a hung command's
// child is killed with it.
func TestBadCommands(t *testing.T) {
	good := helperCmd(t, "print", "A=100", "B=200")
	for _, c := range []struct {
		reason, cmd string
		timeout     time.Duration
		want        []string
	}{
		{"a command that exits non-zero", helperCmd(t, "fail", "3"), 0,
			[]string{"variant hoard, warm-up 1: exit status 3", "its stderr ended:", "  setting up", "  panic: the allocator ran out of arenas"}},
		{"a command that prints nothing", helperCmd(t, "nothing"), 0,
			[]string{"variant hoard, warm-up 1: printed nothing on stdout: expected its benchmark results"}},
		{"a command that prints another suite", helperCmd(t, "print", "A=100", "C=9"), 0,
			[]string{"variant hoard, warm-up 1: printed another suite than variant system, warm-up 1: it lacks BenchmarkB (sec/op) and has BenchmarkC (sec/op) besides"}},
		{"a command that prints what is no result", helperCmd(t, "print"), 0,
			[]string{"variant hoard, warm-up 1: printed no results"}},
		// The timeout is one every other invocation keeps however busy the
		// machine, and the hung command's child has long written its pid
		// when it runs out; it costs the test its wall time, not CPU.
		{"a command that hangs", helperCmd(t, "hang", "PIDFILE"), 5 * time.Second,
			[]string{"variant hoard, warm-up 1: timed out after 5s (killed with its process group; --timeout sets the limit)"}},
		{"a program that does not exist", "./no-such-benchmark", 0,
			[]string{"variant hoard, warm-up 1: could not start ./no-such-benchmark: "}},
	} {
		t.Run(c.reason, func(t *testing.T) {
			root := t.TempDir()
			pidFile := filepath.Join(root, "pid")
			cfg := config(t)
			cfg.Order = Alternate
			cfg.Variants[0].Command = good
			cfg.Variants[1].Command = strings.ReplaceAll(c.cmd, "PIDFILE", pidFile)
			cfg.Timeout = c.timeout
			os.Mkdir(filepath.Join(root, "in"), 0o755)
			out := filepath.Join(root, "in", "run")
			start := time.Now()
			_, err := Run(context.Background(), cfg, out)
			var me *Error
			if !errors.As(err, &me) {
				t.Fatalf("error %v (%T): want a *measure.Error", err, err)
			}
			lines := me.Lines()
			for i, w := range c.want {
				if i >= len(lines) || !strings.HasPrefix(lines[i], w) {
					t.Errorf("error lines %q: line %d should start %q", lines, i+1, w)
				}
			}
			if left := leftovers(t, filepath.Join(root, "in")); left != nil {
				t.Errorf("left behind: %v", left)
			}
			if c.timeout > 0 {
				// Generous: a kill that did not work would hang until the
				// helper's minute is up.
				if el := time.Since(start); el > 45*time.Second {
					t.Errorf("took %v", el)
				}
				checkKilled(t, pidFile)
			}
		})
	}
}

// TestInterrupt: cancelling the context (Ctrl-C) kills the running
// command with its process group at once and writes no run folder.
func TestInterrupt(t *testing.T) {
	root := t.TempDir()
	pidFile := filepath.Join(root, "pid")
	cfg := config(t)
	cfg.Order = Alternate
	cfg.Variants[1].Command = helperCmd(t, "hang", pidFile)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if _, err := os.Stat(pidFile); err == nil {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	os.Mkdir(filepath.Join(root, "in"), 0o755)
	start := time.Now()
	_, err := Run(ctx, cfg, filepath.Join(root, "in", "run"))
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("error %v, want ErrInterrupted", err)
	}
	if el := time.Since(start); el > 45*time.Second {
		t.Errorf("took %v to stop", el)
	}
	if left := leftovers(t, filepath.Join(root, "in")); left != nil {
		t.Errorf("left behind: %v", left)
	}
	checkKilled(t, pidFile)
}

// TestCheck: what Check refuses before anything runs.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		reason string
		edit   func(*Config)
		want   string
	}{
		{"one variant", func(c *Config) { c.Variants = c.Variants[:1] }, "two variants or more"},
		{"an unknown order", func(c *Config) { c.Order = "shuffle" }, `order "shuffle": expected random, alternate, duet, blocks`},
		{"no repetition", func(c *Config) { c.Repetitions = 0 }, "repetitions 0"},
		{"a baseline that is no variant", func(c *Config) { c.Baseline = "glibc" }, `the baseline "glibc" is none of the variants`},
		{"benchmarks without the placeholder", func(c *Config) { c.Benchmarks = []string{"x"} }, "variant system: the command lacks {benchmark}"},
		{"the placeholder without benchmarks", func(c *Config) { c.Variants[0].Command += " {benchmark}" }, "holds {benchmark} but no benchmark is named"},
		{"a command for a shell", func(c *Config) { c.Variants[1].Command += " > out.txt" }, `variant hoard: ">" at byte`},
		{"a variant twice", func(c *Config) { c.Variants[1].Name = "system" }, "variant system is given twice"},
	} {
		cfg := config(t)
		c.edit(&cfg)
		if err := cfg.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.reason, err, c.want)
		}
	}
}
