package sqlite

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// TestStoreForeignUnchanged: another program's SQLite file given as the
// store to write (ingest --db) is refused without a byte of it changed.
// The store was opened with journal_mode(WAL) among the connection's
// settings, so SQLite switched the file to WAL mode (bytes 18 and 19 of
// its header) before qoscal looked at what the file was.
func TestStoreForeignUnchanged(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, setup, want string }{
		{"app.db", "PRAGMA application_id = 1234; CREATE TABLE t(x); INSERT INTO t VALUES (1)", "is a SQLite database of another program (application id 0x4d2), not a qoscal store"},
		{"plain.db", "CREATE TABLE mine(x); INSERT INTO mine VALUES ('a')", "is a SQLite database with tables of its own, not a qoscal store"},
		{"newer.db", "PRAGMA application_id = 1903129443; PRAGMA user_version = 99; CREATE TABLE t(x)", "was written by a newer qoscal"},
		{"negative.db", "PRAGMA application_id = 1903129443; PRAGMA user_version = -1; CREATE TABLE t(x)", "is damaged: its schema version is -1, which no qoscal writes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			sqlExec(t, path, tt.setup)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, mode := range []store.Mode{store.ReadWrite, store.ReadOnly} {
				s, err := Open(path, mode)
				if err == nil {
					s.Close()
					t.Fatalf("mode %v: opened another program's database as a store", mode)
				}
				if want := "store " + path + " " + tt.want; !strings.HasPrefix(err.Error(), want) {
					t.Errorf("mode %v:\n got %v\nwant %s...", mode, err, want)
				}
				after, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(before, after) {
					t.Errorf("mode %v changed the file (header bytes 18-19 were %v, are %v)", mode, before[18:20], after[18:20])
				}
				for _, side := range []string{"-wal", "-shm", "-journal"} {
					if _, err := os.Stat(path + side); err == nil {
						t.Errorf("mode %v left %s%s beside it", mode, tt.name, side)
					}
				}
			}
		})
	}
}

// TestStoreDamaged: a store that lacks a table or a column of its schema
// (a measurements table dropped), or holds a garbled page, is reported
// damaged, naming the store, by every way in: opening it to read
// (store upgrade said "up to date"), to write, and reading its runs.
func TestStoreDamaged(t *testing.T) {
	ctx := context.Background()
	good := filepath.Join(t.TempDir(), "good.db")
	s, err := Open(good, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ingest(ctx, []data.Run{storetest.NewRun("r1", 1, map[string]string{"os": "linux"}), storetest.NewRun("r2", 1.1, nil)}, store.IngestOptions{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	alter := func(t *testing.T, q string) string {
		path := filepath.Join(t.TempDir(), "q.db")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		sqlExec(t, path, q)
		return path
	}
	for _, tt := range []struct{ name, q, want string }{
		{"measurements dropped", "DROP TABLE measurements", "is damaged: it lacks the table measurements"},
		{"series dropped", "DROP TABLE series", "is damaged: it lacks the table series"},
		{"column dropped", "ALTER TABLE runs DROP COLUMN source", "is damaged: its table runs lacks the column source"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := alter(t, tt.q)
			want := "store " + path + " " + tt.want
			for _, mode := range []store.Mode{store.ReadOnly, store.ReadWrite} {
				s, err := Open(path, mode)
				if err == nil {
					s.Close()
					t.Fatalf("mode %v: opened a store that %s", mode, tt.name)
				}
				if !strings.HasPrefix(err.Error(), want) {
					t.Errorf("mode %v:\n got %v\nwant %s...", mode, err, want)
				}
			}
		})
	}

	// A garbled page: the measurements table's root page overwritten.
	t.Run("garbled page", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "q.db")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		root, err := strconv.ParseInt(sqlValue(t, path, "SELECT rootpage FROM sqlite_master WHERE name = 'measurements'"), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		size, err := strconv.ParseInt(sqlValue(t, path, "PRAGMA page_size"), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt(bytes.Repeat([]byte{0xa5}, int(size)), (root-1)*size); err != nil {
			t.Fatal(err)
		}
		f.Close()
		want := "store " + path + " is damaged: "
		s, err := Open(path, store.ReadOnly)
		if err != nil {
			t.Fatal(err) // the schema is whole: the damage is found where it is read
		}
		defer s.Close()
		if _, err := s.Runs(ctx, store.Query{}); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("read:\n got %v\nwant %s...", err, want)
		}
		if err := s.Check(ctx); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("check:\n got %v\nwant %s...", err, want)
		}
	})

	// A sound store passes the check.
	s, err = Open(good, store.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(ctx); err != nil {
		t.Errorf("check of a sound store: %v", err)
	}
}
