package main

// The release (issue 36): .github/workflows/release.yml parsed and its
// run steps run here with bash, as the runner would, with a fake gh on
// PATH; and, with QOSCAL_SLOW_TESTS=1, scripts/release.sh run twice on
// this checkout: the six archives and the checksums file, byte-identical,
// the linux/amd64 binary answering --version with the tag, and that
// archive through the action's fast path.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/qoscal/qoscal/internal/testenv"
)

type releaseWorkflow struct {
	Name string `yaml:"name"`
	On   struct {
		Push struct {
			Tags []string `yaml:"tags"`
		} `yaml:"push"`
	} `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		RunsOn string       `yaml:"runs-on"`
		Steps  []actionStep `yaml:"steps"`
	} `yaml:"jobs"`
}

// releaseTargets are the archives a release holds, by OS and arch.
var releaseTargets = []string{"linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64", "windows_amd64", "windows_arm64"}

func archiveName(version, target string) string {
	if strings.HasPrefix(target, "windows") {
		return "qoscal_" + version + "_" + target + ".zip"
	}
	return "qoscal_" + version + "_" + target + ".tar.gz"
}

func readReleaseWorkflow(t *testing.T) (*releaseWorkflow, []actionStep) {
	t.Helper()
	root, _ := filepath.Abs("../..")
	b, err := os.ReadFile(filepath.Join(root, ".github", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf releaseWorkflow
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&wf); err != nil {
		t.Fatalf("release.yml: %v", err)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("release.yml has %d jobs, want 1", len(wf.Jobs))
	}
	for _, j := range wf.Jobs {
		return &wf, j.Steps
	}
	return nil, nil
}

// TestReleaseWorkflowFile checks what GitHub reads of release.yml: a
// pushed tag v*, the permissions to publish and attest, the Go of
// release/go-version, and the steps in order: tests, release.sh, the check
// against the committed checksums, the release, the attestation.
func TestReleaseWorkflowFile(t *testing.T) {
	wf, steps := readReleaseWorkflow(t)
	root, _ := filepath.Abs("../..")
	if got := wf.On.Push.Tags; len(got) != 1 || got[0] != "v*" {
		t.Errorf("on.push.tags = %q, want [v*]", got)
	}
	want := map[string]string{"contents": "write", "id-token": "write", "attestations": "write"}
	if fmt.Sprint(wf.Permissions) != fmt.Sprint(want) {
		t.Errorf("permissions = %v, want %v", wf.Permissions, want)
	}
	var order []string
	for i, s := range steps {
		switch {
		case s.Uses == "actions/checkout@v4":
			order = append(order, "checkout")
			if s.With["fetch-depth"] != "0" {
				t.Errorf("checkout's fetch-depth is %q, want 0: release.sh finds the commit before the checksums' in the history", s.With["fetch-depth"])
			}
		case s.Uses == "actions/setup-go@v5":
			order = append(order, "setup-go")
			if s.With["go-version-file"] != "release/go-version" {
				t.Errorf("setup-go's go-version-file is %q, want release/go-version (the Go the checksums were built with)", s.With["go-version-file"])
			}
		case s.Uses == "actions/attest-build-provenance@v2":
			order = append(order, "attest")
			if got := strings.Fields(s.With["subject-path"]); fmt.Sprint(got) != "[dist/*.tar.gz dist/*.zip]" {
				t.Errorf("the attestation's subject-path is %q, want the archives", got)
			}
		case s.Uses != "":
			t.Errorf("step %d uses %s: not one this test knows", i, s.Uses)
		case s.Shell != "bash":
			t.Errorf("step %d (%s) runs with shell %q, want bash", i, s.Name, s.Shell)
		case strings.Contains(s.Run, "${{"):
			t.Errorf("step %d (%s) pastes an expression into its script: pass it through env", i, s.Name)
		case strings.TrimSpace(s.Run) == "go test ./...":
			order = append(order, "tests")
		case strings.TrimSpace(s.Run) == `scripts/release.sh "$TAG" dist`:
			order = append(order, "build")
			if s.Env["TAG"] != "${{ github.ref_name }}" {
				t.Errorf("the build's TAG is %q, want the pushed tag", s.Env["TAG"])
			}
		case strings.Contains(s.Run, "release/checksums/"):
			order = append(order, "check")
		case strings.Contains(s.Run, "gh release create"):
			order = append(order, "publish")
		default:
			t.Errorf("step %d (%s): not one this test knows", i, s.Name)
		}
	}
	if got := strings.Join(order, " "); got != "checkout setup-go tests build check publish attest" {
		t.Errorf("the steps are %s, want checkout setup-go tests build check publish attest", got)
	}
	b, err := os.ReadFile(filepath.Join(root, "release", "go-version"))
	if err != nil || !regexp.MustCompile(`^1\.\d+\.\d+\n$`).Match(b) {
		t.Errorf("release/go-version = %q (%v), want one Go version, 1.x.y", b, err)
	}
}

// runReleaseSteps runs release.yml's run steps after the build in
// workspace (which holds dist/ and release/checksums/), for tag, with a
// fake gh that records its arguments; it returns the log, the exit of
// the first failed step (0 if none) and gh's arguments.
func runReleaseSteps(t *testing.T, workspace, tag string) (string, int, []string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	_, steps := readReleaseWorkflow(t)
	bin := t.TempDir()
	ghArgs := filepath.Join(bin, "gh-args")
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done >"+ghArgs+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	exit := 0
	built := false
	for i, s := range steps {
		if s.Run == "" {
			continue
		}
		if !built {
			// The tests and the build run elsewhere: this test is part of
			// the tests, and the build is TestRelease's (slow) or the
			// caller's dist/.
			built = strings.Contains(s.Run, "scripts/release.sh")
			continue
		}
		env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		for k, v := range s.Env {
			v = strings.ReplaceAll(v, "${{ github.ref_name }}", tag)
			v = strings.ReplaceAll(v, "${{ github.token }}", "a-token")
			if strings.Contains(v, "${{") {
				t.Fatalf("step %d: env %s=%s: an expression this test does not evaluate", i, k, v)
			}
			env = append(env, k+"="+v)
		}
		script := filepath.Join(t.TempDir(), "step.sh")
		if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bash, "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = workspace
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		fmt.Fprintf(&log, "== step %d: %s\n%s", i, s.Name, out)
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatal(err)
			}
			exit = ee.ExitCode()
			break
		}
	}
	b, _ := os.ReadFile(ghArgs)
	var args []string
	if len(b) > 0 {
		args = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	return log.String(), exit, args
}

// releaseWorkspace is a checkout's release/checksums/TAG.txt (pinned, or
// none when nil) and dist/ as scripts/release.sh leaves it (from dist).
func releaseWorkspace(t *testing.T, tag string, dist map[string][]byte, pinned []byte) string {
	t.Helper()
	w := t.TempDir()
	for _, d := range []string{"dist", filepath.Join("release", "checksums")} {
		if err := os.MkdirAll(filepath.Join(w, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range dist {
		if err := os.WriteFile(filepath.Join(w, "dist", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if pinned != nil {
		if err := os.WriteFile(filepath.Join(w, "release", "checksums", tag+".txt"), pinned, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// checksums is the checksums file of files, as sha256sum writes it.
func checksums(files map[string][]byte) []byte {
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, n := range names {
		s := sha256.Sum256(files[n])
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(s[:]), n)
	}
	return b.Bytes()
}

// checkPublished checks the release workflow's steps after the build on
// dist (archives and the checksums file): they pass with the checksums
// pinned, and gh publishes the six archives and the checksums file at
// the tag; they fail, publishing nothing, when the pinned file differs
// by one hash or is missing.
func checkPublished(t *testing.T, tag string, dist map[string][]byte) {
	t.Helper()
	v := strings.TrimPrefix(tag, "v")
	sums := dist["qoscal_"+v+"_checksums.txt"]
	log, exit, args := runReleaseSteps(t, releaseWorkspace(t, tag, dist, sums), tag)
	if exit != 0 {
		t.Fatalf("the release steps failed (exit %d):\n%s", exit, log)
	}
	want := []string{"release", "create", tag, "--verify-tag", "--title", "qoscal " + tag, "--generate-notes"}
	for _, tg := range releaseTargets {
		if !strings.HasPrefix(tg, "windows") {
			want = append(want, filepath.Join("dist", archiveName(v, tg)))
		}
	}
	for _, tg := range releaseTargets {
		if strings.HasPrefix(tg, "windows") {
			want = append(want, filepath.Join("dist", archiveName(v, tg)))
		}
	}
	want = append(want, "dist/qoscal_"+v+"_checksums.txt")
	sort.Strings(want[7 : 7+4])
	sort.Strings(want[11 : 11+2])
	if strings.Join(args, " ") != strings.Join(want, " ") {
		t.Errorf("gh was run with\n%q\nwant\n%q", args, want)
	}

	other := bytes.Replace(sums, sums[:1], []byte{"0123456789abcdef"[strings.IndexByte("0123456789abcdef", sums[0])^1]}, 1)
	log, exit, args = runReleaseSteps(t, releaseWorkspace(t, tag, dist, other), tag)
	if exit == 0 || args != nil || !strings.Contains(log, "::error title=release::the archives built here are not the ones release/checksums/"+tag+".txt pins") {
		t.Errorf("a pinned file one hash off: exit %d, gh %q; log:\n%s", exit, args, log)
	}
	log, exit, args = runReleaseSteps(t, releaseWorkspace(t, tag, dist, nil), tag)
	if exit == 0 || args != nil || !strings.Contains(log, "::error title=release::release/checksums/"+tag+".txt is not committed") {
		t.Errorf("no pinned file: exit %d, gh %q; log:\n%s", exit, args, log)
	}
}

// TestReleaseWorkflowSteps runs the steps after the build on a dist/ of
// stand-in archives (TestRelease, slow, runs them on the real ones).
func TestReleaseWorkflowSteps(t *testing.T) {
	const tag = "v9.9.9"
	dist := map[string][]byte{}
	for _, tg := range releaseTargets {
		dist[archiveName("9.9.9", tg)] = []byte("an archive for " + tg + "\n")
	}
	dist["qoscal_9.9.9_checksums.txt"] = checksums(dist)
	checkPublished(t, tag, dist)
}

// TestRelease runs scripts/release.sh twice on this checkout (slow: six
// cross-builds, about 3 CPU-minutes when Go's build cache is cold and 40 s
// of links when it is warm, as after .ci/run's cross-builds).
func TestRelease(t *testing.T) {
	testenv.SkipUnlessSlow(t)
	if testenv.Race {
		// release.sh builds without the race detector whatever this test
		// is built with: the race pass would build the same again.
		t.Skip("builds the release without the race detector: the pass without it runs this")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	root, _ := filepath.Abs("../..")
	const tag = "v0.0.1"
	var dists [2]map[string][]byte
	for i := range dists {
		out := t.TempDir()
		cmd := exec.Command(bash, filepath.Join(root, "scripts", "release.sh"), tag, out)
		// This Go may not be the release's (release/go-version):
		// reproducibility is checked all the same. release.sh builds the
		// last commit, without a developer's uncommitted changes.
		cmd.Env = append(os.Environ(), "QOSCAL_RELEASE_ANY_GO=1")
		start := time.Now()
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("release.sh: %v\n%s", err, b)
		}
		t.Logf("release.sh, build %d: %.0f s", i+1, time.Since(start).Seconds())
		dists[i] = map[string][]byte{}
		entries, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(out, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			dists[i][e.Name()] = b
		}
	}
	var want []string
	for _, tg := range releaseTargets {
		want = append(want, archiveName("0.0.1", tg))
	}
	want = append(want, "qoscal_0.0.1_checksums.txt")
	sort.Strings(want)
	for i, d := range dists {
		var got []string
		for n := range d {
			got = append(got, n)
		}
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("build %d wrote %q, want %q", i+1, got, want)
		}
	}
	for _, n := range want {
		if !bytes.Equal(dists[0][n], dists[1][n]) {
			t.Errorf("%s differs between two builds of one commit", n)
		}
	}
	sums := dists[0]["qoscal_0.0.1_checksums.txt"]
	// One line an archive, in the order built (checksums sorts them by
	// name).
	lines := strings.Split(strings.TrimSuffix(string(sums), "\n"), "\n")
	sort.Slice(lines, func(i, j int) bool { return strings.Fields(lines[i])[1] < strings.Fields(lines[j])[1] })
	if delete(dists[0], "qoscal_0.0.1_checksums.txt"); strings.Join(lines, "\n")+"\n" != string(checksums(dists[0])) {
		t.Errorf("the checksums file is\n%s\nwant the lines of\n%s", sums, checksums(dists[0]))
	}
	dists[0]["qoscal_0.0.1_checksums.txt"] = sums
	for n, b := range dists[0] {
		t.Logf("%s: %d bytes", n, len(b))
	}

	// The linux/amd64 binary answers --version with the tag.
	tgz := dists[0]["qoscal_0.0.1_linux_amd64.tar.gz"]
	entries := untar(t, tgz)
	if fmt.Sprint(sortedKeys(entries)) != "[LICENSE README.md qoscal]" {
		t.Errorf("linux_amd64 holds %v, want LICENSE README.md qoscal", sortedKeys(entries))
	}
	t.Logf("linux/amd64 binary: %d bytes (%.1f MB)", len(entries["qoscal"]), float64(len(entries["qoscal"]))/1e6)
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		exe := filepath.Join(t.TempDir(), "qoscal")
		if err := os.WriteFile(exe, entries["qoscal"], 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(exe, "--version").CombinedOutput()
		if err != nil || !regexp.MustCompile(`^qoscal v0\.0\.1\ncommit [0-9a-f]{40}\nbuilt with go1\.\d+`).Match(out) {
			t.Errorf("qoscal --version: %v\n%s", err, out)
		}
		if wine, err := exec.LookPath("wine"); err == nil {
			t.Logf("wine at %s: the Windows binary is not run here yet", wine)
		}

		// That archive through the action's fast path.
		srv := httptest.NewServer(http.FileServer(http.Dir(mustDir(t, dists[0], tag))))
		defer srv.Close()
		pins := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
			f := strings.Fields(l)
			pins[f[1]] = f[0]
		}
		r := fastPathRun(t, releaseAction(t, tag, pins), tag, srv.URL, "Linux", "30", &actionCache{saved: map[string]bool{}, standIn: true})
		d := checkFastPath(t, r, tag)
		t.Logf("fast path with the release's linux/amd64 archive (%.1f MB): %.2f s from the first step's start to qoscal --version answering",
			float64(len(tgz))/1e6, d.Seconds())
	}

	checkPublished(t, tag, dists[0])
}

// mustDir writes files into DIR/tag/ and returns DIR: a release's
// download folder.
func mustDir(t *testing.T, files map[string][]byte, tag string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, tag), 0o755); err != nil {
		t.Fatal(err)
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, tag, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func untar(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name], _ = io.ReadAll(tr)
	}
}

func sortedKeys(m map[string][]byte) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}
