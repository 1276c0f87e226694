package stats

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"qoscal/internal/testenv"
)

var genTail = flag.Bool("gentail", false, "print the table of tailDFRatio (stats/tailtable.go) from a fresh simulation")

// matchedDF simulates the n−1 sample variance of n Student-t values (unit
// variance, nu degrees of freedom) reps times, and returns the degrees of
// freedom d whose χ²_d/d has the same 5% quantile: the sample variance of
// heavy-tailed values falls far below σ² more often than the normal's
// χ²_{n−1}/(n−1) says, and d < n − 1 says how much more.
func matchedDF(n int, nu float64, reps int, rng *rand.Rand) float64 {
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
	q05 := q[reps/20]
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

// TestTailDFTable: the committed table of d/(n − 1) (tailDFRatio) is what
// a fresh seeded simulation gives, within its Monte Carlo error (5% of
// the ratio), at full size for every cell, in the quick run for two. With
// -gentail it prints the table from 40,000 samples a cell.
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
		got := matchedDF(n, nu, 8000, rng) / float64(n-1)
		if want := tailDFRatio[c[0]][c[1]]; math.Abs(got-want) > 0.05*want+0.01 {
			t.Errorf("n = %d, ν = %v: simulated d/(n−1) %.4f, the table says %.4f", n, nu, got, want)
		}
	}
}
