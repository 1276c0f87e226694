package data

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// appID marks a SQLite file as a qoscal store (PRAGMA application_id):
// "qosc" in ASCII.
const appID = 0x716f7363

// migrations[i] takes the schema from version i to version i+1. The schema
// version lives in PRAGMA user_version. Append; never edit a released step.
var migrations = []string{
	`CREATE TABLE runs (
		seq         INTEGER PRIMARY KEY,
		id          TEXT NOT NULL UNIQUE,
		source      TEXT NOT NULL,
		measured_at TEXT,
		baseline    TEXT,
		candidate   TEXT,
		digest      TEXT NOT NULL,
		ingested_at TEXT NOT NULL
	);
	CREATE TABLE labels (
		run_seq INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		key     TEXT NOT NULL,
		value   TEXT NOT NULL,
		PRIMARY KEY (run_seq, key)
	) WITHOUT ROWID;
	CREATE INDEX labels_by_key_value ON labels(key, value);
	CREATE TABLE measurements (
		run_seq   INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		variant   TEXT NOT NULL,
		benchmark TEXT NOT NULL,
		sample    INTEGER NOT NULL,
		value     REAL NOT NULL,
		unit      TEXT NOT NULL,
		PRIMARY KEY (run_seq, variant, benchmark, unit, sample)
	) WITHOUT ROWID;`,
}

// SchemaVersion is the store schema version this build writes.
var SchemaVersion = len(migrations)

// SQLite is the store in one SQLite file, the embedded default. It is safe for several
// processes to write one store file at once: the file is in WAL mode, every
// write transaction takes the write lock when it begins (BEGIN IMMEDIATE),
// and a writer waits up to BusyTimeout for another to finish.
type SQLite struct {
	db   *sql.DB
	path string
	// readOnly is set for a store opened without create.
	readOnly bool
	// snapshot is the store file as it was when opened immutable (see
	// openReadOnly), nil otherwise.
	snapshot os.FileInfo
}

// BusyTimeout is how long a writer waits for the store's write lock.
const BusyTimeout = 30 * time.Second

