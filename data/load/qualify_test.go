package load

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestQualifiedStripProcs: with --strip-procs, BenchmarkA-8 of one
// package and BenchmarkA-4 of another are two benchmarks named by their
// packages, not a clash; within one package they still clash.
func TestQualifiedStripProcs(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.txt")
	cand := filepath.Join(dir, "cand.txt")
	writeFile(t, base, "pkg: a\nBenchmarkA-8 10 5 ns/op\npkg: b\nBenchmarkA-4 10 5 ns/op\n")
	writeFile(t, cand, "pkg: a\nBenchmarkA-8 10 5 ns/op\npkg: b\nBenchmarkA-4 10 15 ns/op\n")
	run, err := Files(Options{Baseline: VariantSpec{"old", base}, Candidate: VariantSpec{"new", cand}, RunID: "r", StripProcs: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range run.Measurements {
		got = append(got, m.Variant+" "+m.Benchmark)
	}
	want := []string{"old a.BenchmarkA", "old b.BenchmarkA", "new a.BenchmarkA", "new b.BenchmarkA"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	writeFile(t, cand, "pkg: a\nBenchmarkA-8 10 5 ns/op\nBenchmarkA-4 10 15 ns/op\n")
	_, err = Files(Options{Baseline: VariantSpec{"old", base}, Candidate: VariantSpec{"new", cand}, RunID: "r", StripProcs: true})
	if want := cand + ":3: --strip-procs makes BenchmarkA-4 and BenchmarkA-8 (line 2) one benchmark, BenchmarkA"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v\nwant  %s...", err, want)
	}
}
