package stats

import (
	"errors"
	"fmt"
	"math"
)

// VarComp is a one-way random-effects model of values grouped by job,
//
//	y_ij = μ + a_i + e_ij,   a_i ~ N(0, σ_b²),  e_ij ~ N(0, σ_w²),
//
// with a_i the i-th job's effect (what a runner and a build share across
// the job's repetitions) and e_ij the j-th repetition's deviation inside
// it: Kalibera and Jones, "Rigorous Benchmarking in Reasonable Time",
// ISMM 2013, section 3, and Searle, Casella and McCulloch, "Variance
// Components" (1992), section 3.5 for unequal group sizes.
type VarComp struct {
	// Between and Within are the estimated SDs σ_b and σ_w.
	Between, Within float64
	// Mean is the mean of the group means: each job counts once,
	// whatever its number of repetitions.
	Mean float64
	// Groups is the number of groups (jobs), N the number of values
	// (repetitions in all).
	Groups, N int
	// N0 is the ANOVA's effective group size (N − Σn_i²/N)/(a − 1): the
	// group size when all are equal.
	N0 float64
	// MSB and MSW are the mean squares between and within groups;
	// Truncated is set when MSB < MSW made the between-group estimate
	// negative, and it was put at 0.
	MSB, MSW  float64
	Truncated bool
	// Rho is the lag-1 autocorrelation of the repetitions inside a job
	// (VarianceComponentsAR1): 0 for the ANOVA's independent repetitions,
	// and whenever the repetitions show no significant drift (RhoZ).
	// Within is then the repetitions' marginal SD about their job's
	// level, and the within-job part of a mean of m repetitions is
	// Within²·AR1MeanVar(Rho, m), not Within²/m.
	Rho float64
	// RhoZ is the von Neumann test's statistic for drift inside the
	// jobs, (2 − Q)/SD(Q) under independent repetitions (Q the ratio of
	// the squared successive differences to the squares about the job
	// means); 0 when no job has 3 repetitions or more.
	RhoZ float64
}

// VarianceComponents estimates the model by the ANOVA (method of moments)
// estimators: σ_w² = MSW, σ_b² = (MSB − MSW)/n₀, truncated at 0 (the
// usual rule: a negative estimate says the between-group variance is
// small, not negative), where
//
//	MSB = Σ n_i (ȳ_i − ȳ)² / (a − 1),  MSW = Σ Σ (y_ij − ȳ_i)² / (N − a),
//
// ȳ_i the group means and ȳ the mean of all N values. It needs at least
// two groups and more values than groups; the groups are not modified.
func VarianceComponents(groups [][]float64) (VarComp, error) {
	a := len(groups)
	if a < 2 {
		return VarComp{}, fmt.Errorf("stats: variance components need 2 groups or more, got %d", a)
	}
	var n int
	var sum, sumSq float64 // of all values; Σ n_i²
	means := make([]float64, a)
	for i, g := range groups {
		if len(g) == 0 {
			return VarComp{}, fmt.Errorf("stats: variance components: group %d is empty", i+1)
		}
		for j, y := range g {
			if math.IsNaN(y) || math.IsInf(y, 0) {
				return VarComp{}, &DomainError{Func: "VarianceComponents", Index: j, Value: y, Want: "a finite value"}
			}
		}
		means[i] = Mean(g)
		n += len(g)
		sum += means[i] * float64(len(g))
		sumSq += float64(len(g)) * float64(len(g))
	}
	if n <= a {
		return VarComp{}, errors.New("stats: variance components need a group of 2 values or more")
	}
	grand := sum / float64(n)
	var ssb, ssw float64
	for i, g := range groups {
		d := means[i] - grand
		ssb += float64(len(g)) * d * d
		for _, y := range g {
			e := y - means[i]
			ssw += e * e
		}
	}
	v := VarComp{Groups: a, N: n, Mean: Mean(means)}
	v.MSB = ssb / float64(a-1)
	v.MSW = ssw / float64(n-a)
	v.N0 = (float64(n) - sumSq/float64(n)) / float64(a-1)
	vb := (v.MSB - v.MSW) / v.N0
	if vb < 0 {
		vb, v.Truncated = 0, true
	}
	v.Between, v.Within = math.Sqrt(vb), math.Sqrt(v.MSW)
	return v, nil
}

// SDOfMean is the SD of the mean of m repetitions of one job under the
// model: √(σ_b² + σ_w²/m), or √(σ_b² + σ_w²·AR1MeanVar(ρ, m)) when the
// repetitions drift inside the job (Rho). Repetitions shrink the
// within-job part only.
func (v VarComp) SDOfMean(m int) float64 {
	return math.Sqrt(v.Between*v.Between + v.withinVar(m))
}

// withinVar is the within-job part of the variance of a mean of m
// repetitions: σ_w²/m, or σ_w²·AR1MeanVar(ρ, m).
func (v VarComp) withinVar(m int) float64 {
	if v.Rho == 0 {
		return v.Within * v.Within / float64(m)
	}
	return v.Within * v.Within * AR1MeanVar(v.Rho, m)
}

// Plan is a number of jobs and of repetitions in each, and what it costs.
type Plan struct {
	Jobs, Repetitions int
	// Seconds is the CI time: Jobs × (job + Repetitions × repetition).
	Seconds float64
	// SD is the SD of the mean log score over the plan's repetitions,
	// √((σ_b² + σ_w²/m)/k).
	SD float64
}

// Cheapest is the plan of least CI time whose mean log score has an SD
// of at most maxSD, with at most maxReps repetitions per job and maxJobs
// jobs, given the time of a repetition and a job's fixed cost (seconds).
// Kalibera and Jones (section 4) derive the optimum m* = √(c·σ_w²/(r·σ_b²))
// for continuous m; here every (k, m) is tried, the least m for each k,
// so that the answer is whole and within the limits. ok is false when no
// plan within them reaches maxSD.
func (v VarComp) Cheapest(maxSD, repSeconds, jobSeconds float64, maxReps, maxJobs int) (p Plan, ok bool) {
	vb, vw := v.Between*v.Between, v.Within*v.Within
	target := maxSD * maxSD
	for k := 1; k <= maxJobs; k++ {
		// (vb + vw/m)/k ≤ target ⇔ vw/m ≤ k·target − vb.
		room := float64(k)*target - vb
		if room <= 0 {
			continue
		}
		m := 1
		switch {
		case vw > 0 && v.Rho == 0:
			m = max(1, int(math.Ceil(vw/room-1e-9)))
		case vw > 0:
			// The within part falls with m (ρ ≥ 0): the least m whose
			// part fits, by bisection over [1, maxReps + 1].
			lo, hi := 1, maxReps+1
			for lo < hi {
				mid := (lo + hi) / 2
				if v.withinVar(mid) <= room*(1+1e-9) {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			m = lo
		}
		if m > maxReps {
			continue
		}
		cost := float64(k) * (jobSeconds + float64(m)*repSeconds)
		if !ok || cost < p.Seconds-1e-9 {
			p = Plan{Jobs: k, Repetitions: m, Seconds: cost, SD: math.Sqrt((vb + v.withinVar(m)) / float64(k))}
			ok = true
		}
	}
	return p, ok
}
