#!/usr/bin/python3
"""
Independent vectors for stats/moderated.go (Trigamma, TrigammaInverse,
FitVariancePrior, VariancePrior.Moderate) and for the moderated bands of
calibrate/model (Matrix.BandsWith under the normal tail).

Reference: Smyth (2004), "Linear models and empirical Bayes methods for
assessing differential expression in microarray experiments", Stat. Appl.
Genet. Mol. Biol. 3(1), article 3, section 6.2 (limma's fitFDist and
squeezeVar).  Implementation: Debian python3-scipy (scipy.special.polygamma,
digamma; scipy.optimize.brentq; scipy.stats.t).  Run:
    /usr/bin/python3 make_moderated.py [output.json]
Writes moderated_vectors.json next to this script unless a path is given.

Routes differ from the Go code's: the trigamma function is scipy's
polygamma(1, x) (Go: recurrence and asymptotic series); its inverse is
found by Brent's method on a bracket (Go: Smyth's Newton iteration); the
band's bound is scipy's Student-t quantile on d0 + d degrees of freedom.
Data are drawn with numpy's PCG64 at fixed seeds and written out.
"""
import json
import os
import sys

import numpy as np
import scipy
from scipy import optimize, special, stats

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "moderated_vectors.json")


def trigamma(x):
    return float(special.polygamma(1, x))


def trigamma_inverse(y):
    # psi1 decreases from +inf (x -> 0) to 0 (x -> inf): bracket and solve.
    lo, hi = 1e-12, 1.0
    while trigamma(hi) > y:
        hi *= 2
    return optimize.brentq(lambda x: trigamma(x) - y, lo, hi, xtol=1e-15, rtol=1e-15, maxiter=500)


def fit_prior(s2, d):
    s2 = np.asarray(s2, float)
    e = np.log(s2) - special.digamma(d / 2) + np.log(d / 2)
    G = len(e)
    ebar = e.mean()
    v = ((e - ebar) ** 2).sum() / (G - 1) - trigamma(d / 2)
    if v <= 0:
        return float("inf"), float(np.exp(ebar))
    d0 = 2 * trigamma_inverse(v)
    return d0, float(np.exp(ebar + special.digamma(d0 / 2) - np.log(d0 / 2)))


def main():
    xs = [0.05, 0.3, 0.5, 1.0, 2.5, 4.5, 7.9, 8.0, 15.0, 100.0, 1e4]
    tri = [{"x": x, "trigamma": trigamma(x)} for x in xs]
    ys = [1e-5, 0.01, 0.1, 0.2494, 0.5, 1.0, 3.0, 50.0, 1e6]
    inv = [{"y": y, "x": trigamma_inverse(y)} for y in ys]

    rng = np.random.Generator(np.random.PCG64(33))
    fits = []
    for case, (G, d, spread) in enumerate([(10, 9.0, 0.5), (10, 9.0, 0.0), (4, 4.0, 1.0),
                                          (30, 19.0, 0.3), (10, 6.5, 0.8)]):
        # true variances log-normal around 0.01, sample variances chi2_d
        sig2 = 0.01 * np.exp(spread * rng.standard_normal(G))
        s2 = sig2 * rng.chisquare(d, G) / d
        d0, s02 = fit_prior(s2, d)
        post = [((d0 * s02 + d * v) / (d0 + d)) if np.isfinite(d0) else s02 for v in s2]
        fits.append({"d": d, "s2": s2.tolist(), "d0": d0 if np.isfinite(d0) else "inf",
                     "s02": s02, "post": [float(p) for p in post]})

    # Bands: a matrix of n runs by k benchmarks (log ratios), the moderated
    # lower bound under the normal tail at alpha/k, the prior's worth capped
    # at the other benchmarks' degrees of freedom, (k - 1)(n - 1).
    bands = []
    for n, k, alpha in [(10, 10, 0.01), (10, 10, 0.10), (6, 4, 0.01), (30, 7, 0.01)]:
        sig = 0.03 * np.exp(0.6 * rng.standard_normal(k))
        X = 0.1 * rng.standard_normal(k) + sig * rng.standard_normal((n, k))
        d = n - 1
        s2 = X.var(axis=0, ddof=1)
        d0, s02 = fit_prior(s2, d)
        d0 = min(d0, (k - 1) * d)
        post = (d0 * s02 + d * s2) / (d0 + d)
        q = stats.t.ppf(alpha / k, d0 + d)
        lower = np.exp(X.mean(axis=0) + q * np.sqrt(post) * np.sqrt(1 + 1 / n))
        bands.append({"alpha": alpha, "log_ratio": X.tolist(), "d0": d0,
                      "sd_post": np.sqrt(post).tolist(), "df": d0 + d, "lower": lower.tolist()})

    out = {"source": "stats/testdata/make_moderated.py; numpy %s, scipy %s" % (np.__version__, scipy.__version__),
           "trigamma": tri, "trigamma_inverse": inv, "fits": fits, "bands": bands}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
