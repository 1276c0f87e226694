package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	calgate "github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/internal/testenv"
	"github.com/qoscal/qoscal/stats"
)

// jobDrift is the model of TestJobDriftSequential: a job effect of SD
// Between, and repetitions whose noise (SD Within) is AR(1) with lag-1
// correlation Rho inside the job, as a machine that drifts during a job
// makes it (fakebench's model with $FAKEBENCH_REP_RHO).
type jobDrift struct {
	Between, Within, Rho float64
	// CalJobs of CalReps repetitions make each calibration.
	CalJobs, CalReps int
}

// trueSDOfMean is the SD of the mean log score of m repetitions of one
// job under the model: √(σ_b² + σ_w²·g(m)/m), g(m) = 1 + 2Σ_h (1 − h/m)ρ^h.
func (d jobDrift) trueSDOfMean(m int) float64 {
	g := 1.0
	for h := 1; h < m; h++ {
		g += 2 * (1 - float64(h)/float64(m)) * math.Pow(d.Rho, float64(h))
	}
	return math.Sqrt(d.Between*d.Between + d.Within*d.Within*g/float64(m))
}

// jobDriftFigures are what the Monte Carlo measured over its calibrations.
type jobDriftFigures struct {
	// Between, Within and Rho are the calibrations' mean estimates.
	Between, Within, Rho float64
	// Claimed is the mean rate the designs spend, Looks their mean cap.
	Claimed, Looks float64
	// CalFails and CalCaught are each calibration's shares.
	CalFails, CalCaught []float64
	// Healthy and Slid are the jobs judged; Fails and Caught how many
	// healthy jobs failed and slid jobs were caught (failed or rerun);
	// HealthyReps and SlidReps the repetitions they took in all.
	Healthy, Slid, Fails, Caught, HealthyReps, SlidReps int
}

// runJobDrift measures cals calibrations of the model through the command
// (measure, then recommend --target-fpr 0.05 --write), and judges healthy
// and slid (by slide) jobs of the same model with each by measure
// --calibration at the design's default cap.
func runJobDrift(t *testing.T, d jobDrift, cals, healthy, slid int, slide float64) jobDriftFigures {
	t.Helper()
	t.Setenv("QOSCAL_FAKEBENCH", "1")
	t.Setenv("FAKEBENCH_NOISY", "hoard")
	t.Setenv("FAKEBENCH_JOB_SD", strconv.FormatFloat(d.Between, 'g', -1, 64))
	t.Setenv("FAKEBENCH_REP_SD", strconv.FormatFloat(d.Within, 'g', -1, 64))
	t.Setenv("FAKEBENCH_REP_RHO", strconv.FormatFloat(d.Rho, 'g', -1, 64))
	var f jobDriftFigures
	for c := range cals {
		work := t.TempDir()
		if err := os.Mkdir(filepath.Join(work, "cal"), 0o755); err != nil {
			t.Fatal(err)
		}
		for j := range d.CalJobs {
			mcJob(t, filepath.Join(work, "cal"), 1_000_000*(c+1)+j, 0, "--repetitions", strconv.Itoa(d.CalReps))
		}
		calPath := filepath.Join(work, "cal.json")
		var stdout, stderr bytes.Buffer
		if code := run([]string{"recommend", "--target-fpr", "0.05", "--write", calPath, filepath.Join(work, "cal")}, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("recommend: exit %d\n%s", code, stderr.String())
		}
		cal, err := model.ReadFile(calPath)
		if err != nil {
			t.Fatal(err)
		}
		M := calgate.DesignRepetitions(cal)
		seq, err := calgate.NewSequential(cal, M, M)
		if err != nil {
			t.Fatal(err)
		}
		v := cal.Variance
		f.Between += v.Between / float64(cals)
		f.Within += v.Within / float64(cals)
		f.Rho += v.Rho / float64(cals)
		f.Claimed += seq.Design().SpentAlpha / float64(cals)
		f.Looks += float64(M) / float64(cals)
		fails, caught := f.Fails, f.Caught
		for j := range healthy {
			verdict, n := mcJob(t, work, 1_000_000*(c+1)+500_000+j, 0, "--calibration", calPath)
			f.Healthy++
			f.HealthyReps += n
			if verdict == calgate.VerdictFail {
				f.Fails++
			}
		}
		for j := range slid {
			verdict, n := mcJob(t, work, 1_000_000*(c+1)+700_000+j, slide, "--calibration", calPath)
			f.Slid++
			f.SlidReps += n
			if verdict != calgate.VerdictPass {
				f.Caught++
			}
		}
		f.CalFails = append(f.CalFails, float64(f.Fails-fails)/float64(healthy))
		f.CalCaught = append(f.CalCaught, float64(f.Caught-caught)/float64(slid))
	}
	return f
}