// OpenSQLite opens the store at path. ReadWrite opens the store for
// writing (ingest), creating the file when it is missing, and brings its
// schema up to date. ReadOnly opens it read-only:
// the store must exist and already be a qoscal store, and nothing is
// written to it (no schema, no migration), so that reading never changes a
// store, and works on a store in a folder this user cannot write.
//
// It refuses a file that is not a SQLite database, a SQLite database that
// is not a qoscal store, and a store written by a newer schema version
// than this build knows.
func OpenSQLite(path string, mode Mode) (*SQLite, error) {
	if mode != ReadWrite {
		return openReadOnly(path)
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("store %s is a folder, expected a SQLite file", path)
	case err == nil && st.Size() > 0:
		if err := checkSQLiteHeader(path); err != nil {
			return nil, err
		}
	}
	s, err := open(path, "_pragma=busy_timeout("+strconv.Itoa(int(BusyTimeout/time.Millisecond))+")"+
		"&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	if err := s.migrate(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// openReadOnly opens an existing store read-only (SQLite mode=ro).
//
// A store is in WAL mode, and SQLite reads a WAL database through its
// shared-memory index, the -shm file next to it, which a reader creates
// when it is missing. In a folder this user cannot write, with no -shm
// there (no other process has the store open), mode=ro fails with
// SQLITE_READONLY_DIRECTORY. Then, and only when no write-ahead log holds
// changes not yet in the store file, the store is opened immutable=1:
// SQLite reads the file as it is, with no locks and no -shm. Immutable is
// not safe against a writer that starts while we read (SQLite would not
// see its changes, and a checkpoint could rewrite pages under us), so such
// a store notes the file's size and time at open and a read fails, rather
// than returning a mix, when either has changed (see checkUnchanged).
func openReadOnly(path string) (*SQLite, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no store at %s: ingest runs first (qoscal ingest), or name the store with --db", path)
	case err != nil:
		return nil, fmt.Errorf("store %s: %v", path, err)
	case st.IsDir():
		return nil, fmt.Errorf("store %s is a folder, expected a SQLite file", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("store %s is %s, not a file: expected a SQLite store file", path, FileKind(st.Mode()))
	case st.Size() == 0:
		return nil, fmt.Errorf("store %s is an empty file (0 bytes), not a qoscal store: ingest runs into it first (qoscal ingest), or name a qoscal store with --db", path)
	}
	if err := checkSQLiteHeader(path); err != nil {
		return nil, err
	}
	busy := "_pragma=busy_timeout(" + strconv.Itoa(int(BusyTimeout/time.Millisecond)) + ")"
	s, err := open(path, "mode=ro&"+busy+"&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	err = s.checkReadable()
	if err == nil {
		return s, nil
	}
	s.Close()
	if !cannotMakeSHM(err) {
		return nil, err
	}
	if wal, werr := os.Stat(path + "-wal"); werr == nil && wal.Size() > 0 {
		return nil, fmt.Errorf("store %s: cannot read it in a folder this user cannot write: its write-ahead log %s-wal holds changes not yet in the store file; open the store once where its folder is writable (any qoscal command does), or copy the store with its -wal file to a writable folder", path, path)
	}
	s, err = open(path, "mode=ro&immutable=1&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	s.snapshot = st
	if err := s.checkReadable(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// cannotMakeSHM reports whether err is SQLite failing to open or create a
// WAL database's -shm file read-only (SQLITE_READONLY_* or
// SQLITE_CANTOPEN, as a read-only folder gives).
func cannotMakeSHM(err error) bool {
	var se interface{ Code() int }
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case 8, 14: // SQLITE_READONLY, SQLITE_CANTOPEN and their extended codes
		return true
	}
	return false
}

// open opens the SQLite file at path with the URI parameters query.
func open(path, query string) (*SQLite, error) {
	db, err := sql.Open("sqlite", "file:"+uriPath(path)+"?"+query)
	if err != nil {
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	db.SetMaxOpenConns(1)
	return &SQLite{db: db, path: path}, nil
}

// uriPath escapes the characters of a file name that a SQLite URI
// (file:NAME?PARAMS) would otherwise read as syntax.
func uriPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// checkSQLiteHeader refuses a file that does not start with SQLite's magic
// string, before the driver touches it.
func checkSQLiteHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("store %s: %v", path, err)
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := f.Read(head)
	if string(head[:n]) != "SQLite format 3\x00" {
		return fmt.Errorf("store %s is not a SQLite database: name a qoscal store with --db", path)
	}
	return nil
}

// identify reads the store's schema version, after checking that the file
// is a qoscal store (or an empty SQLite database, version 0, which only
// OpenSQLite with ReadWrite may make one).
func (s *SQLite) identify(tx *sql.Tx) (int, error) {
	var version, app int
	if err := tx.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return 0, s.wrap(err)
	}
	if err := tx.QueryRow("PRAGMA application_id").Scan(&app); err != nil {
		return 0, s.wrap(err)
	}
	if app != 0 && app != appID {
		return 0, fmt.Errorf("store %s is a SQLite database of another program (application id %#x), not a qoscal store", s.path, app)
	}
	if version == 0 {
		var tables int
		if err := tx.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
			return 0, s.wrap(err)
		}
		if tables > 0 {
			return 0, fmt.Errorf("store %s is a SQLite database with tables of its own, not a qoscal store", s.path)
		}
	}
	if version > len(migrations) || version < 0 {
		return 0, fmt.Errorf("store %s was written by a newer qoscal (schema version %d; this qoscal knows up to %d): upgrade qoscal", s.path, version, len(migrations))
	}
	return version, nil
}

func (s *SQLite) migrate() error {
	tx, err := s.db.BeginTx(context.Background(), nil)
	if err != nil {
		return s.wrap(err)
	}
	defer tx.Rollback()
	version, err := s.identify(tx)
	if err != nil {
		return err
	}
	if version == len(migrations) {
		return nil
	}
	for v := version; v < len(migrations); v++ {
		if _, err := tx.Exec(migrations[v]); err != nil {
			return fmt.Errorf("store %s: migrating schema to version %d: %v", s.path, v+1, err)
		}
	}
	for _, pragma := range []string{fmt.Sprintf("PRAGMA user_version = %d", len(migrations)), fmt.Sprintf("PRAGMA application_id = %d", appID)} {
		if _, err := tx.Exec(pragma); err != nil {
			return s.wrap(err)
		}
	}
	return s.wrap(tx.Commit())
}

// checkReadable checks, without writing, that a store opened read-only is a
// qoscal store at this build's schema version.
func (s *SQLite) checkReadable() error {
	s.readOnly = true
	tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return s.wrap(err)
	}
	defer tx.Rollback()
	version, err := s.identify(tx)
	switch {
	case err != nil:
		return err
	case version == 0:
		return fmt.Errorf("store %s is an empty SQLite database, not a qoscal store: ingest runs into it first (qoscal ingest), or name a qoscal store with --db", s.path)
	case version < len(migrations):
		return fmt.Errorf("store %s has schema version %d, older than this qoscal's %d: run qoscal ingest on it once to upgrade it", s.path, version, len(migrations))
	}
	return nil
}

// checkUnchanged fails when a store opened immutable (see openReadOnly)
// has been written since it was opened, so that a read that may have seen
// a mix of old and new pages is not returned.
func (s *SQLite) checkUnchanged() error {
	if s.snapshot == nil {
		return nil
	}
	st, err := os.Stat(s.path)
	if err == nil {
		if wal, werr := os.Stat(s.path + "-wal"); werr == nil && wal.Size() > 0 {
			st = nil
		}
	}
	if err != nil || st == nil || st.Size() != s.snapshot.Size() || !st.ModTime().Equal(s.snapshot.ModTime()) {
		return fmt.Errorf("store %s changed while it was being read (another qoscal is writing to it): run the command again", s.path)
	}
	return nil
}

func (s *SQLite) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store %s: %w", s.path, err)
}

// Close closes the store.
func (s *SQLite) Close() error { return s.db.Close() }

// Location returns the store's file name.
func (s *SQLite) Location() string { return s.path }

// Ingest implements Store: IngestEach over the slice.
func (s *SQLite) Ingest(ctx context.Context, runs []Run, opt IngestOptions) (IngestResult, error) {
	return s.IngestEach(ctx, Each(runs), progressOf(opt, len(runs)))
}

// IngestEach implements Store. It takes the file's write lock for the
// whole transaction (BEGIN IMMEDIATE), so concurrent ingests queue, and
// writes each run as it comes.
func (s *SQLite) IngestEach(ctx context.Context, runs iter.Seq2[StoredRun, error], opt IngestOptions) (IngestResult, error) {
	var res IngestResult
	if s.readOnly {
		return res, fmt.Errorf("store %s is open read-only", s.path)
	}
	replace, progress := opt.Replace, opt.Progress
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return res, s.wrap(err)
	}
	defer tx.Rollback()
	// A new id is inserted by one statement; only an id stored already
	// (the insert does nothing and returns no row) is looked up.
	insRun, err := tx.PrepareContext(ctx, `INSERT INTO runs (id, source, measured_at, baseline, candidate, digest, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING seq`)
	if err != nil {
		return res, s.wrap(err)
	}
	defer insRun.Close()
	insLabel, err := tx.PrepareContext(ctx, `INSERT INTO labels (run_seq, key, value) VALUES (?, ?, ?)`)
	if err != nil {
		return res, s.wrap(err)
	}
	defer insLabel.Close()
	insM := newMeasurementInserter(tx)
	defer insM.close()
	findRun, err := tx.PrepareContext(ctx, `SELECT seq, digest FROM runs WHERE id = ?`)
	if err != nil {
		return res, s.wrap(err)
	}
	defer findRun.Close()
	done := 0
	for sr, err := range runs {
		if err != nil {
			return IngestResult{}, err
		}
		if err := ctx.Err(); err != nil {
			return IngestResult{}, err
		}
		done++
		r := &sr.Run
		now := ingestText(opt.ingested(&sr))
		digest := Digest(r)
		var seq int64
		var old string
		err = insRun.QueryRowContext(ctx, r.ID, r.Source, timeText(r.Time), nullable(r.Baseline), nullable(r.Candidate), digest, now).Scan(&seq)
		if errors.Is(err, sql.ErrNoRows) {
			err = findRun.QueryRowContext(ctx, r.ID).Scan(&seq, &old)
			if err == nil && old == digest {
				res.Unchanged++
				res.AlreadyStored = append(res.AlreadyStored, r.ID)
				if progress != nil {
					progress(done, 0)
				}
				continue
			}
			if err == nil && !replace {
				return IngestResult{}, &ConflictError{Store: s.path, ID: r.ID, Source: r.Source}
			}
			if err == nil {
				res.Replaced++
				// Keep the run's place (seq) in ingest order; replace the rest.
				for _, del := range []string{`DELETE FROM labels WHERE run_seq = ?`, `DELETE FROM measurements WHERE run_seq = ?`} {
					if _, err := tx.ExecContext(ctx, del, seq); err != nil {
						return IngestResult{}, s.wrap(err)
					}
				}
				if _, err := tx.ExecContext(ctx, `UPDATE runs SET source = ?, measured_at = ?, baseline = ?, candidate = ?, digest = ?, ingested_at = ? WHERE seq = ?`,
					r.Source, timeText(r.Time), nullable(r.Baseline), nullable(r.Candidate), digest, now, seq); err != nil {
					return IngestResult{}, s.wrap(err)
				}
			}
		} else if err == nil {
			res.Added++
		}
		if err != nil {
			return IngestResult{}, s.wrap(err)
		}
		for _, k := range sortedKeys(r.Labels) {
			if _, err := insLabel.ExecContext(ctx, seq, k, r.Labels[k]); err != nil {
				return IngestResult{}, s.wrap(err)
			}
		}
		if err := insM.insert(ctx, seq, r.Measurements); err != nil {
			var me *measurementError
			if errors.As(err, &me) {
				return IngestResult{}, fmt.Errorf("store %s: run %s: %s %s sample %d: %v", s.path, r.ID, me.m.Variant, me.m.Benchmark, me.m.Sample, me.err)
			}
			return IngestResult{}, s.wrap(err)
		}
		res.Measurements += len(r.Measurements)
		if progress != nil {
			progress(done, 0)
		}
	}
	if err := tx.Commit(); err != nil {
		return IngestResult{}, s.wrap(err)
	}
	return res, nil
}

