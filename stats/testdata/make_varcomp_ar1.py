#!/usr/bin/python3
"""
Independent vectors for stats.VarianceComponentsAR1: the one-way
random-effects model with repetitions that follow a stationary AR(1)
inside each job (docs/STATS.md 2.17), method-of-moments estimators.

Reference implementation: Debian python3-numpy (no scipy).  Run:
    /usr/bin/python3 make_varcomp_ar1.py [output.json]
Writes varcomp_ar1_vectors.json next to this script unless a path is given.

Computed differently from the Go code: every expectation is a trace of a
quadratic form's matrix times the AR(1) correlation matrix,
    E[y'Ay] = sigma^2 tr(A R(rho))   (R_jk = rho^|j-k|, block-diagonal),
with A the within-job projector I - H (SSW), the differencing form D'D
(SSD) and H - J/N (SSB); the von Neumann variance under independence is
2 tr((A_D)^2)-based, computed as Var(SSD) - from traces - rather than
from the closed form the Go code uses; rho solves the ratio equation by
numpy's own bisection (200 halvings); for balanced jobs every form acts on
the values less their position's mean over the jobs (Kronecker products
with the centring matrix of the jobs), so that a pattern all jobs share is
not read as drift; when the job means vary less than
the drift alone makes them, sigma_b is 0 and rho is lowered, by bisection,
to where the drift accounts for their spread exactly.  Data are drawn with numpy's PCG64
at fixed seeds and written out, so the Go test reads the same values.
"""
import json
import os
import sys

import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "varcomp_ar1_vectors.json")
RHO_MAX = 0.95


def blocks(sizes, f):
    N = sum(sizes)
    M = np.zeros((N, N))
    at = 0
    for n in sizes:
        M[at:at + n, at:at + n] = f(n)
        at += n
    return M


def corr(n, rho):
    j = np.arange(n)
    return rho ** np.abs(j[:, None] - j[None, :])


def diff_form(n):
    if n < 3:
        return np.zeros((n, n))
    Dm = np.zeros((n - 1, n))
    for j in range(n - 1):
        Dm[j, j], Dm[j, j + 1] = -1.0, 1.0
    return Dm.T @ Dm


def estimate(groups):
    sizes = [len(g) for g in groups]
    y = np.concatenate([np.asarray(g, float) for g in groups])
    N, a = len(y), len(groups)
    H = blocks(sizes, lambda n: np.full((n, n), 1.0 / n))
    W = np.eye(N) - H
    W3 = blocks(sizes, lambda n: (np.eye(n) - 1.0 / n) if n >= 3 else np.zeros((n, n)))
    Dd = blocks(sizes, diff_form)
    B = H - np.full((N, N), 1.0 / N)
    if len(set(sizes)) == 1 and sizes[0] >= 3:
        # Balanced: each value first taken from its position's mean over
        # the jobs (a pattern every job shares is no drift): the forms act
        # on (P_a x I) y, so they become Kronecker products with P_a.
        n = sizes[0]
        Pa = np.eye(a) - 1.0 / a
        W = W3 = np.kron(Pa, np.eye(n) - 1.0 / n)
        Dd = np.kron(Pa, diff_form(n))
        ssw, ssw3, ssd = y @ W @ y, y @ W3 @ y, y @ Dd @ y
    ssw, ssw3, ssd, ssb = y @ W @ y, y @ W3 @ y, y @ Dd @ y, y @ B @ y
    msb = ssb / (a - 1)
    n0 = (N - sum(n * n for n in sizes) / N) / (a - 1)
    d = np.trace(Dd) / 2.0  # sum of (n_i - 1) over jobs of 3 or more
    # Under independence (sigma = 1): E[SSD] = tr(Dd), Var(SSD) = 2 tr(Dd^2),
    # E[SSW3] = tr(W3), E[SSW3^2] = tr(W3)^2 + 2 tr(W3); Q = SSD/SSW3 is
    # independent of SSW3, so E[Q^k] = E[SSD^k]/E[SSW3^k].
    eq = np.trace(Dd) / np.trace(W3)
    eq2 = (2 * np.trace(Dd @ Dd) + np.trace(Dd) ** 2) / (np.trace(W3) ** 2 + 2 * np.trace(W3))
    ssw_plain = float(y @ (np.eye(N) - H) @ y)
    if ssw3 <= 1e-12 * ssw_plain:
        # deviations that are rounding errors once positions are out: no test
        q, z = 2.0, 0.0
    else:
        q = ssd / ssw3
        z = (eq - q) / np.sqrt(eq2 - eq * eq)
    rho = 0.0
    if not z > 1.645:
        # no drift seen: the ANOVA's figures (the plain within-job projector)
        msw = float(y @ (np.eye(N) - H) @ y) / (N - a)
        vb = (msb - msw) / n0
        return {
            "groups": [list(map(float, g)) for g in groups],
            "between": float(np.sqrt(max(vb, 0.0))), "within": float(np.sqrt(msw)),
            "rho": 0.0, "rho_z": float(z), "truncated": bool(vb < 0),
        }
    if z > 1.645:
        def qof(r):
            R = blocks(sizes, lambda n: corr(n, r))
            return np.trace(Dd @ R) / np.trace(W3 @ R)
        lo, hi = 0.0, RHO_MAX
        if q <= qof(hi):
            lo = hi
        for _ in range(200):
            if hi - lo <= 1e-13:
                break
            mid = (lo + hi) / 2
            if qof(mid) > q:
                lo = mid
            else:
                hi = mid
        rho = lo
    def vw_at(r):
        return ssw / np.trace(W @ blocks(sizes, lambda n: corr(n, r)))

    def part(r):
        # E[SSB] = (a-1) n0 sigma_b^2 + sigma_w^2 tr(B R): the within part of E[MSB]
        return vw_at(r) * np.trace(B @ blocks(sizes, lambda n: corr(n, r))) / (a - 1)

    truncated = part(rho) > msb
    if truncated:
        # sigma_b = 0: rho lowered until the drift accounts for the job
        # means' spread exactly (0 when even independent repetitions vary more)
        lo, hi = 0.0, rho
        if part(0.0) >= msb:
            hi = 0.0
        for _ in range(200):
            if hi - lo <= 1e-13:
                break
            mid = (lo + hi) / 2
            if part(mid) < msb:
                lo = mid
            else:
                hi = mid
        rho = lo
    vb = 0.0 if truncated else (msb - part(rho)) / n0
    return {
        "groups": [list(map(float, g)) for g in groups],
        "between": float(np.sqrt(vb)), "within": float(np.sqrt(vw_at(rho))),
        "rho": float(rho), "rho_z": float(z), "truncated": bool(truncated),
    }


