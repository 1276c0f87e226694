#!/usr/bin/python3
# -*- coding: utf-8 -*-
"""
Independent reference vectors for the model checks of the log scores:
the Shapiro-Wilk test (Royston's algorithm AS R94) and the lag-1
autocorrelation.

References:
  Royston, P. (1992), "Approximating the Shapiro-Wilk W-test for
  non-normality", Statistics and Computing 2(3), 117-119.
  Royston, P. (1995), "Remark AS R94: A remark on algorithm AS 181: the
  W-test for normality", Applied Statistics 44(4), 547-551.
  Bartlett, M. S. (1946), "On the theoretical specification and sampling
  properties of autocorrelated time-series", Supplement to the JRSS 8(1),
  27-41 (SE of r1 under no autocorrelation: 1/sqrt(n)).

Reference implementations (nothing here is computed by qoscal's Go code):
  * W and p: scipy.stats.shapiro (Debian python3-scipy 1.10.1).  NOTE: scipy
    1.10.1 runs AS R94 from Fortran (swilk.f) in SINGLE precision (REAL;
    later scipy replaced that Fortran, scipy PR 18679), so its
    W carries float32 rounding (about 6e-8 relative) and its p inherits it,
    amplified where p is steep in W (large n, W near 1).  The JSON keeps the
    values exactly as scipy returns them.
  * W and p again from R's shapiro.test (the double-precision C translation
    of AS R94 in R's stats package), when Rscript is on PATH (Debian
    r-base-core).  Its version is recorded; if R is missing the "r" fields
    are null and the script says so.
  * r1 = sum_{t<n} (x_t - xbar)(x_{t+1} - xbar) / sum_t (x_t - xbar)^2:
    numpy (float), exact rational arithmetic (fractions.Fraction of the
    exact binary inputs, then correctly rounded) and R's acf(); numpy and R
    must agree with the exact value to 1e-13 (checked below).

Run:   /usr/bin/python3 stats/testdata/make_normality.py [output.json]
       (any cwd; paths are relative to this file)
Writes normality_vectors.json next to this script unless a path is given.

Cases (the data are written into the JSON, so consumers need no RNG):
  linux-healthy-12   ln(score) of data/samples/linux-glibc-vs-mimalloc/healthy
                     run-01..run-12 in run order; ratio per benchmark =
                     (mimalloc ops/sec) / (glibc ops/sec) from the lines
                     "NAME: ... (VALUE ops/sec)" of run-NN/mimalloc.txt and
                     run-NN/baseline.txt; score = geometric mean of the 10
                     ratios, ln(score) = mean ln ratio.  xmalloc-test prints no
                     ops/sec figure and is not in the suite.
  linux-settled-9    the same for run-04..run-12 (the regime after the change
                     point found after run-03, docs/STATS.md section 5)
  worked-example-5   ln of the five scores (1.55, 1.54, 1.65, 1.59, 1.44)
  n3-exact, n3-boundary  n = 3 by hand: (1, 2, 4) and (0, 0, 1) (W = 3/4,
                     the smallest possible, exact p = 0)
  normal-N / exp-N   numpy.random.default_rng(seed) (PCG64) draws:
                     standard normal for N = 3, 4, 5, 11, 12, 20, 50, 200, 2000
                     (seed 1000 + N) and standard exponential for N = 4, 11,
                     12, 20, 50, 200, 2000 (seed 2000 + N); also a lognormal
                     (sigma 1) for N = 30 (seed 3030)
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

import numpy as np
import scipy
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "normality_vectors.json")
SAMPLES = os.path.join(REPO, "data", "samples", "linux-glibc-vs-mimalloc", "healthy")
LINE = re.compile(r"^([A-Za-z0-9_-]+): .*\(([0-9.eE+]+) ops/sec\)\s*$")


def read_ops(path):
    out = {}
    with open(path) as fh:
        for line in fh:
            m = LINE.match(line.strip())
            if m:
                out[m.group(1)] = float(m.group(2))
    return out


def linux_runs():
    runs = []
    for d in sorted(os.listdir(SAMPLES)):
        base = read_ops(os.path.join(SAMPLES, d, "baseline.txt"))
        cand = read_ops(os.path.join(SAMPLES, d, "mimalloc.txt"))
        assert sorted(base) == sorted(cand) and len(base) == 10, (d, sorted(base))
        assert "xmalloc-test" not in base
        names = sorted(base)
        lr = [math.log(cand[k] / base[k]) for k in names]
        runs.append({"run": d, "benchmarks": names,
                     "ratios": [cand[k] / base[k] for k in names],
                     "log_score": float(np.mean(lr)),
                     "score": math.exp(float(np.mean(lr)))})
    return runs


def r1_numpy(x):
    x = np.asarray(x, dtype=np.float64)
    d = x - x.mean()
    return float(np.dot(d[:-1], d[1:]) / np.dot(d, d))


def r1_exact(x):
    q = [Fraction(v) for v in x]
    n = len(q)
    m = sum(q) / n
    d = [v - m for v in q]
    return float(sum(d[t] * d[t + 1] for t in range(n - 1)) / sum(v * v for v in d))


def r_reference(cases):
    """W, p from shapiro.test and r1 from acf() for every case, or None."""
    rs = shutil.which("Rscript")
    if rs is None:
        print("Rscript not found: no R cross-check", file=sys.stderr)
        return None, None
    with tempfile.TemporaryDirectory() as tmp:
        for i, c in enumerate(cases):
            with open(os.path.join(tmp, "x%03d.txt" % i), "w") as fh:
                fh.write("\n".join(repr(float(v)) for v in c["x"]) + "\n")
        prog = (
            'd <- commandArgs(TRUE)[1]; k <- as.integer(commandArgs(TRUE)[2]);'
            'cat(R.version.string, "\\n");'
            'for (i in 0:(k-1)) { x <- scan(sprintf("%s/x%03d.txt", d, i), quiet=TRUE);'
            ' r <- shapiro.test(x); a <- acf(x, lag.max=1, plot=FALSE)$acf[2];'
            ' cat(sprintf("%.17g %.17g %.17g\\n", r$statistic, r$p.value, a)) }')
        out = subprocess.run([rs, "-e", prog, tmp, str(len(cases))], check=True,
                             capture_output=True, text=True).stdout.splitlines()
    version = out[0].strip()
    vals = [[float(t) for t in line.split()] for line in out[1:]]
    assert len(vals) == len(cases)
    return version, vals


def main():
    runs = linux_runs()
    logs = [r["log_score"] for r in runs]
    cases = [
        {"name": "linux-healthy-12", "x": logs,
         "source": "ln score of the bundled healthy Linux runs run-01..run-12, in run order"},
        {"name": "linux-settled-9", "x": logs[3:],
         "source": "ln score of run-04..run-12 (after the change point)"},
        {"name": "worked-example-5", "x": [math.log(v) for v in (1.55, 1.54, 1.65, 1.59, 1.44)],
         "source": "ln of the worked example's five scores"},
        {"name": "n3-exact", "x": [1.0, 2.0, 4.0], "source": "by hand"},
        {"name": "n3-boundary", "x": [0.0, 0.0, 1.0], "source": "by hand: W = 3/4, p = 0"},
    ]
    for n in (3, 4, 5, 11, 12, 20, 50, 200, 2000):
        cases.append({"name": "normal-%d" % n, "seed": 1000 + n,
                      "x": [float(v) for v in np.random.default_rng(1000 + n).standard_normal(n)],
                      "source": "numpy default_rng(%d).standard_normal(%d)" % (1000 + n, n)})
    for n in (4, 11, 12, 20, 50, 200, 2000):
        cases.append({"name": "exp-%d" % n, "seed": 2000 + n,
                      "x": [float(v) for v in np.random.default_rng(2000 + n).standard_exponential(n)],
                      "source": "numpy default_rng(%d).standard_exponential(%d)" % (2000 + n, n)})
    cases.append({"name": "lognormal-30", "seed": 3030,
                  "x": [float(v) for v in np.random.default_rng(3030).lognormal(0.0, 1.0, 30)],
                  "source": "numpy default_rng(3030).lognormal(0, 1, 30)"})

    r_version, r_vals = r_reference(cases)
    worst = {"w": 0.0, "p": 0.0}
    for i, c in enumerate(cases):
        res = stats.shapiro(np.asarray(c["x"], dtype=np.float64))
        c["n"] = len(c["x"])
        c["scipy"] = {"w": float(res.statistic), "p": float(res.pvalue)}
        c["r1_numpy"] = r1_numpy(c["x"])
        c["r1_exact"] = r1_exact(c["x"])
        c["se_bartlett"] = 1.0 / math.sqrt(len(c["x"]))
        assert abs(c["r1_numpy"] - c["r1_exact"]) <= 1e-13, c["name"]
        if r_vals is not None:
            w, p, a = r_vals[i]
            c["r"] = {"w": w, "p": p, "acf1": a}
            assert abs(a - c["r1_exact"]) <= 1e-13, c["name"]
            for k in ("w", "p"):
                worst[k] = max(worst[k], abs(c["scipy"][k] - c["r"][k]))
        else:
            c["r"] = None

    doc = {
        "description": "Shapiro-Wilk W and p (Royston AS R94) from scipy.stats.shapiro and R "
                       "shapiro.test, and the lag-1 autocorrelation r1 with its null SE 1/sqrt(n). "
                       "See make_normality.py.",
        "generator": "stats/testdata/make_normality.py",
        "python_version": sys.version.split()[0],
        "numpy_version": np.__version__,
        "scipy_version": scipy.__version__,
        "scipy_precision": "scipy 1.10.1 computes AS R94 in single precision (Fortran REAL); "
                           "its W and p carry float32 rounding",
        "r_version": r_version,
        "max_abs_diff_scipy_vs_r": worst if r_vals is not None else None,
        "r1_formula": "sum_{t<n}(x_t-xbar)(x_{t+1}-xbar) / sum_t (x_t-xbar)^2; "
                      "r1_exact is the correctly rounded exact value",
        "linux_runs": runs,
        "cases": cases,
    }
    with open(OUT, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    for c in cases:
        rr = c["r"] or {}
        print("%-18s n=%4d  scipy W=%.10f p=%.10g  R W=%s p=%s  r1=%+.6f" % (
            c["name"], c["n"], c["scipy"]["w"], c["scipy"]["p"],
            rr.get("w"), rr.get("p"), c["r1_exact"]))
    print("max |scipy - R|:", worst)


if __name__ == "__main__":
    main()
