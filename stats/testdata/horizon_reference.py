#!/usr/bin/python3
# Reference values in stats/floor_test.go TestFalseAlarmHorizon (scipy 1.10.1, Debian python3-scipy).
# Independent reference for stats.FalseAlarmHorizon: scipy dblquad over
# (sigma, mu) in the original parametrisation, posterior density written out.
import math
import numpy as np
from scipy import stats, integrate
runs=[1.55,1.54,1.65,1.59,1.44]
def ref(y, F, M):
    n=len(y); m=np.mean(y); s=np.std(y,ddof=1); nu=n-1
    lf=math.log(F)
    # posterior: sigma^2 = s^2 nu / V, V~chi2_nu  => density of sigma; mu|sigma ~ N(m, sigma^2/n)
    def fs(sig):
        v=s*s*nu/(sig*sig)
        return stats.chi2.pdf(v,nu)*2*s*s*nu/sig**3
    def inner(sig):
        g=lambda mu: (1-(1-stats.norm.cdf((lf-mu)/sig))**M)*stats.norm.pdf(mu,m,sig/math.sqrt(n))
        sd=sig/math.sqrt(n)
        return integrate.quad(g, m-12*sd, m+12*sd, epsabs=1e-13, limit=200)[0]
    pts=[s*f for f in (0.2,0.5,1,2,5,20)]
    tot=0; lo=1e-9*s
    edges=[lo]+pts+[math.inf]
    for a,b in zip(edges[:-1],edges[1:]):
        tot+=integrate.quad(lambda sg: inner(sg)*fs(sg), a, b, epsabs=1e-12, limit=200)[0]
    return tot, 1-(1-stats.t.cdf((lf-m)/(s*math.sqrt(1+1/n)),nu))**M
y=np.log(runs)
for F,M in [(1.25,100),(1.25,1),(1.35,100),(1.25,1000)]:
    print(F,M,*ref(y,F,M))
y3=np.log([1.55,1.54,1.65])
for F,M in [(1.40,100),(1.30,100)]:
    print("n3",F,M,*ref(y3,F,M))
