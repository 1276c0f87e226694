package data

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// storeRows is what both backends' query results offer: the SQLite
// store's rows and pgx's Rows (which scans into sql.Scanner destinations
// such as sql.NullString too). The caller closes them.
type storeRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// runsRead is a read of stored runs, as both backends do it: the rows of
// the runs table in seq order first, then rows of labels and measurements
// that name their run by its seq.
type runsRead struct {
	store string // the store's location, for errors
	runs  []StoredRun
	seqs  []int64       // runs[i]'s seq
	index map[int64]int // a run's place in runs, by seq
}

func newRunsRead(store string) *runsRead {
	return &runsRead{store: store, index: map[int64]int{}}
}

// addRuns reads rows of (seq, id, source, measured_at, baseline,
// candidate, ingested_at).
func (rr *runsRead) addRuns(rows storeRows) error {
	// The destinations are made once: scanned through an interface, each
	// would otherwise be allocated anew for every row.
	var seq int64
	var id, source, ingested string
	var measured, base, cand sql.NullString
	dest := []any{&seq, &id, &source, &measured, &base, &cand, &ingested}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return storeError(rr.store, err)
		}
		r := StoredRun{Run: Run{ID: id, Source: source, Baseline: base.String, Candidate: cand.String}}
		var err error
		if measured.Valid {
			if r.Time, err = time.Parse(time.RFC3339Nano, measured.String); err != nil {
				return fmt.Errorf("store %s: run %s: measured time %q is not an RFC 3339 time", rr.store, r.ID, measured.String)
			}
		}
		if r.Ingested, err = time.Parse(time.RFC3339, ingested); err != nil {
			return fmt.Errorf("store %s: run %s: ingest time %q is not an RFC 3339 time", rr.store, r.ID, ingested)
		}
		r.Labels = map[string]string{}
		rr.index[seq] = len(rr.runs)
		rr.runs = append(rr.runs, r)
		rr.seqs = append(rr.seqs, seq)
	}
	if err := rows.Err(); err != nil {
		return storeError(rr.store, err)
	}
	return nil
}

// find returns the run a row of labels or measurements belongs to; in a
// sound store (one transaction, foreign keys) it is always there.
func (rr *runsRead) find(seq int64) (*StoredRun, error) {
	i, ok := rr.index[seq]
	if !ok {
		return nil, rr.damaged(seq)
	}
	return &rr.runs[i], nil
}

func (rr *runsRead) damaged(seq int64) error {
	return fmt.Errorf("store %s is damaged: a row refers to run %d, which the runs table lacks", rr.store, seq)
}

// addLabels reads rows of (run_seq, key, value).
func (rr *runsRead) addLabels(rows storeRows) error {
	var seq int64
	var k, v string
	dest := []any{&seq, &k, &v}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return storeError(rr.store, err)
		}
		r, err := rr.find(seq)
		if err != nil {
			return err
		}
		r.Labels[k] = v
	}
	if err := rows.Err(); err != nil {
		return storeError(rr.store, err)
	}
	return nil
}

// storeError names the store in an error of reading or writing it: "store
// S is damaged: …" for a row whose values are not of its columns' types
// (damagedRow), "store S: …" for any other.
func storeError(store string, err error) error {
	var d *damagedRow
	if errors.As(err, &d) || damagedFile(err) {
		return fmt.Errorf("store %s is damaged: %w", store, err)
	}
	return fmt.Errorf("store %s: %w", store, err)
}

// damagedFile reports whether err is SQLite's report of a damaged file:
// SQLITE_CORRUPT ("database disk image is malformed", a garbled page) or
// SQLITE_NOTADB.
func damagedFile(err error) bool {
	code := primaryCode(err)
	return code == 11 || code == 26
}

// damagedRow is a row whose column col (from 1) holds a value of another
// type than the column's.
type damagedRow struct {
	col       int
	got, want string
}

func (e *damagedRow) Error() string {
	return fmt.Sprintf("column %d of a row is %s, expected %s", e.col, e.got, e.want)
}
