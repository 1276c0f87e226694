#!/usr/bin/python3
# -*- coding: utf-8 -*-
"""
Independent reference vectors for the E-Divisive energy statistic
(single split, end point fixed at n) used for change-point detection.

Source: Matteson, D. S. and James, N. A. (2014), "A Nonparametric Approach
for Multiple Change Point Analysis of Multivariate Data", JASA 109(505),
334-345.  Written from the paper's definitions only (no other code consulted).

Reference implementation: Debian python3-numpy 1.24.2 on Python 3.11.2
(Debian 12), plus the Python standard library (fractions, math, json, re).
Run:   /usr/bin/python3 stats/testdata/make_edivisive.py [output.json]
       (from the repository root; any cwd works, paths are relative to this file)
Writes edivisive_vectors.json next to this script unless a path is given.

What is computed
----------------
Univariate series z_1..z_n (1-based below), exponent alpha = 1, minimum
segment length m = 3.  For a split tau, X = z_1..z_tau, Y = z_{tau+1}..z_n
(the paper's kappa, the end of the second segment, is FIXED at n, as in the
Hunter / Apache Otava variant of E-Divisive):

  E(tau) = 2/(tau (n-tau)) * sum_{i<=tau<j} |z_i - z_j|
           - C(tau,2)^-1   * sum_{i<k<=tau}  |z_i - z_k|
           - C(n-tau,2)^-1 * sum_{tau<j<k}   |z_j - z_k|

  Q(tau) = tau (n-tau) / n * E(tau)

for every tau with m <= tau <= n-m.  tau_hat = argmax Q(tau), the FIRST
(smallest) tau on ties; the change lies between z_tau_hat and z_{tau_hat+1}
(1-based), i.e. the second segment starts at 0-based index tau_hat.

Three independent evaluations, cross-checked before anything is written:
  1. exact rational arithmetic (fractions.Fraction of the exact binary value
     of every float input), so each Q(tau) in the JSON is the CORRECTLY
     ROUNDED double of the true value, and tau_hat / ties are decided
     exactly;
  2. a brute-force float double loop over the three index sets (pure Python);
  3. a numpy vectorised version from the full distance matrix D = |z_i - z_j|
     (block sums of D).
  (2) and (3) must agree with (1) to 1e-12 (relative to max(1, |Q|)).

Hand check (also asserted below, case "short-6"): z = [1, 2, 3, 7, 8, 10], n=6.
  tau=3: X={1,2,3}, Y={7,8,10}.
    cross sum: (6+7+9)+(5+6+8)+(4+5+7) = 22+19+16 = 57;  2/(3*3)*57 = 114/9
    within X: 1+2+1 = 4, C(3,2)=3 -> 4/3 = 12/9
    within Y: 1+3+2 = 6, C(3,2)=3 -> 2   = 18/9
    E = (114-12-18)/9 = 84/9 = 28/3;   Q = 3*3/6 * 28/3 = 14.
  With m=2 (not in the JSON; checks the formula away from the middle):
  tau=2: X={1,2}, Y={3,7,8,10}: cross (2+6+7+9)+(1+5+6+8)=44 -> 2/8*44 = 11;
    within X: 1/1 = 1; within Y: (4+5+7+1+3+2)/6 = 22/6 = 11/3;
    E = 11 - 1 - 11/3 = 19/3;  Q = 2*4/6 * 19/3 = 76/9.
  tau=4: X={1,2,3,7}, Y={8,10}: cross (7+9)+(6+8)+(5+7)+(1+3) = 46 -> 46/4;
    within X: (1+2+6+1+5+4)/6 = 19/6; within Y: 2/1 = 2;
    E = 69/6 - 19/6 - 12/6 = 19/3;  Q = 76/9 (an exact tie with tau=2).
  So tau_hat = 3 with Q max = 14.

Cases (random ones use numpy.random.default_rng(seed), PCG64, explicit
seeds; the drawn series are written into the JSON so consumers need no RNG):
  step-12            ln(1.40)+N(0,0.02) x3 then ln(1.26)+N(0,0.02) x9, seed 1401
  stationary-20      N(0, sd 0.05) x20, seed 2020
  shift-50           N(0, sd 0.05) x30 then N(0.1, sd 0.05) x20, seed 5030
  ties               [1,1,1,1,2,2,2,2,2,1,1,1]
  ties-palindrome    [1,1,1,2,2,2,2,2,2,1,1,1]: Q(tau) = Q(12-tau) exactly, so
                     the maximum is attained twice; first max rule -> smaller tau
  short-6            the hand example above (only tau=3 valid)
  linux-healthy-12   ln(score) of data/samples/linux-glibc-vs-mimalloc/healthy
                     run-01..run-12 in run order; score = geometric mean over
                     the 10 benchmarks of (mimalloc ops/sec) / (glibc ops/sec),
                     read from lines "NAME: ... (VALUE ops/sec)" of
                     run-NN/mimalloc.txt and run-NN/baseline.txt
                     (xmalloc-test has no ops/sec figure and is not included).

JSON fields per case: name, description, series, min_segment, q (list of
[tau, Q(tau)] for every valid tau), e (list of [tau, E(tau)]), tau_hat
(1-based, as above), q_max, argmax_taus (all tau attaining the exact maximum),
and, for linux-healthy-12, scores / runs (per-run ratios).  For integer
series q_exact gives each Q(tau) as an exact fraction string "p/q".
"""
import json
import math
import os
import re
import sys
from fractions import Fraction

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "edivisive_vectors.json")
MIN_SEG = 3
TOL = 1e-12


