package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"

	"zombiezen.com/go/sqlite"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// Reads: runs by label, in ingest or time order, each read in one read
// transaction.

// Runs implements store.Store.
func (s *Store) Runs(ctx context.Context, q store.Query) ([]store.StoredRun, error) {
	where, args := backend.LabelFilter(q.Labels)
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
		where, args := backend.LabelFilter(q.Labels)
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
	mrows, err := selectRows(c, `SELECT run_seq, series, sample, value, repetition FROM measurements WHERE `+of+` ORDER BY run_seq`, ofArgs...)
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
		if err := mrows.check(sqlite.TypeInteger, sqlite.TypeInteger, sqlite.TypeInteger, sqlite.TypeFloat, sqlite.TypeInteger); err != nil {
			return nil, nil, s.wrap(err)
		}
		seq, id := st.ColumnInt64(0), st.ColumnInt64(1)
		m := data.Measurement{Sample: int(st.ColumnInt64(2)), Value: st.ColumnFloat(3), Repetition: int(st.ColumnInt64(4))}
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