// maxInsertRows is how many measurements one INSERT statement adds: 100
// rows of 6 values, far below SQLite's limit of 32,766 parameters.
const maxInsertRows = 100

// measurementInserter adds measurements with multi-row INSERT statements,
// prepared once per row count: a statement per row made the driver's and
// database/sql's work per statement most of an ingest's time.
type measurementInserter struct {
	tx    *sql.Tx
	stmts map[int]*sql.Stmt
	args  []any
}

func newMeasurementInserter(tx *sql.Tx) *measurementInserter {
	return &measurementInserter{tx: tx, stmts: map[int]*sql.Stmt{}}
}

// measurementError is the failure to insert one measurement.
type measurementError struct {
	m   Measurement
	err error
}

func (e *measurementError) Error() string { return e.err.Error() }

// insert adds the measurements of the run seq. When a statement fails
// (SQLite undoes the whole statement, the transaction goes on), its rows
// are inserted one at a time, so that the error names the first row that
// fails, as a statement per row would.
func (mi *measurementInserter) insert(ctx context.Context, seq int64, ms []Measurement) error {
	for len(ms) > 0 {
		chunk := ms[:min(len(ms), maxInsertRows)]
		ms = ms[len(chunk):]
		if err := mi.exec(ctx, seq, chunk); err == nil {
			continue
		}
		for i := range chunk {
			if err := mi.exec(ctx, seq, chunk[i:i+1]); err != nil {
				return &measurementError{m: chunk[i], err: err}
			}
		}
	}
	return nil
}

