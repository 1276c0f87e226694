// Package lite is a minimal binding to the SQLite engine that
// modernc.org/sqlite transpiles to Go (its lib package), for the store's
// bulk reads and its ingest: one connection, prepared statements stepped
// row by row, each parameter bound and each column read straight from or
// into an int64, a float64 or a string.
//
// The store reads its runs and ingests through this package rather than
// database/sql because reading 200,000 measurement rows (10,000 runs)
// costs 44-47 ms here and 123-137 ms through database/sql and the driver,
// and inserting them 165-178 ms against 227-262 ms (issue 19,
// BenchmarkReadMeasurements and BenchmarkInsertMeasurements in this
// package's tests). The difference is the work between the engine and the
// caller for every value: the driver asks each column's type and boxes
// its value into a driver.Value, database/sql converts it into the
// destination (and boxes every argument), and the driver opens every
// connection SQLITE_OPEN_FULLMUTEX, so that each call takes the
// connection's mutex. A Conn is opened SQLITE_OPEN_NOMUTEX: it must not be
// used by two goroutines at once.
//
// It does only what the store needs, and owns the C memory it makes: a
// Conn's handle and scratch word, and a Stmt's handle, are freed by Close.
package lite

import (
	"fmt"
	"time"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Conn is one connection to a SQLite database.
type Conn struct {
	tls *libc.TLS
	db  uintptr
	// out is a word of C memory that SQLite writes its out-parameters to
	// (a new connection's or statement's handle).
	out uintptr
}

// Error is an error SQLite returned: its result code (extended, as
// sqlite3_extended_result_codes has them) and message.
type Error struct {
	code int
	msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%d)", e.msg, e.code) }

// Code returns SQLite's result code; its low 8 bits are the primary code
// (SQLITE_BUSY is 5).
func (e *Error) Code() int { return e.code }

// OpenReadOnly opens the database the SQLite URI names (file:PATH?...,
// with SQLite's own URI parameters such as mode=ro and immutable=1)
// read-only, waiting up to busy for a lock another connection holds.
func OpenReadOnly(uri string, busy time.Duration) (*Conn, error) {
	return open(uri, sqlite3.SQLITE_OPEN_READONLY, busy)
}

// OpenReadWrite opens the existing database the SQLite URI names for
// reading and writing, waiting up to busy for a lock another connection
// holds.
func OpenReadWrite(uri string, busy time.Duration) (*Conn, error) {
	return open(uri, sqlite3.SQLITE_OPEN_READWRITE, busy)
}

func open(uri string, mode int32, busy time.Duration) (*Conn, error) {
	tls := libc.NewTLS()
	c := &Conn{tls: tls, out: libc.Xmalloc(tls, 8)}
	if c.out == 0 {
		tls.Close()
		return nil, &Error{code: sqlite3.SQLITE_NOMEM, msg: "out of memory"}
	}
	name, err := libc.CString(uri)
	if err != nil {
		c.free()
		return nil, err
	}
	rc := sqlite3.Xsqlite3_open_v2(tls, name, c.out, mode|sqlite3.SQLITE_OPEN_URI|sqlite3.SQLITE_OPEN_NOMUTEX, 0)
	libc.Xfree(tls, name)
	// SQLite makes a handle even when the open fails, to carry the
	// error; it is closed either way.
	c.db = libc.AtomicLoadPUintptr(c.out)
	if rc != sqlite3.SQLITE_OK {
		err := c.error(rc)
		c.Close()
		return nil, err
	}
	sqlite3.Xsqlite3_extended_result_codes(tls, c.db, 1)
	sqlite3.Xsqlite3_busy_timeout(tls, c.db, int32(busy/time.Millisecond))
	return c, nil
}

// error makes the Error for the result code rc of a call on c.
func (c *Conn) error(rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc))
	if c.db != 0 {
		msg = libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
		rc = sqlite3.Xsqlite3_extended_errcode(c.tls, c.db)
	}
	return &Error{code: int(rc), msg: msg}
}

// Close closes the connection; its statements must be closed first.
func (c *Conn) Close() error {
	var err error
	if c.db != 0 {
		if rc := sqlite3.Xsqlite3_close_v2(c.tls, c.db); rc != sqlite3.SQLITE_OK {
			err = c.error(rc)
		}
		c.db = 0
	}
	c.free()
	return err
}

func (c *Conn) free() {
	if c.out != 0 {
		libc.Xfree(c.tls, c.out)
		c.out = 0
	}
	c.tls.Close()
}

// Exec runs one SQL statement that returns no rows (BEGIN, ROLLBACK).
func (c *Conn) Exec(sql string) error {
	st, err := c.Prepare(sql)
	if err != nil {
		return err
	}
	for st.Step() {
	}
	return firstError(st.Err(), st.Close())
}

func firstError(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Stmt is a prepared statement of a Conn.
type Stmt struct {
	c   *Conn
	p   uintptr
	err error
}

// Prepare compiles one SQL statement.
func (c *Conn) Prepare(sql string) (*Stmt, error) {
	z, err := libc.CString(sql)
	if err != nil {
		return nil, err
	}
	rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, z, -1, c.out, 0)
	libc.Xfree(c.tls, z)
	if rc != sqlite3.SQLITE_OK {
		return nil, c.error(rc)
	}
	p := libc.AtomicLoadPUintptr(c.out)
	if p == 0 {
		return nil, fmt.Errorf("no SQL statement in %q", sql)
	}
	return &Stmt{c: c, p: p}, nil
}

