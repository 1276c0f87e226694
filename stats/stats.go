// Package stats holds the numerical functions qoscal's calibration rests
// on: geometric mean and SD, quantiles, robust spread, t intervals and the
// normal and Student-t distributions. They work on float64 slices and know
// nothing about benchmarks or runs.
//
// Conventions (see docs/STATS.md, section 0, the statistics reference these
// follow; its test vectors are testdata/stats_vectors.json):
//   - log is the natural logarithm; geometric statistics are computed in
//     log space and turned back with exp.
//   - Standard deviations are sample SDs with the n−1 divisor.
//   - Quantiles are Hyndman–Fan type 7 (R's default, numpy's "linear").
//     gonum's stat.Quantile(p, stat.LinInterp, ...) is type 4 and is not
//     used for them.
//   - No function modifies its input slice.
package stats

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// ErrEmpty is returned for a statistic of no values.
var ErrEmpty = errors.New("stats: no values")

// DomainError reports a value outside a function's domain, such as a zero
// ratio passed to a geometric mean.
type DomainError struct {
	Func  string
	Index int
	Value float64
	Want  string
}

func (e *DomainError) Error() string {
	return fmt.Sprintf("stats: %s: value %d is %v, want %s", e.Func, e.Index, e.Value, e.Want)
}

// Logs returns ln x_i for each x_i. Every x_i must be finite and > 0;
// otherwise the result is a *DomainError naming the first bad value (never
// a clamped or NaN result).
func Logs(x []float64) ([]float64, error) {
	if len(x) == 0 {
		return nil, ErrEmpty
	}
	out := make([]float64, len(x))
	for i, v := range x {
		if !(v > 0) || math.IsInf(v, 1) {
			return nil, &DomainError{Func: "Logs", Index: i, Value: v, Want: "a finite value > 0"}
		}
		out[i] = math.Log(v)
	}
	return out, nil
}

// GeoMean returns the geometric mean exp((1/n) Σ ln x_i), computed as a
// mean of logs so that long products cannot overflow or underflow.
// Domain: x_i finite and > 0 (STATS.md 1.1).
func GeoMean(x []float64) (float64, error) {
	l, err := Logs(x)
	if err != nil {
		return 0, err
	}
	return math.Exp(Mean(l)), nil
}

// GSD returns the geometric standard deviation exp(s), where s is the
// n−1 sample SD of ln x_i (scipy.stats.gstd). Domain: x_i finite and > 0,
// n ≥ 2 (STATS.md 1.2).
func GSD(x []float64) (float64, error) {
	l, err := Logs(x)
	if err != nil {
		return 0, err
	}
	if len(l) < 2 {
		return 0, errors.New("stats: GSD needs at least 2 values")
	}
	return math.Exp(SD(l)), nil
}

// GeoMeanCI returns the two-sided t confidence interval at the given level
// (0.95 for 95%) for the geometric mean of x:
//
//	exp( ȳ ± t_{n−1, 1−α/2} · s_y / √n ),  y = ln x, α = 1 − level.
//
// Domain: x_i finite and > 0, n ≥ 2, 0 < level < 1 (STATS.md 1.3). It
// assumes ln x is a sample from a normal distribution.
func GeoMeanCI(x []float64, level float64) (lo, hi float64, err error) {
	l, err := Logs(x)
	if err != nil {
		return 0, 0, err
	}
	n := float64(len(l))
	if len(l) < 2 {
		return 0, 0, errors.New("stats: GeoMeanCI needs at least 2 values")
	}
	if !(level > 0 && level < 1) {
		return 0, 0, fmt.Errorf("stats: GeoMeanCI level %v, want 0 < level < 1", level)
	}
	m, s := Mean(l), SD(l)
	h := TQuantile(1-(1-level)/2, n-1) * s / math.Sqrt(n)
	return math.Exp(m - h), math.Exp(m + h), nil
}

// Mean returns the arithmetic mean (1/n) Σ x_i; NaN for no values.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return stat.Mean(x, nil)
}

