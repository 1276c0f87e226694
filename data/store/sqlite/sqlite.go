// Package sqlite is the store in one SQLite file, qoscal's default: the
// embedded backend of store.Store, through zombiezen.com/go/sqlite.
package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// migrations[i] takes the schema from version i to version i+1. The schema
// version lives in PRAGMA user_version. Append; never edit a released step.
var migrations = []string{
	`CREATE TABLE runs (
		seq         INTEGER PRIMARY KEY,
		id          TEXT NOT NULL UNIQUE,
		source      TEXT NOT NULL,
		measured_at TEXT,
		baseline    TEXT,
		candidate   TEXT,
		digest      TEXT NOT NULL,
		ingested_at TEXT NOT NULL
	);
	CREATE TABLE labels (
		run_seq INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		key     TEXT NOT NULL,
		value   TEXT NOT NULL,
		PRIMARY KEY (run_seq, key)
	) WITHOUT ROWID;
	CREATE INDEX labels_by_key_value ON labels(key, value);
	CREATE TABLE measurements (
		run_seq   INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		variant   TEXT NOT NULL,
		benchmark TEXT NOT NULL,
		sample    INTEGER NOT NULL,
		value     REAL NOT NULL,
		unit      TEXT NOT NULL,
		PRIMARY KEY (run_seq, variant, benchmark, unit, sample)
	) WITHOUT ROWID;`,
	// Version 2 holds each series (variant, benchmark, unit) once, in the
	// series table, and a measurement refers to it by number: a row of
	// measurements is four numbers rather than three strings and three
	// numbers. The driver binds and returns no strings per row, and SQLite
	// compares integer keys (issue 19, 10,000 runs of 20 measurements: the
	// store file 11.6 → 6.3 MB, ingest of one CSV 1.2 → 0.8 s of CPU with
	// the run insert executed, spread --db 0.47 → 0.42 s). A series is
	// numbered in name order when migrated, in the order first seen after
	// that; the numbers mean nothing else, and readers order by name.
	`CREATE TABLE series (
		id        INTEGER PRIMARY KEY,
		variant   TEXT NOT NULL,
		benchmark TEXT NOT NULL,
		unit      TEXT NOT NULL,
		UNIQUE (variant, benchmark, unit)
	);
	INSERT INTO series (variant, benchmark, unit)
		SELECT DISTINCT variant, benchmark, unit FROM measurements ORDER BY variant, benchmark, unit;
	CREATE TABLE measurements_v2 (
		run_seq INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		series  INTEGER NOT NULL REFERENCES series(id),
		sample  INTEGER NOT NULL,
		value   REAL NOT NULL,
		PRIMARY KEY (run_seq, series, sample)
	) WITHOUT ROWID;
	INSERT INTO measurements_v2 (run_seq, series, sample, value)
		SELECT m.run_seq, s.id, m.sample, m.value FROM measurements m
		JOIN series s ON s.variant = m.variant AND s.benchmark = m.benchmark AND s.unit = m.unit;
	DROP TABLE measurements;
	ALTER TABLE measurements_v2 RENAME TO measurements;`,
	// Version 3 adds the ledger (store.Ledger): each verdict a gate
	// recorded, against the calibration named by the SHA-256 of its bytes
	// (one verdict per run and calibration), its benchmarks' bands, and
	// the marks people made of runs later. An older store gains empty
	// tables; its runs are left as they are.
	ledgerMigration,
	// Version 4 records which of a calibration's profiles (recommend
	// --by) judged a verdict: the value of its label, '' for the file's
	// top-level figures, which every verdict of an older store was
	// judged on.
	`ALTER TABLE verdicts ADD COLUMN profile TEXT NOT NULL DEFAULT '';`,
}

// ledgerMigration is schema version 3, the ledger's tables.
const ledgerMigration = `CREATE TABLE verdicts (
		seq                INTEGER PRIMARY KEY,
		run_seq            INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		calibration_sha256 TEXT NOT NULL,
		calibration_name   TEXT NOT NULL,
		verdict            TEXT NOT NULL,
		detail             TEXT NOT NULL,
		score              REAL NOT NULL,
		floor              REAL NOT NULL,
		floor_source       TEXT NOT NULL,
		partial            INTEGER NOT NULL,
		kind               TEXT NOT NULL,
		other_run          TEXT NOT NULL,
		runner_health      TEXT NOT NULL,
		runner_z           REAL,
		digest             TEXT NOT NULL,
		recorded_at        TEXT NOT NULL,
		UNIQUE (run_seq, calibration_sha256)
	);
	CREATE INDEX verdicts_by_calibration ON verdicts(calibration_sha256);
	CREATE TABLE verdict_bands (
		verdict_seq INTEGER NOT NULL REFERENCES verdicts(seq) ON DELETE CASCADE,
		benchmark   TEXT NOT NULL,
		band        TEXT NOT NULL,
		PRIMARY KEY (verdict_seq, benchmark)
	) WITHOUT ROWID;
	CREATE TABLE marks (
		seq       INTEGER PRIMARY KEY,
		run_seq   INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		truth     TEXT NOT NULL,
		note      TEXT NOT NULL,
		marked_at TEXT NOT NULL,
		UNIQUE (run_seq, marked_at, truth, note)
	);`

// SchemaVersion is the store schema version this build writes.
var SchemaVersion = len(migrations)

// Store is the store in one SQLite file, the embedded default. It is safe for several
// processes to write one store file at once: the file is in WAL mode, every
// write transaction takes the write lock when it begins (BEGIN IMMEDIATE),
// and a writer waits up to BusyTimeout for another to finish.
//
// Every access goes through zombiezen.com/go/sqlite, a binding to the
// pure-Go SQLite engine of modernc.org/sqlite that reads each column
// straight into a Go value, and interrupts a statement when its context
// ends (BenchmarkEngineSelect10000 and BenchmarkEngineInsert10000 in this
// package time it alone on a store's reads and inserts).
type Store struct {
	path string
	// readOnly is set for a store opened without create; immutable for
	// one opened immutable=1 (see openReadOnly), whose snapshot is then
	// the store file as it was when opened.
	readOnly, immutable bool
	snapshot            os.FileInfo
	// Each operation (a read, an ingest, a migration) takes a connection
	// of its own, so that goroutines may read one store at once; idle
	// holds those not in use, until Close.
	mu     sync.Mutex
	idle   []*sqlite.Conn
	closed bool
}

// BusyTimeout is how long a writer waits for the store's write lock.
const BusyTimeout = 30 * time.Second

