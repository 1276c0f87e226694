package data

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// The engine benchmarks do the SQL work of an ingest and of a read of
// 10,000 runs × 20 measurements and nothing else: the same driver
// (modernc.org/sqlite, pure Go), the same store file settings and tables,
// the same kinds of statements, with every argument made beforehand and
// no checks, digests, ordering or error reporting. They are the pure-Go
// engine's limit, against which BenchmarkIngest10000 and
// BenchmarkStoreRuns10000 (what qoscal's store does with the same runs)
// are read (issue 19): run them side by side, e.g.
//
//	go test -run '^$' -bench 'Ingest10000$|EngineInsert10000|StoreRuns10000|EngineSelect10000' -benchmem ./data

// engineStore makes a new store file with the runs' series numbered in
// name order, and returns it open for writing with the driver's plain
// database/sql handle, and the series numbers.
func engineStore(b *testing.B, runs []Run) (*SQLite, map[seriesKey]int64) {
	s, err := OpenSQLite(filepath.Join(b.TempDir(), "e.db"), ReadWrite)
	if err != nil {
		b.Fatal(err)
	}
	ids := map[seriesKey]int64{}
	for i := range runs[0].Measurements {
		k := seriesOf(&runs[0].Measurements[i])
		res, err := s.db.Exec(`INSERT INTO series (variant, benchmark, unit) VALUES (?, ?, ?)`, k.variant, k.benchmark, k.unit)
		if err != nil {
			b.Fatal(err)
		}
		ids[k], _ = res.LastInsertId()
	}
	return s, ids
}

// BenchmarkEngineInsert10000 inserts 10,000 runs (a runs row, a labels
// row and one 20-row measurements statement each) in one transaction.
func BenchmarkEngineInsert10000(b *testing.B) {
	const n = 10000
	runs := benchRuns(n)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s, ids := engineStore(b, runs)
		// Every argument beforehand: run rows, label rows, measurement rows.
		type runArgs struct{ run, label, ms []any }
		args := make([]runArgs, n)
		for i := range runs {
			r := &runs[i]
			seq := int64(i + 1)
			args[i].run = []any{seq, r.ID, r.Source, r.Baseline, r.Candidate, Digest(r), "2026-12-01T08:00:00Z"}
			args[i].label = []any{seq, "os", r.Labels["os"]}
			for _, m := range r.Measurements {
				args[i].ms = append(args[i].ms, seq, ids[seriesOf(&m)], int64(m.Sample), m.Value)
			}
		}
		b.StartTimer()
		tx, err := s.db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		insRun := prepare(b, tx, `INSERT INTO runs (seq, id, source, baseline, candidate, digest, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		insLabel := prepare(b, tx, `INSERT INTO labels (run_seq, key, value) VALUES (?, ?, ?)`)
		insM := prepare(b, tx, `INSERT INTO measurements (run_seq, series, sample, value) VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?), ", 20), ", "))
		for i := range args {
			for _, st := range []struct {
				stmt *sql.Stmt
				args []any
			}{{insRun, args[i].run}, {insLabel, args[i].label}, {insM, args[i].ms}} {
				if _, err := st.stmt.Exec(st.args...); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N*n*20)/b.Elapsed().Seconds(), "measurements/s")
}

func prepare(b *testing.B, tx *sql.Tx, q string) *sql.Stmt {
	st, err := tx.Prepare(q)
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkEngineSelect10000 reads 10,000 stored runs back: their runs
// rows, labels and measurements (numbers: the series are few, and named
// once), in one read transaction, scanned into Go values.
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
	s, err := OpenSQLite(path, ReadOnly)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		rows := 0
		for _, q := range []struct {
			sql  string
			dest func() []any
		}{
			{`SELECT seq, id, source, measured_at, baseline, candidate, ingested_at FROM runs ORDER BY seq`, func() []any {
				var seq int64
				var id, source, ingested string
				var measured, base, cand sql.NullString
				return []any{&seq, &id, &source, &measured, &base, &cand, &ingested}
			}},
			{`SELECT run_seq, key, value FROM labels`, func() []any {
				var seq int64
				var k, v string
				return []any{&seq, &k, &v}
			}},
			{`SELECT run_seq, series, sample, value FROM measurements ORDER BY run_seq`, func() []any {
				var seq, series, sample int64
				var v float64
				return []any{&seq, &series, &sample, &v}
			}},
		} {
			rs, err := tx.Query(q.sql)
			if err != nil {
				b.Fatal(err)
			}
			dest := q.dest()
			for rs.Next() {
				if err := rs.Scan(dest...); err != nil {
					b.Fatal(err)
				}
				rows++
			}
			if err := rs.Err(); err != nil {
				b.Fatal(err)
			}
			rs.Close()
		}
		tx.Rollback()
		if rows != n*22 {
			b.Fatalf("%d rows read, want %d", rows, n*22)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n*20), "ns/measurement")
}
