package main

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// mcJob runs one job through the command: qoscal measure with args, the
// benchmark fakebench's model with the job's seed, a fresh call counter
// and the given slide; it returns the verdict and the repetitions run.
func mcJob(t *testing.T, work string, seed int, slide float64, args ...string) (verdict string, reps int) {
	t.Helper()
	out := filepath.Join(work, fmt.Sprintf("job-%d-%g-%d", seed, slide, len(args)))
	t.Setenv("FAKEBENCH_SEED", strconv.Itoa(seed))
	t.Setenv("FAKEBENCH_STATE", out+".state")
	t.Setenv("FAKEBENCH_SLIDE", strconv.FormatFloat(slide, 'g', -1, 64))
	var stdout, stderr bytes.Buffer
	all := append([]string{"measure", "--variant", "system=" + fakebenchCmd(t, "model Alloc=100 Free=50"),
		"--variant", "hoard=" + fakebenchCmd(t, fmt.Sprintf("model Alloc=%g Free=%g", 100*mcRatio, 50*mcRatio)),
		"--warmup", "0", "--seed", strconv.Itoa(seed), "--format", "json", "--out", out}, args...)
	code := run(all, nil, &stdout, &stderr)
	if code == exitInput {
		t.Fatalf("%v: exit 2\n%s", all, stderr.String())
	}
	var doc struct {
		Verdict     string
		Repetitions int
		Score       float64
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	if doc.Verdict == "" { // a plain measurement: judge it with gate
		stdout.Reset()
		run([]string{"gate", "--calibration", filepath.Join(work, "cal.json"), "--format", "json", out}, nil, &stdout, &stderr)
		if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
			t.Fatalf("gate: %v\n%s", err, stderr.String())
		}
	}
	return doc.Verdict, doc.Repetitions
}

// mcRatio is the candidate's time over the baseline's in the Monte Carlo
// jobs, before the job effect and the repetition's noise: a score of 1.25.
var mcRatio = 0.8