# ----------------------------------------------------------------------------
# 1. exact rational reference
# ----------------------------------------------------------------------------
def eq_exact(z, tau):
    """(E(tau), Q(tau)) as Fractions; z is a list of floats (taken exactly)."""
    zq = [Fraction(v) for v in z]
    n = len(zq)
    x, y = zq[:tau], zq[tau:]
    p, r = len(x), len(y)
    cross = sum(abs(a - b) for a in x for b in y)
    wx = sum(abs(x[i] - x[k]) for i in range(p) for k in range(i + 1, p))
    wy = sum(abs(y[j] - y[k]) for j in range(r) for k in range(j + 1, r))
    e = Fraction(2, p * r) * cross - wx / Fraction(p * (p - 1), 2) \
        - wy / Fraction(r * (r - 1), 2)
    return e, Fraction(p * r, n) * e


# ----------------------------------------------------------------------------
# 2. brute-force float double loops (1-based indices as in the formula)
# ----------------------------------------------------------------------------
def eq_brute(z, tau):
    n = len(z)
    zz = [None] + [float(v) for v in z]          # zz[1..n]
    cross = 0.0
    for i in range(1, tau + 1):
        for j in range(tau + 1, n + 1):
            cross += abs(zz[i] - zz[j])
    wx = 0.0
    for i in range(1, tau + 1):
        for k in range(i + 1, tau + 1):
            wx += abs(zz[i] - zz[k])
    wy = 0.0
    for j in range(tau + 1, n + 1):
        for k in range(j + 1, n + 1):
            wy += abs(zz[j] - zz[k])
    c_tau = tau * (tau - 1) / 2.0
    c_rest = (n - tau) * (n - tau - 1) / 2.0
    e = 2.0 / (tau * (n - tau)) * cross - wx / c_tau - wy / c_rest
    return e, tau * (n - tau) / n * e


# ----------------------------------------------------------------------------
# 3. numpy vectorised: block sums of the distance matrix
# ----------------------------------------------------------------------------
def q_numpy(z, m):
    z = np.asarray(z, dtype=np.float64)
    n = z.size
    d = np.abs(z[:, None] - z[None, :])          # D_ij = |z_i - z_j|, zero diagonal
    taus = np.arange(m, n - m + 1)
    out_e, out_q = [], []
    for t in taus:
        cross = d[:t, t:].sum()
        wx = d[:t, :t].sum() / 2.0               # each unordered pair counted twice
        wy = d[t:, t:].sum() / 2.0
        e = 2.0 * cross / (t * (n - t)) - wx / (t * (t - 1) / 2.0) \
            - wy / ((n - t) * (n - t - 1) / 2.0)
        out_e.append(e)
        out_q.append(t * (n - t) / n * e)
    return taus, np.array(out_e), np.array(out_q)


def close(a, b):
    return abs(a - b) <= TOL * max(1.0, abs(a), abs(b))


