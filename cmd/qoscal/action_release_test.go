package main

// The action's fast path (issue 36): at a release tag the action downloads
// the release's archive for the runner, checks it against the SHA-256 its
// own checkout pins (release/checksums/TAG.txt), unpacks and runs it; a
// mismatch fails the step naming both hashes and runs nothing; a 404 or a
// server that does not answer falls back to the build with one line. The
// archives are served here by an HTTP server on 127.0.0.1 (the action's
// release-url input), and hold this test binary as qoscal (TestMain runs
// it as qoscal, with QOSCAL_RUN_MAIN=1 under another name); the slow
// release test (release_test.go) runs the real linux/amd64 archive through
// the same steps.

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/internal/archive"
)

// runnerArch is runner.arch for this machine, "" where the action has
// no release archive.
func runnerArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "X64"
	case "arm64":
		return "ARM64"
	}
	return ""
}

// testArchive packs this test binary as a release archive would hold
// qoscal (exe: qoscal or qoscal.exe; name ends in .tar.gz or .zip).
func testArchive(t *testing.T, name, exe string) []byte {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	dir := t.TempDir()
	out := filepath.Join(dir, name)
	files := []archive.File{{Name: exe, Path: self, Executable: true},
		{Name: "README.md", Path: filepath.Join(root, "README.md")}, {Name: "LICENSE", Path: filepath.Join(root, "LICENSE")}}
	if err := archive.WriteLevel(out, files, time.Unix(1796000000, 0), flate.BestSpeed); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// releaseAction is an action checkout at tag whose release/checksums
// file pins sums (archive name: SHA-256), and nothing else: the fast
// path reads nothing else of it, and the fallback's build is the cache
// stand-in's.
func releaseAction(t *testing.T, tag string, sums map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), tag)
	var b strings.Builder
	for name, sum := range sums {
		fmt.Fprintf(&b, "%s  %s\n", sum, name)
	}
	if err := os.MkdirAll(filepath.Join(dir, "release", "checksums"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "release", "checksums", tag+".txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fastPathRun runs the action at tag against the server at url with the
// worked example's files and floor 1.25 (a pass).
func fastPathRun(t *testing.T, actionDir, tag, url, os_, timeout string, cache *actionCache) *actionRun {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	a, root := readAction(t)
	dir := copySample(t, filepath.Join(root, "data", "samples", "windows-hoard-first-measurement"))
	inputs := map[string]string{"baseline": "system=baseline.txt", "candidate": "hoard=hoard.txt", "floor": "1.25",
		"release-url": url, "download-timeout": timeout}
	r := &actionRun{t: t, a: a, root: actionDir, cache: cache, inputs: inputs, dir: dir, actionRef: tag,
		runner:  map[string]string{"os": os_, "arch": runnerArch(), "temp": t.TempDir()},
		summary: filepath.Join(dir, "summary.md"),
		// The archive's qoscal is this test binary: run as qoscal whatever
		// its name (qoscal.exe).
		env: []string{"QOSCAL_RUN_MAIN=1"}}
	r.runAction(bash)
	return r
}

// stepLog is what one step printed in the run's log.
func stepLog(log, name string) string {
	i := strings.Index(log, ": "+name+"\n")
	if i < 0 {
		return ""
	}
	rest := log[i+len(name)+3:]
	if j := strings.Index(rest, "\n== step "); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}

// checkFastPath checks a run that took the fast path: the archive's
// qoscal answered --version and gated, nothing was built or restored.
// It returns the time from the first step's start to --version
// answering (the end of the download step, which runs it last).
func checkFastPath(t *testing.T, r *actionRun, wantVersion string) time.Duration {
	t.Helper()
	log := r.logs.String()
	if r.exit != 0 {
		t.Fatalf("exit %d, want 0; log:\n%s", r.exit, log)
	}
	if r.steps["release"]["ready"] != "true" {
		t.Fatalf("the release was not taken; log:\n%s", log)
	}
	if got := stepLog(log, "Download the qoscal release"); !regexp.MustCompile(`(?m)^qoscal ` + regexp.QuoteMeta(wantVersion) + `$`).MatchString(got) {
		t.Errorf("the download step's qoscal --version said %q, want qoscal %s", got, wantVersion)
	}
	for _, id := range []string{"key", "cache"} {
		if _, ran := r.steps[id]; ran {
			t.Errorf("step %s ran on the fast path; log:\n%s", id, log)
		}
	}
	if !strings.Contains(log, "PASS: hoard is 1.55x system") {
		t.Errorf("the gate did not pass with the downloaded qoscal; log:\n%s", log)
	}
	return r.stepTime["where"] + r.stepTime["release"]
}

func TestActionFastPath(t *testing.T) {
	if runnerArch() == "" {
		t.Skipf("no release archive for %s", runtime.GOARCH)
	}
	if runtime.GOOS != "linux" {
		t.Skip("the archives served are this test binary's, which runs on linux only as the Linux runner's")
	}
	const tag = "v9.9.9"
	arch := map[string]string{"X64": "amd64", "ARM64": "arm64"}[runnerArch()]
	tgz := "qoscal_9.9.9_linux_" + arch + ".tar.gz"
	zipName := "qoscal_9.9.9_windows_" + arch + ".zip"
	good := map[string][]byte{tgz: testArchive(t, tgz, "qoscal")}
	if _, err := exec.LookPath("unzip"); err == nil {
		good[zipName] = testArchive(t, zipName, "qoscal.exe")
	}
	pins := map[string]string{}
	for n, b := range good {
		pins[n] = sha256hex(b)
	}
	serve := func(files map[string][]byte) *httptest.Server {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			name, ok := strings.CutPrefix(req.URL.Path, "/releases/"+tag+"/")
			b, found := files[name]
			if !ok || !found {
				http.NotFound(w, req)
				return
			}
			w.Write(b)
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	standIn := func() *actionCache { return &actionCache{saved: map[string]bool{}, standIn: true} }

	t.Run("downloaded, verified and run", func(t *testing.T) {
		srv := serve(good)
		r := fastPathRun(t, releaseAction(t, tag, pins), tag, srv.URL+"/releases", "Linux", "30", standIn())
		d := checkFastPath(t, r, "0.0.0-dev")
		t.Logf("fast path, a %.1f MB archive (this test binary): %.2f s from the first step's start to qoscal --version answering",
			float64(len(good[tgz]))/1e6, d.Seconds())
	})

	t.Run("the Windows runner's zip", func(t *testing.T) {
		if good[zipName] == nil {
			t.Skip("no unzip here (the Windows runner's Git Bash has it)")
		}
		srv := serve(good)
		r := fastPathRun(t, releaseAction(t, tag, pins), tag, srv.URL+"/releases", "Windows", "30", standIn())
		checkFastPath(t, r, "0.0.0-dev")
		if !strings.HasSuffix(r.steps["where"]["bin"], "qoscal.exe") {
			t.Errorf("on Windows the binary is %q, want qoscal.exe", r.steps["where"]["bin"])
		}
	})

	t.Run("a tampered archive fails, naming both hashes, and runs nothing", func(t *testing.T) {
		bad := bytes.Clone(good[tgz])
		bad[len(bad)/2] ^= 0x01
		srv := serve(map[string][]byte{tgz: bad})
		r := fastPathRun(t, releaseAction(t, tag, pins), tag, srv.URL+"/releases", "Linux", "30", standIn())
		log := r.logs.String()
		if r.exit != 1 {
			t.Fatalf("exit %d, want 1; log:\n%s", r.exit, log)
		}
		want := fmt.Sprintf("::error title=qoscal action::%s from %s/releases/%s/%s has SHA-256 %s, but release/checksums/%s.txt pins %s: not run",
			tgz, srv.URL, tag, tgz, sha256hex(bad), tag, pins[tgz])
		if !strings.Contains(log, want+"\n") {
			t.Errorf("the log lacks\n%s\nlog:\n%s", want, log)
		}
		if len(r.steps) != 2 || strings.Count(log, "== step ") != 2 {
			t.Errorf("steps after the failed download ran: %v; log:\n%s", r.steps, log)
		}
		if _, err := os.Stat(r.steps["where"]["bin"]); err == nil {
			t.Errorf("%s exists: the tampered archive was unpacked", r.steps["where"]["bin"])
		}
	})

	// fellBack checks a run that fell back to the build: one line saying
	// why, then the build's steps (restored by the cache stand-in) and a
	// passing gate.
	fellBack := func(t *testing.T, r *actionRun, why string) {
		t.Helper()
		log := r.logs.String()
		if r.exit != 0 {
			t.Fatalf("exit %d, want 0; log:\n%s", r.exit, log)
		}
		got := stepLog(log, "Download the qoscal release")
		if !regexp.MustCompile(`^qoscal: ` + why + `: building qoscal from source instead\n$`).MatchString(got) {
			t.Errorf("the download step said %q, want one line matching %s", got, why)
		}
		if r.steps["key"]["key"] == "" || r.steps["cache"]["cache-hit"] != "true" {
			t.Errorf("the build's steps did not run: %v", r.steps)
		}
		if !strings.Contains(log, "PASS: hoard is 1.55x system") {
			t.Errorf("the gate did not pass; log:\n%s", log)
		}
	}

	t.Run("a 404 falls back to the build", func(t *testing.T) {
		srv := serve(nil)
		r := fastPathRun(t, releaseAction(t, tag, pins), tag, srv.URL+"/releases", "Linux", "30", standIn())
		fellBack(t, r, regexp.QuoteMeta(srv.URL+"/releases/"+tag+"/"+tgz)+` answered HTTP 404 \(tries: 1\)`)
	})

	t.Run("a server that never answers: the build, within the bound", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var conns []net.Conn
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				conns = append(conns, c) // held open, never answered
			}
		}()
		t.Cleanup(func() {
			ln.Close()
			<-done
			for _, c := range conns {
				c.Close()
			}
		})
		r := fastPathRun(t, releaseAction(t, tag, pins), tag, "http://"+ln.Addr().String()+"/releases", "Linux", "1", standIn())
		fellBack(t, r, regexp.QuoteMeta("http://"+ln.Addr().String()+"/releases/"+tag+"/"+tgz)+` did not answer within 1 s \(tries: 2\)`)
		// Two tries of 1 s each; the rest is slack for a busy machine.
		if d := r.stepTime["release"]; d > 30*time.Second {
			t.Errorf("the download step took %v, bounded by two tries of 1 s", d)
		}
		t.Logf("a server that never answers: the download step gave up after %.1f s (download-timeout 1, two tries)", r.stepTime["release"].Seconds())
	})

	t.Run("a tag without a pinned checksums file builds", func(t *testing.T) {
		srv := serve(good)
		actionDir := releaseAction(t, tag, pins)
		r := fastPathRun(t, actionDir, "v9.9.8", srv.URL+"/releases", "Linux", "30", standIn())
		if _, ran := r.steps["release"]; ran || r.steps["cache"]["cache-hit"] != "true" || r.exit != 0 {
			t.Errorf("at a tag with no checksums file: steps %v, exit %d, want the build's; log:\n%s", r.steps, r.exit, r.logs.String())
		}
	})

	t.Run("a checksums file that pins nothing for the runner builds", func(t *testing.T) {
		srv := serve(good)
		r := fastPathRun(t, releaseAction(t, tag, map[string]string{"qoscal_9.9.9_plan9_amd64.tar.gz": pins[tgz]}), tag, srv.URL+"/releases", "Linux", "30", standIn())
		fellBack(t, r, `release/checksums/v9\.9\.9\.txt pins no SHA-256 for `+regexp.QuoteMeta(tgz))
	})
}

