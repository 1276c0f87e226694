package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreCopyFailedLeavesNoStore: store copy from a store with a garbled
// page failed (exit 2) and left behind, at --to, the new store it had
// made, with its schema and no runs: a file that looks like a copy. A copy
// that fails removes the store it made (with SQLite's files beside it);
// a store that was there before is left as it was.
func TestStoreCopyFailedLeavesNoStore(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1796112000")
	t.Setenv("QOSCAL_DB", "")
	dir := t.TempDir()
	qoscal := func(args ...string) (string, string, int) {
		t.Helper()
		var out, errs bytes.Buffer
		code := run(args, nil, &out, &errs)
		return out.String(), errs.String(), code
	}
	good := filepath.Join(dir, "good.db")
	samples, _ := filepath.Abs("../../data/samples/linux-glibc-vs-mimalloc/healthy")
	if _, stderr, code := qoscal("ingest", "--db", good, "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", samples); code != 0 {
		t.Fatalf("ingest: %s", stderr)
	}
	if _, stderr, code := qoscal("store", "upgrade", "--db", good); code != 0 {
		t.Fatalf("store upgrade: %s", stderr) // checkpoints the write-ahead log into the file
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// Every page after the schema's and the runs table's first, as
	// TestStoreUpgradeDamaged garbles them: the measurements are there.
	for i := 3 * 4096; i < len(b); i++ {
		b[i] ^= 0x5a
	}
	garbled := filepath.Join(dir, "garbled.db")
	if err := os.WriteFile(garbled, b, 0o644); err != nil {
		t.Fatal(err)
	}

	to := filepath.Join(dir, "new.db")
	stdout, stderr, code := qoscal("store", "copy", "--from", garbled, "--to", to)
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "qoscal: error: store "+garbled+" is damaged: ") {
		t.Fatalf("store copy from a garbled store: exit %d, stdout %q, stderr %q; want exit 2, the store named damaged", code, stdout, stderr)
	}
	for _, s := range []string{"", "-wal", "-shm", "-journal"} {
		if _, err := os.Stat(to + s); !os.IsNotExist(err) {
			t.Errorf("the failed copy left %s behind (%v)", filepath.Base(to+s), err)
		}
	}

	// Into a store that was there: it keeps what it held.
	kept := filepath.Join(dir, "kept.db")
	if _, stderr, code := qoscal("store", "copy", "--from", good, "--to", kept); code != 0 {
		t.Fatalf("store copy of a sound store: %s", stderr)
	}
	if _, _, code := qoscal("store", "copy", "--from", garbled, "--to", kept); code != 2 {
		t.Fatalf("store copy from a garbled store into one that exists: exit %d, want 2", code)
	}
	stdout, stderr, code = qoscal("runs", "--db", kept)
	if code != 0 || strings.Count(stdout, "\nrun-") != 12 {
		t.Errorf("the store copied into before the failed copy: exit %d, stdout %q, stderr %q; want its 12 runs", code, stdout, stderr)
	}
}