def draw(seed, sizes, sb, sw, rho, mu=0.2):
    rng = np.random.Generator(np.random.PCG64(seed))
    out = []
    for n in sizes:
        a = rng.normal(0, sb)
        e = [rng.normal(0, 1)]
        for _ in range(n - 1):
            e.append(rho * e[-1] + np.sqrt(1 - rho * rho) * rng.normal(0, 1))
        out.append(list(mu + a + sw * np.array(e)))
    return out


V = {"ar1": []}
V["ar1"].append(dict(estimate(draw(11, [10] * 12, 0.01, 0.02, 0.7)), reason="12 jobs of 10 repetitions, rho 0.7"))
V["ar1"].append(dict(estimate(draw(12, [10, 4, 7, 2, 12, 1, 9, 6], 0.02, 0.03, 0.5)), reason="unbalanced, jobs of 1 and 2 repetitions, rho 0.5"))
V["ar1"].append(dict(estimate(draw(13, [6] * 20, 0.0, 0.02, 0.9)), reason="no job effect, rho 0.9: between truncated or small"))
V["ar1"].append(dict(estimate(draw(14, [10] * 12, 0.01, 0.02, 0.0)), reason="independent repetitions: no drift seen, the ANOVA's figures"))
V["ar1"].append(dict(estimate(draw(15, [3] * 30, 0.01, 0.02, 0.8)), reason="30 jobs of 3 repetitions, rho 0.8"))
V["ar1"].append(dict(estimate([[0.0, 0.1, 0.2, 0.3, 0.4], [1.0, 1.1, 1.2, 1.3, 1.4], [0.5, 0.45, 0.6, 0.5]]),
                     reason="hand-made trends: rho at its cap"))
V["ar1"].append(dict(estimate([[0.0, 0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1, 0.0], [0.1, 0.2, 0.3, 0.2, 0.2]]),
                     reason="hand-made trends, equal job means: sigma_b 0 and rho lowered to 0"))
V["ar1"].append(dict(estimate([[0.0, 0.1, 0.2, 0.3], [0.5, 0.6, 0.7, 0.8], [0.2, 0.3, 0.4, 0.5], [0.9, 1.0, 1.1, 1.2]]),
                     reason="exactly the same trend in every job: nothing left once positions are out, no test"))
V["ar1"].append(dict(estimate([[0.0, 0.1, 0.2, 0.3], [0.5, 0.6, 0.7, 0.8], [0.2, 0.31, 0.4, 0.5], [0.9, 1.0, 1.1, 1.21]]),
                     reason="the same trend in every job: no drift once positions are taken out, the ANOVA's figures"))

V["_generator"] = "make_varcomp_ar1.py, numpy " + np.__version__
with open(OUT, "w") as f:
    json.dump(V, f, indent=1, sort_keys=True)
    f.write("\n")
