package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// ClopperPearson returns the exact two-sided confidence interval at level
// conf of a binomial proportion, given x events in n independent trials
// (Clopper and Pearson 1934, "The use of confidence or fiducial limits
// illustrated in the case of the binomial", Biometrika 26(4), 404–413):
//
//	lo = B⁻¹(α/2; x, n − x + 1)      (0 when x = 0)
//	hi = B⁻¹(1 − α/2; x + 1, n − x)  (1 when x = n)
//
// with α = 1 − conf and B⁻¹(q; a, b) the q-quantile of the Beta(a, b)
// distribution (scipy.stats.beta.ppf). Each bound is the proportion at
// which the chance of x or more events (for lo), or of x or fewer (for
// hi), is α/2: the interval covers the true proportion with probability at
// least conf whatever it is, never less, which is why it is called exact
// (it is conservative: the coverage is above conf at most proportions).
// At x = 0 the upper bound is 1 − (α/2)^(1/n), computed in closed form
// (at x = n the lower bound is (α/2)^(1/n)).
//
// It needs 0 ≤ x ≤ n, n ≥ 1 and conf in (0, 1); otherwise both bounds
// are NaN.
func ClopperPearson(x, n int, conf float64) (lo, hi float64) {
	return ClopperPearsonAt(float64(x), float64(n), conf)
}

// ClopperPearsonAt is ClopperPearson at a count and a number of trials
// that need not be whole: the same Beta quantiles with real parameters,
// continuous and monotone in both, for a projection of counts to come
// ("at this rate, how many runs would tell", which whole counts answer
// only up to their rounding).
func ClopperPearsonAt(x, n, conf float64) (lo, hi float64) {
	if !(n > 0) || !(x >= 0) || x > n || !(conf > 0 && conf < 1) || math.IsInf(n, 0) {
		return math.NaN(), math.NaN()
	}
	half := (1 - conf) / 2
	switch x {
	case 0:
		lo = 0
	case n:
		lo = math.Exp(math.Log(half) / n)
	default:
		lo = distuv.Beta{Alpha: x, Beta: n - x + 1}.Quantile(half)
	}
	switch x {
	case n:
		hi = 1
	case 0:
		hi = -math.Expm1(math.Log(half) / n)
	default:
		hi = distuv.Beta{Alpha: x + 1, Beta: n - x}.Quantile(1 - half)
	}
	return lo, hi
}

// BinomialAtLeast returns P(X ≥ x) for X binomial with n trials of
// probability p (scipy.stats.binom.sf(x − 1, n, p)): the p-value of the
// exact one-sided test of "the rate is at most p" on x events in n trials.
// It is the regularised incomplete beta function I_p(x, n − x + 1) for
// 1 ≤ x ≤ n, computed without the cancellation of 1 − CDF; 1 for x ≤ 0
// and 0 for x > n. It needs n ≥ 0 and p in [0, 1] (NaN otherwise).
func BinomialAtLeast(x, n int, p float64) float64 {
	switch {
	case n < 0 || !(p >= 0 && p <= 1):
		return math.NaN()
	case x <= 0:
		return 1
	case x > n:
		return 0
	case p == 0:
		return 0
	case p == 1:
		return 1
	}
	return mathext.RegIncBeta(float64(x), float64(n-x+1), p)
}

// ChiSquaredQuantile is the p quantile of the χ² distribution with df
// degrees of freedom (gonum's distuv.ChiSquared, the regularised
// incomplete gamma function inverted).
func ChiSquaredQuantile(p, df float64) float64 {
	return distuv.ChiSquared{K: df}.Quantile(p)
}
