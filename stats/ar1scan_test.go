package stats

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"
)

// The vectors in testdata/ar1scan_vectors.json were computed with numpy
// 1.24.2 by testdata/make_ar1scan.py, each by another route than the Go
// code (correlation matrices, the transform matrix, brute force over
// sorted windows, a numpy simulation of r₁'s law).
type ar1scanVectors struct {
	MeanVar []struct {
		Rho   float64 `json:"rho"`
		L     int     `json:"L"`
		Value float64 `json:"value"`
	} `json:"mean_var"`
	Prewhiten []struct {
		X           []float64 `json:"x"`
		Rho         float64   `json:"rho"`
		M           float64   `json:"m"`
		Innovations []float64 `json:"innovations"`
		AR1SD       float64   `json:"ar1_sd"`
		SD          float64   `json:"sd"`
	} `json:"prewhiten"`
	Scan []struct {
		Z      []*float64 `json:"z"`
		Rho    float64    `json:"rho"`
		VCal   float64    `json:"vcal"`
		Clip   float64    `json:"clip"`
		MinLen int        `json:"min_len"`
		Stat   float64    `json:"stat"`
		Start  int        `json:"start"`
		Down   bool       `json:"down"`
	} `json:"scan"`
	Lag1Law []struct {
		N         int       `json:"n"`
		Rho       float64   `json:"rho"`
		P         []float64 `json:"p"`
		Quantiles []float64 `json:"quantiles"`
		SD        float64   `json:"sd"`
	} `json:"lag1_law"`
	Upper []struct {
		N     int     `json:"n"`
		R     float64 `json:"r"`
		Beta  float64 `json:"beta"`
		Upper float64 `json:"upper"`
	} `json:"upper"`
}

