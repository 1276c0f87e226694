package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

// testdata/store-v1.db is a store that qoscal wrote at schema version 1
// (commit 1334c8f, before series were held once): the twelve healthy runs
// of data/samples/linux-glibc-vs-mimalloc, ingested with
//
//	SOURCE_DATE_EPOCH=1796112000 qoscal ingest --db store-v1.db \
//	    --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
//	    --label os=linux data/samples/linux-glibc-vs-mimalloc/healthy
//
// then checkpointed and vacuumed (sqlite3), so that it is one file.

// TestStoreUpgrade: a read-only command refuses the old store, says how
// to upgrade it, and leaves the file as it was; store upgrade upgrades it,
// says from which version, and compacts the file (to the size it says); a
// second upgrade says it is up to date;
// the upgraded store then reads as a store this qoscal makes from the same
// files does (the same runs, labels and measurements; the same spread and
// recommendation, byte for byte). A missing store is an error, and is not
// made.
func TestStoreUpgrade(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1796112000")
	t.Setenv("QOSCAL_DB", "")
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	fixture, err := os.ReadFile("testdata/store-v1.db")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, fixture, 0o644); err != nil {
		t.Fatal(err)
	}
	qoscal := func(args ...string) (string, string, int) {
		t.Helper()
		var out, errs bytes.Buffer
		code := run(args, nil, &out, &errs)
		return out.String(), errs.String(), code
	}

	_, stderr, code := qoscal("spread", "--db", old)
	if code != 2 || !strings.Contains(stderr, "has schema version 1, older than this qoscal's 5") || !strings.Contains(stderr, "qoscal store upgrade --db "+old) {
		t.Errorf("spread on a version 1 store: exit %d, %s; want exit 2 and how to upgrade", code, stderr)
	}
	if now, _ := os.ReadFile(old); !bytes.Equal(now, fixture) {
		t.Error("a read-only command changed the version 1 store")
	}

	stdout, stderr, code := qoscal("store", "upgrade", "--db", old)
	// Version 2 freed the pages of version 1's measurements; the ledger's
	// tables (version 3, and its profile column, version 4) take them, so
	// the file stays at 66 kB (version 5's repetition column rewrites no
	// row).
	if want := old + ": upgraded from schema version 1 to 5\n" + old + ": compacted, 66 kB -> 66 kB\n"; code != 0 || stdout != want {
		t.Fatalf("store upgrade: exit %d, stdout %q, want %q; stderr %s", code, stdout, want, stderr)
	}
	if st, err := os.Stat(old); err != nil || st.Size() != 65536 {
		t.Errorf("the upgraded store file: %v, %v; want the 66 kB (65,536 bytes) it was compacted to", st, err)
	}
	stdout, _, code = qoscal("store", "upgrade", "--db", old)
	if code != 0 || stdout != old+": schema version 5, up to date\n" {
		t.Errorf("store upgrade again: exit %d, stdout %q", code, stdout)
	}

	fresh := filepath.Join(dir, "fresh.db")
	if _, stderr, code := qoscal("ingest", "--db", fresh, "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt",
		"--label", "os=linux", "../../data/samples/linux-glibc-vs-mimalloc/healthy"); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{{"spread", "--format", "json"}, {"recommend", "--format", "json"}} {
		a, _, ca := qoscal(append(args, "--db", old)...)
		b, _, cb := qoscal(append(args, "--db", fresh)...)
		if ca != 0 || cb != 0 || a != b {
			t.Errorf("%s: the upgraded store (exit %d) and a new one (exit %d) differ:\n%s\n---\n%s", args[0], ca, cb, a, b)
		}
	}
	// runs: the same, but for where each run was read from (the fixture
	// was made from the repository's root, this test runs in cmd/qoscal).
	runsOf := func(db string) []map[string]any {
		t.Helper()
		out, stderr, code := qoscal("runs", "--db", db, "--format", "json")
		if code != 0 {
			t.Fatalf("runs --db %s: exit %d: %s", db, code, stderr)
		}
		var doc []map[string]any
		dec := json.NewDecoder(strings.NewReader(out))
		if err := dec.Decode(&doc); err != nil || dec.More() {
			t.Fatalf("runs --db %s: not one JSON array (%v): %s", db, err, out)
		}
		for _, r := range doc {
			delete(r, "source")
		}
		return doc
	}
	if a, b := runsOf(old), runsOf(fresh); len(a) != 12 || !reflect.DeepEqual(a, b) {
		t.Errorf("runs: the upgraded store (%d runs) and a new one (%d runs) differ:\n%v\n---\n%v", len(a), len(b), a, b)
	}

	missing := filepath.Join(dir, "missing.db")
	if _, stderr, code := qoscal("store", "upgrade", "--db", missing); code != 2 || !strings.Contains(stderr, "no store at "+missing) {
		t.Errorf("store upgrade of a missing store: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("store upgrade made a missing store")
	}
}