// SD returns the sample standard deviation sqrt(Σ (x_i − x̄)² / (n−1));
// NaN for fewer than 2 values.
func SD(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	return stat.StdDev(x, nil)
}

// CV returns the coefficient of variation SD(x)/Mean(x) (n−1 SD).
func CV(x []float64) float64 { return SD(x) / Mean(x) }

// LogNormalCV returns the CV of a log-normal distribution whose log has SD
// s: sqrt(exp(s²) − 1) (STATS.md 1.2).
func LogNormalCV(s float64) float64 { return math.Sqrt(math.Expm1(s * s)) }

// sorted returns a sorted copy of x.
func sorted(x []float64) []float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return s
}

// scratch lends the order statistics below a copy of their input from a
// pool, so that the medians and quantiles of a large analysis (two dozen
// over 100,000 runs) do not each leave an n-value copy for the collector
// (issue 19: 130 MB of garbage at 100,000 runs).
var scratch = sync.Pool{New: func() any { return new([]float64) }}

// withCopy calls f with a copy of x from the pool, which f may reorder
// but must not keep.
func withCopy(x []float64, f func(s []float64) float64) float64 {
	p := scratch.Get().(*[]float64)
	s := append((*p)[:0], x...)
	v := f(s)
	*p = s
	scratch.Put(p)
	return v
}

// Quantile returns the Hyndman–Fan type 7 p-quantile of x (R's default
// quantile, numpy's "linear"): for x sorted into x[0..n−1],
//
//	h = (n−1)p,  Q(p) = x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
//
// Domain: n ≥ 1, 0 ≤ p ≤ 1; NaN otherwise. x is not modified.
// Reference: Hyndman, R. J. and Fan, Y. (1996), Sample quantiles in
// statistical packages, The American Statistician 50(4), 361–365.
//
// It reads x directly when x is already sorted, and otherwise selects the
// two order statistics it needs from a copy (quantileSelect) instead of
// sorting it: the same values, so the same result, in O(n).
func Quantile(x []float64, p float64) float64 {
	if len(x) == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	if slices.IsSorted(x) {
		return quantileSorted(x, p)
	}
	return withCopy(x, func(s []float64) float64 { return quantileSelect(s, p) })
}

func quantileSorted(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := math.Floor(h)
	i := int(lo)
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (h-lo)*(s[i+1]-s[i])
}

// quantileSelect is quantileSorted(sorted s, p) for s in any order, which
// it reorders: it needs only the order statistics s₍ᵢ₎ and s₍ᵢ₊₁₎, so it
// selects s₍ᵢ₎ (selectKth) and takes s₍ᵢ₊₁₎ as the least of the values
// after it. The order is sort.Float64s's (NaNs first), so the two values,
// and the result, are those of quantileSorted on the sorted copy — except
// that where −0 and +0 tie, either may be the one selected, as either may
// be the one a sort leaves at that place.
func quantileSelect(s []float64, p float64) float64 {
	n := len(s)
	h := float64(n-1) * p
	lo := math.Floor(h)
	i := int(lo)
	if i >= n-1 {
		return selectKth(s, n-1)
	}
	a := selectKth(s, i)
	b := s[i+1]
	for _, v := range s[i+2:] {
		if lessNaNFirst(v, b) {
			b = v
		}
	}
	return a + (h-lo)*(b-a)
}

// lessNaNFirst is the order of sort.Float64s and slices.Sort: NaNs before
// all other values.
func lessNaNFirst(a, b float64) bool { return a < b || (a != a && b == b) }