// Open opens the store at path. ReadWrite opens the store for
// writing (ingest), creating the file when it is missing, and brings its
// schema up to date. ReadOnly opens it read-only:
// the store must exist and already be a qoscal store, and nothing is
// written to it (no schema, no migration), so that reading never changes a
// store, and works on a store in a folder this user cannot write.
//
// It refuses a file that is not a SQLite database, a SQLite database that
// is not a qoscal store, and a store written by a newer schema version
// than this build knows.
func Open(path string, mode store.Mode) (*Store, error) {
	if err := CheckLocation(path); err != nil {
		return nil, err
	}
	if mode != store.ReadWrite {
		return openReadOnly(path)
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("store %s is a folder, expected a SQLite file", path)
	case err == nil && !st.Mode().IsRegular():
		return nil, fmt.Errorf("store %s is %s, not a file: expected a SQLite store file", path, data.FileKind(st.Mode()))
	case err == nil && st.Size() > 0:
		if err := checkSQLiteHeader(path); err != nil {
			return nil, err
		}
	case err != nil:
		if err := checkFolder(path); err != nil {
			return nil, err
		}
	}
	// Processes that open one new store at once race to make it: the
	// first turns it to WAL mode, and SQLite may then answer another's
	// first statement "database is locked" (SQLITE_BUSY) at once, without
	// waiting for the busy timeout (1 open in about 30 of three processes
	// at once failed so, issue 19's TestConcurrentProcesses). Such an open
	// is tried again, for up to BusyTimeout.
	deadline := time.Now().Add(BusyTimeout)
	for {
		s := &Store{path: path}
		err := s.migrate(context.Background())
		if err == nil {
			return s, nil
		}
		s.Close()
		if !isBusy(err) || time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// CheckLocation refuses a store location that SQLite would not read as a
// file: ":memory:", its in-memory database, which keeps nothing once the
// command ends (ingest said "1 run added" and kept nothing), and a SQLite
// URI ("file:…"), which Open would take as a file of that name; of those,
// an in-memory one (file::memory:, mode=memory) is named as such.
func CheckLocation(path string) error {
	if path == ":memory:" {
		return fmt.Errorf("store %s is SQLite's in-memory database, which keeps nothing once the command ends: name a store file (./:memory: for a file of that name)", path)
	}
	if rest, ok := strings.CutPrefix(path, "file:"); ok {
		name, params, _ := strings.Cut(rest, "?")
		if name == ":memory:" || strings.HasPrefix(name, ":memory:") || slices.Contains(strings.Split(params, "&"), "mode=memory") {
			return fmt.Errorf("store %s is a SQLite URI of an in-memory database, which keeps nothing once the command ends: name a store file", path)
		}
		return fmt.Errorf("store %s is a SQLite URI: name the store by its file name (%s), or a postgres:// URL", path, name)
	}
	return nil
}

// checkFolder says what is wrong with the folder of a store to be made,
// when SQLite could not make it there: a folder that does not exist, or a
// file where the folder should be (SQLite says "unable to open database
// file" of both).
func checkFolder(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("store %s: the folder %s does not exist: make it first, or name a store in a folder that exists", path, dir)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("store %s: a part of %s is a file, not a folder", path, dir)
	case err != nil:
		return fmt.Errorf("store %s: its folder %s: %v", path, dir, err)
	case !st.IsDir():
		return fmt.Errorf("store %s: %s is %s, not a folder", path, dir, kindOf(st.Mode()))
	}
	return nil
}

// kindOf names a file's kind: "a file" for a regular one, else as
// data.FileKind does.
func kindOf(m fs.FileMode) string {
	if m.IsRegular() {
		return "a file"
	}
	return data.FileKind(m)
}

// isBusy reports whether err is SQLite's "database is locked"
// (SQLITE_BUSY, or one of its extended codes).
func isBusy(err error) bool { return backend.PrimaryCode(err) == 5 }

// openReadOnly opens an existing store read-only (SQLite mode=ro).
//
// A store is in WAL mode, and SQLite reads a WAL database through its
// shared-memory index, the -shm file next to it, which a reader creates
// when it is missing. In a folder this user cannot write, with no -shm
// there (no other process has the store open), mode=ro fails with
// SQLITE_READONLY_DIRECTORY. Then, and only when no write-ahead log holds
// changes not yet in the store file, the store is opened immutable=1:
// SQLite reads the file as it is, with no locks and no -shm. Immutable is
// not safe against a writer that starts while we read (SQLite would not
// see its changes, and a checkpoint could rewrite pages under us), so such
// a store notes the file's size and time at open and a read fails, rather
// than returning a mix, when either has changed (see checkUnchanged).
func openReadOnly(path string) (*Store, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no store at %s: ingest runs first (qoscal ingest), or name the store with --db", path)
	case err != nil:
		return nil, fmt.Errorf("store %s: %v", path, err)
	case st.IsDir():
		return nil, fmt.Errorf("store %s is a folder, expected a SQLite file", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("store %s is %s, not a file: expected a SQLite store file", path, data.FileKind(st.Mode()))
	case st.Size() == 0:
		return nil, fmt.Errorf("store %s is an empty file (0 bytes), not a qoscal store: ingest runs into it first (qoscal ingest), or name a qoscal store with --db", path)
	}
	if err := checkSQLiteHeader(path); err != nil {
		return nil, err
	}
	s := &Store{path: path, readOnly: true}
	err = s.checkReadable()
	if err == nil {
		return s, nil
	}
	s.Close()
	if !cannotMakeSHM(err) {
		return nil, err
	}
	if wal, werr := os.Stat(path + "-wal"); werr == nil && wal.Size() > 0 {
		return nil, fmt.Errorf("store %s: cannot read it in a folder this user cannot write: its write-ahead log %s-wal holds changes not yet in the store file; open the store once where its folder is writable (any qoscal command does), or copy the store with its -wal file to a writable folder", path, path)
	}
	s = &Store{path: path, readOnly: true, immutable: true, snapshot: st}
	if err := s.checkReadable(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// cannotMakeSHM reports whether err is SQLite failing to open or create a
// WAL database's -shm file read-only (SQLITE_READONLY_* or
// SQLITE_CANTOPEN, as a read-only folder gives).
func cannotMakeSHM(err error) bool {
	code := backend.PrimaryCode(err)
	return code == 8 || code == 14 // SQLITE_READONLY, SQLITE_CANTOPEN
}

// connect opens a new connection to the store: read-only (mode=ro, and
// immutable=1 when the store was opened so) or for writing, creating the
// file when it is missing. It makes every setting of the store's
// connections, here only: each waits up to BusyTimeout for a lock another
// connection holds; one that writes syncs the file at checkpoints only
// (synchronous NORMAL, safe in WAL mode), and leaves SQLite's foreign key
// checks off. The writer makes every run and series a row refers to, or
// reads it in its transaction, which holds the write lock; and it deletes
// a replaced run's rows itself. The checks were a third of an ingest's
// time (two lookups for each measurement row); the tests check the keys
// of what the writer wrote (PRAGMA foreign_key_check, checkForeignKeys).
// The file is put in WAL mode by migrate, once it is known to be a qoscal
// store (or a new one): a connection setting would switch another
// program's database to WAL mode before it was looked at.
func (s *Store) connect() (*sqlite.Conn, error) {
	uri := "file:" + uriPath(s.path)
	flags := sqlite.OpenReadWrite | sqlite.OpenCreate | sqlite.OpenURI
	if s.readOnly {
		uri += "?mode=ro"
		if s.immutable {
			uri += "&immutable=1"
		}
		flags = sqlite.OpenReadOnly | sqlite.OpenURI
	}
	c, err := sqlite.OpenConn(uri, flags)
	if err != nil {
		return nil, s.wrap(sqliteErr(err))
	}
	c.SetBusyTimeout(BusyTimeout)
	if !s.readOnly {
		for _, q := range []string{"PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = OFF"} {
			if err := execute(c, q); err != nil {
				c.Close()
				return nil, s.wrap(err)
			}
		}
	}
	return c, nil
}

// conn takes a connection for an operation under ctx: a statement that
// runs when ctx ends is interrupted (SQLite checks between steps of its
// program), and so is every statement after it. release gives the
// connection back, its transaction, if any, rolled back.
func (s *Store) conn(ctx context.Context) (*sqlite.Conn, error) {
	s.mu.Lock()
	var c *sqlite.Conn
	if n := len(s.idle); n > 0 {
		c, s.idle = s.idle[n-1], s.idle[:n-1]
	}
	s.mu.Unlock()
	if c == nil {
		var err error
		if c, err = s.connect(); err != nil {
			return nil, err
		}
	}
	c.SetInterrupt(ctx.Done())
	return c, nil
}

func (s *Store) release(c *sqlite.Conn) {
	c.SetInterrupt(nil)
	if !c.AutocommitEnabled() {
		if err := execute(c, "ROLLBACK"); err != nil {
			c.Close()
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		c.Close()
		return
	}
	s.idle = append(s.idle, c)
}

// beginWrite takes the store's write lock (BEGIN IMMEDIATE) on c, a
// connection that conn took for ctx: it waits up to BusyTimeout for
// another writer to finish, or until ctx ends.
func beginWrite(ctx context.Context, c *sqlite.Conn) error {
	wait, stop := context.WithTimeout(ctx, BusyTimeout)
	defer stop()
	// While it waits, the connection gives up when wait ends, rather than
	// after SQLite's own busy timeout, which no interrupt cuts short.
	c.SetInterrupt(wait.Done())
	c.SetBlockOnBusy()
	err := execute(c, "BEGIN IMMEDIATE")
	c.SetBusyTimeout(BusyTimeout)
	c.SetInterrupt(ctx.Done())
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case wait.Err() != nil: // SQLITE_BUSY, as SQLite's busy timeout says it
		return &sqliteError{code: 5, msg: "database is locked"}
	}
	return err
}

// interrupted returns the error of an operation under ctx: ctx's own
// error when ctx ended it (SQLITE_INTERRUPT), else err.
func (s *Store) interrupted(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && backend.PrimaryCode(err) == 9 { // SQLITE_INTERRUPT
		return s.wrap(ctx.Err())
	}
	return err
}

// uriPath escapes the characters of a file name that a SQLite URI
// (file:NAME?PARAMS) would otherwise read as syntax.
func uriPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// checkSQLiteHeader refuses a file that does not start with SQLite's magic
// string, before the driver touches it.
func checkSQLiteHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("store %s: %v", path, err)
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := f.Read(head)
	if string(head[:n]) != "SQLite format 3\x00" {
		return fmt.Errorf("store %s is not a SQLite database: name a qoscal store with --db", path)
	}
	return nil
}

// identify reads the store's schema version on c, after checking that the
// file is a qoscal store (or an empty SQLite database, version 0, which
// only Open with ReadWrite may make one).
func (s *Store) identify(c *sqlite.Conn) (int, error) {
	version, err := queryInt(c, "PRAGMA user_version")
	if err != nil {
		return 0, s.wrap(err)
	}
	app, err := queryInt(c, "PRAGMA application_id")
	if err != nil {
		return 0, s.wrap(err)
	}
	if app != 0 && app != backend.AppID {
		return 0, fmt.Errorf("store %s is a SQLite database of another program (application id %#x), not a qoscal store", s.path, app)
	}
	if version == 0 {
		tables, err := queryInt(c, "SELECT count(*) FROM sqlite_master")
		if err != nil {
			return 0, s.wrap(err)
		}
		if tables > 0 {
			return 0, fmt.Errorf("store %s is a SQLite database with tables of its own, not a qoscal store", s.path)
		}
	}
	if version > int64(len(migrations)) || version < 0 {
		return 0, fmt.Errorf("store %s was written by a newer qoscal (schema version %d; this qoscal knows up to %d): upgrade qoscal", s.path, version, len(migrations))
	}
	if version > 0 {
		if err := s.checkSchema(c, int(version)); err != nil {
			return 0, err
		}
	}
	return int(version), nil
}

// checkSchema checks that the store holds every table and column of
// schema version (as its migrations make them): a store that lacks one (a
// table dropped by hand, a half-restored copy) is damaged, and said so
// here, rather than found up to date by 'store upgrade' and failing later
// with "no such table".
func (s *Store) checkSchema(c *sqlite.Conn, version int) error {
	want, err := schemaOf(version)
	if err != nil {
		return err
	}
	got, err := tableColumns(c)
	if err != nil {
		return s.wrap(err)
	}
	for _, t := range want.tables {
		have, ok := got[t]
		if !ok {
			return fmt.Errorf("store %s is damaged: it lacks the table %s (schema version %d has %s): restore it from a copy, or ingest its runs into a new store", s.path, t, version, strings.Join(want.tables, ", "))
		}
		for _, c := range want.columns[t] {
			if !slices.Contains(have, c) {
				return fmt.Errorf("store %s is damaged: its table %s lacks the column %s (schema version %d): restore it from a copy, or ingest its runs into a new store", s.path, t, c, version)
			}
		}
	}
	return nil
}

// schema is the tables, in order, and their columns of a schema version.
type schema struct {
	tables  []string
	columns map[string][]string
}

// schemas[v-1] is schema version v, made once, by running the migrations
// on an in-memory database, so that the check follows the migrations.
var (
	schemasOnce sync.Once
	schemas     []schema
	schemasErr  error
)

func schemaOf(version int) (schema, error) {
	schemasOnce.Do(func() {
		c, err := sqlite.OpenConn(":memory:", sqlite.OpenReadWrite|sqlite.OpenCreate|sqlite.OpenMemory)
		if err != nil {
			schemasErr = err
			return
		}
		defer c.Close()
		for _, m := range migrations {
			if err := sqlitex.ExecuteScript(c, m, nil); err != nil {
				schemasErr = sqliteErr(err)
				return
			}
			cols, err := tableColumns(c)
			if err != nil {
				schemasErr = err
				return
			}
			sc := schema{columns: cols}
			for t := range cols {
				sc.tables = append(sc.tables, t)
			}
			sort.Strings(sc.tables)
			schemas = append(schemas, sc)
		}
	})
	if schemasErr != nil {
		return schema{}, fmt.Errorf("the store schema: %v (this is a bug in qoscal)", schemasErr)
	}
	return schemas[version-1], nil
}

// tableColumns returns the columns of every table of the database.
func tableColumns(c *sqlite.Conn) (map[string][]string, error) {
	rows, err := selectRows(c, `SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	var t, col string
	for rows.Next() {
		if err := rows.Scan(&t, &col); err != nil {
			return nil, err
		}
		out[t] = append(out[t], col)
	}
	return out, rows.Err()
}

// Check reads every page of the store (PRAGMA quick_check), and reports a
// store that SQLite finds damaged: 'store upgrade' checks so before it
// says a store is up to date.
func (s *Store) Check(ctx context.Context) (err error) {
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	defer s.release(c)
	defer func() { err = s.interrupted(ctx, err) }()
	rows, err := selectRows(c, "PRAGMA quick_check")
	if err != nil {
		return s.wrap(err)
	}
	defer rows.Close()
	var problems []string
	var msg string
	for rows.Next() {
		if err := rows.Scan(&msg); err != nil {
			return s.wrap(err)
		}
		if msg != "ok" {
			for _, l := range strings.Split(msg, "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "*** in database") {
					problems = append(problems, l)
				}
			}
		}
	}
	if err := rows.Err(); err != nil {
		return s.wrap(err)
	}
	if len(problems) > 0 {
		more := ""
		if len(problems) > 3 {
			more = fmt.Sprintf("; and %d more problems", len(problems)-3)
			problems = problems[:3]
		}
		return fmt.Errorf("store %s is damaged: %s%s (SQLite's quick_check): restore it from a copy", s.path, strings.Join(problems, "; "), more)
	}
	return nil
}

// migrate checks what the file is, in a transaction that writes nothing,
// then puts it in WAL mode and brings its schema up to date.
func (s *Store) migrate(ctx context.Context) (err error) {
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	defer s.release(c)
	defer func() { err = s.interrupted(ctx, err) }()
	if err := execute(c, "BEGIN"); err != nil {
		return s.wrap(err)
	}
	if _, err := s.identify(c); err != nil {
		return err
	}
	if err := execute(c, "ROLLBACK"); err != nil {
		return s.wrap(err)
	}
	if err := execute(c, "PRAGMA journal_mode = WAL"); err != nil {
		return s.wrap(err)
	}
	if err := beginWrite(ctx, c); err != nil {
		return s.wrap(err)
	}
	// Again, in the transaction that migrates: another process may have
	// migrated the store since.
	version, err := s.identify(c)
	if err != nil {
		return err
	}
	if version == len(migrations) {
		return nil
	}
	for v := version; v < len(migrations); v++ {
		if err := sqlitex.ExecuteScript(c, migrations[v], nil); err != nil {
			return fmt.Errorf("store %s: migrating schema to version %d: %w", s.path, v+1, sqliteErr(err))
		}
	}
	for _, pragma := range []string{fmt.Sprintf("PRAGMA user_version = %d", len(migrations)), fmt.Sprintf("PRAGMA application_id = %d", backend.AppID)} {
		if err := execute(c, pragma); err != nil {
			return s.wrap(err)
		}
	}
	return s.wrap(execute(c, "COMMIT"))
}

// checkReadable checks, without writing, that a store opened read-only is a
// qoscal store at this build's schema version.
func (s *Store) checkReadable() error {
	c, err := s.conn(context.Background())
	if err != nil {
		return err
	}
	defer s.release(c)
	if err := execute(c, "BEGIN"); err != nil {
		return s.wrap(err)
	}
	version, err := s.identify(c)
	switch {
	case err != nil:
		return err
	case version == 0:
		return fmt.Errorf("store %s is an empty SQLite database, not a qoscal store: ingest runs into it first (qoscal ingest), or name a qoscal store with --db", s.path)
	case version < len(migrations):
		return &store.OlderSchemaError{Store: s.path, Version: version, Current: len(migrations)}
	}
	return nil
}

// checkUnchanged fails when a store opened immutable (see openReadOnly)
// has been written since it was opened, so that a read that may have seen
// a mix of old and new pages is not returned.
func (s *Store) checkUnchanged() error {
	if s.snapshot == nil {
		return nil
	}
	st, err := os.Stat(s.path)
	if err == nil {
		if wal, werr := os.Stat(s.path + "-wal"); werr == nil && wal.Size() > 0 {
			st = nil
		}
	}
	if err != nil || st == nil || st.Size() != s.snapshot.Size() || !st.ModTime().Equal(s.snapshot.ModTime()) {
		return fmt.Errorf("store %s changed while it was being read (another qoscal is writing to it): run the command again", s.path)
	}
	return nil
}

func (s *Store) wrap(err error) error {
	if err == nil {
		return nil
	}
	return backend.StoreError(s.path, err)
}

// Close closes the store.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	for _, c := range s.idle {
		err = cmp.Or(err, c.Close())
	}
	s.idle, s.closed = nil, true
	return s.wrap(sqliteErr(err))
}

// Compact rewrites the store file without its free pages (VACUUM), and
// returns its size before and after. An upgrade from schema version 1
// leaves the old measurements' pages free, more than half the file; SQLite
// reuses free pages but does not give them back.
func (s *Store) Compact(ctx context.Context) (before, after int64, err error) {
	if s.readOnly {
		return 0, 0, fmt.Errorf("store %s is open read-only", s.path)
	}
	c, err := s.conn(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer s.release(c)
	defer func() { err = s.interrupted(ctx, err) }()
	size := func() (int64, error) {
		pages, err := queryInt(c, "PRAGMA page_count")
		if err != nil {
			return 0, err
		}
		pageSize, err := queryInt(c, "PRAGMA page_size")
		return pages * pageSize, err
	}
	if before, err = size(); err != nil {
		return 0, 0, s.wrap(err)
	}
	if err := execute(c, "VACUUM"); err != nil {
		return 0, 0, s.wrap(err)
	}
	if after, err = size(); err != nil {
		return 0, 0, s.wrap(err)
	}
	return before, after, nil
}

// Location returns the store's file name.
func (s *Store) Location() string { return s.path }

// Ingest implements store.Store: IngestEach over the slice.
func (s *Store) Ingest(ctx context.Context, runs []data.Run, opt store.IngestOptions) (store.IngestResult, error) {
	return backend.Ingest(ctx, s, runs, opt)
}

// IngestEach implements store.Store. It takes the file's write lock for the
// whole transaction (BEGIN IMMEDIATE), so concurrent ingests queue, and
// writes each run as it comes.
func (s *Store) IngestEach(ctx context.Context, runs iter.Seq2[store.StoredRun, error], opt store.IngestOptions) (res store.IngestResult, err error) {
	if s.readOnly {
		return res, fmt.Errorf("store %s is open read-only", s.path)
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if err := opt.Ledger.Check(); err != nil {
		return res, fmt.Errorf("store %s: %v", s.path, err)
	}
	c, err := s.conn(ctx)
	if err != nil {
		return res, err
	}
	defer s.release(c)
	defer func() { err = s.interrupted(ctx, err) }()
	if err := beginWrite(ctx, c); err != nil {
		return res, s.wrap(err)
	}
	w := &ingestWriter{s: s, c: c}
	if err := w.readSeries(); err != nil {
		return res, err
	}
	replace, progress := opt.Replace, opt.Progress
	done := 0
	for d, err := range withDigests(runs) {
		if err != nil {
			return store.IngestResult{}, err
		}
		if err := ctx.Err(); err != nil {
			return store.IngestResult{}, err
		}
		done++
		sr, digest := &d.StoredRun, d.digest
		r := &sr.Run
		now := backend.IngestText(opt.IngestTime(sr))
		// A new id is inserted by one statement; only an id stored
		// already (the insert changes no row) is looked up.
		err := w.exec(`INSERT INTO runs (id, source, measured_at, baseline, candidate, digest, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
			r.ID, r.Source, timeArg(r.Time), nullArg(r.Baseline), nullArg(r.Candidate), digest, now)
		if err != nil {
			return store.IngestResult{}, err
		}
		var seq int64
		if c.Changes() == 1 {
			seq = c.LastInsertRowID()
			res.Added++
		} else {
			var old string
			if seq, old, err = w.findRun(r.ID); err != nil {
				return store.IngestResult{}, err
			}
			if old == digest {
				res.Unchanged++
				res.AlreadyStored = append(res.AlreadyStored, r.ID)
				if progress != nil {
					progress(done, 0)
				}
				continue
			}
			if !replace {
				return store.IngestResult{}, &store.ConflictError{Store: s.path, ID: r.ID, Source: r.Source}
			}
			res.Replaced++
			// Keep the run's place (seq) in ingest order; replace the rest.
			for _, del := range []string{`DELETE FROM labels WHERE run_seq = ?`, `DELETE FROM measurements WHERE run_seq = ?`} {
				if err := w.exec(del, seq); err != nil {
					return store.IngestResult{}, err
				}
			}
			if err := w.exec(`UPDATE runs SET source = ?, measured_at = ?, baseline = ?, candidate = ?, digest = ?, ingested_at = ? WHERE seq = ?`,
				r.Source, timeArg(r.Time), nullArg(r.Baseline), nullArg(r.Candidate), digest, now, seq); err != nil {
				return store.IngestResult{}, err
			}
		}
		for _, k := range store.SortedKeys(r.Labels) {
			if err := w.exec(`INSERT INTO labels (run_seq, key, value) VALUES (?, ?, ?)`, seq, k, r.Labels[k]); err != nil {
				return store.IngestResult{}, err
			}
		}
		if err := w.insertMeasurements(seq, r.Measurements); err != nil {
			var me *measurementError
			if errors.As(err, &me) {
				return store.IngestResult{}, fmt.Errorf("store %s: run %s: %s %s sample %d: %w", s.path, r.ID, me.m.Variant, me.m.Benchmark, me.m.Sample, me.err)
			}
			return store.IngestResult{}, err
		}
		res.Measurements += len(r.Measurements)
		if progress != nil {
			progress(done, 0)
		}
	}
	if opt.Ledger != nil {
		if res.Ledger, err = w.writeLedger(opt.Ledger); err != nil {
			return store.IngestResult{}, err
		}
	}
	if err := execute(c, "COMMIT"); err != nil {
		return store.IngestResult{}, s.wrap(err)
	}
	return res, nil
}

// timeArg and nullArg are a run's optional texts as statement arguments:
// NULL when they are missing.
func timeArg(t time.Time) any {
	if v := store.TimeText(t); v != "" {
		return v
	}
	return nil
}

func nullArg(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// digestedRun is a run to store with its Digest.
type digestedRun struct {
	store.StoredRun
	digest string
}

// withDigests yields the runs of seq with their digests, computed a few
// runs ahead in a goroutine of their own (store.Prefetch), which also takes the
// runs from seq: the store's writes, the digests, and whatever makes the
// runs (a loader parsing files) then share the cores. The goroutine has
// returned when the loop over the result ends.
func withDigests(seq iter.Seq2[store.StoredRun, error]) iter.Seq2[digestedRun, error] {
	digested := func(yield func(digestedRun, error) bool) {
		for sr, err := range seq {
			d := digestedRun{StoredRun: sr}
			if err == nil {
				d.digest = store.Digest(&d.Run)
			}
			if !yield(d, err) {
				return
			}
		}
	}
	return func(yield func(digestedRun, error) bool) {
		next, stop := store.Prefetch(digested, digestAhead)
		defer stop()
		for {
			d, err, ok := next()
			if !ok || !yield(d, err) {
				return
			}
		}
	}
}

// digestAhead is how many runs withDigests digests ahead of the writes.
const digestAhead = 16

// ingestWriter writes runs in an ingest's transaction on c, through
// statements the connection prepares once and keeps; it numbers each
// series it has not seen in the store (schema version 2).
type ingestWriter struct {
	s *Store
	c *sqlite.Conn
	// rowsStmts[n] adds n measurements (a multi-row INSERT): with a
	// statement per row the engine took twice as long (343-356 ms against
	// 165-178 ms for 200,000 rows, BenchmarkInsertMeasurements).
	rowsStmts map[int]*sqlite.Stmt
	// series holds the store's series numbers (0 for one being added).
	series map[seriesKey]int64
	// ids is insertMeasurements's buffer of a run's series numbers.
	ids []int64
}

// exec executes query with args.
func (w *ingestWriter) exec(query string, args ...any) error {
	return w.s.wrap(execute(w.c, query, args...))
}

// findRun returns the seq and digest of the stored run id.
func (w *ingestWriter) findRun(id string) (int64, string, error) {
	rows, err := selectRows(w.c, `SELECT seq, digest FROM runs WHERE id = ?`, id)
	if err != nil {
		return 0, "", w.s.wrap(err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return 0, "", w.s.wrap(err)
		}
		return 0, "", fmt.Errorf("store %s: run %s was neither added nor found", w.s.path, id)
	}
	var seq int64
	var digest string
	if err := rows.Scan(&seq, &digest); err != nil {
		return 0, "", w.s.wrap(err)
	}
	return seq, digest, nil
}

// readSeries reads the store's series.
func (w *ingestWriter) readSeries() error {
	series, err := readSeries(w.c)
	if err != nil {
		return w.s.wrap(err)
	}
	w.series = make(map[seriesKey]int64, len(series))
	for id, k := range series {
		w.series[k] = id
	}
	return nil
}

// maxInsertRows is how many measurements one INSERT statement adds: 100
// rows of 4 values, far below SQLite's limit of 32,766 parameters.
const maxInsertRows = 100

// seriesKey names a series: what one variant measured of one benchmark, in
// one unit.
type seriesKey struct{ variant, benchmark, unit string }

func seriesOf(m *data.Measurement) seriesKey { return seriesKey{m.Variant, m.Benchmark, m.Unit} }

// measurementError is the failure to insert one measurement.
type measurementError struct {
	m   data.Measurement
	err error
}

func (e *measurementError) Error() string { return e.err.Error() }

// insertMeasurements adds the measurements of the run seq. When a
// statement fails (SQLite undoes the whole statement, the transaction goes
// on), its rows are inserted one at a time, so that the error names the
// first row that fails, as a statement per row would.
func (w *ingestWriter) insertMeasurements(seq int64, ms []data.Measurement) error {
	// Series new to the store are numbered in name order, so that a run
	// whose series came in together reads back in order with no sort.
	// ids holds each measurement's series number, looked up once.
	var added []int
	ids := w.ids[:0]
	for i := range ms {
		k := seriesOf(&ms[i])
		id, ok := w.series[k]
		if !ok {
			w.series[k] = 0
			added = append(added, i)
		}
		ids = append(ids, id)
	}
	w.ids = ids
	slices.SortFunc(added, func(a, b int) int { return data.CompareMeasurements(ms[a], ms[b]) })
	for _, i := range added {
		k := seriesOf(&ms[i])
		if err := execute(w.c, `INSERT INTO series (variant, benchmark, unit) VALUES (?, ?, ?)`, k.variant, k.benchmark, k.unit); err != nil {
			return &measurementError{m: ms[i], err: err}
		}
		w.series[k] = w.c.LastInsertRowID()
	}
	if len(added) > 0 {
		for i := range ids {
			if ids[i] == 0 {
				ids[i] = w.series[seriesOf(&ms[i])]
			}
		}
	}
	for len(ms) > 0 {
		n := min(len(ms), maxInsertRows)
		chunk, chunkIDs := ms[:n], ids[:n]
		ms, ids = ms[n:], ids[n:]
		err := w.insertRows(seq, chunk, chunkIDs)
		if err == nil {
			continue
		}
		var se *sqliteError
		if !errors.As(err, &se) || backend.PrimaryCode(err) == 9 { // SQLITE_INTERRUPT: no row is to blame
			return err
		}
		for i := range chunk {
			if err := w.insertRows(seq, chunk[i:i+1], chunkIDs[i:i+1]); err != nil {
				return &measurementError{m: chunk[i], err: err}
			}
		}
	}
	return nil
}

// insertRows inserts the measurements ms of the run seq, ids[i] the series
// of ms[i], with one statement.
func (w *ingestWriter) insertRows(seq int64, ms []data.Measurement, ids []int64) error {
	st, ok := w.rowsStmts[len(ms)]
	if !ok {
		var q strings.Builder
		q.WriteString(`INSERT INTO measurements (run_seq, series, sample, value) VALUES `)
		for i := range ms {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?)")
		}
		var err error
		if st, err = w.c.Prepare(q.String()); err != nil {
			return w.s.wrap(sqliteErr(err))
		}
		if w.rowsStmts == nil {
			w.rowsStmts = map[int]*sqlite.Stmt{}
		}
		w.rowsStmts[len(ms)] = st
	}
	for i := range ms {
		p := 4 * i
		st.BindInt64(p+1, seq)
		st.BindInt64(p+2, ids[i])
		st.BindInt64(p+3, int64(ms[i].Sample))
		st.BindFloat(p+4, ms[i].Value)
	}
	return run(st)
}

// Runs implements store.Store.
func (s *Store) Runs(ctx context.Context, q store.Query) ([]store.StoredRun, error) {
	where, args := labelFilter(q.Labels)
	runs, err := s.query(ctx, where, args)
	if err != nil {
		return nil, err
	}
	q.Order.Sort(runs)
	return runs, nil
}

// EachRun implements store.Store: the runs are read a page at a time, in one
// read transaction (a concurrent ingest is seen whole or not at all).
func (s *Store) EachRun(ctx context.Context, q store.Query) iter.Seq2[store.StoredRun, error] {
	return func(yield func(store.StoredRun, error) bool) {
		if q.Order != store.IngestOrder {
			backend.YieldAll(s.Runs(ctx, q))(yield)
			return
		}
		c, err := s.beginRead(ctx)
		if err != nil {
			yield(store.StoredRun{}, err)
			return
		}
		defer s.release(c)
		where, args := labelFilter(q.Labels)
		page := `r.seq IN (SELECT r.seq FROM runs r WHERE ` + where + ` AND r.seq > ? ORDER BY r.seq LIMIT ?)`
		var last int64
		for {
			runs, seqs, err := s.queryTx(ctx, c, page, append(args[:len(args):len(args)], last, store.ReadPage))
			if err == nil {
				err = s.checkUnchanged()
			}
			if err != nil {
				yield(store.StoredRun{}, s.interrupted(ctx, err))
				return
			}
			for i := range runs {
				if !yield(runs[i], nil) {
					return
				}
			}
			if len(runs) < store.ReadPage {
				return
			}
			last = seqs[len(seqs)-1]
		}
	}
}

// query loads the runs that match a condition on runs r, with their labels
// and measurements, in ingest order. It reads in one transaction, so that
// a concurrent ingest is seen whole or not at all.
func (s *Store) query(ctx context.Context, where string, args []any) (runs []store.StoredRun, err error) {
	c, err := s.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer s.release(c)
	defer func() { err = s.interrupted(ctx, err) }()
	runs, _, err = s.queryTx(ctx, c, where, args)
	if err != nil {
		return nil, err
	}
	if err := s.checkUnchanged(); err != nil {
		return nil, err
	}
	return runs, nil
}

// beginRead takes a connection (see conn) and begins a read transaction
// on it; release ends it.
func (s *Store) beginRead(ctx context.Context) (*sqlite.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, s.wrap(err)
	}
	c, err := s.conn(ctx)
	if err != nil {
		return nil, err
	}
	if err := execute(c, "BEGIN"); err != nil {
		s.release(c)
		return nil, s.interrupted(ctx, s.wrap(err))
	}
	return c, nil
}

// queryTx is query in the read transaction of c; it returns the runs'
// seqs too.
func (s *Store) queryTx(ctx context.Context, c *sqlite.Conn, where string, args []any) ([]store.StoredRun, []int64, error) {
	rows, err := selectRows(c, `SELECT seq, id, source, measured_at, baseline, candidate, ingested_at FROM runs r WHERE `+where+` ORDER BY seq`, args...)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	rr := backend.NewRunsRead(s.path)
	err = rr.AddRuns(rows)
	rows.Close()
	if err != nil {
		return nil, nil, err
	}
	if len(rr.Runs) == 0 {
		return nil, nil, nil
	}
	runs, seqs := rr.Runs, rr.Seqs
	// The labels and measurements of the runs read: those of a range of
	// seqs when the runs are every run in it (a page of an unfiltered
	// read, one run), which SQLite finds by its key alone; else those of
	// the runs the condition selects, which SQLite gathers into a
	// temporary index first (a sixth of the time of a read, issue 19).
	of, ofArgs := `run_seq IN (SELECT seq FROM runs r WHERE `+where+`)`, args
	if first, last := seqs[0], seqs[len(seqs)-1]; last-first+1 == int64(len(seqs)) {
		of, ofArgs = `run_seq BETWEEN ? AND ?`, []any{first, last}
	}
	lrows, err := selectRows(c, `SELECT run_seq, key, value FROM labels WHERE `+of, ofArgs...)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	err = rr.AddLabels(lrows)
	lrows.Close()
	if err != nil {
		return nil, nil, err
	}
	// A row names its series by number (schema version 2): the series are
	// read first, and ranked in name order, the order of a run's
	// measurements (Run.Sort), which the rows are then put in.
	series, err := readSeries(c)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	table := newSeriesTable(series)
	mrows, err := selectRows(c, `SELECT run_seq, series, sample, value FROM measurements WHERE `+of+` ORDER BY run_seq`, ofArgs...)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	defer mrows.Close()
	// The measurements go into large slices (chunks), each cut into the
	// parts of several runs: far fewer allocations than a slice per run,
	// with no count of the rows first. A run that does not fit in what is
	// left of a chunk starts the next one.
	all := make([]data.Measurement, 0, measurementChunk)
	// The rows come in run order, as the runs do: cur is the run being
	// filled and start the index in all of its first measurement.
	cur, start := -1, 0
	var curSeq int64
	// ranks holds the series rank of each measurement of the run being
	// filled, to order them by.
	var ranks []int
	finish := func() {
		ms := all[start:len(all):len(all)]
		sortByRank(ms, ranks)
		runs[cur].Measurements = ms
	}
	st := mrows.st
	for mrows.Next() {
		if err := mrows.check(sqlite.TypeInteger, sqlite.TypeInteger, sqlite.TypeInteger, sqlite.TypeFloat); err != nil {
			return nil, nil, s.wrap(err)
		}
		seq, id := st.ColumnInt64(0), st.ColumnInt64(1)
		m := data.Measurement{Sample: int(st.ColumnInt64(2)), Value: st.ColumnFloat(3)}
		if cur < 0 || seq != curSeq {
			i, ok := rr.Index[seq]
			if !ok {
				return nil, nil, rr.Damaged(seq)
			}
			if cur >= 0 {
				finish()
			}
			cur, curSeq, start = i, seq, len(all)
			ranks = ranks[:0]
			if runs[cur].Measurements != nil {
				return nil, nil, fmt.Errorf("store %s: the measurements of run %s did not come in run order", s.path, runs[cur].ID)
			}
		}
		e, ok := table.get(id)
		if !ok {
			return nil, nil, fmt.Errorf("store %s is damaged: a measurement of run %s refers to series %d, which the series table lacks", s.path, runs[cur].ID, id)
		}
		m.Variant, m.Benchmark, m.Unit = e.variant, e.benchmark, e.unit
		if len(all) == cap(all) {
			part := all[start:]
			all = append(make([]data.Measurement, 0, max(measurementChunk, 2*len(part))), part...)
			start = 0
		}
		all = append(all, m)
		ranks = append(ranks, e.rank)
	}
	if err := mrows.Err(); err != nil {
		return nil, nil, s.wrap(err)
	}
	if cur >= 0 {
		finish()
	}
	return runs, seqs, nil
}

// readSeries reads the series table in the read transaction of c: each
// series by its number. Its errors do not name the store.
func readSeries(c *sqlite.Conn) (map[int64]seriesKey, error) {
	rows, err := selectRows(c, `SELECT id, variant, benchmark, unit FROM series`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	series := map[int64]seriesKey{}
	var id int64
	var k seriesKey
	dest := []any{&id, &k.variant, &k.benchmark, &k.unit}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		series[id] = k
	}
	return series, rows.Err()
}

// sqliteError is an error SQLite returned: its message and its result
// code (extended), said as SQLite's message followed by the code, e.g.
// "database is locked (5)". As pgx's errors, it does not name the store:
// the caller's does (backend.StoreError).
type sqliteError struct {
	code int
	msg  string
}

func (e *sqliteError) Error() string { return fmt.Sprintf("%s (%d)", e.msg, e.code) }

// Code returns SQLite's result code; its low 8 bits are the primary code
// (SQLITE_BUSY is 5).
func (e *sqliteError) Code() int { return e.code }

// sqliteErr makes an error of the binding a sqliteError. The binding says
// what it did and the code's text before SQLite's message ("sqlite: step:
// constraint failed: UNIQUE constraint failed: measurements.run_seq, …");
// SQLite's message is what people read, and is kept, with the code. An
// error that is not SQLite's is returned as it is.
func sqliteErr(err error) error {
	if err == nil {
		return nil
	}
	var se *sqliteError
	if errors.As(err, &se) {
		return err
	}
	code := sqlite.ErrCode(err)
	text, name := err.Error(), code.Message()
	msg := name
	if i := strings.Index(text, name+": "); i >= 0 {
		msg = text[i+len(name)+2:]
	} else if !strings.HasSuffix(text, name) {
		return err
	}
	return &sqliteError{code: int(code), msg: msg}
}

// execute runs query, one statement, with args to its end, through the
// statement c prepared for it before (or prepares now, and keeps).
func execute(c *sqlite.Conn, query string, args ...any) error {
	st, err := statement(c, query, args)
	if err != nil {
		return err
	}
	return run(st)
}

// run steps st to its end, and resets it to run again.
func run(st *sqlite.Stmt) error {
	for {
		row, err := st.Step()
		if err != nil {
			return sqliteErr(err)
		}
		if !row {
			return sqliteErr(st.Reset())
		}
	}
}

// queryInt returns the integer that query, one statement that returns a
// row of one column, returns.
func queryInt(c *sqlite.Conn, query string) (int64, error) {
	rows, err := selectRows(c, query)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	if !rows.Next() {
		return 0, cmp.Or(rows.Err(), fmt.Errorf("%s returned no row", query))
	}
	var n int64
	err = rows.Scan(&n)
	return n, err
}

// statement returns the statement c prepared for query, with its
// parameters bound to args: each an int64, an int, a float64, a string, a
// bool (an INTEGER, 0 or 1) or nil (NULL).
func statement(c *sqlite.Conn, query string, args []any) (*sqlite.Stmt, error) {
	st, err := c.Prepare(query)
	if err != nil {
		return nil, sqliteErr(err)
	}
	for i, a := range args {
		switch v := a.(type) {
		case nil:
			st.BindNull(i + 1)
		case int64:
			st.BindInt64(i+1, v)
		case int:
			st.BindInt64(i+1, int64(v))
		case float64:
			st.BindFloat(i+1, v)
		case string:
			st.BindText(i+1, v)
		case bool:
			st.BindBool(i+1, v)
		default:
			return nil, fmt.Errorf("cannot bind %T (parameter %d of %s)", a, i+1, query)
		}
	}
	return st, nil
}

// query runs query with args, and returns its rows.
func selectRows(c *sqlite.Conn, query string, args ...any) (*rows, error) {
	return queryRows(c, query, args)
}

func queryRows(c *sqlite.Conn, query string, args []any) (*rows, error) {
	st, err := statement(c, query, args)
	if err != nil {
		return nil, err
	}
	return &rows{st: st}, nil
}

// rows are a query's rows as backend.RunsRead reads them (backend.Rows), with each
// column's type checked against its destination's: a row that holds
// another type is a backend.DamagedRow. As pgx's rows, their errors do not name
// the store: the caller's do (backend.StoreError). Close
// resets the statement, for its next run.
type rows struct {
	st  *sqlite.Stmt
	err error
}

func (r *rows) Next() bool {
	if r.err != nil {
		return false
	}
	row, err := r.st.Step()
	r.err = sqliteErr(err)
	return row
}

func (r *rows) Err() error { return r.err }

func (r *rows) Close() { r.st.Reset() }

// Scan reads the current row's columns into dest: *int64 (an INTEGER),
// *bool (an INTEGER, true unless 0), *string (TEXT), *sql.NullString
// (TEXT or NULL), *float64 (a number) and *sql.NullFloat64 (a number or
// NULL).
func (r *rows) Scan(dest ...any) error {
	for i, d := range dest {
		t := r.st.ColumnType(i)
		switch d := d.(type) {
		case *float64:
			if t != sqlite.TypeFloat && t != sqlite.TypeInteger {
				return r.typeError(i, "a number")
			}
			*d = r.st.ColumnFloat(i)
		case *sql.NullFloat64:
			if t != sqlite.TypeFloat && t != sqlite.TypeInteger && t != sqlite.TypeNull {
				return r.typeError(i, "a number or NULL")
			}
			*d = sql.NullFloat64{Float64: r.st.ColumnFloat(i), Valid: t != sqlite.TypeNull}
		case *int64:
			if t != sqlite.TypeInteger {
				return r.typeError(i, "an integer")
			}
			*d = r.st.ColumnInt64(i)
		case *bool:
			if t != sqlite.TypeInteger {
				return r.typeError(i, "an integer")
			}
			*d = r.st.ColumnInt64(i) != 0
		case *string:
			if t != sqlite.TypeText {
				return r.typeError(i, "text")
			}
			*d = r.st.ColumnText(i)
		case *sql.NullString:
			if t != sqlite.TypeText && t != sqlite.TypeNull {
				return r.typeError(i, "text or NULL")
			}
			*d = sql.NullString{String: r.st.ColumnText(i), Valid: t != sqlite.TypeNull}
		default:
			return fmt.Errorf("rows.Scan: cannot scan into %T", d)
		}
	}
	return nil
}

// check checks the types of the current row's columns.
func (r *rows) check(types ...sqlite.ColumnType) error {
	for i, t := range types {
		got := r.st.ColumnType(i)
		if got == t || t == sqlite.TypeFloat && got == sqlite.TypeInteger {
			continue
		}
		want := "an integer"
		if t == sqlite.TypeFloat {
			want = "a number"
		}
		return r.typeError(i, want)
	}
	return nil
}

func (r *rows) typeError(i int, want string) error {
	names := map[sqlite.ColumnType]string{sqlite.TypeInteger: "an integer", sqlite.TypeFloat: "a number", sqlite.TypeText: "text", sqlite.TypeBlob: "a blob", sqlite.TypeNull: "NULL"}
	return &backend.DamagedRow{Col: i + 1, Got: names[r.st.ColumnType(i)], Want: want}
}

// measurementChunk is how many measurements the store's reads allocate at
// a time (512 KiB).
const measurementChunk = 8192

// seriesTable finds a stored series by its number: its names, and its
// rank in name order (variant, benchmark, unit, each compared byte by
// byte, as SQLite's BINARY collation and Go's string comparison do).
// Series are numbered from 1 as they are first stored, so a slice indexed
// by number holds them; numbers too sparse for one (never written by
// qoscal) are held in a map. A read looks up every measurement row's
// series: the slice takes a tenth of a read's time off the map's.
type seriesTable struct {
	dense  []seriesEntry
	sparse map[int64]seriesEntry
}

type seriesEntry struct {
	seriesKey
	rank int
	ok   bool
}

func newSeriesTable(series map[int64]seriesKey) seriesTable {
	ids := make([]int64, 0, len(series))
	for id := range series {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int64) int {
		x, y := series[a], series[b]
		return cmp.Or(strings.Compare(x.variant, y.variant), strings.Compare(x.benchmark, y.benchmark), strings.Compare(x.unit, y.unit))
	})
	var t seriesTable
	maxID := int64(-1)
	for _, id := range ids {
		maxID = max(maxID, id)
	}
	if minID := slices.Min(append(ids, 0)); minID >= 0 && maxID < int64(2*len(ids)+64) {
		t.dense = make([]seriesEntry, maxID+1)
	} else {
		t.sparse = make(map[int64]seriesEntry, len(ids))
	}
	for i, id := range ids {
		e := seriesEntry{series[id], i, true}
		if t.dense != nil {
			t.dense[id] = e
		} else {
			t.sparse[id] = e
		}
	}
	return t
}