// transient is SQLITE_TRANSIENT: SQLite copies a bound text at once.
const transient = ^uintptr(0)

// Bind binds the statement's parameters, in order, to args: each an
// int64, an int, a float64, a string or nil (NULL).
func (s *Stmt) Bind(args ...any) error {
	for i, a := range args {
		var rc int32
		switch v := a.(type) {
		case nil:
			rc = sqlite3.Xsqlite3_bind_null(s.c.tls, s.p, int32(i+1))
		case float64:
			rc = sqlite3.Xsqlite3_bind_double(s.c.tls, s.p, int32(i+1), v)
		case int64:
			rc = sqlite3.Xsqlite3_bind_int64(s.c.tls, s.p, int32(i+1), v)
		case int:
			rc = sqlite3.Xsqlite3_bind_int64(s.c.tls, s.p, int32(i+1), int64(v))
		case string:
			z, err := libc.CString(v)
			if err != nil {
				return err
			}
			rc = sqlite3.Xsqlite3_bind_text(s.c.tls, s.p, int32(i+1), z, int32(len(v)), transient)
			libc.Xfree(s.c.tls, z)
		default:
			return fmt.Errorf("lite: cannot bind %T (parameter %d)", a, i+1)
		}
		if rc != sqlite3.SQLITE_OK {
			return s.c.error(rc)
		}
	}
	return nil
}

// BindInt64 and BindFloat64 bind parameter i (from 1) of the statement,
// without the interface of Bind: for the statements an ingest executes
// for every row.
func (s *Stmt) BindInt64(i int, v int64) error {
	if rc := sqlite3.Xsqlite3_bind_int64(s.c.tls, s.p, int32(i), v); rc != sqlite3.SQLITE_OK {
		return s.c.error(rc)
	}
	return nil
}

func (s *Stmt) BindFloat64(i int, v float64) error {
	if rc := sqlite3.Xsqlite3_bind_double(s.c.tls, s.p, int32(i), v); rc != sqlite3.SQLITE_OK {
		return s.c.error(rc)
	}
	return nil
}

// Exec runs the statement with its bound parameters to its end, and
// resets it to run again (keeping the bindings).
func (s *Stmt) Exec() error {
	rc := sqlite3.Xsqlite3_step(s.c.tls, s.p)
	for rc == sqlite3.SQLITE_ROW {
		rc = sqlite3.Xsqlite3_step(s.c.tls, s.p)
	}
	var err error
	if rc != sqlite3.SQLITE_DONE {
		err = s.c.error(rc)
	}
	sqlite3.Xsqlite3_reset(s.c.tls, s.p)
	return err
}

// Reset makes the statement ready to run again, keeping its bindings,
// and forgets the error that ended its last run.
func (s *Stmt) Reset() {
	sqlite3.Xsqlite3_reset(s.c.tls, s.p)
	s.err = nil
}

// Changes returns how many rows the last INSERT, UPDATE or DELETE
// changed, and LastInsertRowid the rowid of the last row inserted.
func (c *Conn) Changes() int64 { return sqlite3.Xsqlite3_changes64(c.tls, c.db) }

func (c *Conn) LastInsertRowid() int64 { return sqlite3.Xsqlite3_last_insert_rowid(c.tls, c.db) }

// Step moves to the statement's next row, and reports whether there is
// one. When it returns false, Err tells whether the statement ran to its
// end or failed.
func (s *Stmt) Step() bool {
	if s.err != nil {
		return false
	}
	switch rc := sqlite3.Xsqlite3_step(s.c.tls, s.p); rc {
	case sqlite3.SQLITE_ROW:
		return true
	case sqlite3.SQLITE_DONE:
		return false
	default:
		s.err = s.c.error(rc)
		return false
	}
}

// Err returns the error that ended Step, if any.
func (s *Stmt) Err() error { return s.err }

// Column types, as Type returns them.
const (
	Integer = sqlite3.SQLITE_INTEGER
	Float   = sqlite3.SQLITE_FLOAT
	Text    = sqlite3.SQLITE_TEXT
	Blob    = sqlite3.SQLITE_BLOB
	Null    = sqlite3.SQLITE_NULL
)

// Type returns the type of column i (from 0) of the current row: Integer,
// Float, Text, Blob or Null.
func (s *Stmt) Type(i int) int { return int(sqlite3.Xsqlite3_column_type(s.c.tls, s.p, int32(i))) }

// Int64 returns column i of the current row as an integer.
func (s *Stmt) Int64(i int) int64 { return sqlite3.Xsqlite3_column_int64(s.c.tls, s.p, int32(i)) }

// Float64 returns column i of the current row as a floating-point number.
func (s *Stmt) Float64(i int) float64 {
	return sqlite3.Xsqlite3_column_double(s.c.tls, s.p, int32(i))
}

// Text returns column i of the current row as text (a copy).
func (s *Stmt) Text(i int) string {
	z := sqlite3.Xsqlite3_column_text(s.c.tls, s.p, int32(i))
	if z == 0 {
		return ""
	}
	n := sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, int32(i))
	return string(libc.GoBytes(z, int(n)))
}

// Close finalizes the statement.
func (s *Stmt) Close() error {
	if s.p == 0 {
		return nil
	}
	sqlite3.Xsqlite3_finalize(s.c.tls, s.p)
	s.p = 0
	return nil
}