def analyse(name, description, series, m=MIN_SEG, extra=None):
    series = [float(v) for v in series]
    n = len(series)
    assert m >= 2 and n >= 2 * m, (name, n, m)
    taus = list(range(m, n - m + 1))
    exact = {t: eq_exact(series, t) for t in taus}
    brute = {t: eq_brute(series, t) for t in taus}
    nt, ne, nq = q_numpy(series, m)
    assert list(nt) == taus
    for idx, t in enumerate(taus):
        ee, qe = float(exact[t][0]), float(exact[t][1])
        eb, qb = brute[t]
        assert close(qe, qb), (name, t, qe, qb, "exact vs brute")
        assert close(qe, nq[idx]), (name, t, qe, nq[idx], "exact vs numpy")
        assert close(qb, nq[idx]), (name, t, qb, nq[idx], "brute vs numpy")
        assert close(ee, eb) and close(ee, ne[idx]), (name, t, "E mismatch")
    qmax = max(exact[t][1] for t in taus)
    arg = [t for t in taus if exact[t][1] == qmax]     # exact ties
    tau_hat = arg[0]                                   # first maximum
    # float argmax (first max) of the brute-force values must agree
    qb_list = [brute[t][1] for t in taus]
    assert taus[qb_list.index(max(qb_list))] == tau_hat or len(arg) > 1, name
    case = {
        "name": name,
        "description": description,
        "n": n,
        "series": series,
        "min_segment": m,
        "q": [[t, float(exact[t][1])] for t in taus],
        "e": [[t, float(exact[t][0])] for t in taus],
        "tau_hat": tau_hat,
        "second_segment_start_0based": tau_hat,
        "q_max": float(qmax),
        "argmax_taus": arg,
    }
    if all(v == int(v) for v in series):
        case["q_exact"] = [[t, str(exact[t][1])] for t in taus]
    if extra:
        case.update(extra)
    return case


# ----------------------------------------------------------------------------
# hand check (see module docstring)
# ----------------------------------------------------------------------------
HAND = [1.0, 2.0, 3.0, 7.0, 8.0, 10.0]
assert eq_exact(HAND, 3) == (Fraction(28, 3), Fraction(14))
assert eq_exact(HAND, 2) == (Fraction(19, 3), Fraction(76, 9))
assert eq_exact(HAND, 4) == (Fraction(19, 3), Fraction(76, 9))
assert close(eq_brute(HAND, 3)[1], 14.0)
assert close(eq_brute(HAND, 2)[1], 76 / 9) and close(eq_brute(HAND, 4)[1], 76 / 9)
_t, _e, _q = q_numpy(HAND, 2)
assert list(_t) == [2, 3, 4] and all(close(a, b) for a, b in zip(_q, [76 / 9, 14.0, 76 / 9]))


# ----------------------------------------------------------------------------
# bundled sample data: linux-glibc-vs-mimalloc / healthy
# ----------------------------------------------------------------------------
LINE = re.compile(r"^([A-Za-z0-9_.+-]+):\s.*\(([0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?) ops/sec\)\s*$")


def read_ops(path):
    vals = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            mo = LINE.match(line.rstrip("\n"))
            if mo:
                name = mo.group(1)
                assert name not in vals, (path, name, "duplicate benchmark line")
                vals[name] = float(mo.group(2))
    return vals


def healthy_scores():
    base = os.path.join(REPO, "data", "samples", "linux-glibc-vs-mimalloc", "healthy")
    runs = sorted(d for d in os.listdir(base) if re.fullmatch(r"run-\d+", d))
    assert len(runs) == 12, runs
    out = []
    bench_set = None
    for r in runs:
        g = read_ops(os.path.join(base, r, "baseline.txt"))
        mi = read_ops(os.path.join(base, r, "mimalloc.txt"))
        assert set(g) == set(mi), (r, set(g) ^ set(mi))
        assert len(g) == 10 and "xmalloc-test" not in g, (r, sorted(g))
        if bench_set is None:
            bench_set = sorted(g)
        assert sorted(g) == bench_set, r
        ratios = {b: mi[b] / g[b] for b in bench_set}
        log_score = math.fsum(math.log(v) for v in ratios.values()) / len(ratios)
        score = math.exp(log_score)
        # cross-check: geometric mean computed as a product
        prod = 1.0
        for v in ratios.values():
            prod *= v
        assert close(score, prod ** (1.0 / len(ratios))), r
        out.append({"run": r, "score": score, "log_score": log_score,
                    "ratios": ratios,
                    "glibc_ops_per_sec": {b: g[b] for b in bench_set},
                    "mimalloc_ops_per_sec": {b: mi[b] for b in bench_set}})
    return bench_set, out


