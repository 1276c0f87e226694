package gate

import (
	"math"
	"testing"

	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/stats"
)

// TestSequentialAllowsCalibrationError: a fourth hostile sweep measured
// the calibrated code itself with --max-repetitions 1000 against a
// calibration whose between-job SD was estimated 0 (12 runs of 3
// repetitions, the sweep's own figures), and the sequential gate failed
// it after about 400 repetitions (at 100, one job in six ended
// undecided): the design took the calibration's mean as exact, and its
// fail boundary closed in on it (0.22% under it at look 1,000). With 150
// looks, a job whose mean is 2.5 standard errors of the calibration's
// mean below that mean (every healthy job, under one calibration in 160)
// is now failed at no look; before, at look 100.
func TestSequentialAllowsCalibrationError(t *testing.T) {
	cal := &model.File{Path: "cal.json"}
	cal.FPR.Predictive = 0.00083
	cal.Observed.SDLog = 0.0062768
	cal.Variance = &model.FileVariance{Between: 0, Within: 0.0078574, MeanLog: 0.2642480, Runs: 12, Repetitions: 36}
	s, err := NewSequential(cal, 150, 3)
	if err != nil {
		t.Fatal(err)
	}
	x := -2.5 * cal.Observed.SDLog / math.Sqrt(12)
	for k := 1; k <= s.design.Last; k++ {
		if got := s.design.Decide(k, x); got == stats.SeqFail {
			t.Fatalf("look %d: a job %.4f under the calibration's mean fails (fail boundary %.4f under it)", k, -x, s.design.Fail[k-1])
		}
	}
	t.Logf("the last look's fail boundary: %.4f under the calibration's mean", s.design.Fail[s.design.Last-1])
}