// TestActionCacheKey measures the cache key's step on this repository:
// one hashing process over the sources (it started one cat a file, 299
// processes and 6 s), counted through wrappers of the hashing commands
// on PATH, and its time logged (the target: 0.5 s).
func TestActionCacheKey(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	a, root := readAction(t)
	wrap := t.TempDir()
	calls := filepath.Join(wrap, "calls")
	for _, cmd := range []string{"cat", "cksum", "sha256sum", "shasum", "md5sum"} {
		real, err := exec.LookPath(cmd)
		if err != nil {
			continue
		}
		script := fmt.Sprintf("#!/bin/sh\necho %s >>%q\nexec %q \"$@\"\n", cmd, calls, real)
		if err := os.WriteFile(filepath.Join(wrap, cmd), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := copySample(t, filepath.Join(root, "data", "samples", "windows-hoard-first-measurement"))
	r := &actionRun{t: t, a: a, root: root, cache: &actionCache{saved: map[string]bool{}, standIn: true},
		inputs: map[string]string{"baseline": "system=baseline.txt", "candidate": "hoard=hoard.txt", "floor": "1.25"}, dir: dir,
		runner:  map[string]string{"os": "Linux", "arch": runnerArch(), "temp": t.TempDir()},
		summary: filepath.Join(dir, "summary.md"),
		env:     []string{"PATH=" + wrap + string(os.PathListSeparator) + os.Getenv("PATH")}}
	r.runAction(bash)
	if r.exit != 0 {
		t.Fatalf("exit %d; log:\n%s", r.exit, r.logs.String())
	}
	key := r.steps["key"]["key"]
	if !regexp.MustCompile(`^qoscal-Linux-[A-Z0-9]*-[0-9a-f]{64}$`).MatchString(key) {
		t.Errorf("key %q, want qoscal-OS-ARCH-SHA256", key)
	}
	b, _ := os.ReadFile(calls)
	n := map[string]int{}
	for _, c := range strings.Fields(string(b)) {
		n[c]++
	}
	// xargs starts one sha256sum for every file (a second only past the
	// argument limit), and one more hashes its output.
	if n["cat"] != 0 || n["cksum"] != 0 || n["sha256sum"]+n["shasum"] > 3 {
		t.Errorf("the cache key started %v: want one hashing process over the sources", n)
	}
	files := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".go") || d.Name() == "go.mod" || d.Name() == "go.sum") {
			files++
		}
		return nil
	})
	t.Logf("cache key over %d files: %.3f s (%v)", files, r.stepTime["key"].Seconds(), n)
}