def main():
    cases = []

    rng = np.random.default_rng(1401)
    step = np.concatenate([math.log(1.40) + rng.normal(0.0, 0.02, 3),
                           math.log(1.26) + rng.normal(0.0, 0.02, 9)])
    cases.append(analyse(
        "step-12",
        "12 log scores: ln(1.40)+N(0,0.02) x3 then ln(1.26)+N(0,0.02) x9; "
        "numpy default_rng(1401), normal(0,0.02,3) then normal(0,0.02,9)",
        step))

    rng = np.random.default_rng(2020)
    cases.append(analyse(
        "stationary-20",
        "20 draws N(0, sd 0.05); numpy default_rng(2020).normal(0,0.05,20)",
        rng.normal(0.0, 0.05, 20)))

    rng = np.random.default_rng(5030)
    shift = rng.normal(0.0, 0.05, 50)
    shift[30:] += 0.1
    cases.append(analyse(
        "shift-50",
        "50 values N(0, sd 0.05) with +0.1 added from 0-based index 30; "
        "numpy default_rng(5030).normal(0,0.05,50)",
        shift))

    cases.append(analyse(
        "ties", "repeated values (pins handling of zero distances)",
        [1, 1, 1, 1, 2, 2, 2, 2, 2, 1, 1, 1]))

    cases.append(analyse(
        "ties-palindrome",
        "palindrome: Q(tau) = Q(n-tau) exactly, maximum attained at two taus; "
        "first (smallest) maximiser is tau_hat. In floating point the two "
        "values may differ in the last bits depending on summation order (here "
        "the brute-force loop gives 1.8749999999999998 and the numpy block "
        "sums 1.875, each equal at both taus); a first-max argmax on the "
        "float values still picks tau=3 if both are computed the same way",
        [1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 1]))

    cases.append(analyse(
        "short-6", "hand-checked example (see make_edivisive.py); only tau=3 valid",
        HAND))

    bench, runs = healthy_scores()
    cases.append(analyse(
        "linux-healthy-12",
        "ln(score) of data/samples/linux-glibc-vs-mimalloc/healthy run-01..run-12 "
        "in run order; score = geometric mean over 10 benchmarks of "
        "mimalloc ops/sec / glibc ops/sec",
        [r["log_score"] for r in runs],
        extra={"benchmarks": bench,
               "scores": [r["score"] for r in runs],
               "runs": runs}))

    doc = {
        "description": "E-Divisive energy statistic, single split with end fixed at n, "
                       "alpha=1 (Matteson & James 2014). See make_edivisive.py.",
        "generator": "stats/testdata/make_edivisive.py",
        "numpy_version": np.__version__,
        "python_version": sys.version.split()[0],
        "alpha": 1,
        "formula": {
            "E": "2/(tau(n-tau)) sum_{i<=tau<j}|z_i-z_j| - C(tau,2)^-1 sum_{i<k<=tau}|z_i-z_k| "
                 "- C(n-tau,2)^-1 sum_{tau<j<k}|z_j-z_k|  (1-based)",
            "Q": "tau(n-tau)/n * E(tau)",
            "valid_tau": "min_segment <= tau <= n - min_segment",
            "tau_hat": "first (smallest) tau attaining max Q; change between z_tau and "
                       "z_{tau+1} (1-based); second segment starts at 0-based index tau",
            "precision": "q, e, q_max are the correctly rounded doubles of the exact "
                         "rational values (inputs taken as exact binary doubles); "
                         "brute-force and numpy float versions agree to 1e-12",
        },
        "cases": cases,
    }
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    for c in cases:
        print("%-18s n=%2d tau_hat=%2d q_max=%.17g argmax=%s"
              % (c["name"], c["n"], c["tau_hat"], c["q_max"], c["argmax_taus"]))
    print("wrote", OUT)


if __name__ == "__main__":
    main()
