#!/usr/bin/python3
"""Exact one-sided normal tolerance factors at small n (STATS.md 2.4).

k(n, p, γ) = nct.ppf(γ, n−1, z_p·√n)/√n from scipy (Boost's noncentral t),
cross-checked by mpmath's arbitrary-precision quadrature of
γ(k) = ∫₀^∞ Φ(√n(k·w − z_p)) f_W(w) dw, W = sqrt(χ²_ν/ν), solved for k.
Needs Debian python3-scipy and python3-mpmath. Run: /usr/bin/python3 stats/testdata/make_tolerance_small_n.py > stats/testdata/tolerance_small_n.json
"""
import json
import math
import sys
import warnings

import mpmath as mp
import scipy
from scipy import stats

warnings.simplefilter("ignore", RuntimeWarning)  # Boost's nct.ppf warns spuriously
mp.mp.dps = 40


def conf_of_k(k, n, p):
    nu = mp.mpf(n - 1)
    zp = mp.sqrt(2) * mp.erfinv(2 * mp.mpf(p) - 1)
    sn = mp.sqrt(n)
    logc = mp.log(2 * nu) - nu / 2 * mp.log(2) - mp.loggamma(nu / 2)

    def f(w):
        if w <= 0:
            return mp.mpf(0)
        v = nu * w * w
        dens = mp.exp(logc + mp.log(w) + (nu / 2 - 1) * mp.log(v) - v / 2)
        return mp.ncdf(sn * (k * w - zp)) * dens

    edge = zp / k  # where Φ(√n(k·w − z_p)) turns
    pts = sorted({mp.mpf(0), edge / 2, edge, 2 * edge, mp.mpf(1), mp.mpf(4), mp.inf})
    return mp.quad(f, pts)


def k_mp(n, p, g, start):
    return mp.findroot(lambda k: conf_of_k(k, n, p) - g, mp.mpf(start), tol=1e-30)


rows = []
for n in (2, 3):
    for p in (0.99, 0.999):
        g = 0.99
        ke = stats.nct.ppf(g, n - 1, stats.norm.ppf(p) * math.sqrt(n)) / math.sqrt(n)
        km = k_mp(n, p, g, ke)
        rows.append({"n": n, "p_coverage": p, "gamma_confidence": g,
                     "k_exact_nct": float(ke), "k_mpmath_quadrature": float(km),
                     "rel_diff": float(abs(km - ke) / km)})
json.dump({"source": "stats/testdata/make_tolerance_small_n.py: scipy %s nct.ppf, mpmath %s quadrature (40 digits)" % (scipy.__version__, mp.__version__),
           "table": rows}, sys.stdout, indent=1)
print()