// TestJobDriftSequential is the Monte Carlo of measure's sequential gate
// on jobs that drift inside themselves, through the command (issue 33,
// item 6; docs/STATS.md 2.17): fakebench's model with a job effect of SD
// 0.01 and repetitions of SD 0.02 that follow an AR(1) of ρ 0.7 inside the
// job. Each calibration is 12 jobs of 10 repetitions (measure's default)
// through measure and recommend --target-fpr 0.05; healthy jobs and jobs 5%
// slower, drawn from the same model, are judged by measure --calibration
// at the design's own cap. It prints the variance components against the
// truth, the repetitions used, the share of slid jobs caught and the
// healthy jobs' false-fail rate beside the rate the design states, and
// checks the two as calibrate/gate's TestSequentialJobDrift does (which
// runs the same procedure in process, at sizes the command cannot reach).
//
// Slow only (QOSCAL_SLOW_TESTS=1): a calibration alone runs fakebench 240
// times, about 3 CPU-seconds; the full size (3 calibrations, 40 healthy
// and 40 slid jobs each) about 35.
func TestJobDriftSequential(t *testing.T) {
	testenv.SkipUnlessSlow(t)
	d := jobDrift{Between: 0.01, Within: 0.02, Rho: 0.7, CalJobs: 12, CalReps: 10}
	cals := testenv.Size(3, 1)
	healthy, slid := testenv.Size(30, 8), testenv.Size(30, 8)
	f := runJobDrift(t, d, cals, healthy, slid, 0.05)
	pf := float64(f.Fails) / float64(f.Healthy)
	pc := float64(f.Caught) / float64(f.Slid)
	// The jobs of one calibration share its estimates: the standard
	// errors take the calibrations as the units (the SD of their shares
	// over √calibrations), at least the binomial SE over all jobs.
	se := func(shares []float64, p float64, n int) float64 {
		return max(stats.SD(shares)/math.Sqrt(float64(len(shares))), math.Sqrt(max(p*(1-p), 1/float64(n))/float64(n)))
	}
	sef, sec := se(f.CalFails, pf, f.Healthy), se(f.CalCaught, pc, f.Slid)
	t.Logf("truth: σ_b %.4f, σ_w %.4f, ρ %.2f; SD of a job's mean of 1 and 10 repetitions %.4f, %.4f", d.Between, d.Within, d.Rho, d.trueSDOfMean(1), d.trueSDOfMean(10))
	t.Logf("%d calibrations: mean σ̂_b %.4f, σ̂_w %.4f, ρ̂ %.3f; cap %.1f repetitions; stated rate %.4f", cals, f.Between, f.Within, f.Rho, f.Looks, f.Claimed)
	t.Logf("healthy jobs: %d of %d failed (%.4f, SE %.4f; stated %.4f), %.2f repetitions on average",
		f.Fails, f.Healthy, pf, sef, f.Claimed, float64(f.HealthyReps)/float64(f.Healthy))
	t.Logf("jobs 5%% slower: %d of %d caught (%.3f, SE %.3f), %.2f repetitions on average",
		f.Caught, f.Slid, pc, sec, float64(f.SlidReps)/float64(f.Slid))
	if pf > f.Claimed+4*sef {
		t.Errorf("healthy jobs fail at %.4f, the design states %.4f (SE %.4f)", pf, f.Claimed, sef)
	}
	if pc < 0.9-4*sec {
		t.Errorf("a 5%% slide is caught %.3f of the time, want 0.90 or more (SE %.3f)", pc, sec)
	}
}
