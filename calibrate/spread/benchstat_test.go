package spread

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data/load"
)

// benchstatValue parses a benchstat figure such as "4.491µ", "1062.0n",
// "37.248µ" (seconds with an SI prefix).
func benchstatValue(t *testing.T, s string) float64 {
	t.Helper()
	scale := 1.0
	for suffix, f := range map[string]float64{"n": 1e-9, "µ": 1e-6, "m": 1e-3} {
		if strings.HasSuffix(s, suffix) {
			s, scale = strings.TrimSuffix(s, suffix), f
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("benchstat value %q: %v", s, err)
	}
	return v * scale
}

// TestAgainstBenchstat compares qoscal's score of a pair of real Go
// benchmark files with what benchstat (golang.org/x/perf/cmd/benchstat
// v0.0.0-20260908200009-22c9c6c9d4da) printed for the same files, kept in
// ../data/formats/testdata/gobench/benchstat.txt. Both summarise each benchmark by
// the median of its samples; benchstat's geomean row is the ratio of the
// per-side geomeans, which equals the geomean of the per-benchmark ratios
// when both sides have the same benchmarks. Its figures have four
// significant digits, so agreement is to that rounding.
func TestAgainstBenchstat(t *testing.T) {
	dir := filepath.Join("..", "..", "data", "formats", "testdata", "gobench")
	b, _ := load.ParseVariantSpec("base=" + filepath.Join(dir, "base.txt"))
	c, _ := load.ParseVariantSpec("cand=" + filepath.Join(dir, "cand.txt"))
	run, err := load.Files(load.Options{Baseline: b, Candidate: c, RunID: "go"})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := calibrate.Ratios(&run, "base", "cand", calibrate.Auto, "")
	if err != nil {
		t.Fatal(err)
	}
	score, err := rr.Score(rr.Names())
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "benchstat.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	checked := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if fields[0] == "geomean" {
			// geomean  4.491µ  1.043µ  -76.77%
			base, cand := benchstatValue(t, fields[1]), benchstatValue(t, fields[2])
			pct, _ := strconv.ParseFloat(strings.TrimSuffix(fields[3], "%"), 64)
			if rel := math.Abs(score-base/cand) / score; rel > 1e-3 {
				t.Errorf("score %.5f, benchstat's geomeans give %.5f (rel %.1e)", score, base/cand, rel)
			}
			if want := 1 / (1 + pct/100); math.Abs(score-want)/want > 5e-4 {
				t.Errorf("score %.5f, benchstat's %v%% gives %.5f", score, pct, want)
			}
			checked++
			break // the first table is sec/op
		}
		name := "Benchmark" + fields[0]
		if br, ok := rr.Ratios[name]; ok && len(fields) >= 6 {
			// Join/parts=16-2  1062.0n ± ∞ ¹  293.4n ± ∞ ¹ ...
			base := benchstatValue(t, fields[1])
			cand := benchstatValue(t, fields[5])
			if math.Abs(br.Baseline-base)/base > 1e-3 || math.Abs(br.Candidate-cand)/cand > 1e-3 {
				t.Errorf("%s medians %g, %g; benchstat %g, %g", name, br.Baseline, br.Candidate, base, cand)
			}
			checked++
		}
	}
	if checked != 4 {
		t.Errorf("checked %d rows of benchstat.txt, want 3 benchmarks and the geomean", checked)
	}
}