func (mi *measurementInserter) exec(ctx context.Context, seq int64, ms []Measurement) error {
	stmt, ok := mi.stmts[len(ms)]
	if !ok {
		var q strings.Builder
		q.WriteString(`INSERT INTO measurements (run_seq, variant, benchmark, sample, value, unit) VALUES `)
		for i := range ms {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?, ?)")
		}
		var err error
		if stmt, err = mi.tx.PrepareContext(ctx, q.String()); err != nil {
			return err
		}
		mi.stmts[len(ms)] = stmt
	}
	args := mi.args[:0]
	for _, m := range ms {
		args = append(args, seq, m.Variant, m.Benchmark, m.Sample, m.Value, m.Unit)
	}
	mi.args = args
	_, err := stmt.ExecContext(ctx, args...)
	return err
}

func (mi *measurementInserter) close() {
	for _, st := range mi.stmts {
		st.Close()
	}
}

// Runs implements Store.
func (s *SQLite) Runs(ctx context.Context, q Query) ([]StoredRun, error) {
	where, args := labelFilter(q.Labels)
	runs, err := s.query(ctx, where, args)
	if err != nil {
		return nil, err
	}
	q.Order.sort(runs)
	return runs, nil
}

// EachRun implements Store: the runs are read a page at a time, in one
// read transaction (a concurrent ingest is seen whole or not at all).
func (s *SQLite) EachRun(ctx context.Context, q Query) iter.Seq2[StoredRun, error] {
	return func(yield func(StoredRun, error) bool) {
		if q.Order != IngestOrder {
			yieldAll(s.Runs(ctx, q))(yield)
			return
		}
		tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			yield(StoredRun{}, s.wrap(err))
			return
		}
		defer tx.Rollback()
		where, args := labelFilter(q.Labels)
		page := `r.seq IN (SELECT r.seq FROM runs r WHERE ` + where + ` AND r.seq > ? ORDER BY r.seq LIMIT ?)`
		var last int64
		for {
			runs, seqs, err := s.queryTx(ctx, tx, page, append(args[:len(args):len(args)], last, readPage))
			if err == nil {
				err = s.checkUnchanged()
			}
			if err != nil {
				yield(StoredRun{}, err)
				return
			}
			for i := range runs {
				if !yield(runs[i], nil) {
					return
				}
			}
			if len(runs) < readPage {
				return
			}
			last = seqs[len(seqs)-1]
		}
	}
}

