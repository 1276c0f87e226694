package sqlite

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// fileState is what a read must leave as it was: a file's bytes and time.
type fileState struct {
	data  []byte
	mtime time.Time
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fileState{b, st.ModTime()}
}

// TestStoreReadOnlyRefusals: opening without create (what every read-only
// command does) refuses a file that is not a qoscal store with a clear
// error, and leaves the file as it was: no schema written into an empty
// file, no journal beside it.
func TestStoreReadOnlyRefusals(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("this is not a database\n"), 0o644)
	plain := filepath.Join(dir, "plain.db")
	emptySQLite := filepath.Join(dir, "nothing.db")
	for path, stmt := range map[string]string{plain: "CREATE TABLE mine(x)", emptySQLite: "PRAGMA page_size = 4096; VACUUM"} {
		sqlExec(t, path, stmt)
	}
	if st, err := os.Stat(emptySQLite); err != nil || st.Size() == 0 {
		t.Fatalf("%s: want a SQLite file with no tables, got %v, %v", emptySQLite, st, err)
	}
	tests := []struct{ path, want, reason string }{
		{empty, "store " + empty + " is an empty file (0 bytes), not a qoscal store: ingest runs into it first (qoscal ingest), or name a qoscal store with --db",
			"issue 11: runs on a 0-byte file wrote a schema into it"},
		{emptySQLite, "store " + emptySQLite + " is an empty SQLite database, not a qoscal store: ingest runs into it first (qoscal ingest), or name a qoscal store with --db",
			"a SQLite file with no schema would have been migrated"},
		{text, "store " + text + " is not a SQLite database: name a qoscal store with --db", "a text file"},
		{plain, "store " + plain + " is a SQLite database with tables of its own, not a qoscal store", "another program's database"},
	}
	for _, tt := range tests {
		before := stateOf(t, tt.path)
		time.Sleep(10 * time.Millisecond) // so that a write would show in the time
		s, err := Open(tt.path, store.ReadOnly)
		if err == nil {
			s.Close()
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: OpenSQLite(%s, ReadOnly):\n got %v\nwant %s", tt.reason, tt.path, err, tt.want)
		}
		after := stateOf(t, tt.path)
		if !bytes.Equal(before.data, after.data) || !before.mtime.Equal(after.mtime) {
			t.Errorf("%s: opening %s read-only changed it (%d bytes, %v -> %d bytes, %v)", tt.reason, tt.path,
				len(before.data), before.mtime, len(after.data), after.mtime)
		}
		for _, side := range []string{"-wal", "-shm", "-journal"} {
			if _, err := os.Stat(tt.path + side); err == nil {
				t.Errorf("%s: opening %s read-only made %s", tt.reason, tt.path, tt.path+side)
			}
		}
	}
}

// TestStoreReadOnlyNoWrites: a store opened read-only reads runs, refuses
// to ingest, and leaves the store file's bytes and time as they were.
func TestStoreReadOnlyNoWrites(t *testing.T) {
	w, path := openTestStore(t)
	if _, err := w.Ingest(context.Background(), []data.Run{storetest.NewRun("r1", 1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	before := stateOf(t, path)
	time.Sleep(10 * time.Millisecond)
	s, err := Open(path, store.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := s.Runs(context.Background(), store.Query{Labels: nil})
	if err != nil || len(runs) != 1 {
		t.Fatalf("Runs: %d runs, %v; want 1 run", len(runs), err)
	}
	want := "store " + path + " is open read-only"
	if _, err := s.Ingest(context.Background(), []data.Run{storetest.NewRun("r2", 1, nil)}, store.IngestOptions{}); err == nil || err.Error() != want {
		t.Errorf("Ingest on a read-only store: got %v, want %s", err, want)
	}
	s.Close()
	after := stateOf(t, path)
	if !bytes.Equal(before.data, after.data) || !before.mtime.Equal(after.mtime) {
		t.Errorf("reading %s changed it", path)
	}
}

// TestStoreImmutableSeesWrites: a store read immutable (a read-only folder
// with no -shm) fails a read, rather than return a mix, when the file
// changed after it was opened.
func TestStoreImmutableSeesWrites(t *testing.T) {
	w, path := openTestStore(t)
	if _, err := w.Ingest(context.Background(), []data.Run{storetest.NewRun("r1", 1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	s := &Store{path: path, readOnly: true, immutable: true, snapshot: st}
	defer s.Close()
	if err := s.checkReadable(); err != nil {
		t.Fatal(err)
	}
	if runs, err := s.Runs(context.Background(), store.Query{Labels: nil}); err != nil || len(runs) != 1 {
		t.Fatalf("Runs before a write: %d runs, %v; want 1 run", len(runs), err)
	}
	time.Sleep(10 * time.Millisecond)
	w2, err := Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w2.Ingest(context.Background(), []data.Run{storetest.NewRun("r2", 1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	w2.Close() // checkpoints the WAL into the store file
	want := "store " + path + " changed while it was being read (another qoscal is writing to it): run the command again"
	if _, err := s.Runs(context.Background(), store.Query{Labels: nil}); err == nil || err.Error() != want {
		t.Errorf("Runs after a write:\n got %v\nwant %s", err, want)
	}
}

// childRead is the body of the reading child of TestStoreReadOnlyFolder:
// it opens the store read-only and prints its runs' ids, and says whether
// it could write into the store's folder (it must not: else the test
// tests nothing).
func childRead(db string) int {
	probe := filepath.Join(filepath.Dir(db), "probe")
	if err := os.WriteFile(probe, nil, 0o644); err == nil {
		os.Remove(probe)
		fmt.Println("folder writable")
	}
	s, err := Open(db, store.ReadOnly)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	runs, err := s.Runs(context.Background(), store.Query{Labels: nil})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	r, err := s.RunByID(context.Background(), "r2")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.ID)
	}
	fmt.Printf("runs %s; r2 has %d measurements\n", strings.Join(ids, " "), len(r.Measurements))
	return 0
}
