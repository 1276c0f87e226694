package stats

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/qoscal/qoscal/internal/testenv"
)

var genTail = flag.Bool("gentail", false, "print the table of tailDFRatio (stats/tailtable.go) from a fresh simulation")

// matchedDF simulates the n−1 sample variance of n Student-t values (unit
// variance, nu degrees of freedom) reps times, and returns the degrees of
// freedom d whose χ²_d/d has the same 5% quantile: the sample variance of
// heavy-tailed values falls far below σ² more often than the normal's
// χ²_{n−1}/(n−1) says, and d < n − 1 says how much more.
func matchedDF(n int, nu float64, reps int, rng *rand.Rand) float64 {
	return matchedDFOf(sampleVariances(n, nu, reps, rng))
}

// matchedDFOf is the d whose χ²_d/d has the 5% point of the sorted sample
// variances q.
func matchedDFOf(q []float64) float64 {
	q05 := q[len(q)/20]
	lo, hi := 0.1, 1e6
	for range 80 {
		mid := math.Sqrt(lo * hi)
		if (distuv.ChiSquared{K: mid}).Quantile(0.05)/mid < q05 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Sqrt(lo * hi)
}

// sampleVariances returns reps sample variances of n Student-t values
// (unit variance, nu degrees of freedom), sorted.
func sampleVariances(n int, nu float64, reps int, rng *rand.Rand) []float64 {
	q := make([]float64, reps)
	y := make([]float64, n)
	sc := math.Sqrt((nu - 2) / nu)
	k := int(nu)
	for r := range q {
		for i := range y {
			var c float64
			for range k {
				g := rng.NormFloat64()
				c += g * g
			}
			y[i] = sc * rng.NormFloat64() / math.Sqrt(c/nu)
		}
		s := SD(y)
		q[r] = s * s
	}
	slices.Sort(q)
	return q
}

// TestTailDFTable: the committed table of d/(n − 1) (tailDFRatio) is what
// a fresh seeded simulation gives, within its Monte Carlo error, at full
// size for every cell up to 200 runs, in the quick run for two. The check
// is on the scale the table is made on: the share of fresh sample
// variances below the table's 5% point (χ²_d quantile at 0.05 over d) is
// 0.05 within 4 binomial standard errors of the fresh sample, widened
// for the table's own 40,000 draws (a cell's d itself is a poor scale: at
// 150 runs a 1% Monte Carlo error in the 5% point moves d/(n − 1) by
// 3%). With -gentail it prints the table from 40,000 samples a cell.
func TestTailDFTable(t *testing.T) {
	if *genTail {
		var b strings.Builder
		rng := rand.New(rand.NewPCG(2026, 5))
		for _, n := range tailDFN {
			reps := 40000
			if n > 200 {
				reps = 8000
			}
			fmt.Fprintf(&b, "\t{")
			for g, nu := range TailDF[:len(TailDF)-1] {
				if g > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%.4f", matchedDF(n, nu, reps, rng)/float64(n-1))
			}
			fmt.Fprintf(&b, "}, // n = %d\n", n)
		}
		t.Logf("tailDFRatio:\n%s", b.String())
		return
	}
	rng := rand.New(rand.NewPCG(7, 7))
	cells := [][2]int{{2, 2}, {6, 0}}
	if testenv.FullSize() {
		cells = nil
		for i := range tailDFN {
			for g := range TailDF[:len(TailDF)-1] {
				if tailDFN[i] <= 200 {
					cells = append(cells, [2]int{i, g})
				}
			}
		}
	}
	for _, c := range cells {
		n, nu := tailDFN[c[0]], TailDF[c[1]]
		const reps = 8000
		q := sampleVariances(n, nu, reps, rng)
		want := tailDFRatio[c[0]][c[1]]
		d := want * float64(n-1)
		point := (distuv.ChiSquared{K: d}).Quantile(0.05) / d
		share := float64(sort.SearchFloat64s(q, point)) / reps
		se := math.Sqrt(0.05 * 0.95 / reps * (1 + float64(reps)/40000))
		if math.Abs(share-0.05) > 4*se {
			t.Errorf("n = %d, ν = %v: %.4f of the simulated sample variances fall below the table's 5%% point (d/(n−1) %.4f), want 0.05 ± %.4f; the simulation says d/(n−1) ≈ %.4f",
				n, nu, share, want, 4*se, matchedDFOf(q)/float64(n-1))
		}
	}
}
