package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"zombiezen.com/go/sqlite"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// The engine benchmarks do the SQL work of an ingest and of a read of
// 10,000 runs × 20 measurements and nothing else: the same pure-Go engine
// (modernc.org/sqlite's, reached through zombiezen.com/go/sqlite as the
// store reaches it, with nothing in between), the same store file settings and tables,
// the same kinds of statements, with every argument made beforehand and
// no checks, digests, ordering or error reporting. They are the engine's
// limit, against which BenchmarkIngest10000 and BenchmarkStoreRuns10000
// (what qoscal's store does with the same runs) are read (issue 19): run
// them side by side, e.g.
//
//	go test -run '^$' -bench 'Ingest10000$|EngineInsert10000|StoreRuns10000|EngineSelect10000' -benchmem ./data

// engineStore makes a new store file with the runs' series numbered in
// name order, and returns its path and the series numbers.
func engineStore(b *testing.B, runs []data.Run) (string, map[seriesKey]int64) {
	path := filepath.Join(b.TempDir(), "e.db")
	s, err := Open(path, store.ReadWrite)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	c, err := s.conn(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer s.release(c)
	ids := map[seriesKey]int64{}
	for i := range runs[0].Measurements {
		k := seriesOf(&runs[0].Measurements[i])
		if err := execute(c, `INSERT INTO series (variant, benchmark, unit) VALUES (?, ?, ?)`, k.variant, k.benchmark, k.unit); err != nil {
			b.Fatal(err)
		}
		ids[k] = c.LastInsertRowID()
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
			run struct {
				seq   int64
				texts [6]string
			}
			label  string
			ms     []int64
			values []float64
		}
		args := make([]runArgs, n)
		for i := range runs {
			r := &runs[i]
			seq := int64(i + 1)
			args[i].run.seq = seq
			args[i].run.texts = [6]string{r.ID, r.Source, r.Baseline, r.Candidate, store.Digest(r), "2026-12-01T08:00:00Z"}
			args[i].label = r.Labels["os"]
			for _, m := range r.Measurements {
				args[i].ms = append(args[i].ms, seq, ids[seriesOf(&m)], int64(m.Sample))
				args[i].values = append(args[i].values, m.Value)
			}
		}
		s := &Store{path: path}
		c, err := s.connect()
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := execute(c, "BEGIN IMMEDIATE"); err != nil {
			b.Fatal(err)
		}
		insRun := prepare(b, c, `INSERT INTO runs (seq, id, source, baseline, candidate, digest, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		insLabel := prepare(b, c, `INSERT INTO labels (run_seq, key, value) VALUES (?, ?, ?)`)
		insM := prepare(b, c, `INSERT INTO measurements (run_seq, series, sample, value) VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?), ", 20), ", "))
		for i := range args {
			a := &args[i]
			insRun.BindInt64(1, a.run.seq)
			for j, v := range a.run.texts {
				insRun.BindText(j+2, v)
			}
			if err := run(insRun); err != nil {
				b.Fatal(err)
			}
			insLabel.BindInt64(1, a.run.seq)
			insLabel.BindText(2, "os")
			insLabel.BindText(3, a.label)
			if err := run(insLabel); err != nil {
				b.Fatal(err)
			}
			ms, values := a.ms, a.values
			for j := range values {
				insM.BindInt64(4*j+1, ms[3*j])
				insM.BindInt64(4*j+2, ms[3*j+1])
				insM.BindInt64(4*j+3, ms[3*j+2])
				insM.BindFloat(4*j+4, values[j])
			}
			if err := run(insM); err != nil {
				b.Fatal(err)
			}
		}
		if err := execute(c, "COMMIT"); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		c.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N*n*20)/b.Elapsed().Seconds(), "measurements/s")
}

func prepare(b *testing.B, c *sqlite.Conn, q string) *sqlite.Stmt {
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
	w, err := Open(path, store.ReadWrite)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.Ingest(context.Background(), benchRuns(n), store.IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	w.Close()
	c, err := (&Store{path: path, readOnly: true}).connect()
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ReportAllocs()
	var texts []string
	var ints []int64
	var sum float64
	for b.Loop() {
		if err := execute(c, "BEGIN"); err != nil {
			b.Fatal(err)
		}
		rows := 0
		for _, q := range []struct {
			sql  string
			read func(st *sqlite.Stmt)
		}{
			{`SELECT seq, id, source, measured_at, baseline, candidate, ingested_at FROM runs ORDER BY seq`, func(st *sqlite.Stmt) {
				ints = append(ints[:0], st.ColumnInt64(0))
				texts = append(texts[:0], st.ColumnText(1), st.ColumnText(2), st.ColumnText(3), st.ColumnText(4), st.ColumnText(5), st.ColumnText(6))
			}},
			{`SELECT run_seq, key, value FROM labels`, func(st *sqlite.Stmt) {
				ints = append(ints[:0], st.ColumnInt64(0))
				texts = append(texts[:0], st.ColumnText(1), st.ColumnText(2))
			}},
			{`SELECT run_seq, series, sample, value FROM measurements ORDER BY run_seq`, func(st *sqlite.Stmt) {
				ints = append(ints[:0], st.ColumnInt64(0), st.ColumnInt64(1), st.ColumnInt64(2))
				sum += st.ColumnFloat(3)
			}},
		} {
			st := prepare(b, c, q.sql)
			for {
				row, err := st.Step()
				if err != nil {
					b.Fatal(err)
				}
				if !row {
					break
				}
				q.read(st)
				rows++
			}
			st.Reset()
		}
		if err := execute(c, "ROLLBACK"); err != nil {
			b.Fatal(err)
		}
		if rows != n*22 {
			b.Fatalf("%d rows read, want %d", rows, n*22)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n*20), "ns/measurement")
}
