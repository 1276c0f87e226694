package load

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// writeSmallRunFolders writes n run folders, each with a baseline.txt and
// a candidate.txt of ten ops-format benchmarks (~700 bytes each, the size
// of a CI job's allocator suite output).
func writeSmallRunFolders(tb testing.TB, dir string, n int) {
	tb.Helper()
	for i := range n {
		run := filepath.Join(dir, fmt.Sprintf("run-%05d", i))
		if err := os.MkdirAll(run, 0o755); err != nil {
			tb.Fatal(err)
		}
		for v, name := range []string{"baseline.txt", "candidate.txt"} {
			var text []byte
			text = append(text, "=== allocator benchmarks ===\n"...)
			for b := range 10 {
				text = fmt.Appendf(text, "--- bench%d ---\nbench%d: threads=4 ops=400000 time=0.072 sec (%d ops/sec)\n", b, b, 5000000+i*31+b*7+v*1000)
			}
			if err := os.WriteFile(filepath.Join(run, name), text, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// BenchmarkLoadSmallFiles reads 1,000 run folders of two ~700-byte result
// files each: the cost per file of decoding, detection and scanning (issue
// 19: 192 KiB of buffers a file made 20,000 files allocate 4 GB).
func BenchmarkLoadSmallFiles(b *testing.B) {
	dir := b.TempDir()
	const runs = 1000
	writeSmallRunFolders(b, dir, runs)
	opt := Options{Baseline: VariantSpec{Name: "system", File: "baseline.txt"}, Candidate: VariantSpec{Name: "hoard", File: "candidate.txt"}}
	b.ReportAllocs()
	for b.Loop() {
		got, err := All([]string{dir}, opt)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != runs || len(got[0].Measurements) != 20 {
			b.Fatalf("%d runs, %d measurements in the first", len(got), len(got[0].Measurements))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*runs*2), "ns/file")
}

// BenchmarkLoadCSV10000 loads one CSV file of 10,000 runs × 20
// measurements (the rows of scripts/benchgen).
func BenchmarkLoadCSV10000(b *testing.B) {
	const n = 10000
	path := filepath.Join(b.TempDir(), "runs.csv")
	text := []byte("run,benchmark,variant,value,unit,role,label.os\n")
	for i := range n {
		for j := range 10 {
			text = fmt.Appendf(text, "run-%06d,bench-%02d,system,%d,ops/sec,baseline,linux\n", i, j, 1000+i%89+j)
			text = fmt.Appendf(text, "run-%06d,bench-%02d,hoard,%d,ops/sec,candidate,linux\n", i, j, 1500+i%97+j)
		}
	}
	if err := os.WriteFile(path, text, 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		runs, err := All([]string{path}, Options{})
		if err != nil || len(runs) != n {
			b.Fatalf("%d runs, %v", len(runs), err)
		}
	}
	b.ReportMetric(float64(b.N*n*20)/b.Elapsed().Seconds(), "measurements/s")
}

// BenchmarkLoadSeqFolders streams 2,000 run folders of two ~700-byte
// result files each through Runs, as `qoscal ingest` of run folders
// reads them: the producer side of an ingest (issue 19), per file.
func BenchmarkLoadSeqFolders(b *testing.B) {
	dir := b.TempDir()
	const runs = 2000
	writeSmallRunFolders(b, dir, runs)
	opt := Options{Baseline: VariantSpec{Name: "system", File: "baseline.txt"}, Candidate: VariantSpec{Name: "hoard", File: "candidate.txt"}}
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		n := 0
		for r, err := range Runs([]string{dir}, opt) {
			if err != nil {
				b.Fatal(err)
			}
			if len(r.Measurements) != 20 {
				b.Fatalf("run %s: %d measurements", r.ID, len(r.Measurements))
			}
			n++
		}
		if n != runs {
			b.Fatalf("%d runs, want %d", n, runs)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*runs*2), "ns/file")
	if cpu := cpuTime() - cpu; cpu > 0 {
		// CPU time, of every thread (the garbage collector's too):
		// less disturbed than wall time by a shared machine's load.
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*runs*2), "cpu-ns/file")
	}
}
