// Package sqlite is the store in one SQLite file, qoscal's default: the
// embedded backend of store.Store, through zombiezen.com/go/sqlite.
package sqlite

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"zombiezen.com/go/sqlite"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

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
		return fmt.Errorf("store %s: its folder %s: %w", path, dir, err)
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
		return nil, fmt.Errorf("store %s: %w", path, err)
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
		return fmt.Errorf("store %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := f.Read(head)
	if string(head[:n]) != "SQLite format 3\x00" {
		return fmt.Errorf("store %s is not a SQLite database: name a qoscal store with --db", path)
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
