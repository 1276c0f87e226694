package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"
)

// relClose reports whether got is within rel of want, relatively (and
// exactly equal for zeros, infinities and NaNs).
func relClose(got, want, rel float64) bool {
	if got == want || (math.IsNaN(got) && math.IsNaN(want)) {
		return true
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// The sizes the fast predictive integrals are checked at against the
// slow reference (reference_slow_test.go), from the smallest calibration
// to the largest the engine is measured on (with QOSCAL_SLOW_TESTS=1; the
// quick run stops at 1,000 runs, where the reference is still fast).
var speedSizes = testenv.Size(
	[]int{2, 3, 5, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000},
	[]int{2, 3, 5, 10, 30, 100, 300, 1000})

// TestToleranceConfidenceMatchesReference: γ(k) within 1e−9 relative of
// the reference, or within 1e−14 absolute where γ is so near 0 that the
// reference's own absolute tolerance (1e−15 per panel) is all it has.
func TestToleranceConfidenceMatchesReference(t *testing.T) {
	for _, n := range speedSizes {
		zps := []float64{1.2816, 1.6449, 2.3263, 3.0902}
		if n >= 10000 {
			zps = []float64{1.6449, 3.0902} // the reference takes 0.1 s per γ here
		}
		for _, zp := range zps {
			for _, k := range []float64{0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 8, 20} {
				nf := float64(n)
				got, want := toleranceConfidence(k, nf, nf-1, zp), refToleranceConfidence(k, nf, nf-1, zp)
				if !relClose(got, want, 1e-9) && math.Abs(got-want) > 1e-14 {
					t.Errorf("n %d, z_p %v, k %v: γ %.17g, reference %.17g", n, zp, k, got, want)
				}
			}
		}
	}
}

// TestFPRUpperMatchesReference: the 95% upper bound on the rate within
// 1e−9 relative of the reference, for floors 1 to 6 SDs below the mean,
// independent and autocorrelated.
func TestFPRUpperMatchesReference(t *testing.T) {
	for _, n := range speedSizes {
		kObss := []float64{1, 2, 3, 4, 6}
		switch {
		case n > 10000:
			continue // the reference takes many seconds per bound here; TestToleranceConfidenceMatchesReference covers γ
		case n > 1000:
			kObss = []float64{3.2} // where the default target puts the floor
		}
		for _, kObs := range kObss {
			floor := math.Exp(-kObs * 0.02)
			for _, e := range []Effective{Independent(n), AR1(n, 0.4)} {
				got, want := FPRUpperEff(0, 0.02, e, floor, 0.95), refFPRUpperEff(0, 0.02, e, floor, 0.95)
				if !relClose(got, want, 1e-9) {
					t.Errorf("n %d, k_obs %v, %+v: upper %.17g, reference %.17g (%.2g relative)", n, kObs, e, got, want, (got-want)/want)
				}
			}
		}
	}
}

// TestFalseAlarmHorizonMatchesReference: the chance of a false alarm in
// 100 runs within 1e−9 relative of the reference, or within 5e−11
// absolute: the reference integrated the chance of no alarm, near 1, to
// 1e−12 per panel (16 panels) with a density noisy to 3e−11 relative at
// large n, and subtracted it from 1, so that is all the digits it has
// (TestFalseAlarmHorizonOneRun shows the fast version is the exact one).
// Rates print with 2–3 significant digits, 1e−5 at the finest.
func TestFalseAlarmHorizonMatchesReference(t *testing.T) {
	for _, n := range speedSizes {
		for _, kObs := range []float64{1, 2.5, 3.5, 5} {
			floor := math.Exp(-kObs * 0.02)
			for _, e := range []Effective{Independent(n), AR1(n, 0.4)} {
				got, want := FalseAlarmHorizonEff(0, 0.02, e, floor, 100), refFalseAlarmHorizonEff(0, 0.02, e, floor, 100)
				if !relClose(got, want, 1e-9) && math.Abs(got-want) > 5e-11 {
					t.Errorf("n %d, k_obs %v, %+v: horizon %.17g, reference %.17g", n, kObs, e, got, want)
				}
			}
		}
	}
}

func BenchmarkFPRUpper(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				FPRUpper(0, 0.02, n, math.Exp(-3.2*0.02), 0.95)
			}
		})
	}
}

func BenchmarkFalseAlarmHorizon(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				FalseAlarmHorizon(0, 0.02, n, math.Exp(-3.2*0.02), 100)
			}
		})
	}
}

