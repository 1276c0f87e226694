// Command hashsort is the small benchmark of notebooks.md's section on
// qoscal measure: real work, with the noise real work has. It hashes a
// 256 KiB buffer and sorts 15,000 integers, each 20 times, and prints
// the median time of each as Go's benchmarks print theirs:
//
//	BenchmarkHash 1 2518733 ns/op
//	BenchmarkSort 1 9101254 ns/op
//
// -impl chooses the implementation: std (crypto/sha256 and slices.Sort)
// or alt (crypto/sha1 and sort.Ints); -extra adds that fraction of work
// to each (0.3: 30% more, in steps of 5%), a regression to catch.
package main

import (
	"crypto/sha1"
	"crypto/sha256"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"time"
)

func main() {
	impl := flag.String("impl", "std", "the implementation: std or alt")
	extra := flag.Float64("extra", 0, "a fraction of work to add")
	flag.Parse()
	if *impl != "std" && *impl != "alt" {
		fmt.Fprintln(os.Stderr, "hashsort: -impl must be std or alt")
		os.Exit(2)
	}
	buf := make([]byte, 1<<18)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	nums := make([]int, 15000)
	for i := range nums {
		nums[i] = rng.Int()
	}
	scale := func(n int) int { return n + int(float64(n)**extra) }
	hash := func() {
		for range scale(20) {
			if *impl == "std" {
				sha256.Sum256(buf)
			} else {
				sha1.Sum(buf)
			}
		}
	}
	work := make([]int, len(nums))
	sorts := func() {
		for range scale(20) {
			copy(work, nums)
			if *impl == "std" {
				slices.Sort(work)
			} else {
				sort.Ints(work)
			}
		}
	}
	for _, b := range []struct {
		name string
		f    func()
	}{{"Hash", hash}, {"Sort", sorts}} {
		times := make([]time.Duration, 5)
		for i := range times {
			start := cpuTime()
			b.f()
			times[i] = cpuTime() - start
		}
		slices.Sort(times)
		fmt.Printf("Benchmark%s 1 %d ns/op\n", b.name, times[len(times)/2].Nanoseconds())
	}
}
