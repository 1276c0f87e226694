package stats

import (
	"math"
	"slices"
)

// tailDFN are the numbers of runs the table tailDFRatio is made at.
var tailDFN = []int{3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 70, 100, 150, 200, 300, 500, 1000}

// tailDFRatio[i][g] is d/(n − 1) at n = tailDFN[i] runs and ν = TailDF[g]
// (the grid without the normal): the degrees of freedom d whose χ²_d/d
// has the 5% quantile of the n−1 sample variance of n unit-variance t_ν
// values. From a seeded simulation (40,000 samples a cell, 8,000 beyond
// 200 runs: go test ./stats -run TestTailDFTable -gentail), made
// monotone (no larger at more runs, no smaller at a lighter tail) by
// pooling adjacent violators, which only removes the simulation's noise.
var tailDFRatio = [][]float64{
	{0.7618, 0.8488, 0.8901, 0.8989, 0.9380, 0.9527, 0.9798, 0.9798, 0.9923, 0.9923}, // n = 3
	{0.6783, 0.7735, 0.8295, 0.8642, 0.9120, 0.9192, 0.9647, 0.9647, 0.9835, 0.9894}, // n = 4
	{0.6123, 0.7389, 0.8116, 0.8344, 0.8736, 0.9070, 0.9328, 0.9546, 0.9658, 0.9807}, // n = 5
	{0.5659, 0.6928, 0.7636, 0.8153, 0.8580, 0.8951, 0.9295, 0.9518, 0.9658, 0.9807}, // n = 6
	{0.4887, 0.6243, 0.7160, 0.7732, 0.8315, 0.8638, 0.9165, 0.9194, 0.9658, 0.9764}, // n = 8
	{0.4470, 0.5947, 0.6757, 0.7415, 0.8129, 0.8577, 0.9037, 0.9164, 0.9524, 0.9656}, // n = 10
	{0.4123, 0.5586, 0.6560, 0.7053, 0.7695, 0.8170, 0.8871, 0.9164, 0.9524, 0.9656}, // n = 12
	{0.3713, 0.5258, 0.6193, 0.6865, 0.7695, 0.8142, 0.8826, 0.9142, 0.9524, 0.9656}, // n = 15
	{0.3316, 0.4764, 0.5851, 0.6586, 0.7472, 0.7908, 0.8681, 0.8943, 0.9378, 0.9656}, // n = 20
	{0.2951, 0.4515, 0.5628, 0.6368, 0.7248, 0.7908, 0.8567, 0.8867, 0.9365, 0.9619}, // n = 25
	{0.2779, 0.4375, 0.5357, 0.6246, 0.7142, 0.7755, 0.8548, 0.8839, 0.9158, 0.9619}, // n = 30
	{0.2463, 0.4028, 0.5145, 0.6037, 0.6926, 0.7466, 0.8456, 0.8839, 0.9158, 0.9619}, // n = 40
	{0.2253, 0.3844, 0.4929, 0.5747, 0.6802, 0.7381, 0.8430, 0.8770, 0.9157, 0.9619}, // n = 50
	{0.1982, 0.3588, 0.4656, 0.5522, 0.6649, 0.7381, 0.8289, 0.8770, 0.9157, 0.9609}, // n = 70
	{0.1725, 0.3270, 0.4549, 0.5408, 0.6649, 0.7319, 0.8289, 0.8747, 0.9157, 0.9609}, // n = 100
	{0.1467, 0.3025, 0.4231, 0.5189, 0.6570, 0.7246, 0.8085, 0.8747, 0.9157, 0.9609}, // n = 150
	{0.1308, 0.2853, 0.4072, 0.5023, 0.6261, 0.7088, 0.8085, 0.8747, 0.9157, 0.9609}, // n = 200
	{0.1123, 0.2611, 0.4034, 0.4930, 0.6206, 0.7088, 0.8009, 0.8747, 0.9157, 0.9609}, // n = 300
	{0.0926, 0.2379, 0.3708, 0.4775, 0.6206, 0.6965, 0.7613, 0.8747, 0.9157, 0.9609}, // n = 500
	{0.0753, 0.2126, 0.3539, 0.4763, 0.5914, 0.6965, 0.7613, 0.8468, 0.9157, 0.9609}, // n = 1000
}

// tailDFFactor is d/(n − 1) for n runs and the tail with nu degrees of
// freedom (tailDFRatio), by linear interpolation in ln n between the
// table's rows; below 3 runs the first row's, beyond 1,000 the last's (a
// ratio that goes on falling, slowly, for ν ≤ 4, whose variance has no
// variance of its own: past 1,000 runs a predictive rate hardly depends
// on it). 1 for the normal.
func tailDFFactor(n, nu float64) float64 {
	if math.IsInf(nu, 1) {
		return 1
	}
	g := slices.Index(TailDF, nu)
	if g < 0 {
		return 1
	}
	last := len(tailDFN) - 1
	switch {
	case n <= float64(tailDFN[0]):
		return tailDFRatio[0][g]
	case n >= float64(tailDFN[last]):
		return tailDFRatio[last][g]
	}
	i := 1
	for float64(tailDFN[i]) < n {
		i++
	}
	a, b := math.Log(float64(tailDFN[i-1])), math.Log(float64(tailDFN[i]))
	w := (math.Log(n) - a) / (b - a)
	return (1-w)*tailDFRatio[i-1][g] + w*tailDFRatio[i][g]
}

// Tail is the effective model of the runs under the tail with nu degrees
// of freedom: the variance's degrees of freedom shrunk by tailDFFactor, so
// that the posterior of σ allows for how much more often a heavy tail's
// sample SD falls far below σ (docs/STATS.md 5d). The normal's is e.
func (e Effective) Tail(nu float64) Effective {
	if math.IsInf(nu, 1) {
		return e
	}
	e.DF = math.Max(1, e.DF*tailDFFactor(e.DF+1, nu))
	return e
}
