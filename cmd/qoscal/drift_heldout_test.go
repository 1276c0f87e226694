package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestDriftHeldoutData: the runs of testdata/drift_heldout.txt are the
// bundled Linux runs as its header says, rebuilt here from
// data/samples/linux-glibc-vs-mimalloc/healthy: cal-01..cal-10 are
// run-01..run-10; new-01..new-06 run-07..run-12; new-07..new-12
// run-07..run-12 with the candidate's larson, cache-scratch, cache-thrash
// and mstress at 0.44x (each value the ops/sec figure, to 6 significant
// digits). Each file of the script is the rebuilt rows of its runs.
func TestDriftHeldoutData(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/drift_heldout.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := "../../data/samples/linux-glibc-vs-mimalloc/healthy"
	slowed := map[string]bool{"larson": true, "cache-scratch": true, "cache-thrash": true, "mstress": true}
	var rows []string // in run order
	ids := map[string]int{}
	emit := func(id string, src int, regress bool) {
		d := filepath.Join(dir, fmt.Sprintf("run-%02d", src))
		names, base := readOps(t, filepath.Join(d, "baseline.txt"))
		_, cand := readOps(t, filepath.Join(d, "mimalloc.txt"))
		for _, n := range names {
			c := cand[n]
			if regress && slowed[n] {
				c *= 0.44
			}
			rows = append(rows, fmt.Sprintf("%s,%s,glibc,%.6g,ops/sec,baseline", id, n, base[n]),
				fmt.Sprintf("%s,%s,mimalloc,%.6g,ops/sec,candidate", id, n, c))
		}
	}
	for i := 1; i <= 10; i++ {
		emit(fmt.Sprintf("cal-%02d", i), i, false)
	}
	for j := 1; j <= 12; j++ {
		ids[fmt.Sprintf("new-%02d", j)] = j
		emit(fmt.Sprintf("new-%02d", j), 7+(j-1)%6, j > 6)
	}
	want := func(keep func(id string) bool) string {
		var b strings.Builder
		b.WriteString("run,benchmark,variant,value,unit,role\n")
		for _, r := range rows {
			if keep(r[:strings.IndexByte(r, ',')]) {
				b.WriteString(r + "\n")
			}
		}
		return b.String()
	}
	upTo := func(last int) func(string) bool {
		return func(id string) bool { j, ok := ids[id]; return ok && j <= last }
	}
	files := map[string]func(string) bool{
		"cal.csv":     func(id string) bool { return strings.HasPrefix(id, "cal-") },
		"healthy.csv": upTo(6), "upto7.csv": upTo(7), "upto8.csv": upTo(8), "all.csv": upTo(12),
	}
	seen := 0
	for _, f := range ar.Files {
		keep, ok := files[f.Name]
		if !ok {
			continue
		}
		seen++
		if got, w := string(f.Data), want(keep); got != w {
			t.Errorf("%s is not the bundled runs rebuilt (%d bytes, want %d)", f.Name, len(got), len(w))
		}
	}
	if seen != len(files) {
		t.Errorf("%d of the %d files found in the script", seen, len(files))
	}
}

var opsLine = regexp.MustCompile(`^([a-z0-9-]+): .*\(([0-9.]+) ops/sec\)`)

// readOps reads the benchmarks' ops/sec figures of one bundled file, in
// file order.
func readOps(t *testing.T, path string) (names []string, vals map[string]float64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vals = map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := opsLine.FindStringSubmatch(strings.TrimSpace(sc.Text())); m != nil {
			var v float64
			if _, err := fmt.Sscan(m[2], &v); err != nil {
				t.Fatal(err)
			}
			names = append(names, m[1])
			vals[m[1]] = v
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names, vals
}
