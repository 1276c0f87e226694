//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// worldDir makes a folder that another user can enter and write: the
// parent of t.TempDir is private to this user.
func worldDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "qoscal-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err == nil && fi.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// asUnprivileged returns a command run by a user whom file permissions
// stop: this user, or nobody (uid and gid 65534) when this user is root,
// as in CI.
func asUnprivileged(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	return cmd
}

// qoscalFor returns a qoscal binary that the user of asUnprivileged can
// run: a copy of the one testscript.Main put in $PATH.
func qoscalFor(t *testing.T, dir string) string {
	t.Helper()
	src, err := exec.LookPath("qoscal")
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	exe := filepath.Join(dir, "qoscal")
	out, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return exe
}

// TestStoreReadOnlyFolderCommands (issue 11): every command that only
// reads the store works on a store in a folder the user cannot write (a
// CI cache, a read-only mount). Each failed before with "attempt to write
// a readonly database": SQLite's WAL mode wants a -shm file beside the
// store. The store file is left byte for byte as it was.
func TestStoreReadOnlyFolderCommands(t *testing.T) {
	dir := worldDir(t)
	samples, err := filepath.Abs("../../data/samples/linux-glibc-vs-mimalloc/healthy")
	if err != nil {
		t.Fatal(err)
	}
	storeDir := filepath.Join(dir, "store")
	if err := os.Mkdir(storeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(storeDir, "q.db")
	runQoscal(t, "ingest", "--db", db, "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", samples)
	if err := os.Chmod(storeDir, 0o555); err != nil {
		t.Fatal(err)
	}
	// The test means something only if the folder really is read-only
	// for the user who runs the commands.
	if err := asUnprivileged("touch", filepath.Join(storeDir, "probe")).Run(); err == nil {
		t.Fatalf("the unprivileged user could write into %s: the test would test nothing", storeDir)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	st0, _ := os.Stat(db)
	exe := qoscalFor(t, dir)
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"runs", "--db", db},
		{"spread", "--db", db},
		{"recommend", "--db", db},
		{"plot", "--db", db, "--out", filepath.Join(out, "charts")},
		{"report", "--db", db, "--out", filepath.Join(out, "report.html")},
		{"gate", "--db", db, "--run", "run-01", "--floor", "1.01"},
	} {
		cmd := asUnprivileged(exe, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "QOSCAL_DB=", "GITHUB_ACTIONS=", "GITHUB_STEP_SUMMARY=")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("qoscal %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
			continue
		}
		if stdout.Len() == 0 {
			t.Errorf("qoscal %s: nothing on stdout", strings.Join(args, " "))
		}
	}
	after, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	st1, _ := os.Stat(db)
	if !bytes.Equal(before, after) || !st0.ModTime().Equal(st1.ModTime()) {
		t.Errorf("the read-only commands changed %s", db)
	}
}
