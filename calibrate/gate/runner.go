package gate

import (
	"math"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/stats"
)

// DegradedZ is the least extreme cut-off of the runner-health z (log
// space, median over benchmarks): the Iglewicz–Hoaglin −3.5, in force
// once the calibration has enough runs (STATS.md 3.4).
const DegradedZ = -3.5

// RunnerFalseFlag is the largest rate at which a healthy run may be
// flagged as on a degraded runner, whatever the number of calibration
// runs n ≥ 2 and the number and correlation of the benchmarks.
const RunnerFalseFlag = 0.005

// Runner-health states (GateResult.RunnerHealth).
const (
	RunnerHealthOK        = "ok"
	RunnerHealthDegraded  = "degraded"
	RunnerHealthUnchecked = "unchecked" // a calibration without a usable baseline history
)

// RunnerCutoff is the cut-off of the median runner-health robust z for
// a history of n calibration runs (STATS.md 3.4): the 0.004-quantile of
// one benchmark's robust z on a healthy run (robustCutoffs), so that a
// healthy run is flagged at most RunnerFalseFlag of the time. For one
// benchmark, or benchmarks that the runner moves together, the median is
// one such z; the median of independent benchmarks' z is flagged less
// often. Never less extreme than DegradedZ; NaN below 2 runs.
func RunnerCutoff(n int) float64 {
	if n < 2 {
		return math.NaN()
	}
	if n-2 < len(robustCutoffs) {
		return robustCutoffs[n-2]
	}
	return DegradedZ
}

// robustCutoffs[n−2] is the 0.004-quantile of the robust z
// (x − med h)/(1.4826·MAD h) for h n i.i.d. normal values and x one more,
// for n = 2…21, from 4M draws each (calibrate/testdata/
// runner_health_robust_table.py; the quantile is below the 0.005 target
// by a margin for Monte Carlo error). From n = 22 on the 0.005-quantile
// is above −3.5, and DegradedZ holds.
var robustCutoffs = []float64{
	-94.49, -138.9, -17.68, -16.23, -8.795, -8.483, -6.363, -6.187, -5.26, -5.156,
	-4.653, -4.617, -4.275, -4.251, -4.021, -3.995, -3.823, -3.805, -3.685, -3.676,
}

// judgeRunner sets each benchmark's row and the runner's health: the
// run's baselines against the calibrated history (STATS.md 3.4).
func (res *GateResult) judgeRunner(rr calibrate.RunRatios, cal *model.File, inSuite map[string]bool, warn func(calibrate.Warning)) {
	var zs []float64
	for _, b := range rr.Names() {
		br := rr.Ratios[b]
		gb := GateBenchmark{BenchmarkRatio: br, InScore: inSuite[b], HealthZ: math.NaN()}
		if cal != nil {
			if h, ok := cal.Health[b]; ok {
				if z, ok := h.Z(math.Log(br.Baseline)); ok {
					if br.Direction == calibrate.LowerIsBetter {
						z = -z // a slower runner takes longer: orient so that negative is slower
					}
					gb.HealthZ = z
					zs = append(zs, z)
				} else {
					res.RunnerFlat = append(res.RunnerFlat, b)
				}
			}
		}
		res.Benchmarks = append(res.Benchmarks, gb)
	}
	if cal == nil {
		return
	}
	hist := cal.Runs
	res.RunnerCutoffZ = RunnerCutoff(hist)
	res.RunnerChecked = len(zs)
	switch {
	case len(zs) == 0 || math.IsNaN(res.RunnerCutoffZ):
		res.RunnerHealth = RunnerHealthUnchecked
		why := calibrate.UncheckedNoSpread
		if len(cal.Health) == 0 {
			why = calibrate.UncheckedNoHistory
		} else if math.IsNaN(res.RunnerCutoffZ) {
			why = calibrate.UncheckedFewRuns
		}
		warn(calibrate.Warning{Kind: calibrate.WarnRunnerUnchecked, Benchmarks: res.RunnerFlat, Figures: calibrate.UncheckedFigures{Why: why, CalibrationRuns: hist}})
	default:
		res.MedianZ = stats.Median(zs)
		res.RunnerDegraded = res.MedianZ < res.RunnerCutoffZ
		res.RunnerHealth = RunnerHealthOK
		if res.RunnerDegraded {
			res.RunnerHealth = RunnerHealthDegraded
		}
		if len(res.RunnerFlat) > 0 {
			warn(calibrate.Warning{Kind: calibrate.WarnRunnerUnchecked, Benchmarks: res.RunnerFlat, Figures: calibrate.UncheckedFigures{Why: calibrate.UncheckedFlat, CalibrationRuns: hist}})
		}
	}
}