// selectKth reorders s so that s[k] is the value a sort would put there,
// none before it greater and none after it less (in lessNaNFirst's
// order), and returns it: Hoare's quickselect (Hoare 1961, "Algorithm 65:
// FIND", CACM 4(7), 321) with the median of three as pivot, O(n) on
// average; after 2·log₂ n rounds that have not narrowed the range enough
// it sorts what is left, so the worst case stays O(n log n).
func selectKth(s []float64, k int) float64 {
	lo, hi := 0, len(s)-1
	for budget := 2 * bits.Len(uint(len(s))); hi > lo; budget-- {
		if budget == 0 || hi-lo < 12 {
			slices.Sort(s[lo : hi+1])
			break
		}
		// Median of three at lo, mid and hi, as the pivot.
		mid := lo + (hi-lo)/2
		if lessNaNFirst(s[mid], s[lo]) {
			s[mid], s[lo] = s[lo], s[mid]
		}
		if lessNaNFirst(s[hi], s[mid]) {
			s[hi], s[mid] = s[mid], s[hi]
			if lessNaNFirst(s[mid], s[lo]) {
				s[mid], s[lo] = s[lo], s[mid]
			}
		}
		pivot := s[mid]
		i, j := lo, hi
		for i <= j {
			for lessNaNFirst(s[i], pivot) {
				i++
			}
			for lessNaNFirst(pivot, s[j]) {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		// Now s[lo..j] ≤ pivot ≤ s[i..hi], and s[j+1..i−1] equal the pivot.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return s[k]
		}
	}
	return s[k]
}

// Median returns the median of x (the type 7 0.5-quantile, which is the
// middle value, or the mean of the two middle values); NaN for no values.
func Median(x []float64) float64 { return Quantile(x, 0.5) }

// IQR returns the interquartile range Q(0.75) − Q(0.25) with type 7
// quantiles.
func IQR(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	if slices.IsSorted(x) {
		return quantileSorted(x, 0.75) - quantileSorted(x, 0.25)
	}
	return withCopy(x, func(s []float64) float64 {
		q3 := quantileSelect(s, 0.75)
		return q3 - quantileSelect(s, 0.25)
	})
}

// MADScale is 1/Φ⁻¹(3/4), which makes the MAD a consistent estimator of σ
// for normal data.
const MADScale = 1.482602218505602

// MAD returns the scaled median absolute deviation
// 1.482602218505602 · median(|x_i − median(x)|) (STATS.md section 0).
func MAD(x []float64) float64 { return MADScale * RawMAD(x) }

// RawMAD returns median(|x_i − median(x)|), without scaling.
func RawMAD(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return rawMADAbout(x, Median(x))
}

// MADAbout is MAD(x) for a caller that has m = Median(x) already: the
// same value, without selecting the median again.
func MADAbout(x []float64, m float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return MADScale * rawMADAbout(x, m)
}

// rawMADAbout is median(|x_i − m|).
func rawMADAbout(x []float64, m float64) float64 {
	p := scratch.Get().(*[]float64)
	d := (*p)[:0]
	for _, v := range x {
		d = append(d, math.Abs(v-m))
	}
	mad := quantileSelect(d, 0.5)
	*p = d
	scratch.Put(p)
	return mad
}

// RangePct returns the range as a percentage of the median:
// (max − min)/median · 100.
func RangePct(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	lo, hi := MinMax(x)
	return (hi - lo) / Median(x) * 100
}

// OrderStats are the order statistics a spread table prints: the
// smallest and largest values and the type 7 quartiles.
type OrderStats struct {
	Min, Q1, Median, Q3, Max float64
}

// Order returns the order statistics of x: the values MinMax and
// Quantile(x, 0.25), Quantile(x, 0.5) and Quantile(x, 0.75) return, bit
// for bit, from one copy of x (none when x is sorted) instead of one per
// statistic. NaNs for no values. x is not modified.
func Order(x []float64) OrderStats {
	if len(x) == 0 {
		nan := math.NaN()
		return OrderStats{nan, nan, nan, nan, nan}
	}
	var o OrderStats
	o.Min, o.Max = MinMax(x)
	if slices.IsSorted(x) {
		o.Q1, o.Median, o.Q3 = quantileSorted(x, 0.25), quantileSorted(x, 0.5), quantileSorted(x, 0.75)
		return o
	}
	p := scratch.Get().(*[]float64)
	s := append((*p)[:0], x...)
	// Each selection leaves s partly ordered, which the next one,
	// selecting in the same slice, only profits from.
	o.Median = quantileSelect(s, 0.5)
	o.Q1 = quantileSelect(s, 0.25)
	o.Q3 = quantileSelect(s, 0.75)
	*p = s
	scratch.Put(p)
	return o
}

// RangePct is RangePct of the sample: (Max − Min)/Median · 100.
func (o OrderStats) RangePct() float64 { return (o.Max - o.Min) / o.Median * 100 }

// IQR is IQR of the sample: Q3 − Q1.
func (o OrderStats) IQR() float64 { return o.Q3 - o.Q1 }

// MinMax returns the smallest and largest of x; NaNs for no values.
// They are math.Min and math.Max folded over x, with their special cases:
// −Inf (for the smallest; +Inf for the largest) wins over everything,
// then NaN, and −0 is below +0. The loop compares inline instead of
// calling them per value (on amd64 they are assembly calls, which made
// MinMax a quarter of the order statistics' time at 100,000 runs).
func MinMax(x []float64) (lo, hi float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	nan := false
	for _, v := range x {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
		switch {
		case v != v:
			nan = true
		case v == 0:
			if lo == 0 && math.Signbit(v) {
				lo = v
			}
			if hi == 0 && !math.Signbit(v) {
				hi = v
			}
		}
	}
	if nan {
		if !math.IsInf(lo, -1) {
			lo = math.NaN()
		}
		if !math.IsInf(hi, 1) {
			hi = math.NaN()
		}
	}
	return lo, hi
}

// Covariance returns the sample covariance Σ (x_i − x̄)(y_i − ȳ)/(n−1) of
// two equally long slices.
func Covariance(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 2 {
		return math.NaN()
	}
	return stat.Covariance(x, y, nil)
}

// RobustZ returns the modified z-scores (x_i − median(x)) / MAD(x) with the
// scaled MAD (Iglewicz and Hoaglin, 1993, How to Detect and Handle
// Outliers, ASQC). When the MAD is 0 it falls back to
// 1.2533141 · mean|x_i − median(x)| (STATS.md 3.4); when that is 0 too,
// every z is 0.
func RobustZ(x []float64) []float64 {
	m := Median(x)
	scale := MAD(x)
	if scale == 0 {
		var sum float64
		for _, v := range x {
			sum += math.Abs(v - m)
		}
		scale = 1.2533141 * sum / float64(len(x))
	}
	z := make([]float64, len(x))
	if scale == 0 {
		return z
	}
	for i, v := range x {
		z[i] = (v - m) / scale
	}
	return z
}

// NormalCDF returns Φ(x) = ½ erfc(−x/√2), accurate far into the tails.
func NormalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// NormalQuantile returns Φ⁻¹(p) (gonum distuv.UnitNormal).
func NormalQuantile(p float64) float64 { return distuv.UnitNormal.Quantile(p) }

// TCDF returns the Student-t distribution function with nu degrees of
// freedom at x (gonum distuv.StudentsT with Mu 0 and Sigma 1: a zero
// Sigma would silently give 0).
func TCDF(x, nu float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.CDF(x)
}

// TQuantile returns the p-quantile t_{nu,p} of the Student-t distribution
// with nu degrees of freedom.
func TQuantile(p, nu float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile(p)
}

// LogNormalPDF is the density at x of the log-normal distribution whose
// log has mean m and SD s: exp(−(ln x − m)²/(2s²)) / (x·s·√(2π)); 0 for
// x ≤ 0.
func LogNormalPDF(x, m, s float64) float64 {
	if !(x > 0) || !(s > 0) {
		return 0
	}
	z := (math.Log(x) - m) / s
	return math.Exp(-z*z/2) / (x * s * math.Sqrt(2*math.Pi))
}