// get returns series id, and whether the store has it.
func (t *seriesTable) get(id int64) (seriesEntry, bool) {
	if t.dense != nil {
		if uint64(id) < uint64(len(t.dense)) {
			e := t.dense[id]
			return e, e.ok
		}
		return seriesEntry{}, false
	}
	e, ok := t.sparse[id]
	return e, ok
}

// sortByRank puts a run's measurements in name order (Run.Sort's): by
// the rank of their series, then by sample. ranks[i] is the rank of ms[i];
// both are sorted together. A run's measurements come mostly in order (a
// store's series are numbered in name order as first seen), so they are
// only sorted when they are not in order already.
func sortByRank(ms []data.Measurement, ranks []int) {
	rs := rankSorter{ms, ranks}
	if !sort.IsSorted(rs) {
		sort.Sort(rs)
	}
}

// rankSorter sorts measurements and their series ranks together.
type rankSorter struct {
	ms    []data.Measurement
	ranks []int
}

func (r rankSorter) Len() int { return len(r.ms) }
func (r rankSorter) Less(i, j int) bool {
	return r.ranks[i] < r.ranks[j] || r.ranks[i] == r.ranks[j] && r.ms[i].Sample < r.ms[j].Sample
}
func (r rankSorter) Swap(i, j int) {
	r.ms[i], r.ms[j] = r.ms[j], r.ms[i]
	r.ranks[i], r.ranks[j] = r.ranks[j], r.ranks[i]
}

// RunByID implements store.Store; it reads only that run.
func (s *Store) RunByID(ctx context.Context, id string) (store.StoredRun, error) {
	runs, err := s.query(ctx, "r.id = ?", []any{id})
	if err != nil {
		return store.StoredRun{}, err
	}
	if len(runs) == 0 {
		return store.StoredRun{}, fmt.Errorf("store %s holds no run %q", s.path, id)
	}
	return runs[0], nil
}

func labelFilter(filter map[string]string) (string, []any) {
	conds := []string{"1 = 1"}
	var args []any
	for _, k := range store.SortedKeys(filter) {
		conds = append(conds, `EXISTS (SELECT 1 FROM labels l WHERE l.run_seq = r.seq AND l.key = ? AND l.value = ?)`)
		args = append(args, k, filter[k])
	}
	return strings.Join(conds, " AND "), args
}
