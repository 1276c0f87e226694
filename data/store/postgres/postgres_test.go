package postgres

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

var bg = context.Background()

func TestMain(m *testing.M) {
	// Re-executed by TestPostgresConcurrentProcesses as an ingesting child
	// process.
	if db := os.Getenv("QOSCAL_TEST_CHILD_DB"); db != "" {
		os.Exit(childIngest(db, os.Getenv("QOSCAL_TEST_CHILD_PREFIX")))
	}
	os.Exit(m.Run())
}

// childIngest is the body of one ingesting process: it stores 40 runs, one
// transaction each, as 40 CI jobs finishing at once would.
func childIngest(url, prefix string) int {
	s, err := Open(bg, url, store.ReadWrite)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	for i := 0; i < 40; i++ {
		if _, err := s.Ingest(bg, []data.Run{storetest.NewRun(fmt.Sprintf("%s-%02d", prefix, i), 1, nil)}, store.IngestOptions{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// TestPostgresPasswordNotShown: a store that cannot be reached names its
// URL without the password, however the password was given.
func TestPostgresPasswordNotShown(t *testing.T) {
	for _, u := range []string{
		"postgres://ci:Secret-7f3a@127.0.0.1:1/q?connect_timeout=5",
		"postgres://ci@127.0.0.1:1/q?password=Secret-7f3a&connect_timeout=5",
		"postgres://ci:Secret-7f3a@127.0.0.1:notaport/q",
	} {
		for _, mode := range []store.Mode{store.ReadOnly, store.ReadWrite} {
			s, err := Open(bg, u, mode)
			if err == nil {
				s.Close()
				t.Fatalf("%s: opened a store on a closed port", store.RedactLocation(u))
			}
			if strings.Contains(err.Error(), "Secret-7f3a") {
				t.Errorf("the error shows the password: %v", err)
			}
			if !strings.Contains(err.Error(), "127.0.0.1") {
				t.Errorf("the error does not name the server: %v", err)
			}
		}
	}
}

// exec runs SQL on the store's schema, as another program would.
func exec(t *testing.T, url, sql string) {
	t.Helper()
	conn, err := pgx.Connect(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(bg)
	if _, err := conn.Exec(bg, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// tables lists the tables of the store's schema.
func tables(t *testing.T, url string) []string {
	t.Helper()
	conn, err := pgx.Connect(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(bg)
	rows, err := conn.Query(bg, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// TestPostgresReadOnly: opening read-only writes nothing: a database
// without a store is refused and left without tables; a store opened
// read-only refuses to ingest.
func TestPostgresReadOnly(t *testing.T) {
	url := storetest.PostgresURL(t)
	_, err := Open(bg, url, store.ReadOnly)
	if err == nil || !strings.Contains(err.Error(), "no store at") || !strings.Contains(err.Error(), "qoscal ingest") {
		t.Errorf("read-only open of an empty database: %v, want no store at …: ingest runs first", err)
	}
	if got := tables(t, url); len(got) != 0 {
		t.Errorf("a read-only open made tables %v", got)
	}
	s, err := Open(bg, url, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got := strings.Join(tables(t, url), " "); got != "labels marks measurements qoscal_meta runs series verdict_bands verdicts" {
		t.Errorf("tables %s, want labels marks measurements qoscal_meta runs series verdict_bands verdicts", got)
	}
	s, err = Open(bg, url, store.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Ingest(bg, []data.Run{{ID: "r", Source: "x"}}, store.IngestOptions{}); err == nil {
		t.Error("a store opened read-only took an ingest")
	}
}

// TestPostgresNewerSchema: a store written by a newer qoscal is refused,
// for reading and for writing.
func TestPostgresNewerSchema(t *testing.T) {
	url := storetest.PostgresURL(t)
	s, err := Open(bg, url, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	exec(t, url, `UPDATE qoscal_meta SET value = '99' WHERE key = 'schema_version'`)
	for _, mode := range []store.Mode{store.ReadOnly, store.ReadWrite} {
		_, err := Open(bg, url, mode)
		if err == nil || !strings.Contains(err.Error(), "written by a newer qoscal (schema version 99") {
			t.Errorf("mode %v: %v, want a refusal of schema version 99", mode, err)
		}
	}
}

// TestPostgresForeignTables: a database whose table named like qoscal's
// is not a qoscal store's is refused, not written into.
func TestPostgresForeignTables(t *testing.T) {
	url := storetest.PostgresURL(t)
	exec(t, url, `CREATE TABLE runs (x int)`)
	_, err := Open(bg, url, store.ReadWrite)
	if err == nil || !strings.Contains(err.Error(), "already has a table") {
		t.Errorf("a database with a foreign runs table: %v, want a refusal", err)
	}
	if got := strings.Join(tables(t, url), " "); got != "runs" {
		t.Errorf("tables %s after the refusal, want runs alone", got)
	}
}

// TestPostgresWrongPassword: a refused login does not show the password.
func TestPostgresWrongPassword(t *testing.T) {
	url := storetest.PostgresURL(t)
	bad := strings.Replace(url, "@", "x9Wrong@", 1)
	if bad == url {
		t.Skip("the test server's URL has no password")
	}
	_, err := Open(bg, bad, store.ReadOnly)
	if err == nil {
		t.Fatal("a wrong password was accepted")
	}
	if strings.Contains(err.Error(), "x9Wrong") {
		t.Errorf("the error shows the password: %v", err)
	}
}

// TestPostgresMissingSchema: a search path naming no schema that exists
// is refused with a message that says what to do.
func TestPostgresMissingSchema(t *testing.T) {
	url := strings.Replace(storetest.PostgresURL(t), "search_path=", "search_path=missing_", 1)
	_, err := Open(bg, url, store.ReadWrite)
	if err == nil || !strings.Contains(err.Error(), "no schema of the search path exists") {
		t.Errorf("a search path of no schema: %v, want a refusal that says so", err)
	}
}

// TestPostgresConcurrentProcesses: processes that ingest into one
// PostgreSQL store at once, as the CI jobs of many runners do, lose no run
// and fail none; processes storing the same runs at once leave one copy of
// each and no error. (The children are this test binary, see TestMain.)
func TestPostgresConcurrentProcesses(t *testing.T) {
	for _, c := range []struct {
		name     string
		prefixes []string
		want     int
	}{
		{"distinct runs", []string{"p0", "p1", "p2", "p3"}, 160},
		{"the same runs", []string{"same", "same", "same", "same"}, 40},
	} {
		t.Run(c.name, func(t *testing.T) {
			url := storetest.PostgresURL(t)
			var wg sync.WaitGroup
			errs := make([]error, len(c.prefixes))
			outs := make([][]byte, len(c.prefixes))
			for p, prefix := range c.prefixes {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cmd := osexec.Command(os.Args[0], "-test.run=^$")
					cmd.Env = append(os.Environ(), "QOSCAL_TEST_CHILD_DB="+url, "QOSCAL_TEST_CHILD_PREFIX="+prefix)
					outs[p], errs[p] = cmd.CombinedOutput()
				}()
			}
			wg.Wait()
			for p := range errs {
				if errs[p] != nil {
					t.Errorf("process %d: %v\n%s", p, errs[p], outs[p])
				}
			}
			s, err := Open(bg, url, store.ReadOnly)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			runs, err := s.Runs(bg, store.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != c.want {
				t.Errorf("%d runs stored, want %d", len(runs), c.want)
			}
			seen := map[string]bool{}
			for _, r := range runs {
				if len(r.Measurements) != 12 || seen[r.ID] {
					t.Errorf("run %s: %d measurements (want 12), stored before: %v", r.ID, len(r.Measurements), seen[r.ID])
				}
				seen[r.ID] = true
			}
		})
	}
}

// TestPostgresNumbersBeyond32Bits: the measurements table's sample and
// repetition columns are 32-bit; a number beyond them (a CSV file's
// repetition column takes any whole number) is an error naming the run,
// never cut to fit, and nothing of the ingest is stored.
func TestPostgresNumbersBeyond32Bits(t *testing.T) {
	url := storetest.PostgresURL(t)
	s, err := Open(bg, url, store.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	big := storetest.NewRepetitionRun("big", 1)
	big.Measurements[3].Repetition = 1 << 32
	_, err = s.Ingest(bg, []data.Run{storetest.NewRun("fine", 1, nil), big}, store.IngestOptions{})
	if err == nil || !strings.Contains(err.Error(), "run big: ") || !strings.Contains(err.Error(), "repetition 4294967296: beyond the store's 32-bit numbers") {
		t.Errorf("a repetition of 2^32: %v, want an error naming run big and the repetition", err)
	}
	if runs, err := s.Runs(bg, store.Query{}); err != nil || len(runs) != 0 {
		t.Errorf("after the failed ingest the store holds %d runs (%v), want none", len(runs), err)
	}
}
