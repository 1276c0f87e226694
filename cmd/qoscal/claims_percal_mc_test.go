package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/internal/testenv"
)

// Issue 33 item 3 asks the claim to hold per calibration, not only on
// average: for each kind of noise and n = 10, 20 and 30 runs, the median
// calibration's true/claimed rate at most 1.5, at most 15% of
// calibrations told a rate more than 2x too low, and the claimed 95%
// upper bound below the truth in at most 7%. The figures here are of
// `qoscal recommend` with its default settings, through the command, on
// the noise of mcScenarios plus AR(1) at ρ 0.8 and Student-t(3).

// perCalScenarios are the kinds of noise of the per-calibration check.
func perCalScenarios(sigma float64) []mcScenario {
	var out []mcScenario
	for _, sc := range mcScenarios(sigma) {
		out = append(out, sc)
		switch sc.name {
		case "ar1-0.5":
			out = append(out, mcAR1(0.8, sigma))
		case "t5":
			out = append(out, mcStudentT(3, sigma))
		}
	}
	return out
}

// perCalSummary are the per-calibration figures of a set of calibrations,
// each share with its binomial standard error and the median with the
// standard error read off the order statistics' 95% interval.
type perCalSummary struct {
	n, noFloor                 int
	median, seMedian           float64
	over2, over5, miss         float64 // shares
	seOver2, seOver5, seMiss   float64
	meanTrue, meanClaimedRatio float64
}

// perCalSummarise summarises calibrations: the true rate over the claimed
// rate of each (a calibration whose claim is missing counts as infinitely
// optimistic), and whether its claimed 95% bound is below its true rate.
// Calibrations on which recommend placed no floor claim nothing and are
// counted apart.
func perCalSummarise(outs []mcOutcome) perCalSummary {
	var s perCalSummary
	var ratios []float64
	var truth, claimed float64
	for _, o := range outs {
		if o.noFloor {
			s.noFloor++
			continue
		}
		r := o.truth / o.claimed
		if math.IsNaN(r) {
			r = math.Inf(1)
		}
		ratios = append(ratios, r)
		if r > 2 {
			s.over2++
		}
		if r > 5 {
			s.over5++
		}
		if !(o.claimedUpper >= o.truth) {
			s.miss++
		}
		truth += o.truth
		claimed += o.claimed
	}
	s.n = len(ratios)
	if s.n == 0 {
		s.median, s.seMedian = math.NaN(), math.NaN()
		return s
	}
	f := float64(s.n)
	share := func(k float64) (float64, float64) {
		p := k / f
		return p, math.Sqrt(p * (1 - p) / f)
	}
	s.over2, s.seOver2 = share(s.over2)
	s.over5, s.seOver5 = share(s.over5)
	s.miss, s.seMiss = share(s.miss)
	slices.Sort(ratios)
	s.median = quantileSorted(ratios, 0.5)
	// The median's 95% interval runs between the order statistics
	// n/2 ± 1.96·√n/2; its half-width over 1.96 is the SE.
	h := 1.96 * math.Sqrt(f) / 2
	lo := ratios[max(0, int(math.Floor(f/2-h)))]
	hi := ratios[min(s.n-1, int(math.Ceil(f/2+h)))]
	s.seMedian = (hi - lo) / (2 * 1.96)
	s.meanTrue, s.meanClaimedRatio = truth/f, truth/claimed
	return s
}

// quantileSorted is the p-quantile of sorted x by linear interpolation.
func quantileSorted(x []float64, p float64) float64 {
	h := p * float64(len(x)-1)
	i := int(math.Floor(h))
	if i+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[i] + (h-float64(i))*(x[i+1]-x[i])
}

// meets says whether the figures meet issue 33's goals, each within two
// Monte Carlo standard errors.
func (s perCalSummary) meets() bool {
	return s.median <= 1.5+2*s.seMedian && s.over2 <= 0.15+2*s.seOver2 && s.miss <= 0.07+2*s.seMiss
}

func (s perCalSummary) row() string {
	return fmt.Sprintf("%4d | %5.2f (%.2f) | %5.1f%% (%.1f) | %5.1f%% (%.1f) | %5.1f%% (%.1f) | %.2f",
		s.n, s.median, s.seMedian, 100*s.over2, 100*s.seOver2, 100*s.over5, 100*s.seOver5, 100*s.miss, 100*s.seMiss, s.meanClaimedRatio)
}

