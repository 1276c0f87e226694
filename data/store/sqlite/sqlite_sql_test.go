package sqlite

import (
	"strings"
	"testing"

	"zombiezen.com/go/sqlite"
)

// sqlConn opens the SQLite file at path (making it when it is missing)
// as a program other than qoscal would: SQLite's defaults, foreign key
// checks off. The tests make, inspect and alter stores through it.
func sqlConn(t testing.TB, path string) *sqlite.Conn {
	t.Helper()
	c, err := sqlite.OpenConn("file:"+uriPath(path), sqlite.OpenReadWrite|sqlite.OpenCreate|sqlite.OpenURI)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sqlExec runs SQL scripts (each one statement or several, separated by
// semicolons) on the SQLite file at path, each statement on its own, as
// the sqlite3 shell would.
func sqlExec(t testing.TB, path string, scripts ...string) {
	t.Helper()
	c := sqlConn(t, path)
	defer c.Close()
	for _, script := range scripts {
		for q := strings.TrimSpace(script); q != ""; {
			st, trailing, err := c.PrepareTransient(q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			for {
				row, err := st.Step()
				if err != nil {
					st.Finalize()
					t.Fatalf("%s: %v", q, err)
				}
				if !row {
					break
				}
			}
			st.Finalize()
			q = strings.TrimSpace(q[len(q)-trailing:])
		}
	}
}

// sqlValue returns, as text, the first column of the first row that the
// statement q returns on the SQLite file at path.
func sqlValue(t testing.TB, path, q string) string {
	t.Helper()
	c := sqlConn(t, path)
	defer c.Close()
	st, _, err := c.PrepareTransient(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer st.Finalize()
	row, err := st.Step()
	if err != nil || !row {
		t.Fatalf("%s: no row (%v)", q, err)
	}
	return st.ColumnText(0)
}
