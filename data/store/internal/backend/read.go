// Package backend holds what the store's backends (SQLite, PostgreSQL)
// share: reading the rows of a query into stored runs, the errors that
// name a store, and the small rules both follow, so that each is written
// once.
package backend

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// Rows is what both backends' query results offer: the SQLite
// store's rows and pgx's Rows (which scans into sql.Scanner destinations
// such as sql.NullString too). The caller closes them.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// RunsRead is a read of stored runs, as both backends do it: the rows of
// the runs table in seq order first, then rows of labels and measurements
// that name their run by its seq.
type RunsRead struct {
	location string // the store's location, for errors
	Runs     []store.StoredRun
	Seqs     []int64       // Runs[i]'s seq
	Index    map[int64]int // a run's place in Runs, by seq
}

// NewRunsRead begins a read of the store at location (named in errors).
func NewRunsRead(location string) *RunsRead {
	return &RunsRead{location: location, Index: map[int64]int{}}
}

// AddRuns reads rows of (seq, id, source, measured_at, baseline,
// candidate, ingested_at).
func (rr *RunsRead) AddRuns(rows Rows) error {
	// The destinations are made once: scanned through an interface, each
	// would otherwise be allocated anew for every row.
	var seq int64
	var id, source, ingested string
	var measured, base, cand sql.NullString
	dest := []any{&seq, &id, &source, &measured, &base, &cand, &ingested}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return StoreError(rr.location, err)
		}
		r := store.StoredRun{Run: data.Run{ID: id, Source: source, Baseline: base.String, Candidate: cand.String}}
		var err error
		if measured.Valid {
			if r.Time, err = time.Parse(time.RFC3339Nano, measured.String); err != nil {
				return fmt.Errorf("store %s: run %s: measured time %q is not an RFC 3339 time", rr.location, r.ID, measured.String)
			}
		}
		if r.Ingested, err = time.Parse(time.RFC3339, ingested); err != nil {
			return fmt.Errorf("store %s: run %s: ingest time %q is not an RFC 3339 time", rr.location, r.ID, ingested)
		}
		r.Labels = map[string]string{}
		rr.Index[seq] = len(rr.Runs)
		rr.Runs = append(rr.Runs, r)
		rr.Seqs = append(rr.Seqs, seq)
	}
	if err := rows.Err(); err != nil {
		return StoreError(rr.location, err)
	}
	return nil
}

// find returns the run a row of labels or measurements belongs to; in a
// sound store (one transaction, foreign keys) it is always there.
func (rr *RunsRead) Find(seq int64) (*store.StoredRun, error) {
	i, ok := rr.Index[seq]
	if !ok {
		return nil, rr.Damaged(seq)
	}
	return &rr.Runs[i], nil
}

func (rr *RunsRead) Damaged(seq int64) error {
	return fmt.Errorf("store %s is damaged: a row refers to run %d, which the runs table lacks", rr.location, seq)
}

// AddLabels reads rows of (run_seq, key, value).
func (rr *RunsRead) AddLabels(rows Rows) error {
	var seq int64
	var k, v string
	dest := []any{&seq, &k, &v}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return StoreError(rr.location, err)
		}
		r, err := rr.Find(seq)
		if err != nil {
			return err
		}
		r.Labels[k] = v
	}
	if err := rows.Err(); err != nil {
		return StoreError(rr.location, err)
	}
	return nil
}

// StoreError names the store in an error of reading or writing it: "store
// S is damaged: …" for a row whose values are not of its columns' types
// (DamagedRow), "store S: …" for any other.
func StoreError(location string, err error) error {
	var d *DamagedRow
	if errors.As(err, &d) || DamagedFile(err) {
		return fmt.Errorf("store %s is damaged: %w", location, err)
	}
	return fmt.Errorf("store %s: %w", location, err)
}

// DamagedFile reports whether err is SQLite's report of a damaged file:
// SQLITE_CORRUPT ("database disk image is malformed", a garbled page) or
// SQLITE_NOTADB.
func DamagedFile(err error) bool {
	code := PrimaryCode(err)
	return code == 11 || code == 26
}

// DamagedRow is a row whose column col (from 1) holds a value of another
// type than the column's.
type DamagedRow struct {
	Col       int
	Got, Want string
}

func (e *DamagedRow) Error() string {
	return fmt.Sprintf("column %d of a row is %s, expected %s", e.Col, e.Got, e.Want)
}

// PrimaryCode returns the primary result code of a SQLite error (its
// extended code less the extension), or -1 when err is not one.
func PrimaryCode(err error) int {
	var se interface{ Code() int }
	if !errors.As(err, &se) {
		return -1
	}
	return se.Code() & 0xff
}

// AppID marks a store as qoscal's: SQLite's PRAGMA application_id, and the
// key of PostgreSQL's advisory lock that serialises migrations. "qosc" in
// ASCII.
const AppID = 0x716f7363

// BareDigest is the digest (store.Digest) of r with every measurement's
// repetition 0: the digest a qoscal before schema version 5 stored for r,
// as it kept no repetitions, or that r's samples stored from input that
// did not say have. It is "" when r has no repetitions (its digest is
// that one). A backend's ingest gives a run stored under it its
// repetitions (store.IngestResult.Completed).
func BareDigest(r *data.Run) string {
	bare := *r
	bare.Measurements = nil
	for i, m := range r.Measurements {
		if m.Repetition != 0 {
			if bare.Measurements == nil {
				bare.Measurements = append(make([]data.Measurement, 0, len(r.Measurements)), r.Measurements[:i]...)
			}
			m.Repetition = 0
		}
		if bare.Measurements != nil {
			bare.Measurements = append(bare.Measurements, m)
		}
	}
	if bare.Measurements == nil {
		return ""
	}
	return store.Digest(&bare)
}

// IngestText is how both backends store an ingest time: RFC 3339 in UTC,
// to the second.
func IngestText(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Ingest stores a slice of runs as Store.Ingest does: IngestEach over the
// slice, its Progress told the slice's length as the total.
func Ingest(ctx context.Context, s store.Store, runs []data.Run, opt store.IngestOptions) (store.IngestResult, error) {
	if p := opt.Progress; p != nil {
		n := len(runs)
		opt.Progress = func(done, _ int) { p(done, n) }
	}
	return s.IngestEach(ctx, store.Each(runs), opt)
}

// YieldAll yields the runs a call to Runs returned, or its error.
func YieldAll(runs []store.StoredRun, err error) iter.Seq2[store.StoredRun, error] {
	return func(yield func(store.StoredRun, error) bool) {
		if err != nil {
			yield(store.StoredRun{}, err)
			return
		}
		for i := range runs {
			if !yield(runs[i], nil) {
				return
			}
		}
	}
}