// TestPerCalibrationClaims measures, through `qoscal recommend` with its
// default settings, how the claimed false-positive rate of the floor and
// its 95% upper bound hold per calibration (issue 33 item 3), for each
// kind of noise of perCalScenarios and n = 10, 20, 30: the median of
// true/claimed over calibrations, the shares told a rate more than 2x and
// 5x too low, and the share whose claimed 95% bound is below the truth,
// each with its Monte Carlo standard error (docs/STATS.md 5g gives the
// table). The mixture's calibrations are split by whether they saw the
// degraded runner (2 or more of its runs) or not. The quick version runs
// one calibration a cell.
func TestPerCalibrationClaims(t *testing.T) {
	reps := testenv.Size(perCalReps, 1)
	type cell struct {
		sc mcScenario
		n  int
	}
	var cells []cell
	for _, sc := range perCalScenarios(0.02) {
		for _, n := range []int{10, 20, 30} {
			cells = append(cells, cell{sc, n})
		}
	}
	all := make([][]string, len(cells))
	stated := make([][]string, len(cells))
	var dump []string
	var mu sync.Mutex
	t.Run("cells", func(t *testing.T) {
		for i, c := range cells {
			t.Run(fmt.Sprintf("%s/n%d", c.sc.name, c.n), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(34, uint64(len(c.sc.name))*1000+uint64(c.sc.name[len(c.sc.name)-1])*100+uint64(c.n)))
				dir := t.TempDir()
				outs := make([]mcOutcome, 0, reps)
				for range reps {
					outs = append(outs, recommendOnce(t, dir, c.sc, 0.02, rng, c.n))
				}
				for _, g := range perCalGroups(c.sc.name, outs) {
					var sure []mcOutcome
					for _, o := range g.outs {
						if !o.unsure && !o.noFloor {
							sure = append(sure, o)
						}
					}
					sa, ss := perCalSummarise(g.outs), perCalSummarise(sure)
					flagged := 1 - float64(ss.n)/float64(max(1, sa.n))
					all[i] = append(all[i], fmt.Sprintf("| %s | %d | %s |", g.name, c.n, sa.row()))
					stated[i] = append(stated[i], fmt.Sprintf("| %s | %d | %.0f%% | %s |", g.name, c.n, 100*flagged, ss.row()))
					t.Logf("%s, %d runs: all %d: %s; stated reliable %d: %s", g.name, c.n, sa.n, sa.row(), ss.n, ss.row())
					if !testenv.FullSize() {
						continue
					}
					// Issue 33 item 3's goals, on the calibrations whose
					// claim recommend stands behind, where a claim from the
					// runs can meet them (docs/STATS.md 5g says where it
					// cannot, and why).
					if ss.n >= 20 && !perCalShort[g.name] && !ss.meets() {
						t.Errorf("%s, %d runs, the %d calibrations stated reliable: median true/claimed %.2f (SE %.2f), %.1f%% (SE %.1f) more than 2x, bound misses %.1f%% (SE %.1f); want at most 1.5, 15%%, 7%%",
							g.name, c.n, ss.n, ss.median, ss.seMedian, 100*ss.over2, 100*ss.seOver2, 100*ss.miss, 100*ss.seMiss)
					}
					// Flagging every calibration would pass the goals:
					// independent runs, on which the claim holds, must
					// mostly be stated reliable from 20 runs on.
					if g.name == "iid" && c.n >= calfloor.ClaimMinRuns && flagged > 0.30 {
						t.Errorf("iid, %d runs: %.0f%% of calibrations stated unreliable, want at most 30%%", c.n, 100*flagged)
					}
				}
				if os.Getenv("QOSCAL_PERCAL_DUMP") != "" {
					mu.Lock()
					defer mu.Unlock()
					for _, o := range outs {
						dump = append(dump, fmt.Sprintf("%s,%d,%d,%v,%g,%g,%g,%g,%g,%g,%g,%d,%d,%v", c.sc.name, c.n, o.degraded, o.noFloor, o.truth, o.claimed, o.claimedUpper, o.predictive, o.shapiroP, o.lag1, o.tailDF, o.used, o.outliers, o.unsure))
					}
				}
			})
		}
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d calibrations a cell; every calibration:\n", reps)
	b.WriteString("| noise | n | calibrations | median true/claimed (SE) | true > 2x claimed (SE) | > 5x (SE) | 95% bound misses (SE) | mean true / mean claimed |\n")
	for _, r := range all {
		for _, line := range r {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("the calibrations recommend states reliable (false_positive_rate.reliable):\n")
	b.WriteString("| noise | n | stated unreliable | calibrations | median true/claimed (SE) | true > 2x claimed (SE) | > 5x (SE) | 95% bound misses (SE) | mean true / mean claimed |\n")
	for _, r := range stated {
		for _, line := range r {
			b.WriteString(line + "\n")
		}
	}
	t.Log(b.String())
	if p := os.Getenv("QOSCAL_PERCAL_DUMP"); p != "" {
		if err := os.WriteFile(p, []byte(strings.Join(dump, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// perCalGroup is a set of calibrations reported together.
type perCalGroup struct {
	name string
	outs []mcOutcome
}

// perCalGroups are the calibrations of a kind of noise, and for the
// mixture also those that saw the degraded runner (2 or more of its runs)
// and those that did not.
func perCalGroups(name string, outs []mcOutcome) []perCalGroup {
	groups := []perCalGroup{{name, outs}}
	if name != "degraded" {
		return groups
	}
	var seen, unseen []mcOutcome
	for _, o := range outs {
		if o.degraded >= 2 {
			seen = append(seen, o)
		} else {
			unseen = append(unseen, o)
		}
	}
	return append(groups, perCalGroup{"degraded, seen", seen}, perCalGroup{"degraded, unseen", unseen})
}

// perCalShort are the noise on which no claim recommend makes from the
// runs meets the goals on the calibrations it states reliable, measured
// (docs/STATS.md 5g): a Student-t tail that 20–30 runs cannot tell from
// the normal, and a degraded runner the calibration did not see (the
// mixture as a whole follows from those two parts).
var perCalShort = map[string]bool{"t5": true, "t3": true, "degraded": true, "degraded, unseen": true}

// perCalReps is the full size: calibrations a cell.
const perCalReps = 150
