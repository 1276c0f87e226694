#!/usr/bin/python3
"""
Independent vectors for stats.NewSequential: the boundaries of a
group-sequential design on the mean of a job's repetitions, with
Lan-DeMets O'Brien-Fleming-type spending and binding boundaries.

Reference implementation: Debian python3-scipy (scipy.stats.multivariate_normal
.cdf with lower_limit, Genz's algorithm), not the recursive integration the
Go code uses.  Run:
    /usr/bin/python3 make_sequential.py [output.json]

The means X_1..X_k of the first 1..k repetitions of a job are jointly normal
with Cov(X_i, X_j) = sb^2 + sw^2 / max(i, j) (a job effect of SD sb and
repetitions of SD sw); mean 0 for a healthy job, -slide for a slid one.  At
look k a job fails below F_k = -c_k and passes above P_k = -slide + e_k.
c_k is set so that a healthy job fails at look k (having gone on before)
with the probability alpha(t_k) - alpha(t_{k-1}), e_k so that a slid job
passes at look k with beta(t_k) - beta(t_{k-1}); alpha(t) = 2 - 2 Phi(
Phi^-1(1 - alpha/2) / sqrt(t)), t_k = I_k / I_M, I_k = 1/(sb^2 + sw^2/k).
Each is a rectangle probability of the k-dimensional normal, solved for by
brentq.
"""
import json
import os
import sys

import numpy as np
from scipy import optimize, stats

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "sequential_vectors.json")


def spend(a, t):
    if t >= 1:
        return a
    return 2 - 2 * stats.norm.cdf(stats.norm.ppf(1 - a / 2) / np.sqrt(t))


def rect(mean, cov, lo, hi):
    k = len(lo)
    if k == 1:
        s = np.sqrt(cov[0, 0])
        return stats.norm.cdf((hi[0] - mean[0]) / s) - stats.norm.cdf((lo[0] - mean[0]) / s)
    return float(stats.multivariate_normal.cdf(np.array(hi), mean=mean, cov=cov, maxpts=2000000 * k,
                                               abseps=1e-10, releps=1e-10, lower_limit=np.array(lo)))


def design(sb, sw, slide, alpha, beta, M):
    info = [(1 / (sb * sb + sw * sw / k)) / (1 / (sb * sb + sw * sw / M)) for k in range(1, M + 1)]
    fails, passes = [], []
    spent_a = spent_b = 0.0
    BIG = 50.0
    for k in range(1, M + 1):
        cov = np.array([[sb * sb + sw * sw / max(i, j) for j in range(1, k + 1)] for i in range(1, k + 1)])
        F = [-c for c in fails]
        P = [-slide + e for e in passes]
        da = (alpha if k == M else spend(alpha, info[k - 1])) - spent_a
        db = (beta if k == M else spend(beta, info[k - 1])) - spent_b
        m0, m1 = np.zeros(k), np.full(k, -slide)

        def fail_mass(c):
            return rect(m0, cov, F + [-BIG], P + [-c])

        def pass_mass(e):
            return rect(m1, cov, F + [-slide + e], P + [BIG])

        c = optimize.brentq(lambda c: fail_mass(c) - da, -1, 2, xtol=1e-12)
        e = optimize.brentq(lambda e: pass_mass(e) - db, -1, 2, xtol=1e-12)
        assert -slide + e > -c, "the boundaries meet: choose another case"
        spent_a += fail_mass(c)
        spent_b += pass_mass(e)
        fails.append(c)
        passes.append(e)
    return {"fail": fails, "pass": passes, "info": info}


CASES = [
    # between, within, looks, alpha; slide = the r90 of a fixed test of M
    # repetitions at alpha: (z_{1-alpha} + z_{0.9}) * sqrt(sb^2 + sw^2/M)
    (0.01, 0.03, 3, 0.05),
    (0.0, 0.02, 4, 0.01),
    (0.02, 0.03, 4, 0.05),
    (0.005, 0.04, 2, 0.001),
]
V = {"designs": []}
for sb, sw, M, a in CASES:
    slide = (stats.norm.ppf(1 - a) + stats.norm.ppf(0.9)) * np.sqrt(sb * sb + sw * sw / M)
    d = design(sb, sw, slide, a, 0.1, M)
    V["designs"].append(dict(d, between=sb, within=sw, looks=M, alpha=a, beta=0.1, slide=float(slide)))
V["_generator"] = "make_sequential.py, scipy " + __import__("scipy").__version__ + ", numpy " + np.__version__
with open(OUT, "w") as f:
    json.dump(V, f, indent=1, sort_keys=True)
    f.write("\n")
