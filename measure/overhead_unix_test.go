//go:build unix

package measure

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/qoscal/qoscal/data"
)

// cpuSelf is the CPU time this process has used (user and system), not
// its children's.
func cpuSelf() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// overhead measures reps repetitions of two variants and returns qoscal's
// own CPU time per invocation, the bytes it allocated per invocation, and
// the live heap after the last repetition (after a collection).
func overhead(tb testing.TB, reps int) (cpu time.Duration, alloc, live uint64) {
	cfg := config(tb)
	cfg.Repetitions, cfg.Warmup = reps, 0
	cfg.Observe = func(rep int, _ []data.Measurement) {
		if rep == reps {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			live = ms.HeapAlloc
		}
	}
	out := filepath.Join(tb.TempDir(), fmt.Sprintf("run-%d", reps))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c0 := cpuSelf()
	res, err := Run(context.Background(), cfg, out)
	c1 := cpuSelf()
	runtime.ReadMemStats(&after)
	if err != nil {
		tb.Fatal(err)
	}
	n := uint64(res.Invocations)
	return (c1 - c0) / time.Duration(n), (after.TotalAlloc - before.TotalAlloc) / n, live
}

// BenchmarkInvocation measures qoscal's own cost per invocation of a
// command (its children's is the command's): starting the command,
// waiting for it, reading its output with package data, writing its rows
// and its log entry. It reports own-cpu-ms/invocation, qoscal's CPU time
// per invocation less what the file system takes to make the one file an
// invocation needs (its stdout, createCost), and B/invocation, what it
// allocates per invocation.
//
// The bound on that cost (2 ms of CPU) is a benchmark's, not a unit
// test's: a test's CPU time grows with what else the machine runs (2.74 ms
// measured with a busy loop on each of 2 cores). scripts/bench-overhead.sh
// checks it on a quiet machine, and scripts/bench-compare.sh, which CI's
// benchmark job runs, measures it for the base and the head of a pull
// request side by side.
func BenchmarkInvocation(b *testing.B) {
	var cpu time.Duration
	var alloc uint64
	for b.Loop() {
		c, a, _ := overhead(b, 25)
		cpu += c
		alloc += a
	}
	own := cpu/time.Duration(b.N) - createCost(b, b.TempDir())
	b.ReportMetric(float64(own.Microseconds())/1000, "own-cpu-ms/invocation")
	b.ReportMetric(float64(alloc)/float64(b.N), "B/invocation")
}

// createCost is the CPU time this process spends making, writing and
// closing a file in dir: the file system's price for the stdout file each
// invocation must have. On most systems it is 10 to 30 µs; on some virtual
// machines' disks it is close to a millisecond (880 µs measured where this
// test was written, 16 µs on tmpfs), which is then most of qoscal's cost.
func createCost(tb testing.TB, dir string) time.Duration {
	const n = 50
	c0 := cpuSelf()
	for i := range n {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("probe-%d", i)))
		if err != nil {
			tb.Fatal(err)
		}
		f.Write([]byte("BenchmarkA 1 100 ns/op\n"))
		f.Close()
	}
	return (cpuSelf() - c0) / n
}

// TestOverhead: qoscal's memory is flat in the number of repetitions: it
// allocates no more per invocation over 100 repetitions than over 10
// (within 25%), and holds no more live heap after 100 than after 10
// (within 256 KiB). These hold however busy the machine is; the bound on
// its CPU time per invocation is BenchmarkInvocation's.
func TestOverhead(t *testing.T) {
	overhead(t, 3) // warm up: the first run loads the parsers
	cpu10, alloc10, live10 := overhead(t, 10)
	cpu100, alloc100, live100 := overhead(t, 100)
	t.Logf("10 repetitions: %v CPU, %d B allocated per invocation, %d B live; 100: %v, %d B, %d B", cpu10, alloc10, live10, cpu100, alloc100, live100)
	if float64(alloc100) > 1.25*float64(alloc10) {
		t.Errorf("allocated %d B per invocation over 100 repetitions, %d over 10: it grows with the repetitions", alloc100, alloc10)
	}
	if live100 > live10+256<<10 {
		t.Errorf("live heap %d B after 100 repetitions, %d after 10: it grows with the repetitions", live100, live10)
	}
}