// TestStoreUpgradeDamaged: store upgrade said "up to date" of a store
// whose measurements table was dropped, and of one with a garbled page;
// both are reported damaged, naming the store (exit 2), as every other
// command reports them.
func TestStoreUpgradeDamaged(t *testing.T) {
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
	if stdout, stderr, code := qoscal("store", "upgrade", "--db", good); code != 0 || !strings.HasSuffix(stdout, "up to date\n") {
		t.Fatalf("store upgrade of a sound store: exit %d, %s%s", code, stdout, stderr)
	}
	fixture, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}

	dropped := filepath.Join(dir, "dropped.db")
	os.WriteFile(dropped, fixture, 0o644)
	sqlExec(t, dropped, "DROP TABLE measurements")
	garbled := filepath.Join(dir, "garbled.db")
	os.WriteFile(garbled, fixture, 0o644)
	// Every page after the schema's and the runs table's first: page
	// size 4096, the measurements are among them.
	b, _ := os.ReadFile(garbled)
	for i := 3 * 4096; i < len(b); i++ {
		b[i] ^= 0x5a
	}
	os.WriteFile(garbled, b, 0o644)

	for _, tt := range []struct{ path, want string }{
		{dropped, "qoscal: error: store " + dropped + " is damaged: it lacks the table measurements"},
		{garbled, "qoscal: error: store " + garbled + " is damaged: "},
	} {
		stdout, stderr, code := qoscal("store", "upgrade", "--db", tt.path)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("store upgrade --db %s: exit %d, stdout %q, stderr %q; want exit 2, %q", filepath.Base(tt.path), code, stdout, stderr, tt.want)
		}
		_, stderr, code = qoscal("spread", "--db", tt.path)
		if code != 2 || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("spread --db %s: exit %d, stderr %q; want exit 2, %q", filepath.Base(tt.path), code, stderr, tt.want)
		}
	}
}

// TestIngestForeignStore: another program's SQLite file given as --db is
// refused ("not a qoscal store", exit 2) without a byte of it changed;
// ingest switched it to WAL mode first.
func TestIngestForeignStore(t *testing.T) {
	t.Setenv("QOSCAL_DB", "")
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	sqlExec(t, other, "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('keep me')")
	before, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	samples, _ := filepath.Abs("../../data/samples/linux-glibc-vs-mimalloc/healthy")
	for _, args := range [][]string{
		{"ingest", "--db", other, "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", samples},
		{"store", "upgrade", "--db", other},
		{"runs", "--db", other},
	} {
		var out, errs bytes.Buffer
		code := run(args, nil, &out, &errs)
		want := "qoscal: error: store " + other + " is a SQLite database with tables of its own, not a qoscal store"
		if code != 2 || !strings.HasPrefix(errs.String(), want) {
			t.Errorf("%s: exit %d, %s; want exit 2, %s", args[0], code, errs.String(), want)
		}
		if after, _ := os.ReadFile(other); !bytes.Equal(after, before) {
			t.Errorf("%s changed another program's database", args[0])
		}
	}
}

// sqlExec runs an SQL script on the SQLite file at path (made when it is
// missing), as a program other than qoscal would.
func sqlExec(t *testing.T, path, script string) {
	t.Helper()
	c, err := sqlite.OpenConn(path, sqlite.OpenReadWrite|sqlite.OpenCreate)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := sqlitex.ExecuteScript(c, script, nil); err != nil {
		t.Fatal(err)
	}
}
