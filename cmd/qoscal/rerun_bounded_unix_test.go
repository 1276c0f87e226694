//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qoscal/qoscal/internal/rerun"
)

// TestGateRerunBounded: a fourth hostile sweep found that gate
// --rerun-command could hang the job or read without bounds: a command
// that never ends (no timeout existed), one that exits while a background
// child it started keeps its output pipe open (a bench script that starts
// a server), and one that swaps a result file for a FIFO or a symbolic
// link to /dev/zero (the check of the files after the command read them
// with os.ReadFile, without the check of file kinds the first read has).
// Each must now end within seconds: the first two kill the command's
// process group (the background child is gone afterwards), the last two
// are refused with exit 2 naming the file. Each case runs qoscal with a
// bound of 2 minutes (generous: a busy machine must not fail it); before
// the fix every one of them hung until killed. A command that
// printed 100 MB without a newline was held whole (454 MB resident) and
// echoed as one line: a line is now cut at rerun.LineBytes, its rest
// counted, and qoscal's memory stays far below the line's size.
func TestGateRerunBounded(t *testing.T) {
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
	regressed2 := filepath.Join(samples, "regressed", "run-02")
	for _, c := range []struct {
		name    string
		command string   // run in the case's folder; the run is ./run
		flags   []string // more gate flags
		code    int
		stderr  string // a regexp stderr must match
		pidFile bool   // the command's child writes its pid to ./child.pid: it must be gone
		maxRSS  int64  // if > 0, the most qoscal may have resident, in bytes (Linux)
	}{{
		name:    "timeout",
		command: `"$QOSCAL_EXE" hangpid child.pid`,
		// Long enough for the command's child to have written its pid
		// however busy the machine.
		flags:   []string{"--rerun-timeout", "5s"},
		code:    exitInput,
		stderr:  `(?m)^qoscal: error: --rerun-command .* timed out after 5s \(killed with its process group; --rerun-timeout sets the limit\): the run was not measured again$`,
		pidFile: true,
	}, {
		name:    "background-child",
		command: `("$QOSCAL_EXE" hangpid child.pid &); cp '` + regressed2 + `'/* run/`,
		code:    exitRegression,
		stderr:  `(?m)^qoscal: rerun: read run[/\\]baseline.txt, run[/\\]mimalloc.txt again as run run-rerun$`,
		pidFile: true,
	}, {
		name:    "fifo",
		command: `rm run/mimalloc.txt; mkfifo run/mimalloc.txt`,
		code:    exitInput,
		stderr:  `(?m)^qoscal: error: --rerun-command .*: run[/\\]mimalloc.txt: not a regular file but a named pipe \(FIFO\): expected a result file`,
	}, {
		name:    "dev-zero",
		command: `rm run/mimalloc.txt; ln -s /dev/zero run/mimalloc.txt`,
		code:    exitInput,
		stderr:  `(?m)^qoscal: error: --rerun-command .*: run[/\\]mimalloc.txt: not a regular file but a character device: expected a result file`,
	}, {
		name:    "long-line",
		command: `head -c 50000000 /dev/zero | tr '\0' a; cp '` + regressed2 + `'/* run/`,
		code:    exitRegression,
		stderr:  `(?m)^qoscal: rerun: ` + strings.Repeat("a{512}", rerun.LineBytes/512) + `… \(49995904 more bytes\)$`,
		maxRSS:  100 << 20,
	}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cdir := t.TempDir()
			run := filepath.Join(cdir, "run")
			if err := os.Mkdir(run, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"baseline.txt", "mimalloc.txt"} {
				b, err := os.ReadFile(filepath.Join(samples, "regressed", "run-01", f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(run, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			args := append([]string{"gate", "--rerun-band", "0.05", "--rerun-command", c.command, "--calibration", cal,
				"--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt"}, c.flags...)
			cmd := qoscalCmd(ctx, exe, cdir, append(args, "run")...)
			cmd.Env = append(cmd.Env, "QOSCAL_STATUS_FILE="+filepath.Join(cdir, "status"))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			// qoscal's own output pipe must not keep this test waiting
			// should a child of the command hold it.
			cmd.WaitDelay = time.Second
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			if ctx.Err() != nil {
				t.Fatalf("gate still ran after %v: killed; stderr:\n%s", took.Round(time.Second), stderr.String())
			}
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
			if !regexp.MustCompile(c.stderr).MatchString(stderr.String()) {
				t.Errorf("stderr:\n%s\nwant a match for %s", stderr.String(), c.stderr)
			}
			for _, l := range strings.Split(stderr.String(), "\n") {
				if len(l) > 2*rerun.LineBytes {
					t.Errorf("stderr has a line of %d bytes, want at most about %d", len(l), rerun.LineBytes)
					break
				}
			}
			if c.maxRSS > 0 && runtime.GOOS == "linux" {
				if rss := peakRSS(t, filepath.Join(cdir, "status")); rss > c.maxRSS {
					t.Errorf("qoscal's peak resident memory was %d MB, want at most %d MB", rss>>20, c.maxRSS>>20)
				}
			}
			if c.pidFile {
				pid := waitPID(t, filepath.Join(cdir, "child.pid"))
				if alive(pid, 30*time.Second) {
					t.Errorf("the command's child %d still runs after the gate ended", pid)
				}
			}
		})
	}
}

// init runs the test binary as qoscal, as TestMain does, when a test asks
// for its /proc/self/status as it ends (QOSCAL_STATUS_FILE): its VmHWM is
// qoscal's peak resident memory. (The rusage of a process that Go
// started counts the parent's memory: Go's fork shares the parent's
// memory until exec, and Linux keeps the larger high-water mark.)
func init() {
	status := os.Getenv("QOSCAL_STATUS_FILE")
	if status == "" || os.Getenv("QOSCAL_RUN_MAIN") != "1" {
		return
	}
	os.Unsetenv("QOSCAL_RUN_MAIN")
	os.Unsetenv("QOSCAL_STATUS_FILE")
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		os.WriteFile(status, b, 0o644)
	}
	os.Exit(code)
}

// peakRSS reads the peak resident memory, in bytes, from a copy of
// /proc/self/status.
func peakRSS(t *testing.T, status string) int64 {
	t.Helper()
	b, err := os.ReadFile(status)
	if err != nil {
		t.Fatalf("qoscal wrote no status: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in %s", status)
	return 0
}

// qoscalCmd runs the test binary as qoscal in folder dir; QOSCAL_EXE
// names it for the commands qoscal runs, to which it is fakebench.
func qoscalCmd(ctx context.Context, exe, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "QOSCAL_RUN_MAIN=1", "QOSCAL_FAKEBENCH=1", "QOSCAL_EXE="+exe, "GITHUB_ACTIONS=", "QOSCAL_DB=",
		"GITHUB_STEP_SUMMARY=", "GITHUB_OUTPUT=", "SOURCE_DATE_EPOCH=1796112000")
	return cmd
}

// TestGateRerunInterrupted: the rerun command runs in a process group of
// its own, which a terminal's Ctrl-C or a CI runner's cancellation no
// longer reaches; a stop signal to qoscal must still end it, as it ends
// measure's commands: the command's group killed, exit 2 saying it was
// interrupted, and no process of the command left running.
func TestGateRerunInterrupted(t *testing.T) {
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
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			cdir := t.TempDir()
			run := filepath.Join(cdir, "run")
			if err := os.Mkdir(run, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"baseline.txt", "mimalloc.txt"} {
				b, err := os.ReadFile(filepath.Join(samples, "regressed", "run-01", f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(run, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := qoscalCmd(ctx, exe, cdir, "gate", "--rerun-band", "0.05", "--rerun-command", `"$QOSCAL_EXE" hangpid child.pid`,
				"--calibration", cal, "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", "run")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cmd.WaitDelay = time.Second
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := waitPID(t, filepath.Join(cdir, "child.pid"))
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitInput {
				t.Errorf("after %v qoscal ended with %v, want exit %d; stderr:\n%s", sig, err, exitInput, stderr.String())
			}
			want := regexp.MustCompile(`(?m)^qoscal: error: --rerun-command .* was interrupted \(killed with its process group\): the run was not measured again$`)
			if !want.MatchString(stderr.String()) {
				t.Errorf("stderr:\n%s\nwant a match for %s", stderr.String(), want)
			}
			if alive(pid, 30*time.Second) {
				t.Errorf("after %v the rerun command's process %d still runs", sig, pid)
				syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
}
