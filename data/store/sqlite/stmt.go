package sqlite

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"zombiezen.com/go/sqlite"

	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// Statements through the binding: arguments bound, rows scanned with each
// column's type checked, SQLite's errors with their codes.

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
