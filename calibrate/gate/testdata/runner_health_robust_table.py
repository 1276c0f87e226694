#!/usr/bin/python3
# The cut-off of the robust runner-health z for calibration files without
# the history's mean and SD (calibrate.robustCutoff; STATS.md 3.4): the
# 0.004 quantile (a margin under the 0.005 target for Monte Carlo error) of
# z = (x − med(h))/(1.4826·MAD(h)), h n i.i.d. N(0,1), x N(0,1); 4M draws a row.
# numpy 1.24.2 (Debian python3-numpy). Columns: n, q0.005, q0.004.
import numpy as np
rng=np.random.default_rng(15)
c=1.482602218505602
for n in range(2,22):
    qs=[]
    for rep in range(4):
        N=1_000_000
        h=rng.standard_normal((N,n)); med=np.median(h,axis=1)
        mad=c*np.median(np.abs(h-med[:,None]),axis=1)
        z=(rng.standard_normal(N)-med)/mad
        qs.append(z)
    z=np.concatenate(qs)
    print(n, "%.4g"%np.quantile(z,0.005), "%.4g"%np.quantile(z,0.004))