func readAR1ScanVectors(t *testing.T) ar1scanVectors {
	t.Helper()
	b, err := os.ReadFile("testdata/ar1scan_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v ar1scanVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAR1MeanVarVectors: the closed form against 1ᵀΣ1/L² (numpy) to 1e−12.
func TestAR1MeanVarVectors(t *testing.T) {
	v := readAR1ScanVectors(t)
	for _, c := range v.MeanVar {
		if got := AR1MeanVar(c.Rho, c.L); math.Abs(got-c.Value) > 1e-12*c.Value {
			t.Errorf("AR1MeanVar(%v, %d) = %.15g, numpy %.15g", c.Rho, c.L, got, c.Value)
		}
	}
	if !math.IsNaN(AR1MeanVar(0.5, 0)) {
		t.Error("L = 0: want NaN")
	}
}

// TestPrewhitenVectors: the innovations against the transform matrix, and
// AR1SD from them, to 1e−12; with ρ = 0 AR1SD is the n−1 SD.
func TestPrewhitenVectors(t *testing.T) {
	v := readAR1ScanVectors(t)
	for _, c := range v.Prewhiten {
		u := Prewhiten(c.X, c.M, c.Rho)
		for i := range u {
			if math.Abs(u[i]-c.Innovations[i]) > 1e-12 {
				t.Errorf("ρ %v: innovation %d = %.15g, numpy %.15g", c.Rho, i, u[i], c.Innovations[i])
			}
		}
		if got := AR1SD(c.X, c.Rho); math.Abs(got-c.AR1SD) > 1e-12*c.AR1SD {
			t.Errorf("ρ %v: AR1SD %.15g, numpy %.15g", c.Rho, got, c.AR1SD)
		}
		if got := AR1SD(c.X, 0); math.Abs(got-c.SD) > 1e-12*c.SD {
			t.Errorf("ρ 0: AR1SD %.15g, want the n−1 SD %.15g", got, c.SD)
		}
	}
}

// TestShiftScanVectors: the scan against brute force over sorted windows
// (numpy), with an outlier that a window of two cannot carry, a rise, a
// NaN, and a fall from the tenth of fifteen values.
func TestShiftScanVectors(t *testing.T) {
	v := readAR1ScanVectors(t)
	for i, c := range v.Scan {
		z := make([]float64, len(c.Z))
		for j, p := range c.Z {
			z[j] = math.NaN()
			if p != nil {
				z[j] = *p
			}
		}
		got := ShiftScan(z, c.Rho, c.VCal, c.Clip, c.MinLen)
		if math.Abs(got.Stat-c.Stat) > 1e-12*math.Max(1, c.Stat) || got.Start != c.Start || got.Down != c.Down {
			t.Errorf("case %d: %+v, numpy stat %.15g start %d down %v", i, got, c.Stat, c.Start, c.Down)
		}
	}
}

// TestLag1Law: the simulated law of r₁ (20,000 draws) against numpy's
// (200,000): each quantile within 4 Monte Carlo SEs (the SE of a p-quantile
// is sqrt(p(1−p)/B)/f, f taken as the normal density with r₁'s SD); seeded.
func TestLag1Law(t *testing.T) {
	v := readAR1ScanVectors(t)
	const b = 20000
	for _, c := range v.Lag1Law {
		law := Lag1Law(c.N, c.Rho, b, 7)
		if !slices.IsSorted(law) || !slices.Equal(law, Lag1Law(c.N, c.Rho, b, 7)) {
			t.Fatal("not sorted, or not the same twice with one seed")
		}
		for i, p := range c.P {
			got := Quantile(law, p)
			f := math.Exp(-0.5*math.Pow(NormalQuantile(p), 2)) / math.Sqrt(2*math.Pi) / c.SD
			se := math.Sqrt(p*(1-p)/b) / f
			if math.Abs(got-c.Quantiles[i]) > 4*se {
				t.Errorf("n %d ρ %v: r₁ quantile %v = %.4f, numpy %.4f (SE %.4f)", c.N, c.Rho, p, got, c.Quantiles[i], se)
			}
		}
	}
}

// TestAR1UpperVectors: the upper confidence point against numpy's
// inversion of its own simulation, within one grid step (both simulate, and
// where P(r₁ ≤ r) is near β at a grid point they may part by one).
func TestAR1UpperVectors(t *testing.T) {
	v := readAR1ScanVectors(t)
	invs := map[int]*AR1Inverter{}
	for _, c := range v.Upper {
		if invs[c.N] == nil {
			invs[c.N] = NewAR1Inverter(c.N, 4000, 1)
		}
		if got := invs[c.N].Upper(c.R, c.Beta); math.Abs(got-c.Upper) > AR1GridStep+1e-9 {
			t.Errorf("n %d r %v β %v: upper %v, numpy %v", c.N, c.R, c.Beta, got, c.Upper)
		}
	}
	if got := invs[10].Upper(math.NaN(), 0.2); got != 0 {
		t.Errorf("NaN r: %v, want 0", got)
	}
}

// TestAR1UpperCoverage: over Gaussian AR(1) series the (1 − β) upper point
// is at or above the true ρ in about 1 − β of them: within 4 binomial SEs
// at n = 10 and 30, ρ = 0.2 and 0.5 (grid points, so the grid does not
// help), β = 0.2.
func TestAR1UpperCoverage(t *testing.T) {
	reps := testenv.Size(4000, 600)
	const beta = 0.2
	for _, n := range []int{10, 30} {
		inv := NewAR1Inverter(n, 4000, 3)
		for _, rho := range []float64{0.2, 0.5} {
			law := Lag1Law(n, rho, reps, 99) // independent draws of r₁
			covered := 0
			for _, r := range law {
				if inv.Upper(r, beta) >= rho-1e-9 {
					covered++
				}
			}
			got := float64(covered) / float64(reps)
			se := math.Sqrt(beta * (1 - beta) / float64(reps))
			if math.Abs(got-(1-beta)) > 4*se+0.02 {
				t.Errorf("n %d ρ %v: covered in %.3f, want %.2f (SE %.3f)", n, rho, got, 1-beta, se)
			}
		}
	}
}

// TestShiftScanNull: checked after a single new value with minLen 2 the
// scan never reaches past a window of two; with two new values and ρ = 0,
// the trimmed mean of two is the smaller in the sum's direction. Seeded,
// sorted; the null's 95% point hardly moves with ρ (within 15% from
// ρ = 0 to 0.6: 3.06, 2.96, 2.91 at n = 30), since each window is scaled
// by its SD under the ρ it is simulated at: what the allowance for ρ costs
// is in that scale, not in the decision interval.
func TestShiftScanNull(t *testing.T) {
	null := ShiftScanNull(10, 20, 3, 0.5, 6, 2, 2000, 4)
	if !slices.IsSorted(null) || !slices.Equal(null, ShiftScanNull(10, 20, 3, 0.5, 6, 2, 2000, 4)) {
		t.Fatal("not sorted, or not the same twice with one seed")
	}
	if one := ShiftScan([]float64{5}, 0, 0.1, 6, 2); one.Stat != 0 || one.Start != 1 {
		t.Errorf("one value, minLen 2: %+v, want nothing", one)
	}
	if two := ShiftScan([]float64{-3, -1}, 0, 0.1, 6, 2); math.Abs(two.Stat-1/math.Sqrt(0.6)) > 1e-15 || !two.Down || two.Start != 0 {
		t.Errorf("(−3, −1): %+v, want |−1|/sqrt(0.5 + 0.1) down from 0", two)
	}
	h0 := UpperCritical(ShiftScanNull(30, 20, 3, 0, 6, 2, 4000, 1), 0.05)
	for _, rho := range []float64{0.3, 0.6} {
		h := UpperCritical(ShiftScanNull(30, 20, 3, rho, 6, 2, 4000, 1), 0.05)
		if math.Abs(h/h0-1) > 0.15 {
			t.Errorf("ρ = %v: h %v, more than 15%% from ρ = 0's %v", rho, h, h0)
		}
	}
}

// shiftScanNullRef is ShiftScanNull as first written: scanEnd's whole
// scan after every new value.
func shiftScanNullRef(n, runs, first int, rho, clip float64, minLen, b int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x5CA))
	cal, x, zc := make([]float64, n), make([]float64, runs), make([]float64, runs)
	sd := scanSDs(rho, AR1MeanVar(rho, n), runs)
	out := make([]float64, b)
	for i := range out {
		drawUnitAR1(rng, cal, rho)
		drawUnitAR1(rng, x, rho)
		m, s := Mean(cal), AR1SD(cal, rho)
		var most float64
		for t, v := range x {
			zc[t] = clipValue((v-m)/s, clip)
			if t+1 >= first {
				most = max(most, scanEnd(zc[:t+1], sd, minLen).Stat)
			}
		}
		out[i] = most
	}
	slices.Sort(out)
	return out
}

