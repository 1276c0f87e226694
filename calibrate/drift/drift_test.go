package drift

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// newRuns are one-benchmark runs gated since a calibration, named
// gated-01, gated-02, … so that they are not the calibration's.
func newRuns(logs []float64) []data.Run {
	runs := calibtest.OneBenchmarkRuns(logs)
	for i := range runs {
		runs[i].ID = "gated-" + runs[i].ID[len("run-"):]
	}
	return runs
}

// TestDrift: against a calibration of 30 runs (sd of the log score 0.025),
// runs that stay within k SDs of its mean are no drift, whatever their
// number; the same runs followed by five at 0.92× are drift down from the
// first of them, and at 1.08× drift up; one run 40 SDs low is not drift;
// two runs are too few to tell. The
// result states its rate: 5% per 20 runs, k 0.75, and a decision interval
// between 3 and 8.
func TestDrift(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 30))
	cal := make([]float64, 30)
	for i := range cal {
		cal[i] = 0.3 + 0.025*rng.NormFloat64()
	}
	f := calibtest.DriftFile(t, cal)
	m, s := stats.Mean(cal), stats.SD(cal)
	steady := make([]float64, 12)
	for i := range steady {
		steady[i] = m + 0.5*s*float64(1-2*(i%2)) // ±0.5 SD: the CUSUM stays at 0
	}
	d, err := Drift(f, newRuns(steady), calibrate.Auto, DriftOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Drift || d.TooFew || d.FalseAlarm != 0.05 || d.PerRuns != 20 || d.Clip != stats.ShiftClip || !(d.H > 2 && d.H < 6) || d.CalibrationRuns != 30 {
		t.Errorf("steady runs: %+v", d)
	}
	for _, tc := range []struct {
		step float64
		dir  string
	}{{0.92, "down"}, {1.08, "up"}} {
		x := append([]float64(nil), steady...)
		for range 5 {
			x = append(x, m+math.Log(tc.step))
		}
		d, err := Drift(f, newRuns(x), calibrate.Auto, DriftOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !d.Drift || d.Direction != tc.dir || d.FromRun != "gated-013" || !(d.P <= 0.05) {
			t.Errorf("a step to %v× after 12 steady runs: drift %v %q from %q (p %v), want %s from gated-013", tc.step, d.Drift, d.Direction, d.FromRun, d.P, tc.dir)
		}
		if len(d.Benchmarks) != 1 || d.Benchmarks[0].Direction != tc.dir || d.Benchmarks[0].FromRun != "gated-013" {
			t.Errorf("a step to %v×: the benchmark's drift %+v", tc.step, d.Benchmarks)
		}
		// ScoreOnly (the gate's note, the watch) gives the same score
		// result and no benchmark's.
		so, err := Drift(f, newRuns(x), calibrate.Auto, DriftOptions{ScoreOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(so.Benchmarks) != 0 {
			t.Errorf("ScoreOnly: benchmarks %+v, want none", so.Benchmarks)
		}
		so.Benchmarks = d.Benchmarks
		if !reflect.DeepEqual(so, d) {
			t.Errorf("ScoreOnly: %+v\nwant the full check's score result %+v", so, d)
		}
	}
	// One run far off (a degraded runner) is trimmed from every window
	// that holds it: no drift on its own, last or followed by one more.
	for _, after := range [][]float64{nil, {m}} {
		x := append(append(append([]float64(nil), steady...), m-1), after...)
		d, err = Drift(f, newRuns(x), calibrate.Auto, DriftOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Drift {
			t.Errorf("one run 40 SDs low after steady ones, then %v: drift %v (p %v, h %v)", after, d.Drift, d.P, d.H)
		}
	}
	d, err = Drift(f, newRuns([]float64{m - 1, m - 1}), calibrate.Auto, DriftOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Drift || !d.TooFew {
		t.Errorf("two runs far off: drift %v, too few %v; want too few to tell", d.Drift, d.TooFew)
	}
}

// TestDriftAdvice: a fall is advice to investigate, never to recalibrate,
// and names the runs from the change on that score below every
// calibration run yet at or above the floor (runs the gate passes below
// what it was calibrated on); a rise is advice to recalibrate. Against a
// calibration of 30 runs (sd 0.025), twelve steady runs then five that
// fall: two between the floor and the calibration's lowest score, one
// below the floor, one within the calibration's range, one between again.
func TestDriftAdvice(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 30))
	cal := make([]float64, 30)
	for i := range cal {
		cal[i] = 0.3 + 0.025*rng.NormFloat64()
	}
	f := calibtest.DriftFile(t, cal)
	m, s := stats.Mean(cal), stats.SD(cal)
	lowest, floor := math.Log(f.Observed.Min), math.Log(f.Floor)
	between := (lowest + floor) / 2
	if !(floor < lowest-0.01) {
		t.Fatalf("the floor %v is not clearly below the lowest calibration score %v: the case needs room between them", f.Floor, f.Observed.Min)
	}
	steady := make([]float64, 12)
	for i := range steady {
		steady[i] = m + 0.5*s*float64(1-2*(i%2))
	}
	fell := append(append([]float64(nil), steady...), between, floor-0.01, between, m-s, between-0.001)
	d, err := Drift(f, newRuns(fell), calibrate.Auto, DriftOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"gated-013", "gated-015", "gated-017"}
	if !d.Drift || d.Direction != "down" || d.FromRun != "gated-013" || d.LastRun != "gated-017" || d.Advice != AdviceInvestigate ||
		!slices.Equal(d.PassedBelow, want) || d.CalibrationMin != f.Observed.Min || d.Floor != f.Floor {
		t.Errorf("a fall: drift %v %q from %q to %q, advice %q, passed below %v (want %v), lowest %v, floor %v",
			d.Drift, d.Direction, d.FromRun, d.LastRun, d.Advice, d.PassedBelow, want, d.CalibrationMin, d.Floor)
	}
	rose := append(append([]float64(nil), steady...), m+4*s, m+4*s, m+4*s)
	if d, err = Drift(f, newRuns(rose), calibrate.Auto, DriftOptions{}); err != nil {
		t.Fatal(err)
	}
	if !d.Drift || d.Direction != "up" || d.Advice != AdviceRecalibrate || len(d.PassedBelow) != 0 || d.LastRun != "gated-015" {
		t.Errorf("a rise: drift %v %q, advice %q, passed below %v, last run %q; want up, recalibrate, none, gated-015", d.Drift, d.Direction, d.Advice, d.PassedBelow, d.LastRun)
	}
	if d, err = Drift(f, newRuns(steady), calibrate.Auto, DriftOptions{}); err != nil {
		t.Fatal(err)
	}
	if d.Drift || d.Advice != "" || d.PassedBelow != nil {
		t.Errorf("steady runs: drift %v, advice %q, passed below %v; want no advice", d.Drift, d.Advice, d.PassedBelow)
	}
}

// firstAlarm checks the new log values x against the calibration's cal
// after every run, as gate --drift-window does, and returns the 1-based
// run of the first check that finds drift (0: none).
func firstAlarm(c *stats.ShiftCheck, cal, x []float64) int {
	for t := MinNewRuns; t <= len(x); t++ {
		if r := c.Check(cal, x[:t], DriftDraws); r.P <= DefaultDriftFalseAlarm {
			return t
		}
	}
	return 0
}

// driftSequence draws a calibration of n log scores and runs new ones,
// one stationary AR(1) series (lag-1 autocorrelation rho, sd sd), the new
// runs from step on (1-based; 0: none) lowered by ln 0.92.
func driftSequence(rng *rand.Rand, cal, x []float64, rho, sd float64, step int) {
	c := math.Sqrt(1 - rho*rho)
	prev := rng.NormFloat64()
	for i := range len(cal) + len(x) {
		if i > 0 {
			prev = rho*prev + c*rng.NormFloat64()
		}
		if i < len(cal) {
			cal[i] = sd * prev
			continue
		}
		x[i-len(cal)] = sd * prev
		if step > 0 && i-len(cal)+1 >= step {
			x[i-len(cal)] += math.Log(0.92)
		}
	}
}

// driftRates is the share of reps sequences (calibration of n runs, 20
// new runs checked after each) with a false drift, and with an 8% step
// from new run step found within 5 runs of it; with their binomial SEs.
func driftRates(seed uint64, reps, n int, rho, sd float64, step int) (fa, found, faSE, foundSE float64) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	nulls := stats.NewShiftCheck(n, DefaultDriftRuns, MinNewRuns, 1)
	cal, x := make([]float64, n), make([]float64, DefaultDriftRuns)
	var nf, nd int
	for range reps {
		driftSequence(rng, cal, x, rho, sd, 0)
		if firstAlarm(nulls, cal, x) > 0 {
			nf++
		}
		if step > 0 {
			driftSequence(rng, cal, x, rho, sd, step)
			if t := firstAlarm(nulls, cal, x[:step+4]); t > 0 {
				nd++
			}
		}
	}
	r := float64(reps)
	fa, found = float64(nf)/r, float64(nd)/r
	return fa, found, math.Sqrt(fa * (1 - fa) / r), math.Sqrt(found * (1 - found) / r)
}

// TestDriftMonteCarlo, the quick check (the full one is TestDriftClaims,
// with QOSCAL_SLOW_TESTS=1): over 300 calibrations of 30 independent runs,
// steady runs checked after each of 20 raise a false drift at most 5% of
// the time plus 3 SE (the change-point check raised one in 14–16%), and an
// 8% step from the 6th run at sd 0.025 is found within 5 runs in at least
// 90% of sequences.
func TestDriftMonteCarlo(t *testing.T) {
	const reps = 300
	fa, found, _, _ := driftRates(26, reps, 30, 0, 0.025, 6)
	t.Logf("n = 30, %d sequences: false drift in %.3f within 20 runs; an 8%% step found within 5 runs in %.3f", reps, fa, found)
	if limit := 0.05 + 3*math.Sqrt(0.05*0.95/reps); fa > limit {
		t.Errorf("false drift in %.3f of steady sequences, above %.3f", fa, limit)
	}
	if found < 0.90 {
		t.Errorf("an 8%% step found within 5 runs in %.3f of sequences, want at least 0.90", found)
	}
}

// TestRecent: the last window runs not in the calibration, none when
// fewer than MinNewRuns are.
func TestRecent(t *testing.T) {
	cal := &model.File{Matrix: &model.Matrix{Runs: []string{"c1", "c2"}}}
	var runs []data.Run
	for _, id := range []string{"c1", "n1", "c2", "n2", "n3", "n4"} {
		runs = append(runs, data.Run{ID: id})
	}
	ids := func(rs []data.Run) string {
		var s []string
		for _, r := range rs {
			s = append(s, r.ID)
		}
		return strings.Join(s, ",")
	}
	if got := ids(Recent(cal, runs, 3)); got != "n2,n3,n4" {
		t.Errorf("Recent(window 3) = %s, want n2,n3,n4", got)
	}
	if got := ids(Recent(cal, runs, 10)); got != "n1,n2,n3,n4" {
		t.Errorf("Recent(window 10) = %s, want n1,n2,n3,n4", got)
	}
	if got := Recent(cal, runs[:4], 10); got != nil {
		t.Errorf("two new runs: %v, want none", ids(got))
	}
}