// TestFalseAlarmHorizonOneRun: over one run the horizon is the
// predictive rate, T_ν(u/sqrt(1 + 1/n)) in closed form; the fast
// integral matches it to 2e−10 relative at every size, which is about
// how exact TCDF is at 10⁴–10⁵ degrees of freedom (the reference, which
// subtracted the chance of no alarm from 1 at a 1e−12 tolerance, is off
// by up to 3e−11 absolute: 1e−4 relative on a rate of 3e−7).
func TestFalseAlarmHorizonOneRun(t *testing.T) {
	for _, n := range speedSizes {
		for _, kObs := range []float64{1, 2.5, 3.5, 5} {
			floor := math.Exp(-kObs * 0.02)
			for _, e := range []Effective{Independent(n), AR1(n, 0.4)} {
				got, want := FalseAlarmHorizonEff(0, 0.02, e, floor, 1), FPRPredictiveEff(0, 0.02, e, floor)
				ref := refFalseAlarmHorizonEff(0, 0.02, e, floor, 1)
				if !relClose(got, want, 2e-10) {
					t.Errorf("n %d, k_obs %v, %+v: one-run horizon %.17g, predictive rate %.17g (%.2g relative; reference %.2g)", n, kObs, e, got, want, (got-want)/want, (ref-want)/want)
				}
			}
		}
	}
}

// TestBootstrapMatchesReference: the one-pass bootstrap gives the
// two-pass reference's figures to 1e−12 relative, and the same count of
// degenerate resamples, from 2 to 20,000 log scores (the same resamples:
// the same generator, drawn in the same order).
func TestBootstrapMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 19))
	for _, n := range []int{2, 3, 10, 100, 1000, 20000} {
		y := make([]float64, n)
		for i := range y {
			y[i] = 0.25 + 0.02*rng.NormFloat64()
		}
		for _, floor := range []float64{1.15, 1.2, 1.26, 1.3} {
			got, want := BootstrapFloorFPR(y, floor, 200, 7), refBootstrapFloorFPR(y, floor, 200, 7)
			for _, f := range []struct {
				name      string
				got, want float64
			}{{"mean", got.Mean, want.Mean}, {"q05", got.Q05, want.Q05}, {"q50", got.Q50, want.Q50}, {"q95", got.Q95, want.Q95}} {
				if !relClose(f.got, f.want, 1e-12) {
					t.Errorf("n %d, floor %v: %s %.17g, reference %.17g", n, floor, f.name, f.got, f.want)
				}
			}
			if got.DegenerateSample != want.DegenerateSample {
				t.Errorf("n %d, floor %v: %d degenerate resamples, reference %d", n, floor, got.DegenerateSample, want.DegenerateSample)
			}
		}
	}
}

// BenchmarkBootstrapFloorFPR: the one-pass bootstrap (new) against the
// two-pass reference (ref), 200 resamples.
func BenchmarkBootstrapFloorFPR(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		y := make([]float64, n)
		rng := rand.New(rand.NewPCG(3, 19))
		for i := range y {
			y[i] = 0.25 + 0.02*rng.NormFloat64()
		}
		b.Run(fmt.Sprint("new/", n), func(b *testing.B) {
			for b.Loop() {
				BootstrapFloorFPR(y, 1.2, 200, 1)
			}
		})
		b.Run(fmt.Sprint("ref/", n), func(b *testing.B) {
			for b.Loop() {
				refBootstrapFloorFPR(y, 1.2, 200, 1)
			}
		})
	}
}

// TestTwoStageMatchesReference: the two-stage rates and power from one
// pass within 1e−9 relative of the reference's two passes (the same
// posterior draws and rule: bit for bit, in fact), over sizes,
// floors 2–4 SDs below the mean and bands of 1–10%.
func TestTwoStageMatchesReference(t *testing.T) {
	for _, n := range []int{2, 5, 30, 1000, 100000} {
		for _, kObs := range []float64{2, 3.1, 4} {
			for _, band := range []float64{0.01, 0.03, 0.1} {
				const s = 0.01
				floor, r := math.Exp(-kObs*s), math.Exp(-1.3*s)
				e := AR1(n, 0.3)
				fpr, rerun, power := TwoStage(0, s, e, floor, band, r, 500, 9)
				wantFPR, wantRerun := refTwoStageFPR(0, s, e, floor, band, 500, 9)
				wantPower := refTwoStagePower(0, s, e, floor, band, r, 500, 9)
				for _, f := range []struct {
					name      string
					got, want float64
				}{{"fpr", fpr, wantFPR}, {"rerun", rerun, wantRerun}, {"power", power, wantPower}} {
					if !relClose(f.got, f.want, 1e-9) {
						t.Errorf("n %d, k_obs %v, band %v: %s %.17g, reference %.17g", n, kObs, band, f.name, f.got, f.want)
					}
				}
			}
		}
	}
}