// TestShiftScanNullExact: the null that passes over windows clearly
// below the running maximum equals, bit for bit, the one that scans
// every window (the figures every drift check and its tests print rest
// on it), over calibrations of 5 to 40 runs, 1 to 50 new runs, ρ from
// −0.3 to 0.9, minLen 2 and 3, and a clip that bites (1.5).
func TestShiftScanNullExact(t *testing.T) {
	for _, c := range []struct {
		n, runs, first, minLen int
		rho, clip              float64
	}{
		{10, 20, 3, 2, 0, 6}, {30, 20, 3, 2, 0.5, 6}, {5, 1, 1, 2, 0.9, 6}, {40, 50, 5, 3, -0.3, 6},
		{10, 20, 3, 2, 0.8, 1.5}, {12, 7, 7, 2, 0.2, 6},
	} {
		got := ShiftScanNull(c.n, c.runs, c.first, c.rho, c.clip, c.minLen, 3000, 9)
		want := shiftScanNullRef(c.n, c.runs, c.first, c.rho, c.clip, c.minLen, 3000, 9)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%+v: null[%d] = %v, want %v (the full scan's)", c, i, got[i], want[i])
			}
		}
	}
}

// BenchmarkShiftScanNull: one simulated null as the drift check draws it
// for a benchmark of a 10-benchmark suite (40,000 sequences of 20 runs
// against 10), and the full scan's beside it.
func BenchmarkShiftScanNull(b *testing.B) {
	b.Run("skip", func(b *testing.B) {
		for b.Loop() {
			ShiftScanNull(10, 20, 3, 0.5, 6, 2, 40000, 1)
		}
	})
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			shiftScanNullRef(10, 20, 3, 0.5, 6, 2, 40000, 1)
		}
	})
}

// TestAR1MeanVarLong: the mean of 2^62 values (a calibration file's
// repetitions may say so) is computed at once, and equals the closed
// form (1/L)·[(1 + ρ)/(1 − ρ) − 2ρ(1 − ρ^L)/(L(1 − ρ)²)] (Box, Jenkins
// and Reinsel §2.1, the sum in closed form); for L up to 5,000 the
// sum that stops early equals the whole sum bit for bit.
func TestAR1MeanVarLong(t *testing.T) {
	whole := func(rho float64, L int) float64 {
		s, p := 1.0, 1.0
		for k := 1; k < L; k++ {
			p *= rho
			s += 2 * (1 - float64(k)/float64(L)) * p
		}
		return s / float64(L)
	}
	for _, rho := range []float64{-0.9, -0.3, 0, 0.2, 0.5, 0.739, 0.95} {
		for _, L := range []int{1, 2, 3, 10, 64, 700, 5000} {
			if got, want := AR1MeanVar(rho, L), whole(rho, L); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("AR1MeanVar(%v, %d) = %v, the whole sum %v", rho, L, got, want)
			}
		}
		L := 1 << 62
		fl := float64(L)
		want := ((1+rho)/(1-rho) - 2*rho/(fl*(1-rho)*(1-rho))) / fl
		if got := AR1MeanVar(rho, L); math.Abs(got-want) > 1e-12*want {
			t.Errorf("AR1MeanVar(%v, 2^62) = %v, closed form %v", rho, got, want)
		}
	}
}
