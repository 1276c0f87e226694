package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"
	"github.com/qoscal/qoscal/stats"
)

// fakebenchCmd is the command that runs the test binary as fakebench.
func fakebenchCmd(t testing.TB, args string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "'" + exe + "' " + args
}

// TestInterleavingDrift: on synthetic commands whose times drift during
// the job (a slow trend, its slope drawn for each job from N(0, 0.01) a
// call, shared by both variants, plus noise of SD 0.002), measured with 10
// repetitions, the score's spread across jobs (the SD of its log) is at
// least 3 times smaller with random or alternate interleaving than with
// all of the baseline then all of the candidate (blocks). The same slopes
// and noise serve every order. The figures go to the log (docs/STATS.md
// 2.15 quotes a full-size run: QOSCAL_SLOW_TESTS=1).
func TestInterleavingDrift(t *testing.T) {
	jobs := testenv.Size(40, 6)
	t.Setenv("QOSCAL_FAKEBENCH", "1")
	t.Setenv("FAKEBENCH_NOISE", "0.002")
	rng := rand.New(rand.NewPCG(29, 1))
	slopes := make([]float64, jobs)
	for i := range slopes {
		slopes[i] = 0.01 * rng.NormFloat64()
	}
	work := t.TempDir()
	sd := map[string]float64{}
	for _, order := range []string{"random", "alternate", "blocks"} {
		logs := make([]float64, jobs)
		for j := range jobs {
			state := filepath.Join(work, fmt.Sprintf("%s-%d.state", order, j))
			t.Setenv("FAKEBENCH_STATE", state)
			t.Setenv("FAKEBENCH_SLOPE", strconv.FormatFloat(slopes[j], 'g', -1, 64))
			t.Setenv("FAKEBENCH_SEED", strconv.Itoa(j))
			out := filepath.Join(work, fmt.Sprintf("%s-%d", order, j))
			var stdout, stderr bytes.Buffer
			code := run([]string{"measure", "--variant", "system=" + fakebenchCmd(t, "drift Alloc=100 Free=50"),
				"--variant", "hoard=" + fakebenchCmd(t, "drift Alloc=80 Free=40"), "--repetitions", "10", "--warmup", "0",
				"--order", order, "--seed", strconv.Itoa(j + 1), "--format", "json", "--out", out}, nil, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("%s job %d: exit %d\n%s", order, j, code, stderr.String())
			}
			var doc struct{ Score float64 }
			if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			logs[j] = math.Log(doc.Score)
		}
		sd[order] = stats.SD(logs)
		t.Logf("%-9s: over %d jobs the log score has mean %.4f (true %.4f) and SD %.4f", order, jobs, stats.Mean(logs), math.Log(1.25), sd[order])
	}
	for _, order := range []string{"random", "alternate"} {
		ratio := sd["blocks"] / sd[order]
		t.Logf("blocks / %s: %.1fx", order, ratio)
		if ratio < 3 {
			t.Errorf("%s interleaving: the score's SD across jobs is %.4f, blocks' %.4f: %.1fx smaller, want 3x or more", order, sd[order], sd["blocks"], ratio)
		}
	}
}
