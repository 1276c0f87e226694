//go:build unix

package sqlite

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// worldReadableDir makes a folder that another user can enter: t.TempDir's
// parent is private to this user.
func worldReadableDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "qoscal-store-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Chmod(dir, 0o755)
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// unprivileged returns a command that re-executes this test binary with
// args, as a user whom file permissions stop: this user, or, when it is
// root (as in CI), nobody (uid and gid 65534), from a copy of the binary
// that nobody can read.
func unprivileged(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	if os.Geteuid() != 0 {
		return exec.Command(os.Args[0], args...)
	}
	dir := worldReadableDir(t)
	exe := filepath.Join(dir, "data.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	return cmd
}

// TestStoreReadOnlyFolder (issue 11): a store in a folder the user cannot
// write (a CI cache, a read-only mount) is readable. Before the fix every
// read failed: "attempt to write a readonly database". The reader runs as
// a child process without write permission on the folder; as root (CI),
// whom permissions do not stop, the child runs as nobody (see
// unprivileged).
func TestStoreReadOnlyFolder(t *testing.T) {
	dir := worldReadableDir(t)
	path := filepath.Join(dir, "q.db")
	w, err := Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Ingest(context.Background(), []data.Run{storetest.NewRun("r1", 1, nil), storetest.NewRun("r2", 1.1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, side := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + side); err == nil {
			t.Fatalf("%s%s left after the writer closed: the test needs a store without one", path, side)
		}
	}
	before := stateOf(t, path)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	cmd := unprivileged(t, "-test.run=^$")
	cmd.Env = append(os.Environ(), "QOSCAL_TEST_READ_DB="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("reading %s from a read-only folder: %v\n%s", path, err, stderr.String())
	}
	want := "runs r1 r2; r2 has 12 measurements\n"
	if diff := cmp.Diff(want, stdout.String()); diff != "" {
		t.Errorf("child output (-want +got):\n%s", diff)
	}
	after := stateOf(t, path)
	if !bytes.Equal(before.data, after.data) || !before.mtime.Equal(after.mtime) {
		t.Errorf("reading %s changed it", path)
	}
}

// TestStoreReadOnlyFolderPendingWAL: in a folder this user cannot write, a
// store whose -wal holds changes not yet in the store file, with no -shm
// (copied without it, say), cannot be read safely: immutable would ignore
// the -wal and show old data. The read fails and says why.
func TestStoreReadOnlyFolderPendingWAL(t *testing.T) {
	src := filepath.Join(t.TempDir(), "q.db")
	w, err := Open(src, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Ingest(context.Background(), []data.Run{storetest.NewRun("r1", 1, nil), storetest.NewRun("r2", 1.1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := worldReadableDir(t)
	path := filepath.Join(dir, "q.db")
	for _, side := range []string{"", "-wal"} {
		b, err := os.ReadFile(src + side)
		if err != nil {
			t.Fatal(err)
		}
		if side == "-wal" && len(b) == 0 {
			t.Fatal("the writer's -wal is empty: the test needs changes in it")
		}
		if err := os.WriteFile(path+side, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	cmd := unprivileged(t, "-test.run=^$")
	cmd.Env = append(os.Environ(), "QOSCAL_TEST_READ_DB="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	want := "store " + path + ": cannot read it in a folder this user cannot write: its write-ahead log " + path + "-wal holds changes not yet in the store file; open the store once where its folder is writable (any qoscal command does), or copy the store with its -wal file to a writable folder\n"
	if err == nil || stderr.String() != want {
		t.Errorf("reading a store with a pending -wal and no -shm: %v\nstdout: %s\n got stderr: %s\nwant stderr: %s", err, stdout.String(), stderr.String(), want)
	}
}