// TestSequentialClaimsThroughCommand is the Monte Carlo of the sequential
// gate's claims, through the command (docs/STATS.md 2.16). A calibration
// is measured (12 jobs of 4 repetitions, fakebench's model: a job effect
// of SD 0.01 and a repetition's of 0.02 on the log score) and written by
// recommend (--target-fpr 0.05, so that its rate is within reach of a few
// hundred jobs); the jobs judged then are drawn from the calibration's own
// model (its variance components and mean as the truth), so that what is
// checked is the procedure, not the calibration's luck:
//
//   - healthy jobs fail at the claimed rate (the design's, the calibration's
//     predictive rate), within 4 standard errors, and stop on average well
//     before the limit of 6 repetitions;
//   - a job slid by a fixed run's r90 (6 repetitions judged once against
//     the floor for their mean, 2.15) is caught (failed or rerun) nine times
//     in ten or more by the sequential gate, no less often than by that
//     fixed run: its r90 is no worse; and at the fixed run's r50, half the
//     time or more.
//
// Behind QOSCAL_SLOW_TESTS at full size (1,200 healthy jobs, 250 slid
// ones at each slide); a quick version checks the same on a few jobs.
func TestSequentialClaimsThroughCommand(t *testing.T) {
	healthy, slid := testenv.Size(1200, 12), testenv.Size(250, 6)
	work := t.TempDir()
	t.Setenv("QOSCAL_FAKEBENCH", "1")
	t.Setenv("FAKEBENCH_NOISY", "hoard")
	t.Setenv("FAKEBENCH_JOB_SD", "0.01")
	t.Setenv("FAKEBENCH_REP_SD", "0.02")
	if err := os.Mkdir(filepath.Join(work, "cal"), 0o755); err != nil {
		t.Fatal(err)
	}
	for j := 1; j <= 12; j++ {
		mcJob(t, filepath.Join(work, "cal"), 10000+j, 0, "--repetitions", "4")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"recommend", "--target-fpr", "0.05", "--write", filepath.Join(work, "cal.json"), filepath.Join(work, "cal")}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("recommend: exit %d\n%s", code, stderr.String())
	}
	cal, err := model.ReadFile(filepath.Join(work, "cal.json"))
	if err != nil {
		t.Fatal(err)
	}
	const M = 6
	v := cal.Variance
	// The jobs to judge come from the calibration's model.
	t.Setenv("FAKEBENCH_JOB_SD", strconv.FormatFloat(v.Between, 'g', -1, 64))
	t.Setenv("FAKEBENCH_REP_SD", strconv.FormatFloat(v.Within, 'g', -1, 64))
	mcRatio = math.Exp(-v.MeanLog)
	defer func() { mcRatio = 0.8 }()
	seq, err := calgate.NewSequential(cal, M, M)
	if err != nil {
		t.Fatal(err)
	}
	alpha := seq.Design().SpentAlpha
	d := (cal.Observed.MeanLog - math.Log(cal.Floor)) / cal.Observed.SDLog
	sdM := v.SDOfMean(M)
	r90 := -math.Expm1(-(d + stats.NormalQuantile(0.9)) * sdM)
	r50 := -math.Expm1(-d * sdM)
	t.Logf("calibration: floor %s, claimed rate %.4f, σb %.4f σw %.4f; design: slide %.4f, %d looks; a fixed run of %d repetitions: r50 %.4f, r90 %.4f",
		cal.FloorText, float64(cal.FPR.Predictive), v.Between, v.Within, -math.Expm1(-seq.Design().Slide), seq.Design().Last, M, r50, r90)

	fails, reruns, reps := 0, 0, 0
	for j := range healthy {
		verdict, n := mcJob(t, work, j+1, 0, "--calibration", filepath.Join(work, "cal.json"), "--max-repetitions", strconv.Itoa(M))
		reps += n
		switch verdict {
		case calgate.VerdictFail:
			fails++
		case calgate.VerdictRerun:
			reruns++
		}
	}
	rate := float64(fails) / float64(healthy)
	se := math.Sqrt(alpha * (1 - alpha) / float64(healthy))
	meanReps := float64(reps) / float64(healthy)
	t.Logf("healthy jobs: %d of %d failed (%.4f, claimed %.4f ± %.4f), %d rerun, %.2f repetitions on average (limit %d)", fails, healthy, rate, alpha, se, reruns, meanReps, M)
	if math.Abs(rate-alpha) > 4*se+0.5/float64(healthy) {
		t.Errorf("healthy jobs fail at %.4f, the gate claims %.4f (standard error %.4f)", rate, alpha, se)
	}
	if !(meanReps < 0.75*M) {
		t.Errorf("healthy jobs take %.2f repetitions on average: the gate should stop well before the limit of %d", meanReps, M)
	}

	for _, c := range []struct {
		name  string
		slide float64
		want  float64
	}{{"r90", r90, 0.9}, {"r50", r50, 0.5}} {
		seqCaught, seqFailed, fixedFailed, seqReps := 0, 0, 0, 0
		for j := range slid {
			verdict, n := mcJob(t, work, 50000+j, c.slide, "--calibration", filepath.Join(work, "cal.json"), "--max-repetitions", strconv.Itoa(M))
			seqReps += n
			if verdict != calgate.VerdictPass {
				seqCaught++
			}
			if verdict == calgate.VerdictFail {
				seqFailed++
			}
			if verdict, _ := mcJob(t, work, 50000+j, c.slide, "--repetitions", strconv.Itoa(M)); verdict == calgate.VerdictFail {
				fixedFailed++
			}
		}
		n := float64(slid)
		pSeq, pFixed := float64(seqCaught)/n, float64(fixedFailed)/n
		se := math.Sqrt(c.want * (1 - c.want) / n)
		t.Logf("jobs slid by the fixed run's %s (%.4f): the sequential gate catches %.3f (fails %.3f) in %.2f repetitions on average; the fixed run of %d fails %.3f (SE %.3f)",
			c.name, c.slide, pSeq, float64(seqFailed)/n, float64(seqReps)/n, M, pFixed, se)
		if pSeq < c.want-4*se {
			t.Errorf("at the fixed run's %s the sequential gate catches %.3f of slid jobs: want %.2f or more", c.name, pSeq, c.want)
		}
		if pSeq < pFixed-4*math.Sqrt(2)*se {
			t.Errorf("at the fixed run's %s the sequential gate catches %.3f, the fixed run %.3f: its %s is worse", c.name, pSeq, pFixed, c.name)
		}
	}
}
