package sqlite

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

func TestMain(m *testing.M) {
	// Re-executed by TestConcurrentProcesses as an ingesting child process.
	if db := os.Getenv("QOSCAL_TEST_CHILD_DB"); db != "" {
		os.Exit(childIngest(db, os.Getenv("QOSCAL_TEST_CHILD_PREFIX")))
	}
	// Re-executed by TestKilledIngest as an ingesting child that is killed.
	if db := os.Getenv("QOSCAL_TEST_KILLED_DB"); db != "" {
		os.Exit(childEndlessIngest(db))
	}
	// Re-executed by TestStoreReadOnlyFolder as a reading child process.
	if db := os.Getenv("QOSCAL_TEST_READ_DB"); db != "" {
		os.Exit(childRead(db))
	}
	os.Exit(m.Run())
}

// testNow is the ingest time the tests record.
var testNow = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

func openTestStore(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "q.db")
	s, err := Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestStoreRoundTrip(t *testing.T) {
	s, _ := openTestStore(t)
	in := []data.Run{storetest.NewRun("r1", 1, map[string]string{"os": "windows"}), storetest.NewRun("r2", 1.1, map[string]string{"os": "linux"})}
	in[0].Time = time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	res, err := s.Ingest(context.Background(), in, store.IngestOptions{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 2 || res.Measurements != 24 {
		t.Errorf("result %+v, want 2 added, 24 measurements", res)
	}
	got, err := s.Runs(context.Background(), store.Query{Labels: nil})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d runs, want 2", len(got))
	}
	for i := range in {
		want := in[i]
		want.Sort()
		if diff := cmp.Diff(want, got[i].Run); diff != "" {
			t.Errorf("run %s (-want +got):\n%s", want.ID, diff)
		}
		if !got[i].Ingested.Equal(testNow) {
			t.Errorf("ingested %v", got[i].Ingested)
		}
	}
	linux, err := s.Runs(context.Background(), store.Query{Labels: map[string]string{"os": "linux"}})
	if err != nil || len(linux) != 1 || linux[0].ID != "r2" {
		t.Errorf("label filter os=linux: %v %v", linux, err)
	}
	one, err := s.RunByID(context.Background(), "r2")
	if err != nil || one.ID != "r2" || len(one.Measurements) != 12 || one.Labels["os"] != "linux" {
		t.Errorf("RunByID(r2) = %+v, %v", one, err)
	}
	if _, err := s.RunByID(context.Background(), "r9"); err == nil || !strings.HasSuffix(err.Error(), `holds no run "r9"`) {
		t.Errorf("RunByID(r9): %v", err)
	}
	none, err := s.Runs(context.Background(), store.Query{Labels: map[string]string{"os": "linux", "runner": "x"}})
	if err != nil || len(none) != 0 {
		t.Errorf("label filter with two labels: %v %v", none, err)
	}
}

func TestStoreIdempotentAndReplace(t *testing.T) {
	s, path := openTestStore(t)
	if _, err := s.Ingest(context.Background(), []data.Run{storetest.NewRun("r1", 1, nil), storetest.NewRun("r2", 1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	// The same content again, read from another path, is a no-op.
	again := storetest.NewRun("r1", 1, nil)
	again.Source = "elsewhere/r1"
	res, err := s.Ingest(context.Background(), []data.Run{again}, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 0 || res.Unchanged != 1 || res.Measurements != 0 || res.AlreadyStored[0] != "r1" {
		t.Errorf("re-ingest: %+v", res)
	}
	// Other content under the same id is refused, and nothing lands.
	changed := storetest.NewRun("r1", 2, nil)
	_, err = s.Ingest(context.Background(), []data.Run{storetest.NewRun("r3", 1, nil), changed}, store.IngestOptions{})
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.ID != "r1" {
		t.Fatalf("conflict: got %v", err)
	}
	want := "run r1 (from src/r1) is already in " + path + " with different content: use --replace to overwrite it, or give it another id"
	if err.Error() != want {
		t.Errorf("message %q\nwant    %q", err, want)
	}
	runs, _ := s.Runs(context.Background(), store.Query{Labels: nil})
	if len(runs) != 2 {
		t.Errorf("after a failed ingest the store holds %d runs, want 2 (r3 must be rolled back)", len(runs))
	}
	// --replace overwrites it and keeps its place in ingest order.
	res, err = s.Ingest(context.Background(), []data.Run{changed}, store.IngestOptions{Replace: true, Progress: nil})
	if err != nil || res.Replaced != 1 {
		t.Fatalf("replace: %+v %v", res, err)
	}
	runs, _ = s.Runs(context.Background(), store.Query{Labels: nil})
	if runs[0].ID != "r1" || store.Digest(&runs[0].Run) != store.Digest(&changed) {
		t.Errorf("after replace: first run %s, digest match %v", runs[0].ID, store.Digest(&runs[0].Run) == store.Digest(&changed))
	}
	checkForeignKeys(t, path)
}

func TestStoreRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("this is not a database\n"), 0o644)
	foreign := filepath.Join(dir, "other.db")
	newer := filepath.Join(dir, "newer.db")
	for path, setup := range map[string]string{
		foreign: "CREATE TABLE t(x)",
		newer:   "",
	} {
		s, err := Open(path, store.ReadWrite)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		stmt := "PRAGMA user_version = 99"
		if setup != "" {
			stmt = "PRAGMA application_id = 1234; " + setup
		}
		sqlExec(t, path, stmt)
	}
	plain := filepath.Join(dir, "plain.db")
	sqlExec(t, plain, "CREATE TABLE mine(x)")
	textBefore, _ := os.ReadFile(text)
	tests := []struct{ path, create, want string }{
		{text, "create", "store " + text + " is not a SQLite database: name a qoscal store with --db"},
		{foreign, "create", "store " + foreign + " is a SQLite database of another program (application id 0x4d2), not a qoscal store"},
		{plain, "create", "store " + plain + " is a SQLite database with tables of its own, not a qoscal store"},
		{newer, "create", "store " + newer + " was written by a newer qoscal (schema version 99; this qoscal knows up to " + strconv.Itoa(SchemaVersion) + "): upgrade qoscal"},
		{filepath.Join(dir, "missing.db"), "", "no store at " + filepath.Join(dir, "missing.db") + ": ingest runs first (qoscal ingest), or name the store with --db"},
		{dir, "create", "store " + dir + " is a folder, expected a SQLite file"},
	}
	for _, tt := range tests {
		mode := store.ReadOnly
		if tt.create != "" {
			mode = store.ReadWrite
		}
		_, err := Open(tt.path, mode)
		if err == nil || err.Error() != tt.want {
			t.Errorf("OpenSQLite(%s):\n got %v\nwant %s", tt.path, err, tt.want)
		}
	}
	if after, _ := os.ReadFile(text); string(after) != string(textBefore) {
		t.Error("opening a text file as a store changed it")
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); err == nil {
		t.Error("opening a missing store without create made a file")
	}
}

// TestStoreMigratesEmptyFile: ingest (create) may make a store of an empty
// file, as of a missing one.
func TestStoreMigratesEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	os.WriteFile(path, nil, 0o644)
	s, err := Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v := sqlValue(t, path, "PRAGMA user_version"); v != strconv.Itoa(SchemaVersion) {
		t.Errorf("schema version %s, want %d", v, SchemaVersion)
	}
}

// childIngest is the body of one ingesting process: it stores 40 runs, one
// transaction each, as 40 CI jobs finishing at once would.
func childIngest(db, prefix string) int {
	s, err := Open(db, store.ReadWrite)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	for i := 0; i < 40; i++ {
		if _, err := s.Ingest(context.Background(), []data.Run{storetest.NewRun(fmt.Sprintf("%s-%02d", prefix, i), 1, nil)}, store.IngestOptions{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// childEndlessIngest ingests runs into db in one call without end, and
// says "writing" on stdout once it has written 2,000 of them.
func childEndlessIngest(db string) int {
	s, err := Open(db, store.ReadWrite)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	endless := func(yield func(store.StoredRun, error) bool) {
		for i := 0; ; i++ {
			if !yield(store.StoredRun{Run: storetest.NewRun(fmt.Sprintf("killed-%07d", i), 1, map[string]string{"os": "linux"})}, nil) {
				return
			}
		}
	}
	_, err = s.IngestEach(context.Background(), endless, store.IngestOptions{Progress: func(done, _ int) {
		if done == 2000 {
			fmt.Println("writing")
		}
	}})
	fmt.Fprintln(os.Stderr, "the endless ingest ended:", err)
	return 1
}

// TestKilledIngest kills (SIGKILL on unix, TerminateProcess on Windows) a
// process in the middle of a long ingest, whose transaction has written
// pages to the store's write-ahead log: the store then holds what it held
// before, none of the killed ingest's runs, passes SQLite's integrity
// check and the foreign key check, and takes the next ingest.
func TestKilledIngest(t *testing.T) {
	ctx := context.Background()
	s, path := openTestStore(t)
	if _, err := s.Ingest(ctx, []data.Run{storetest.NewRun("before", 1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "QOSCAL_TEST_KILLED_DB="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "writing\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q (%v), stderr:\n%s", line, err, stderr.String())
	}
	// Wait for the transaction to spill pages into the write-ahead log
	// (its page cache fills after some thousands of runs).
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the ingest wrote no pages to the log in a minute; stderr:\n%s", stderr.String())
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	r, err := Open(path, store.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := r.Runs(ctx, store.Query{})
	r.Close()
	if err != nil || len(runs) != 1 || runs[0].ID != "before" {
		t.Errorf("after the kill the store holds %d runs (%v), want only the run ingested before", len(runs), err)
	}
	if check := sqlValue(t, path, `PRAGMA integrity_check`); check != "ok" {
		t.Errorf("integrity_check: %q", check)
	}
	checkForeignKeys(t, path)
	w, err := Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if res, err := w.Ingest(ctx, []data.Run{storetest.NewRun("after", 1, nil)}, store.IngestOptions{}); err != nil || res.Added != 1 {
		t.Errorf("the next ingest: %+v, %v", res, err)
	}
}

// TestConcurrentProcesses runs three processes that ingest into one new
// store file at once; none may fail with "database is locked" and every run
// must be stored afterwards.
func TestConcurrentProcesses(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shared.db")
	var wg sync.WaitGroup
	errs := make([]error, 3)
	outs := make([][]byte, 3)
	for p := 0; p < 3; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "QOSCAL_TEST_CHILD_DB="+db, fmt.Sprintf("QOSCAL_TEST_CHILD_PREFIX=p%d", p))
			outs[p], errs[p] = cmd.CombinedOutput()
		}(p)
	}
	wg.Wait()
	for p := range errs {
		if errs[p] != nil {
			t.Errorf("process %d: %v\n%s", p, errs[p], outs[p])
		}
	}
	s, err := Open(db, store.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.Runs(context.Background(), store.Query{Labels: nil})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 120 {
		t.Errorf("%d runs stored, want 120", len(runs))
	}
	seen := map[string]bool{}
	for _, r := range runs {
		if len(r.Measurements) != 12 || seen[r.ID] {
			t.Errorf("run %s: %d measurements, seen before %v", r.ID, len(r.Measurements), seen[r.ID])
		}
		seen[r.ID] = true
	}
	if !strings.HasPrefix(runs[0].ID, "p") {
		t.Errorf("unexpected id %s", runs[0].ID)
	}
}

func BenchmarkIngest1000Runs(b *testing.B) {
	runs := make([]data.Run, 1000)
	for i := range runs {
		runs[i] = storetest.NewRun(fmt.Sprintf("run-%04d", i), 1, map[string]string{"os": "linux"})
	}
	ingestIntoNew(b, runs)
}

// TestStoreOddFileName: the store's file name goes into a SQLite URI
// (file:NAME?PARAMS); a ?, # or % in it must not be read as URI syntax
// (a ? made SQLite open the file named by the part before it).
func TestStoreOddFileName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "we?ird#na%20me.db")
	w, err := Open(path, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Ingest(context.Background(), []data.Run{storetest.NewRun("r1", 1, nil)}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s, err := Open(path, store.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if runs, err := s.Runs(context.Background(), store.Query{Labels: nil}); err != nil || len(runs) != 1 {
		t.Errorf("Runs: %d runs, %v; want 1 run", len(runs), err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if n := e.Name(); !strings.HasSuffix(n, ".db-wal") && !strings.HasSuffix(n, ".db-shm") {
			names = append(names, n)
		}
	}
	if diff := cmp.Diff([]string{"we?ird#na%20me.db"}, names); diff != "" {
		t.Errorf("files in the folder (-want +got):\n%s", diff)
	}
}