// query loads the runs that match a condition on runs r, with their labels
// and measurements, in ingest order. It reads in one transaction, so that
// a concurrent ingest is seen whole or not at all.
func (s *SQLite) query(ctx context.Context, where string, args []any) ([]StoredRun, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, s.wrap(err)
	}
	defer tx.Rollback()
	runs, _, err := s.queryTx(ctx, tx, where, args)
	if err != nil {
		return nil, err
	}
	if err := s.checkUnchanged(); err != nil {
		return nil, err
	}
	return runs, nil
}

// queryTx is query in the transaction tx; it returns the runs' seqs too.
func (s *SQLite) queryTx(ctx context.Context, tx *sql.Tx, where string, args []any) ([]StoredRun, []int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT seq, id, source, measured_at, baseline, candidate, ingested_at FROM runs r WHERE `+where+` ORDER BY seq`, args...)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	var runs []StoredRun
	var seqs []int64
	index := map[int64]int{}
	for rows.Next() {
		var seq int64
		var r StoredRun
		var measured, base, cand sql.NullString
		var ingested string
		if err := rows.Scan(&seq, &r.ID, &r.Source, &measured, &base, &cand, &ingested); err != nil {
			rows.Close()
			return nil, nil, s.wrap(err)
		}
		r.Baseline, r.Candidate = base.String, cand.String
		if measured.Valid {
			if r.Time, err = time.Parse(time.RFC3339Nano, measured.String); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("store %s: run %s: measured time %q is not an RFC 3339 time", s.path, r.ID, measured.String)
			}
		}
		if r.Ingested, err = time.Parse(time.RFC3339, ingested); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("store %s: run %s: ingest time %q is not an RFC 3339 time", s.path, r.ID, ingested)
		}
		r.Labels = map[string]string{}
		index[seq] = len(runs)
		runs = append(runs, r)
		seqs = append(seqs, seq)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, s.wrap(err)
	}
	if len(runs) == 0 {
		return nil, nil, nil
	}
	// find returns the run a row of labels or measurements belongs to; in a
	// sound store (one transaction, foreign keys) it is always there.
	damaged := func(seq int64) error {
		return fmt.Errorf("store %s is damaged: a row refers to run %d, which the runs table lacks", s.path, seq)
	}
	find := func(seq int64) (*StoredRun, error) {
		i, ok := index[seq]
		if !ok {
			return nil, damaged(seq)
		}
		return &runs[i], nil
	}
	sub := `SELECT seq FROM runs r WHERE ` + where
	lrows, err := tx.QueryContext(ctx, `SELECT run_seq, key, value FROM labels WHERE run_seq IN (`+sub+`)`, args...)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	for lrows.Next() {
		var seq int64
		var k, v string
		if err := lrows.Scan(&seq, &k, &v); err != nil {
			lrows.Close()
			return nil, nil, s.wrap(err)
		}
		r, err := find(seq)
		if err != nil {
			lrows.Close()
			return nil, nil, err
		}
		r.Labels[k] = v
	}
	lrows.Close()
	if err := lrows.Err(); err != nil {
		return nil, nil, s.wrap(err)
	}
	// The measurements of all runs go into one slice, cut into each run's
	// part: one allocation of the exact size instead of a growing slice
	// per run.
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM measurements WHERE run_seq IN (`+sub+`)`, args...).Scan(&total); err != nil {
		return nil, nil, s.wrap(err)
	}
	all := make([]Measurement, 0, total)
	mrows, err := tx.QueryContext(ctx, `SELECT run_seq, variant, benchmark, sample, value, unit FROM measurements WHERE run_seq IN (`+sub+`) ORDER BY run_seq, variant, benchmark, unit, sample`, args...)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	defer mrows.Close()
	// Variant, benchmark and unit names repeat in every run: each is held
	// once (names), rather than as three strings per measurement.
	names := map[string]string{}
	intern := func(b sql.RawBytes) string {
		if n, ok := names[string(b)]; ok {
			return n
		}
		n := string(b)
		names[n] = n
		return n
	}
	var variant, bench, unit sql.RawBytes
	// The rows come in run order, as the runs do: cur is the run being
	// filled and start the index in all of its first measurement.
	cur, start := -1, 0
	var curSeq int64
	for mrows.Next() {
		var seq int64
		var m Measurement
		if err := mrows.Scan(&seq, &variant, &bench, &m.Sample, &m.Value, &unit); err != nil {
			return nil, nil, s.wrap(err)
		}
		if cur < 0 || seq != curSeq {
			i, ok := index[seq]
			if !ok {
				return nil, nil, damaged(seq)
			}
			if cur >= 0 {
				runs[cur].Measurements = all[start:len(all):len(all)]
			}
			cur, curSeq, start = i, seq, len(all)
			if runs[cur].Measurements != nil {
				return nil, nil, fmt.Errorf("store %s: the measurements of run %s did not come in run order", s.path, runs[cur].ID)
			}
		}
		m.Variant, m.Benchmark, m.Unit = intern(variant), intern(bench), intern(unit)
		all = append(all, m)
	}
	if err := mrows.Err(); err != nil {
		return nil, nil, s.wrap(err)
	}
	if cur >= 0 {
		runs[cur].Measurements = all[start:len(all):len(all)]
	}
	return runs, seqs, nil
}

// RunByID implements Store; it reads only that run.
func (s *SQLite) RunByID(ctx context.Context, id string) (StoredRun, error) {
	runs, err := s.query(ctx, "r.id = ?", []any{id})
	if err != nil {
		return StoredRun{}, err
	}
	if len(runs) == 0 {
		return StoredRun{}, fmt.Errorf("store %s holds no run %q", s.path, id)
	}
	return runs[0], nil
}

func labelFilter(filter map[string]string) (string, []any) {
	conds := []string{"1 = 1"}
	var args []any
	for _, k := range sortedKeys(filter) {
		conds = append(conds, `EXISTS (SELECT 1 FROM labels l WHERE l.run_seq = r.seq AND l.key = ? AND l.value = ?)`)
		args = append(args, k, filter[k])
	}
	return strings.Join(conds, " AND "), args
}

func timeText(t time.Time) sql.NullString {
	if t.IsZero() {
		return sql.NullString{}
	}
	return sql.NullString{String: t.UTC().Format(time.RFC3339Nano), Valid: true}
}

func nullable(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}