// TestTwoStageGivenMatchesReference: the closed form through Φ₂ within
// 1e−9 relative of the reference's adaptive quadrature over the first run
// (refTwoStageGiven, tolerance 1e−14 absolute per panel), or within
// 1e−14 absolute where the rate is so small that the reference's own
// tolerance is all it has, on a grid of floors from 8 SDs below the
// centre to 3 above and bands from 10⁻⁴ to 10 SDs wide.
func TestTwoStageGivenMatchesReference(t *testing.T) {
	worst := 0.0
	for zl := -8.0; zl <= 3; zl += 0.25 {
		for _, width := range []float64{1e-4, 1e-3, 0.01, 0.1, 0.3, 0.5, 1, 1.7, 2.5, 4, 10} {
			for _, sigma := range []float64{0.01, 1} {
				mu := 0.3
				l := mu + zl*sigma
				a := l - width*sigma
				fpr, rerun := TwoStageGiven(mu, sigma, a, l)
				wantFPR, wantRerun := refTwoStageGiven(mu, sigma, a, l)
				if rerun != wantRerun {
					t.Errorf("z_l %v, width %v: rerun %.17g, reference %.17g", zl, width, rerun, wantRerun)
				}
				if !relClose(fpr, wantFPR, 1e-9) && math.Abs(fpr-wantFPR) > 1e-14 {
					t.Errorf("z_l %v, width %v, σ %v: fpr %.17g, reference %.17g (%.2g relative)", zl, width, sigma, fpr, wantFPR, (fpr-wantFPR)/wantFPR)
				}
				if wantFPR > 1e-300 {
					worst = math.Max(worst, math.Abs(fpr-wantFPR)/wantFPR)
				}
			}
		}
	}
	t.Logf("largest relative difference %.2g", worst)
}

// BenchmarkTwoStage: the rates and power of the rerun band over 20,000
// posterior draws, as recommend computes them, by the closed form through
// Φ₂ (TwoStage) and by the quadrature it replaced (refTwoStage).
func BenchmarkTwoStage(b *testing.B) {
	const s, band, draws = 0.01, 0.03, 20000
	floor, r := math.Exp(-3.1*s), math.Exp(-1.3*s)
	e := AR1(10000, 0.3)
	b.Run("closed", func(b *testing.B) {
		for b.Loop() {
			TwoStage(0, s, e, floor, band, r, draws, 1)
		}
	})
	b.Run("quadrature", func(b *testing.B) {
		for b.Loop() {
			refTwoStage(0, s, e, floor, band, r, draws, 1)
		}
	})
}

// TestOrderStatisticsMatchReference: Quantile, Median, IQR, RawMAD,
// MADAbout and Order by selection (or on input already sorted), and
// RangePct, give bit for bit the values of the reference's sorted copies,
// on random, tied, sorted, reversed, NaN-holding and organ-pipe inputs of
// 1 to 5,000 values, at quantiles across [0, 1]; and they leave the input
// as it was.
func TestOrderStatisticsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 7))
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	for _, n := range []int{1, 2, 3, 4, 5, 7, 12, 13, 50, 101, 1000, 5000} {
		for shape := range 6 {
			x := make([]float64, n)
			for i := range x {
				switch shape {
				case 0:
					x[i] = rng.NormFloat64()
				case 1: // ties
					x[i] = float64(rng.IntN(4)) + 0.5
				case 2: // sorted
					x[i] = float64(i) * 0.25
				case 3: // reversed
					x[i] = float64(n - i)
				case 4: // NaNs among the values
					x[i] = rng.ExpFloat64()
					if rng.IntN(5) == 0 {
						x[i] = math.NaN()
					}
				case 5: // an organ pipe, quickselect's old enemy
					x[i] = float64(min(i, n-i))
				}
			}
			before := append([]float64(nil), x...)
			for _, p := range []float64{0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1} {
				if got, want := Quantile(x, p), refQuantile(x, p); !same(got, want) {
					t.Errorf("n %d, shape %d: Quantile(%v) = %v, reference %v", n, shape, p, got, want)
				}
			}
			if got, want := IQR(x), refIQR(x); !same(got, want) {
				t.Errorf("n %d, shape %d: IQR %v, reference %v", n, shape, got, want)
			}
			if got, want := RawMAD(x), refRawMAD(x); !same(got, want) {
				t.Errorf("n %d, shape %d: RawMAD %v, reference %v", n, shape, got, want)
			}
			if got, want := MADAbout(x, Median(x)), MADScale*refRawMAD(x); !same(got, want) {
				t.Errorf("n %d, shape %d: MADAbout %v, reference %v", n, shape, got, want)
			}
			o := Order(x)
			lo, hi := refMinMax(x)
			for _, f := range []struct {
				name      string
				got, want float64
			}{{"min", o.Min, lo}, {"max", o.Max, hi}, {"q1", o.Q1, refQuantile(x, 0.25)}, {"median", o.Median, refQuantile(x, 0.5)},
				{"q3", o.Q3, refQuantile(x, 0.75)}, {"iqr", o.IQR(), refIQR(x)}, {"range%", o.RangePct(), (hi - lo) / refQuantile(x, 0.5) * 100},
				{"RangePct", RangePct(x), (hi - lo) / refQuantile(x, 0.5) * 100}} {
				if !same(f.got, f.want) {
					t.Errorf("n %d, shape %d: Order %s %v, reference %v", n, shape, f.name, f.got, f.want)
				}
			}
			for i := range x {
				if !same(x[i], before[i]) {
					t.Fatalf("n %d, shape %d: the input changed at %d", n, shape, i)
				}
			}
		}
	}
}

