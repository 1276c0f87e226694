package data

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"qoscal/data/internal/lite"
)

// The engine benchmarks do the SQL work of an ingest and of a read of
// 10,000 runs × 20 measurements and nothing else: the same pure-Go engine
// (modernc.org/sqlite's, reached through package lite as the store reaches
// it, with nothing in between), the same store file settings and tables,
// the same kinds of statements, with every argument made beforehand and
// no checks, digests, ordering or error reporting. They are the engine's
// limit, against which BenchmarkIngest10000 and BenchmarkStoreRuns10000
// (what qoscal's store does with the same runs) are read (issue 19): run
// them side by side, e.g.
//
//	go test -run '^$' -bench 'Ingest10000$|EngineInsert10000|StoreRuns10000|EngineSelect10000' -benchmem ./data

// engineStore makes a new store file with the runs' series numbered in
// name order, and returns its path and the series numbers.
func engineStore(b *testing.B, runs []Run) (string, map[seriesKey]int64) {
	path := filepath.Join(b.TempDir(), "e.db")
	s, err := OpenSQLite(path, ReadWrite)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ids := map[seriesKey]int64{}
	for i := range runs[0].Measurements {
		k := seriesOf(&runs[0].Measurements[i])
		res, err := s.db.Exec(`INSERT INTO series (variant, benchmark, unit) VALUES (?, ?, ?)`, k.variant, k.benchmark, k.unit)
		if err != nil {
			b.Fatal(err)
		}
		ids[k], _ = res.LastInsertId()
	}
	return path, ids
}

// BenchmarkEngineInsert10000 inserts 10,000 runs (a runs row, a labels
// row and one 20-row measurements statement each) in one transaction,
// with the store's connection settings for an ingest.
func BenchmarkEngineInsert10000(b *testing.B) {
	const n = 10000
	runs := benchRuns(n)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		path, ids := engineStore(b, runs)
		// Every argument beforehand: run rows, label rows, measurement rows.
		type runArgs struct {
			run, label []any
			ms         []int64
			values     []float64
		}
		args := make([]runArgs, n)
		for i := range runs {
			r := &runs[i]
			seq := int64(i + 1)
			args[i].run = []any{seq, r.ID, r.Source, r.Baseline, r.Candidate, Digest(r), "2026-12-01T08:00:00Z"}
			args[i].label = []any{seq, "os", r.Labels["os"]}
			for _, m := range r.Measurements {
				args[i].ms = append(args[i].ms, seq, ids[seriesOf(&m)], int64(m.Sample))
				args[i].values = append(args[i].values, m.Value)
			}
		}
		c, err := lite.OpenReadWrite("file:"+path, BusyTimeout)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for _, q := range []string{"PRAGMA foreign_keys = OFF", "PRAGMA synchronous = NORMAL", "BEGIN IMMEDIATE"} {
			if err := c.Exec(q); err != nil {
				b.Fatal(err)
			}
		}
		insRun := prepare(b, c, `INSERT INTO runs (seq, id, source, baseline, candidate, digest, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		insLabel := prepare(b, c, `INSERT INTO labels (run_seq, key, value) VALUES (?, ?, ?)`)
		insM := prepare(b, c, `INSERT INTO measurements (run_seq, series, sample, value) VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?), ", 20), ", "))
		for i := range args {
			for _, st := range []struct {
				stmt *lite.Stmt
				args []any
			}{{insRun, args[i].run}, {insLabel, args[i].label}} {
				if err := st.stmt.Bind(st.args...); err != nil {
					b.Fatal(err)
				}
				if err := st.stmt.Exec(); err != nil {
					b.Fatal(err)
				}
			}
			ms, values := args[i].ms, args[i].values
			for j := range values {
				insM.BindInt64(4*j+1, ms[3*j])
				insM.BindInt64(4*j+2, ms[3*j+1])
				insM.BindInt64(4*j+3, ms[3*j+2])
				insM.BindFloat64(4*j+4, values[j])
			}
			if err := insM.Exec(); err != nil {
				b.Fatal(err)
			}
		}
		if err := c.Exec("COMMIT"); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		for _, st := range []*lite.Stmt{insRun, insLabel, insM} {
			st.Close()
		}
		c.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N*n*20)/b.Elapsed().Seconds(), "measurements/s")
}

func prepare(b *testing.B, c *lite.Conn, q string) *lite.Stmt {
	st, err := c.Prepare(q)
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkEngineSelect10000 reads 10,000 stored runs back: their runs
// rows, labels and measurements (numbers: the series are few, and named
// once), in one read transaction, each column read into a Go value.
func BenchmarkEngineSelect10000(b *testing.B) {
	const n = 10000
	path := filepath.Join(b.TempDir(), "b.db")
	w, err := OpenSQLite(path, ReadWrite)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.Ingest(context.Background(), benchRuns(n), IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	w.Close()
	c, err := lite.OpenReadOnly("file:"+path+"?mode=ro", BusyTimeout)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ReportAllocs()
	var texts []string
	var ints []int64
	var sum float64
	for b.Loop() {
		if err := c.Exec("BEGIN"); err != nil {
			b.Fatal(err)
		}
		rows := 0
		for _, q := range []struct {
			sql  string
			read func(st *lite.Stmt)
		}{
			{`SELECT seq, id, source, measured_at, baseline, candidate, ingested_at FROM runs ORDER BY seq`, func(st *lite.Stmt) {
				ints = append(ints[:0], st.Int64(0))
				texts = append(texts[:0], st.Text(1), st.Text(2), st.Text(3), st.Text(4), st.Text(5), st.Text(6))
			}},
			{`SELECT run_seq, key, value FROM labels`, func(st *lite.Stmt) {
				ints = append(ints[:0], st.Int64(0))
				texts = append(texts[:0], st.Text(1), st.Text(2))
			}},
			{`SELECT run_seq, series, sample, value FROM measurements ORDER BY run_seq`, func(st *lite.Stmt) {
				ints = append(ints[:0], st.Int64(0), st.Int64(1), st.Int64(2))
				sum += st.Float64(3)
			}},
		} {
			st := prepare(b, c, q.sql)
			for st.Step() {
				q.read(st)
				rows++
			}
			if err := st.Err(); err != nil {
				b.Fatal(err)
			}
			st.Close()
		}
		if err := c.Exec("ROLLBACK"); err != nil {
			b.Fatal(err)
		}
		if rows != n*22 {
			b.Fatalf("%d rows read, want %d", rows, n*22)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n*20), "ns/measurement")
}
