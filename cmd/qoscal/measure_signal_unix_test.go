//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMeasureStopSignals: a third hostile sweep sent SIGHUP and SIGQUIT to
// `qoscal measure` while a variant ran; qoscal died at once (SIGQUIT with
// a goroutine dump), its variant kept running, and the temporary run
// folder stayed. Every stop signal now ends a measurement as SIGINT does:
// exit 2 with "interrupted", the command's process gone, and nothing left
// in the folder the run folder would go to.
func TestMeasureStopSignals(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "variant.pid")
			variant := "'" + exe + "' hangpid '" + pidFile + "'"
			cmd := exec.Command(exe, "measure", "--variant", "base="+variant, "--variant", "cand="+variant,
				"--repetitions", "1", "--warmup", "0", "--out", filepath.Join(dir, "out", "run"))
			cmd.Env = append(os.Environ(), "QOSCAL_RUN_MAIN=1", "QOSCAL_FAKEBENCH=1", "GITHUB_ACTIONS=")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := waitPID(t, pidFile)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitInput {
				t.Fatalf("after %v qoscal ended with %v, want exit %d; stderr:\n%s", sig, err, exitInput, stderr.String())
			}
			if !strings.Contains(stderr.String(), "interrupted") || strings.Contains(stderr.String(), "goroutine") {
				t.Errorf("after %v, stderr:\n%s\nwant the interruption said, and no goroutine dump", sig, stderr.String())
			}
			if left, _ := os.ReadDir(filepath.Join(dir, "out")); len(left) > 0 {
				t.Errorf("after %v the output folder holds %v, want nothing", sig, left)
			}
			if alive(pid, 30*time.Second) {
				t.Errorf("after %v the variant's process %d still runs", sig, pid)
			}
		})
	}
}

// waitPID waits up to 30 s for the variant to write its process id.
func waitPID(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err != nil || len(b) == 0 {
			continue
		}
		if pid, err := strconv.Atoi(string(b)); err == nil {
			return pid
		}
	}
	t.Fatal("the variant never started")
	return 0
}

// alive says whether process pid still runs after waiting up to wait for
// it to go (a zombie not yet reaped by its new parent counts as gone).
func alive(pid int, wait time.Duration) bool {
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); err != nil {
			return false
		}
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
				return false
			}
		}
		if time.Now().After(deadline) {
			return true
		}
	}
}