// BenchmarkMedian: the median of 10,000 values in random order (selected)
// and sorted (read in place), against the reference's sorted copy.
func BenchmarkMedian(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 19))
	x := make([]float64, 10000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	s := sorted(x)
	b.Run("random", func(b *testing.B) {
		for b.Loop() {
			Median(x)
		}
	})
	b.Run("sorted", func(b *testing.B) {
		for b.Loop() {
			Median(s)
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			refQuantile(x, 0.5)
		}
	})
}

// TestBootstrapInterleavedIsOnePass: drawing four resamples side by side,
// on one core and shared among three (parts of unequal size), gives the
// one-at-a-time bootstrap's figures bit for bit (the same draws, the same
// sums), for resample counts that are and are not multiples of four, and
// with the degenerate resamples of two and three runs.
func TestBootstrapInterleavedIsOnePass(t *testing.T) {
	for _, procs := range []int{1, 3} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		bootstrapInterleavedIsOnePass(t)
	}
}

func bootstrapInterleavedIsOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 19))
	// Up to 20,000 log scores with QOSCAL_SLOW_TESTS=1, 1,000 in the quick run.
	for _, n := range testenv.Size([]int{1, 2, 3, 10, 1000, 20000}, []int{1, 2, 3, 10, 1000}) {
		y := make([]float64, n)
		for i := range y {
			y[i] = 0.25 + 0.02*rng.NormFloat64()
		}
		for _, b := range []int{1, 3, 4, 7, 200, 2001} {
			for _, seed := range []uint64{1, 7, 1 << 63} {
				got, want := BootstrapFloorFPR(y, 1.26, b, seed), refBootstrapOnePass(y, 1.26, b, seed)
				if math.Float64bits(got.Mean) != math.Float64bits(want.Mean) || math.Float64bits(got.Q05) != math.Float64bits(want.Q05) ||
					math.Float64bits(got.Q50) != math.Float64bits(want.Q50) || math.Float64bits(got.Q95) != math.Float64bits(want.Q95) ||
					got.DegenerateSample != want.DegenerateSample || got.B != want.B || got.Seed != want.Seed {
					t.Errorf("GOMAXPROCS %d, n %d, B %d, seed %d: %+v, one at a time %+v", runtime.GOMAXPROCS(0), n, b, seed, got, want)
				}
			}
		}
	}
}

// TestMinMaxMatchesReference: the inline MinMax gives math.Min's and
// math.Max's fold bit for bit (NaN for NaN) on random mixes of ordinary
// values with ±0, ±Inf and NaN, of 1 to 8 values, in many orders.
func TestMinMaxMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 19))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1.5, -2.25, 7}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	for range 20000 {
		x := make([]float64, 1+rng.IntN(8))
		for i := range x {
			x[i] = special[rng.IntN(len(special))]
		}
		lo, hi := MinMax(x)
		wlo, whi := refMinMax(x)
		if !same(lo, wlo) || !same(hi, whi) {
			t.Fatalf("MinMax(%v) = %v, %v; math.Min/Max fold %v, %v", x, lo, hi, wlo, whi)
		}
	}
}

// BenchmarkMinMax: 100,000 values, inline (new) against math.Min/Max
// (ref).
func BenchmarkMinMax(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 19))
	x := make([]float64, 100000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			MinMax(x)
		}
	})
	b.Run("ref", func(b *testing.B) {
		for b.Loop() {
			refMinMax(x)
		}
	})
}

// BenchmarkSpreadColumn: what calibrate's spread table takes from one
// column of 100,000 values in run order: Order and MADAbout (one copy,
// three selections, one for the MAD), against a call per statistic.
func BenchmarkSpreadColumn(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 19))
	x := make([]float64, 100000)
	for i := range x {
		x[i] = math.Exp(0.02 * rng.NormFloat64())
	}
	b.Run("order", func(b *testing.B) {
		for b.Loop() {
			o := Order(x)
			_, _ = o.RangePct(), o.IQR()
			MADAbout(x, o.Median)
		}
	})
	b.Run("each", func(b *testing.B) {
		for b.Loop() {
			MinMax(x)
			Median(x)
			RangePct(x)
			IQR(x)
			MAD(x)
			Quantile(x, 0.25)
			Quantile(x, 0.75)
		}
	})
}
