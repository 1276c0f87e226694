// Command benchgen writes the synthetic calibration data that
// scripts/bench.sh measures qoscal on: RUNS runs of unchanged code, each
// measuring 10 benchmarks with 2 variants (system, the baseline, and
// hoard, the candidate), as one long-format CSV file and as run folders of
// ops-format result files. The noise is clean and log-normal (seeded: the
// same flags write the same bytes), so that nothing in the data should
// make qoscal warn about a run.
//
// Usage:
//
//	go run ./scripts/benchgen -runs 10000 -out DIR
//
// writes DIR/runs.csv (with a header row), DIR/rows.csv (the same rows
// without a header, for `sqlite3 .import`) and DIR/folders/run-NNNNNN/
// {system.txt,hoard.txt}; -folders=false leaves out the run folders.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// benchmarks are the suite: an allocator suite's names and typical
// baseline throughputs (ops/sec), and each benchmark's typical ratio.
var benchmarks = []struct {
	name  string
	base  float64
	ratio float64
	noise float64 // SD of the log ratio per run
}{
	{"alloc-test", 31225137, 1.67, 0.02},
	{"cache-scratch", 46300155, 2.26, 0.04},
	{"cache-thrash", 45600000, 1.80, 0.05},
	{"cfrac", 8100000, 1.10, 0.01},
	{"espresso", 12500000, 1.25, 0.015},
	{"larson", 5514093, 0.87, 0.01},
	{"linux-scalability", 22000000, 1.40, 0.02},
	{"sh6bench", 19000000, 1.35, 0.02},
	{"sh8bench", 20336963, 1.00, 0.02},
	{"xmalloc-test", 9000000, 1.90, 0.03},
}

func main() {
	runs := flag.Int("runs", 1000, "number of runs")
	out := flag.String("out", "", "output folder (required)")
	folders := flag.Bool("folders", true, "also write run folders of ops-format result files")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" || *runs < 1 {
		fmt.Fprintln(os.Stderr, "usage: benchgen -runs N -out DIR [-folders=false] [-seed S]")
		os.Exit(2)
	}
	if err := write(*out, *runs, *folders, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}

func write(out string, runs int, folders bool, seed uint64) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 19))
	withHeader, err := os.Create(filepath.Join(out, "runs.csv"))
	if err != nil {
		return err
	}
	rows, err := os.Create(filepath.Join(out, "rows.csv"))
	if err != nil {
		return err
	}
	hw, rw := bufio.NewWriter(withHeader), bufio.NewWriter(rows)
	fmt.Fprintln(hw, "run,benchmark,variant,value,unit,role,label.os")
	var sys, hoard []byte
	for i := range runs {
		id := fmt.Sprintf("run-%06d", i+1)
		sys = append(sys[:0], "=== system allocator ===\n"...)
		hoard = append(hoard[:0], "=== Hoard allocator ===\n"...)
		runner := math.Exp(0.01 * rng.NormFloat64()) // the runner's speed this job
		for _, b := range benchmarks {
			base := math.Round(b.base * runner * math.Exp(0.01*rng.NormFloat64()))
			cand := math.Round(base * b.ratio * math.Exp(b.noise*rng.NormFloat64()))
			for _, w := range []*bufio.Writer{hw, rw} {
				fmt.Fprintf(w, "%s,%s,system,%.0f,ops/sec,baseline,linux\n", id, b.name, base)
				fmt.Fprintf(w, "%s,%s,hoard,%.0f,ops/sec,candidate,linux\n", id, b.name, cand)
			}
			sys = fmt.Appendf(sys, "--- %s ---\n%s: threads=4 time=0.100 sec (%.0f ops/sec)\n", b.name, b.name, base)
			hoard = fmt.Appendf(hoard, "--- %s ---\n%s: threads=4 time=0.100 sec (%.0f ops/sec)\n", b.name, b.name, cand)
		}
		if folders {
			dir := filepath.Join(out, "folders", id)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "system.txt"), sys, 0o644); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "hoard.txt"), hoard, 0o644); err != nil {
				return err
			}
		}
	}
	for _, f := range []struct {
		w *bufio.Writer
		f *os.File
	}{{hw, withHeader}, {rw, rows}} {
		if err := f.w.Flush(); err != nil {
			return err
		}
		if err := f.f.Close(); err != nil {
			return err
		}
	}
	return nil
}
