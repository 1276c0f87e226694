#!/usr/bin/python3
"""
Independent vectors for the drift check's AR(1) machinery in stats/ar1scan.go:
AR1MeanVar, Prewhiten, AR1SD, ShiftScan, and the law of the lag-1
autocorrelation r1 behind AR1Inverter.Upper.

Reference implementation: Debian python3-numpy (and scipy for nothing but the
version line).  Run:
    /usr/bin/python3 make_ar1scan.py [output.json]
Writes ar1scan_vectors.json next to this script unless a path is given.

Each quantity is computed by another route than the Go code takes:
  * the variance of a mean of L AR(1) values as 1' S 1 / L^2 with the full
    correlation matrix S_ij = rho^|i-j| (Go sums the series in closed form);
  * the Prais-Winsten innovations as P (x - m) with the transform matrix P
    (P_00 = sqrt(1 - rho^2), P_tt = 1, P_t,t-1 = -rho), and the marginal SD
    from them;
  * the scan by brute force over every window, the trimmed mean by sorting
    the window and dropping its end in the direction of the sum (Go keeps
    running sums and extremes);
  * the law of r1 by numpy simulation (PCG64, 200,000 series a point; Go
    draws its own with math/rand/v2), so the Go test compares quantiles
    within Monte Carlo error, and the upper confidence point within one grid
    step.
Data are drawn with numpy's PCG64 at fixed seeds and written out, so the Go
test reads the same values.
"""
import json
import os
import sys

import numpy as np
import scipy

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "ar1scan_vectors.json")


def corr(rho, L):
    i = np.arange(L)
    return rho ** np.abs(i[:, None] - i[None, :])


def mean_var(rho, L):
    one = np.ones(L)
    return float(one @ corr(rho, L) @ one) / L ** 2


def prewhiten(x, m, rho):
    n = len(x)
    P = np.eye(n)
    P[0, 0] = np.sqrt(1 - rho ** 2)
    for t in range(1, n):
        P[t, t - 1] = -rho
    return P @ (np.asarray(x) - m)


def ar1_sd(x, rho):
    u = prewhiten(x, np.mean(x), rho)
    return float(np.sqrt(u @ u / (len(x) - 1) / (1 - rho ** 2)))


def scan(z, rho, vcal, clip, min_len):
    zc = np.clip(np.nan_to_num(np.asarray(z, float), nan=0.0), -clip, clip)
    n = len(zc)
    best, start, down = 0.0, n, False
    for tau in range(n - min_len, -1, -1):  # window zc[tau:], longest last
        w = np.sort(zc[tau:])
        L = len(w)
        s = w.sum()
        trimmed = (s - w[-1]) / (L - 1) if s > 0 else (s - w[0]) / (L - 1)
        a = abs(trimmed) / np.sqrt(mean_var(rho, L) + vcal)
        if a > best:
            best, start, down = float(a), tau, bool(trimmed < 0)
    return best, start, down


def lag1(x):
    d = x - x.mean(axis=-1, keepdims=True)
    return (d[..., :-1] * d[..., 1:]).sum(axis=-1) / (d * d).sum(axis=-1)


def ar1_draws(rng, rho, n, b):
    e = rng.standard_normal((b, n))
    x = np.empty((b, n))
    x[:, 0] = e[:, 0]
    c = np.sqrt(1 - rho ** 2)
    for t in range(1, n):
        x[:, t] = rho * x[:, t - 1] + c * e[:, t]
    return x


def main():
    rng = np.random.Generator(np.random.PCG64(20261207))
    out = {"meta": {"numpy": np.__version__, "scipy": scipy.__version__,
                    "script": "stats/testdata/make_ar1scan.py"}}

    out["mean_var"] = [{"rho": r, "L": L, "value": mean_var(r, L)}
                       for r in (0.0, 0.3, 0.5, 0.7, 0.9) for L in (1, 2, 5, 10, 30)]

    series = []
    for n, rho in ((10, 0.0), (10, 0.5), (30, 0.7), (12, 0.3)):
        x = ar1_draws(rng, rho, n, 1)[0] * 0.03 + 0.25
        m = float(np.mean(x))
        series.append({"x": x.tolist(), "rho": rho, "m": m,
                       "innovations": prewhiten(x, m, rho).tolist(),
                       "ar1_sd": ar1_sd(x, rho), "sd": float(np.std(x, ddof=1))})
    out["prewhiten"] = series

    scans = []
    cases = [
        ([0.2, -0.4, 0.1, -3.0, -3.5, -2.8], 0.0, 10, 6, 2),
        ([0.2, -0.4, 0.1, -3.0, -3.5, -2.8], 0.5, 10, 6, 2),
        ([0.5, 9.0, 0.1, -0.3], 0.0, 30, 6, 2),     # one outlier, clipped and trimmed
        ([1.0, 2.5, 2.0, 3.1, 2.2], 0.7, 10, 6, 2),  # a rise
        ([0.3, -0.2, float("nan"), -2.0, -2.5], 0.3, 20, 4, 2),
        ([-7.0, -7.5], 0.9, 10, 6, 2),
    ]
    for z, rho, n, clip, min_len in cases:
        vcal = mean_var(rho, n)
        stat, start, down = scan(z, rho, vcal, clip, min_len)
        scans.append({"z": [None if np.isnan(v) else v for v in z], "rho": rho, "n": n,
                      "vcal": vcal, "clip": clip, "min_len": min_len,
                      "stat": stat, "start": start, "down": down})
    for k in range(4):
        n = 10 + 10 * k
        rho = [0.0, 0.4, 0.6, 0.8][k]
        z = (rng.standard_normal(15) + np.r_[np.zeros(9), -2.5 * np.ones(6)]).tolist()
        vcal = mean_var(rho, n)
        stat, start, down = scan(z, rho, vcal, 6, 2)
        scans.append({"z": z, "rho": rho, "n": n, "vcal": vcal, "clip": 6, "min_len": 2,
                      "stat": stat, "start": start, "down": down})
    out["scan"] = scans

    laws = []
    B = 200000
    for n, rho in ((10, 0.0), (10, 0.5), (10, 0.8), (30, 0.0), (30, 0.5), (30, 0.8)):
        r = lag1(ar1_draws(rng, rho, n, B))
        qs = [0.05, 0.2, 0.5, 0.8, 0.95]
        laws.append({"n": n, "rho": rho, "draws": B, "p": qs,
                     "quantiles": np.quantile(r, qs).tolist(),
                     "mean": float(r.mean()), "sd": float(r.std())})
    out["lag1_law"] = laws

    # The (1 - beta) upper confidence point by inverting the simulated law on
    # the grid 0, 0.05, ..., 0.9: the largest grid rho with P(r1 <= r) >= beta.
    grid = np.round(np.arange(0, 0.9 + 1e-9, 0.05), 2)
    ups = []
    for n in (10, 30):
        sims = [np.sort(lag1(ar1_draws(rng, g, n, 50000))) for g in grid]
        for r in (-0.2, 0.0, 0.2, 0.35, 0.5, 0.66):
            for beta in (0.2, 0.5):
                u = 0.0
                for g, s in zip(grid, sims):
                    if np.searchsorted(s, r, side="right") / len(s) >= beta:
                        u = float(g)
                ups.append({"n": n, "r": r, "beta": beta, "upper": u})
    out["upper"] = ups

    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
