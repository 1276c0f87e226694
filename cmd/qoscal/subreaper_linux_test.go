package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSetsidChildEnded: issue 35 item 8. A child that calls setsid()
// leaves the process group that qoscal kills, and outlived measure and
// gate --rerun-command. On Linux qoscal is the subreaper of what it
// starts (PR_SET_CHILD_SUBREAPER), and ends every descendant when the
// command ends or times out.
func TestSetsidChildEnded(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	samples, err := filepath.Abs("../../data/samples/linux-glibc-vs-mimalloc")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cal := filepath.Join(dir, "settled.json")
	if out, err := qoscalCmd(context.Background(), exe, dir, "recommend", "--write", cal,
		"--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", filepath.Join(samples, "healthy")).CombinedOutput(); err != nil {
		t.Fatalf("recommend: %v\n%s", err, out)
	}
	regressed := filepath.Join(samples, "regressed")
	escape := `'` + exe + `' escape `
	for _, c := range []struct {
		name string
		args []string
		code int
	}{{
		name: "measure-ends",
		args: []string{"measure", "--variant", "a=" + escape + "child.pid A=100", "--variant", "b=" + escape + "child.pid A=90",
			"--order", "alternate", "--repetitions", "1", "--warmup", "0", "--seed", "1", "--out", "run"},
	}, {
		name: "measure-timeout",
		args: []string{"measure", "--variant", "a=" + escape + "child.pid hang", "--variant", "b=" + escape + "child.pid hang",
			"--order", "alternate", "--repetitions", "1", "--warmup", "0", "--timeout", "2s", "--seed", "1", "--out", "run"},
		code: exitInput,
	}, {
		name: "gate-rerun",
		args: []string{"gate", "--rerun-band", "0.05", "--rerun-command", `"$QOSCAL_EXE" escape child.pid; cp '` + filepath.Join(regressed, "run-02") + `'/* run/`,
			"--calibration", cal, "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", "run"},
		code: exitRegression,
	}, {
		name: "gate-rerun-timeout",
		args: []string{"gate", "--rerun-band", "0.05", "--rerun-timeout", "2s", "--rerun-command", `"$QOSCAL_EXE" escape child.pid hang`,
			"--calibration", cal, "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", "run"},
		code: exitInput,
	}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cdir := t.TempDir()
			if c.args[0] == "gate" {
				run := filepath.Join(cdir, "run")
				if err := os.Mkdir(run, 0o755); err != nil {
					t.Fatal(err)
				}
				for _, f := range []string{"baseline.txt", "mimalloc.txt"} {
					b, err := os.ReadFile(filepath.Join(regressed, "run-01", f))
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(run, f), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := qoscalCmd(ctx, exe, cdir, c.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cmd.WaitDelay = time.Second
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr.String())
			}
			pid := waitPID(t, filepath.Join(cdir, "child.pid"))
			if alive(pid, 5*time.Second) {
				t.Errorf("the command's setsid child %d still runs after qoscal ended; stderr:\n%s", pid, stderr.String())
				syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
}
