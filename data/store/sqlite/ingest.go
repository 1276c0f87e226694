package sqlite

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"zombiezen.com/go/sqlite"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// Ingest: runs written in one write transaction, a statement prepared once
// for each shape of insert.

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
		return res, fmt.Errorf("store %s: %w", s.path, err)
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
			// A run an older qoscal stored without its repetitions is the
			// same run: it is given them, as if replaced.
			completed := old == backend.BareDigest(r)
			if !replace && !completed {
				return store.IngestResult{}, &store.ConflictError{Store: s.path, ID: r.ID, Source: r.Source}
			}
			if completed {
				res.Completed++
			} else {
				res.Replaced++
			}
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
// rows of 5 values, far below SQLite's limit of 32,766 parameters.
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
		q.WriteString(`INSERT INTO measurements (run_seq, series, sample, value, repetition) VALUES `)
		for i := range ms {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?)")
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
		p := 5 * i
		st.BindInt64(p+1, seq)
		st.BindInt64(p+2, ids[i])
		st.BindInt64(p+3, int64(ms[i].Sample))
		st.BindFloat(p+4, ms[i].Value)
		st.BindInt64(p+5, int64(ms[i].Repetition))
	}
	return run(st)
}
