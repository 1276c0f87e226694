package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkGate runs the whole gate command in-process on the worked
// example's two result files (one UTF-16, one ASCII) against a floor: what
// every CI job pays, less process start-up.
func BenchmarkGate(b *testing.B) {
	dir := filepath.Join("..", "..", "data", "samples", "windows-hoard-first-measurement")
	args := []string{"gate", "--floor", "1.25", "--annotations", "none",
		"--baseline", "system=" + filepath.Join(dir, "baseline.txt"),
		"--candidate", "hoard=" + filepath.Join(dir, "hoard.txt")}
	var errs strings.Builder
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, nil, io.Discard, &errs); code != 0 {
			b.Fatalf("exit %d: %s", code, errs.String())
		}
	}
}
