#!/usr/bin/python3
"""Exact binomial reference vectors: the Clopper-Pearson interval and the
exact one-sided binomial test, for the audit of a calibration's claimed
false-alarm rate (docs/STATS.md 5e).

  Clopper-Pearson, level conf, alpha = 1 - conf, x events in n trials:
    lo = scipy.stats.beta.ppf(alpha/2, x, n - x + 1)      (0 at x = 0)
    hi = scipy.stats.beta.ppf(1 - alpha/2, x + 1, n - x)  (1 at x = n)
  and, as a check of scipy's own, scipy.stats.binomtest(x, n).proportion_ci(
  conf, method="exact"), which must agree to 1e-8 relative (binomtest finds
  the bounds by a root finder, to about 1e-9 relative).

  At least x events: scipy.stats.binom.sf(x - 1, n, p).

Needs Debian python3-scipy (apt-get install python3-scipy). Run:
    /usr/bin/python3 stats/testdata/make_binomial.py > stats/testdata/binomial_vectors.json

The cases hold a grid of (x, n) from 1 trial to 100,000, and the counts of
the seeded ledger in cmd/qoscal/audit_history_test.go (AUDIT_CASES below),
whose interval that test checks against these vectors.
"""
import json
import sys
import warnings

import scipy
from scipy import stats

warnings.simplefilter("ignore", RuntimeWarning)

# (x, n) of the seeded history the command's test audits: the floor's
# false alarms among the healthy runs, and the bands'.
AUDIT_CASES = [(5, 245), (4, 245)]

GRID_N = [1, 2, 3, 5, 10, 30, 100, 268, 300, 1000, 1843, 10000, 100000]


def cp(x, n, conf):
    a = 1 - conf
    lo = 0.0 if x == 0 else float(stats.beta.ppf(a / 2, x, n - x + 1))
    hi = 1.0 if x == n else float(stats.beta.ppf(1 - a / 2, x + 1, n - x))
    ci = stats.binomtest(x, n).proportion_ci(confidence_level=conf, method="exact")
    for mine, theirs in ((lo, ci.low), (hi, ci.high)):
        if abs(mine - theirs) > 1e-8 * abs(theirs) + 1e-12:
            raise SystemExit(f"beta.ppf and binomtest disagree at x={x} n={n} conf={conf}: {mine} {theirs}")
    return lo, hi


cases = []
seen = set()
for n in GRID_N:
    for x in sorted({0, 1, 2, 3, n // 10, n // 2, n - 1, n}):
        if 0 <= x <= n:
            for conf in (0.95, 0.9, 0.99):
                if (x, n, conf) in seen:
                    continue
                seen.add((x, n, conf))
                lo, hi = cp(x, n, conf)
                cases.append({"x": x, "n": n, "conf": conf, "lo": lo, "hi": hi})
for x, n in AUDIT_CASES:
    if (x, n, 0.95) not in seen:
        seen.add((x, n, 0.95))
        lo, hi = cp(x, n, 0.95)
        cases.append({"x": x, "n": n, "conf": 0.95, "lo": lo, "hi": hi})

tails = []
for n in (1, 10, 100, 268, 1000, 10000):
    for x in sorted({0, 1, 2, 5, n // 2, n}):
        if x <= n:
            for p in (1e-4, 0.001, 0.00952, 0.01, 0.05, 0.5):
                tails.append({"x": x, "n": n, "p": p, "at_least": float(stats.binom.sf(x - 1, n, p))})

json.dump({
    "generator": "stats/testdata/make_binomial.py",
    "scipy_version": scipy.__version__,
    "clopper_pearson": cases,
    "at_least": tails,
}, sys.stdout, indent=1)
sys.stdout.write("\n")
