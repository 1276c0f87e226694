#!/usr/bin/python3
"""
Independent vectors for stats.VarianceComponents (one-way random-effects
model, ANOVA estimators, Kalibera & Jones, ISMM 2013; Searle, Casella &
McCulloch 1992, section 3.5) and VarComp.Cheapest.

Reference implementation: Debian python3-numpy.  Run:
    /usr/bin/python3 make_varcomp.py [output.json]
Writes varcomp_vectors.json next to this script unless a path is given.

The sums of squares are computed as quadratic forms with projection
matrices, not group by group as the Go code does:
    H = block-diag(J_i / n_i)  (projects onto the group means),
    SSW = y' (I - H) y,   SSB = y' (H - J/N) y,
so the two agree only if both are right.  Data are drawn with numpy's
PCG64 at fixed seeds and written out, so the Go test reads the same values.
"""
import json
import os
import sys

import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "varcomp_vectors.json")


def anova(groups):
    y = np.concatenate([np.asarray(g, float) for g in groups])
    sizes = [len(g) for g in groups]
    N, a = len(y), len(groups)
    H = np.zeros((N, N))
    at = 0
    for n in sizes:
        H[at:at + n, at:at + n] = 1.0 / n
        at += n
    J = np.full((N, N), 1.0 / N)
    ssw = float(y @ (np.eye(N) - H) @ y)
    ssb = float(y @ (H - J) @ y)
    msb, msw = ssb / (a - 1), ssw / (N - a)
    n0 = (N - sum(n * n for n in sizes) / N) / (a - 1)
    vb = (msb - msw) / n0
    truncated = vb < 0
    vb = max(vb, 0.0)
    return {
        "groups": [list(map(float, g)) for g in groups],
        "between": float(np.sqrt(vb)), "within": float(np.sqrt(msw)),
        "mean": float(np.mean([np.mean(g) for g in groups])),
        "msb": msb, "msw": msw, "n0": n0, "truncated": bool(truncated),
        "n": N, "a": a,
    }


def draw(seed, sizes, sb, sw, mu=0.4):
    rng = np.random.Generator(np.random.PCG64(seed))
    out = []
    for n in sizes:
        a = rng.normal(0, sb)
        out.append(list(mu + a + rng.normal(0, sw, n)))
    return out


def cheapest(vb, vw, max_sd, rep_s, job_s, max_reps, max_jobs):
    best = None
    for k in range(1, max_jobs + 1):
        for m in range(1, max_reps + 1):
            sd = np.sqrt((vb + vw / m) / k)
            if sd <= max_sd * (1 + 1e-12):
                cost = k * (job_s + m * rep_s)
                if best is None or cost < best[2] - 1e-9:
                    best = (k, m, cost, float(sd))
                break
    return best


V = {"anova": [], "cheapest": []}
V["anova"].append(dict(anova(draw(1, [5] * 8, 0.03, 0.02)), reason="balanced: 8 jobs of 5 repetitions"))
V["anova"].append(dict(anova(draw(2, [2, 7, 3, 10, 4, 1, 6], 0.05, 0.01)), reason="unbalanced, a job of one repetition"))
V["anova"].append(dict(anova(draw(3, [4] * 6, 0.0, 0.05)), reason="no between-job variance: the estimate is truncated at 0"))
V["anova"].append(dict(anova(draw(4, [3, 3], 0.2, 0.001)), reason="two jobs, between-job variance dominates"))
V["anova"].append(dict(anova([[0.1, 0.3], [0.2, 0.2, 0.2], [0.5]]), reason="hand-made, exact decimals"))

for (sb, sw, max_sd, rep_s, job_s) in [
    (0.01, 0.03, 0.012, 2.0, 60.0),
    (0.02, 0.05, 0.015, 10.0, 30.0),
    (0.0, 0.04, 0.005, 1.0, 120.0),
    (0.03, 0.01, 0.01, 5.0, 60.0),
]:
    got = cheapest(sb * sb, sw * sw, max_sd, rep_s, job_s, 200, 50)
    V["cheapest"].append({
        "between": sb, "within": sw, "max_sd": max_sd, "rep_seconds": rep_s,
        "job_seconds": job_s, "max_reps": 200, "max_jobs": 50,
        "jobs": got[0], "repetitions": got[1], "seconds": got[2], "sd": got[3],
    })

# Runs measured with repetitions, as qoscal measure writes them (its CSV):
# 6 jobs of 4 repetitions of 3 benchmarks, times in ns/op (lower is
# better), one sample per benchmark, variant and repetition.  The ratio of
# a benchmark in a repetition is baseline/candidate; a repetition's log
# score is the mean of its log ratios; the model is anova() of those,
# grouped by job.
rng = np.random.Generator(np.random.PCG64(29))
rows = ["run,benchmark,variant,role,repetition,sample,value,unit"]
groups = []
for job in range(1, 7):
    job_effect = rng.normal(0, 0.03)
    logs = []
    for rep in range(1, 5):
        rep_logs = []
        for b, base in (("alloc", 1000.0), ("larson", 5000.0), ("sh8", 300.0)):
            drift = rng.normal(0, 0.05)  # shared by both variants in the repetition
            bv = round(base * np.exp(drift + rng.normal(0, 0.01)), 3)
            cv = round(base / 1.2 * np.exp(drift - job_effect + rng.normal(0, 0.02)), 3)
            rows.append("job-%d,%s,system,baseline,%d,%d,%r,ns/op" % (job, b, rep, rep - 1, bv))
            rows.append("job-%d,%s,hoard,candidate,%d,%d,%r,ns/op" % (job, b, rep, rep - 1, cv))
            rep_logs.append(np.log(bv / cv))
        logs.append(float(np.mean(rep_logs)))
    groups.append(logs)
CSV = os.path.join(os.path.dirname(OUT), "varcomp_runs.csv")
with open(CSV, "w") as f:
    f.write("\n".join(rows) + "\n")
V["runs_csv"] = dict(anova(groups), reason="varcomp_runs.csv: 6 jobs of 4 repetitions", file="varcomp_runs.csv")

V["_generator"] = "make_varcomp.py, numpy " + np.__version__
with open(OUT, "w") as f:
    json.dump(V, f, indent=1, sort_keys=True)
    f.write("\n")
