package load

import (
	"path/filepath"
	"testing"
)

func TestHyperfineAB(t *testing.T) {
	path := filepath.Join(fixtures, "hyperfine", "ab.json")
	b, _ := ParseVariantSpec("old=" + path)
	c, _ := ParseVariantSpec("new=" + path)
	run, err := Files(Options{Baseline: b, Candidate: c, RunID: "ab"})
	if err != nil {
		t.Fatal(err)
	}
	if got := run.BenchmarkCount(); got["old"] != 1 || got["new"] != 1 {
		t.Errorf("A/B in one file: %v", got)
	}
	for _, m := range run.Measurements {
		if m.Benchmark != "ab" {
			t.Fatalf("benchmark %q, want the file stem", m.Benchmark)
		}
	}
}

func TestStripProcsAndFileLabels(t *testing.T) {
	dir := filepath.Join(fixtures, "gobench")
	b, _ := ParseVariantSpec("old=" + filepath.Join(dir, "base.txt"))
	c, _ := ParseVariantSpec("new=" + filepath.Join(dir, "cand.txt"))
	run, err := Files(Options{Baseline: b, Candidate: c, RunID: "go", StripProcs: true})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range run.Measurements {
		names[m.Benchmark] = true
	}
	if !names["BenchmarkJoin/parts=16"] || !names["BenchmarkUpper"] || len(names) != 3 {
		t.Errorf("names %v", names)
	}
	if run.Labels["goos"] != "linux" || run.Labels["pkg"] != "fixture" {
		t.Errorf("labels %v", run.Labels)
	}
}

// TestStripProcsClash: two names that --strip-procs makes one are an
// error naming both, their lines and the file (ingest failed with a raw
// UNIQUE constraint error, and gate merged them silently).
func TestStripProcsClash(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.txt")
	cand := filepath.Join(dir, "cand.txt")
	writeFile(t, base, "goos: linux\nBenchmarkA-4 10 5 ns/op\nBenchmarkB-4 10 5 ns/op\nBenchmarkA-8 10 3 ns/op\nBenchmarkA-4 10 5 ns/op\nBenchmarkB 10 5 ns/op\n")
	writeFile(t, cand, "BenchmarkA-4 10 5 ns/op\nBenchmarkB-4 10 5 ns/op\n")
	opt := Options{Baseline: VariantSpec{"old", base}, Candidate: VariantSpec{"new", cand}, RunID: "r", StripProcs: true}
	_, err := Files(opt)
	want := base + ":4: --strip-procs makes BenchmarkA-8 and BenchmarkA-4 (line 2) one benchmark, BenchmarkA: leave out --strip-procs, or run the benchmarks with one -cpu value\n" +
		base + ":6: --strip-procs makes BenchmarkB and BenchmarkB-4 (line 3) one benchmark, BenchmarkB: leave out --strip-procs, or run the benchmarks with one -cpu value"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	opt.StripProcs = false
	if _, err := Files(opt); err != nil {
		t.Errorf("without --strip-procs: %v", err)
	}
}
