package lite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite" // writes the test databases, through database/sql
	"zombiezen.com/go/sqlite"
)

// makeDB writes a database with the statements stmts through the
// modernc.org/sqlite driver (the store's writer), and returns its file:
// URI for OpenReadOnly.
func makeDB(t testing.TB, stmts ...string) (path, uri string) {
	path = filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path, "file:" + path + "?mode=ro"
}

func TestReadsEveryType(t *testing.T) {
	_, uri := makeDB(t,
		`CREATE TABLE t (k INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT, n TEXT)`,
		`INSERT INTO t VALUES (1, -9007199254740993, 0.1, 'ünïcode ::x', NULL)`,
		`INSERT INTO t VALUES (2, 7, 1e-300, '', 'x')`,
		`INSERT INTO t VALUES (3, 0, 2.5, 'a'||char(0)||'b', 'y')`)
	c, err := OpenReadOnly(uri, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, err := c.Prepare(`SELECT k, i, f, s, n FROM t WHERE k >= ? AND s <> ? ORDER BY k`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Bind(int64(1), "no such text"); err != nil {
		t.Fatal(err)
	}
	type row struct {
		k, i    int64
		f       float64
		s       string
		n       string
		types   [5]int
		nString string
	}
	var got []row
	for st.Step() {
		r := row{k: st.Int64(0), i: st.Int64(1), f: st.Float64(2), s: st.Text(3), n: st.Text(4)}
		for i := range r.types {
			r.types[i] = st.Type(i)
		}
		got = append(got, r)
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	want := []row{
		{k: 1, i: -9007199254740993, f: 0.1, s: "ünïcode ::x", n: "", types: [5]int{Integer, Integer, Float, Text, Null}},
		{k: 2, i: 7, f: 1e-300, s: "", n: "x", types: [5]int{Integer, Integer, Float, Text, Text}},
		{k: 3, i: 0, f: 2.5, s: "a\x00b", n: "y", types: [5]int{Integer, Integer, Float, Text, Text}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows:\n got %v\nwant %v", got, want)
	}
	// Bound text is copied at once (SQLITE_TRANSIENT), and int binds.
	st2, err := c.Prepare(`SELECT count(*) FROM t WHERE s = ? OR k = ?`)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if err := st2.Bind("ünïcode ::x", 3); err != nil {
		t.Fatal(err)
	}
	if !st2.Step() || st2.Int64(0) != 2 {
		t.Errorf("count = %d, want 2 (err %v)", st2.Int64(0), st2.Err())
	}
	if st2.Step() || st2.Err() != nil {
		t.Errorf("a second row, or an error: %v", st2.Err())
	}
}

func TestTransactions(t *testing.T) {
	_, uri := makeDB(t, `CREATE TABLE t (x REAL)`, `INSERT INTO t VALUES (1.5)`)
	c, err := OpenReadOnly(uri, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{"BEGIN", "SELECT x FROM t", "ROLLBACK", "BEGIN", "ROLLBACK"} {
		if err := c.Exec(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}

func TestErrors(t *testing.T) {
	path, uri := makeDB(t, `CREATE TABLE t (x INTEGER)`)
	c, err := OpenReadOnly(uri, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	code := func(err error) int {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%v (%T) is not a lite.Error", err, err)
		}
		return e.Code()
	}
	// A statement SQLite cannot compile: SQLITE_ERROR (1), with its message.
	_, err = c.Prepare(`SELECT nope FROM t`)
	if err == nil || code(err) != 1 || !strings.Contains(err.Error(), "no such column: nope") {
		t.Errorf("bad column: %v", err)
	}
	// A write on a read-only connection: SQLITE_READONLY (8), reported by
	// Step and kept by Err.
	st, err := c.Prepare(`INSERT INTO t VALUES (1)`)
	if err != nil {
		t.Fatal(err)
	}
	if st.Step() {
		t.Error("an INSERT returned a row")
	}
	if err := st.Err(); err == nil || code(err)&0xff != 8 {
		t.Errorf("write on a read-only connection: %v", err)
	}
	if st.Step() {
		t.Error("Step after an error returned a row")
	}
	st.Close()
	if err := c.Exec(`DELETE FROM t`); err == nil || code(err)&0xff != 8 {
		t.Errorf("Exec of a write: %v", err)
	}
	// Empty SQL, and a type Bind does not take.
	if _, err := c.Prepare(" "); err == nil {
		t.Error("empty SQL prepared")
	}
	st, err = c.Prepare(`SELECT ?`)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Bind(true); err == nil || !strings.Contains(err.Error(), "cannot bind bool") {
		t.Errorf("Bind(bool): %v", err)
	}
	if err := st.Bind(1, 2); err == nil || code(err) != 25 { // SQLITE_RANGE
		t.Errorf("Bind of a parameter the statement lacks: %v", err)
	}
	st.Close()
	// A missing file is not made: SQLITE_CANTOPEN (14).
	_, err = OpenReadOnly("file:"+filepath.Join(filepath.Dir(path), "missing.db")+"?mode=ro", time.Second)
	if err == nil || code(err)&0xff != 14 {
		t.Errorf("missing file: %v", err)
	}
}

// TestWrites: a read-write connection inserts rows with every kind of
// argument, reports the rows changed and the last rowid, and a statement
// that fails a constraint is reset and runs again with new arguments.
func TestWrites(t *testing.T) {
	path, _ := makeDB(t, `PRAGMA journal_mode = WAL`, `CREATE TABLE t (k INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT UNIQUE, n TEXT)`)
	c, err := OpenReadWrite("file:"+path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Exec("BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	ins, err := c.Prepare(`INSERT INTO t (i, f, s, n) VALUES (?, ?, ?, ?) ON CONFLICT (s) DO NOTHING`)
	if err != nil {
		t.Fatal(err)
	}
	defer ins.Close()
	for k, args := range [][]any{{int64(-3), 0.25, "a", nil}, {7, 1e300, "b", "x"}, {1, 2.0, "a", nil}} {
		if err := ins.Bind(args...); err != nil {
			t.Fatal(err)
		}
		if err := ins.Exec(); err != nil {
			t.Fatal(err)
		}
		want := int64(1)
		if k == 2 { // "a" again: DO NOTHING
			want = 0
		}
		if c.Changes() != want {
			t.Errorf("insert %d changed %d rows, want %d", k, c.Changes(), want)
		}
		if k < 2 && c.LastInsertRowid() != int64(k+1) {
			t.Errorf("insert %d: rowid %d, want %d", k, c.LastInsertRowid(), k+1)
		}
	}
	strict, err := c.Prepare(`INSERT INTO t (k, i, f) VALUES (?, ?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	defer strict.Close()
	for _, k := range []int64{1, 10} {
		if err := cmpOr(strict.BindInt64(1, k), strict.BindInt64(2, k*2), strict.BindFloat64(3, 0.5)); err != nil {
			t.Fatal(err)
		}
		err := strict.Exec()
		if k == 1 && (err == nil || !strings.Contains(err.Error(), "UNIQUE constraint failed: t.k")) {
			t.Errorf("duplicate key: %v", err)
		}
		if k == 10 && err != nil {
			t.Errorf("after a failed run: %v", err)
		}
	}
	if err := c.Exec("COMMIT"); err != nil {
		t.Fatal(err)
	}
	st, err := c.Prepare(`SELECT k, i, f, s, n FROM t ORDER BY k`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var got []string
	for st.Step() {
		got = append(got, fmt.Sprintf("%d %d %g %q %q/%d", st.Int64(0), st.Int64(1), st.Float64(2), st.Text(3), st.Text(4), st.Type(4)))
	}
	want := []string{`1 -3 0.25 "a" ""/5`, `2 7 1e+300 "b" "x"/3`, `10 20 0.5 "" ""/5`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows:\n got %q\nwant %q", got, want)
	}
}

func cmpOr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// measurementsDB holds n rows of (run_seq, series, sample, value), as the
// store's measurements table does.
func measurementsDB(b *testing.B, n int) (path, uri string) {
	return makeDB(b,
		`CREATE TABLE m (run_seq INTEGER NOT NULL, series INTEGER NOT NULL, sample INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY (run_seq, series, sample)) WITHOUT ROWID`,
		fmt.Sprintf(`WITH RECURSIVE i(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM i WHERE x + 1 < %d)
			INSERT INTO m SELECT x / 20, x %% 20, 0, 1 + (x %% 97) / 1000.0 FROM i`, n))
}

// BenchmarkReadMeasurements reads 200,000 rows of four numbers (10,000
// runs' measurements) through this package, and through database/sql and
// the modernc.org/sqlite driver into the same Go values, side by side
// (issue 19: this package's reason to be).
func BenchmarkReadMeasurements(b *testing.B) {
	const n = 200000
	path, uri := measurementsDB(b, n)
	const q = `SELECT run_seq, series, sample, value FROM m ORDER BY run_seq`
	check := func(b *testing.B, rows int, sum float64) {
		if rows != n || math.Abs(sum-float64(n)) > float64(n)*0.1 {
			b.Fatalf("%d rows, sum %g", rows, sum)
		}
	}
	b.Run("lite", withCPU(func(b *testing.B) {
		c, err := OpenReadOnly(uri, time.Second)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		b.ReportAllocs()
		for b.Loop() {
			st, err := c.Prepare(q)
			if err != nil {
				b.Fatal(err)
			}
			rows, sum := 0, 0.0
			for st.Step() {
				_, _, _ = st.Int64(0), st.Int64(1), st.Int64(2)
				sum += st.Float64(3)
				rows++
			}
			if err := st.Err(); err != nil {
				b.Fatal(err)
			}
			st.Close()
			check(b, rows, sum)
		}
	}))
	// zombiezen.com/go/sqlite, with an interrupt channel set as a read
	// with a context would have it (each Step looks at it).
	b.Run("zombiezen", withCPU(func(b *testing.B) {
		c, err := sqlite.OpenConn(uri, sqlite.OpenReadOnly|sqlite.OpenURI)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c.SetInterrupt(ctx.Done())
		b.ReportAllocs()
		for b.Loop() {
			st, _, err := c.PrepareTransient(q)
			if err != nil {
				b.Fatal(err)
			}
			rows, sum := 0, 0.0
			for {
				ok, err := st.Step()
				if err != nil {
					b.Fatal(err)
				}
				if !ok {
					break
				}
				_, _, _ = st.ColumnInt64(0), st.ColumnInt64(1), st.ColumnInt64(2)
				sum += st.ColumnFloat(3)
				rows++
			}
			st.Finalize()
			check(b, rows, sum)
		}
	}))
	b.Run("database-sql", withCPU(func(b *testing.B) {
		db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		b.ReportAllocs()
		for b.Loop() {
			rs, err := db.Query(q)
			if err != nil {
				b.Fatal(err)
			}
			var seq, series, sample int64
			var v float64
			rows, sum := 0, 0.0
			for rs.Next() {
				if err := rs.Scan(&seq, &series, &sample, &v); err != nil {
					b.Fatal(err)
				}
				sum += v
				rows++
			}
			if err := rs.Err(); err != nil {
				b.Fatal(err)
			}
			rs.Close()
			check(b, rows, sum)
		}
	}))
}

// BenchmarkInsertMeasurements inserts 200,000 rows of four numbers in one
// transaction into a WAL database (the store's settings), through this
// package (one row per statement) and through database/sql (100 rows per
// statement, as the store did), side by side.
func BenchmarkInsertMeasurements(b *testing.B) {
	const n = 200000
	schema := `CREATE TABLE m (run_seq INTEGER NOT NULL, series INTEGER NOT NULL, sample INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY (run_seq, series, sample)) WITHOUT ROWID`
	b.Run("lite", withCPU(func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			path, _ := makeDB(b, `PRAGMA journal_mode = WAL`, schema)
			c, err := OpenReadWrite("file:"+path, time.Second)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			for _, q := range []string{"PRAGMA synchronous = NORMAL", "BEGIN IMMEDIATE"} {
				if err := c.Exec(q); err != nil {
					b.Fatal(err)
				}
			}
			st, err := c.Prepare(`INSERT INTO m (run_seq, series, sample, value) VALUES ` + strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?), ", 100), ", "))
			if err != nil {
				b.Fatal(err)
			}
			for x := 0; x < n; x += 100 {
				for y := x; y < x+100; y++ {
					p := 4 * (y - x)
					st.BindInt64(p+1, int64(y/20))
					st.BindInt64(p+2, int64(y%20))
					st.BindInt64(p+3, 0)
					st.BindFloat64(p+4, 1+float64(y%97)/1000)
				}
				if err := st.Exec(); err != nil {
					b.Fatal(err)
				}
			}
			st.Close()
			if err := c.Exec("COMMIT"); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			c.Close()
			b.StartTimer()
		}
	}))
	b.Run("zombiezen", withCPU(func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			path, _ := makeDB(b, `PRAGMA journal_mode = WAL`, schema)
			c, err := sqlite.OpenConn("file:"+path, sqlite.OpenReadWrite|sqlite.OpenURI)
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			c.SetInterrupt(ctx.Done())
			b.StartTimer()
			for _, q := range []string{"PRAGMA synchronous = NORMAL", "BEGIN IMMEDIATE"} {
				if err := zExec(c, q); err != nil {
					b.Fatal(err)
				}
			}
			st, _, err := c.PrepareTransient(`INSERT INTO m (run_seq, series, sample, value) VALUES ` + strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?), ", 100), ", "))
			if err != nil {
				b.Fatal(err)
			}
			for x := 0; x < n; x += 100 {
				for y := x; y < x+100; y++ {
					p := 4 * (y - x)
					st.BindInt64(p+1, int64(y/20))
					st.BindInt64(p+2, int64(y%20))
					st.BindInt64(p+3, 0)
					st.BindFloat(p+4, 1+float64(y%97)/1000)
				}
				if _, err := st.Step(); err != nil {
					b.Fatal(err)
				}
				st.Reset()
			}
			st.Finalize()
			if err := zExec(c, "COMMIT"); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			cancel()
			c.Close()
			b.StartTimer()
		}
	}))
	b.Run("database-sql", withCPU(func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			path, _ := makeDB(b, `PRAGMA journal_mode = WAL`, schema)
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=synchronous(NORMAL)")
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			tx, err := db.Begin()
			if err != nil {
				b.Fatal(err)
			}
			st, err := tx.Prepare(`INSERT INTO m (run_seq, series, sample, value) VALUES ` + strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?), ", 100), ", "))
			if err != nil {
				b.Fatal(err)
			}
			args := make([]any, 0, 400)
			for x := 0; x < n; x += 100 {
				args = args[:0]
				for y := x; y < x+100; y++ {
					args = append(args, int64(y/20), int64(y%20), int64(0), 1+float64(y%97)/1000)
				}
				if _, err := st.Exec(args...); err != nil {
					b.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			db.Close()
			b.StartTimer()
		}
	}))
}

// zExec runs one statement that returns no rows on a zombiezen connection.
func zExec(c *sqlite.Conn, q string) error {
	st, _, err := c.PrepareTransient(q)
	if err != nil {
		return err
	}
	defer st.Finalize()
	_, err = st.Step()
	return err
}

// cpuNS is the CPU time (user and system) this process has used, in ns:
// on a machine shared with other work, a benchmark's CPU time varies far
// less than its wall time.
func cpuNS() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// withCPU runs the benchmark f and reports its CPU time per op as well.
func withCPU(f func(b *testing.B)) func(b *testing.B) {
	return func(b *testing.B) {
		start := cpuNS()
		f(b)
		b.ReportMetric(float64(cpuNS()-start)/float64(b.N), "cpu-ns/op")
	}
}
