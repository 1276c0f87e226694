package data

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// DefaultStore is the store file used when neither --db nor QOSCAL_DB names
// one.
const DefaultStore = "qoscal.db"

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

// Store is the SQLite file that keeps ingested runs. It is safe for several
// processes to write one store file at once: the file is in WAL mode, every
// write transaction takes the write lock when it begins (BEGIN IMMEDIATE),
// and a writer waits up to BusyTimeout for another to finish.
type Store struct {
	db   *sql.DB
	path string
	// Now gives the ingest time; tests and reproducible builds set it.
	Now func() time.Time
}

// BusyTimeout is how long a writer waits for the store's write lock.
const BusyTimeout = 30 * time.Second

// OpenStore opens the store at path, creating it when create is true, and
// brings its schema up to date. It refuses a file that is not a SQLite
// database, a SQLite database that is not a qoscal store, and a store
// written by a newer schema version than this build knows.
func OpenStore(path string, create bool) (*Store, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !create:
		return nil, fmt.Errorf("no store at %s: ingest runs first (qoscal ingest), or name the store with --db", path)
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("store %s is a folder, expected a SQLite file", path)
	case err == nil && st.Size() > 0:
		if err := checkSQLiteHeader(path); err != nil {
			return nil, err
		}
	}
	dsn := "file:" + path + "?_pragma=busy_timeout(" + strconv.Itoa(int(BusyTimeout/time.Millisecond)) + ")" +
		"&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path, Now: time.Now}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
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

func (s *Store) migrate() error {
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(err)
	}
	defer tx.Rollback()
	var version, app int
	if err := tx.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return s.wrap(err)
	}
	if err := tx.QueryRow("PRAGMA application_id").Scan(&app); err != nil {
		return s.wrap(err)
	}
	if app != 0 && app != appID {
		return fmt.Errorf("store %s is a SQLite database of another program (application id %#x), not a qoscal store", s.path, app)
	}
	if version == 0 {
		var tables int
		if err := tx.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
			return s.wrap(err)
		}
		if tables > 0 {
			return fmt.Errorf("store %s is a SQLite database with tables of its own, not a qoscal store", s.path)
		}
	}
	if version > len(migrations) {
		return fmt.Errorf("store %s was written by a newer qoscal (schema version %d; this qoscal knows up to %d): upgrade qoscal", s.path, version, len(migrations))
	}
	if version == len(migrations) {
		return nil
	}
	for v := version; v < len(migrations); v++ {
		if _, err := tx.Exec(migrations[v]); err != nil {
			return fmt.Errorf("store %s: migrating schema to version %d: %v", s.path, v+1, err)
		}
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d; PRAGMA application_id = %d", len(migrations), appID)); err != nil {
		return s.wrap(err)
	}
	return s.wrap(tx.Commit())
}

func (s *Store) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store %s: %v", s.path, err)
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// Path returns the store's file name.
func (s *Store) Path() string { return s.path }

// IngestResult counts what an Ingest did.
type IngestResult struct {
	Added        int // runs new to the store
	Replaced     int // runs whose stored content was replaced (replace mode)
	Unchanged    int // runs already stored with the same content
	Measurements int // measurements written
	// AlreadyStored lists the ids of the unchanged runs.
	AlreadyStored []string
}

// ConflictError reports a run id already stored with other content.
type ConflictError struct {
	Store, ID, Source string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("run %s (from %s) is already in %s with different content: use --replace to overwrite it, or give it another id", e.ID, e.Source, e.Store)
}

// Ingest stores runs in one transaction: either all of them land or none.
// A run whose id is stored with the same content is left as it is (it is
// counted as unchanged); a run whose id is stored with other content is a
// *ConflictError, unless replace is true. progress, if not nil, is called
// after each run.
func (s *Store) Ingest(runs []Run, replace bool, progress func(done, total int)) (IngestResult, error) {
	var res IngestResult
	tx, err := s.db.Begin()
	if err != nil {
		return res, s.wrap(err)
	}
	defer tx.Rollback()
	insRun, err := tx.Prepare(`INSERT INTO runs (id, source, measured_at, baseline, candidate, digest, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return res, s.wrap(err)
	}
	defer insRun.Close()
	insLabel, err := tx.Prepare(`INSERT INTO labels (run_seq, key, value) VALUES (?, ?, ?)`)
	if err != nil {
		return res, s.wrap(err)
	}
	defer insLabel.Close()
	insM, err := tx.Prepare(`INSERT INTO measurements (run_seq, variant, benchmark, sample, value, unit) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return res, s.wrap(err)
	}
	defer insM.Close()
	now := s.Now().UTC().Format(time.RFC3339)
	for i := range runs {
		r := &runs[i]
		digest := Digest(r)
		var seq int64
		var old string
		err := tx.QueryRow(`SELECT seq, digest FROM runs WHERE id = ?`, r.ID).Scan(&seq, &old)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			res.Added++
			out, err := insRun.Exec(r.ID, r.Source, timeText(r.Time), nullable(r.Baseline), nullable(r.Candidate), digest, now)
			if err != nil {
				return IngestResult{}, s.wrap(err)
			}
			if seq, err = out.LastInsertId(); err != nil {
				return IngestResult{}, s.wrap(err)
			}
		case err != nil:
			return IngestResult{}, s.wrap(err)
		case old == digest:
			res.Unchanged++
			res.AlreadyStored = append(res.AlreadyStored, r.ID)
			if progress != nil {
				progress(i+1, len(runs))
			}
			continue
		case !replace:
			return IngestResult{}, &ConflictError{Store: s.path, ID: r.ID, Source: r.Source}
		default:
			res.Replaced++
			// Keep the run's place (seq) in ingest order; replace the rest.
			if _, err := tx.Exec(`DELETE FROM labels WHERE run_seq = ?; DELETE FROM measurements WHERE run_seq = ?`, seq, seq); err != nil {
				return IngestResult{}, s.wrap(err)
			}
			if _, err := tx.Exec(`UPDATE runs SET source = ?, measured_at = ?, baseline = ?, candidate = ?, digest = ?, ingested_at = ? WHERE seq = ?`,
				r.Source, timeText(r.Time), nullable(r.Baseline), nullable(r.Candidate), digest, now, seq); err != nil {
				return IngestResult{}, s.wrap(err)
			}
		}
		for _, k := range sortedKeys(r.Labels) {
			if _, err := insLabel.Exec(seq, k, r.Labels[k]); err != nil {
				return IngestResult{}, s.wrap(err)
			}
		}
		for _, m := range r.Measurements {
			if _, err := insM.Exec(seq, m.Variant, m.Benchmark, m.Sample, m.Value, m.Unit); err != nil {
				return IngestResult{}, fmt.Errorf("store %s: run %s: %s %s sample %d: %v", s.path, r.ID, m.Variant, m.Benchmark, m.Sample, err)
			}
			res.Measurements++
		}
		if progress != nil {
			progress(i+1, len(runs))
		}
	}
	if err := tx.Commit(); err != nil {
		return IngestResult{}, s.wrap(err)
	}
	return res, nil
}

// StoredRun is a run as kept in the store, with when it was ingested.
type StoredRun struct {
	Run
	Ingested time.Time
}

// Runs returns the stored runs that carry every label in filter, in ingest
// order, with their measurements in canonical order.
func (s *Store) Runs(filter map[string]string) ([]StoredRun, error) {
	where, args := labelFilter(filter)
	return s.query(where, args)
}

// query loads the runs that match a condition on runs r, with their labels
// and measurements, in ingest order.
func (s *Store) query(where string, args []any) ([]StoredRun, error) {
	rows, err := s.db.Query(`SELECT seq, id, source, measured_at, baseline, candidate, ingested_at FROM runs r WHERE `+where+` ORDER BY seq`, args...)
	if err != nil {
		return nil, s.wrap(err)
	}
	var runs []StoredRun
	index := map[int64]int{}
	for rows.Next() {
		var seq int64
		var r StoredRun
		var measured, base, cand sql.NullString
		var ingested string
		if err := rows.Scan(&seq, &r.ID, &r.Source, &measured, &base, &cand, &ingested); err != nil {
			rows.Close()
			return nil, s.wrap(err)
		}
		r.Baseline, r.Candidate = base.String, cand.String
		if measured.Valid {
			r.Time, _ = time.Parse(time.RFC3339Nano, measured.String)
		}
		r.Ingested, _ = time.Parse(time.RFC3339, ingested)
		r.Labels = map[string]string{}
		index[seq] = len(runs)
		runs = append(runs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.wrap(err)
	}
	if len(runs) == 0 {
		return nil, nil
	}
	sub := `SELECT seq FROM runs r WHERE ` + where
	lrows, err := s.db.Query(`SELECT run_seq, key, value FROM labels WHERE run_seq IN (`+sub+`)`, args...)
	if err != nil {
		return nil, s.wrap(err)
	}
	for lrows.Next() {
		var seq int64
		var k, v string
		if err := lrows.Scan(&seq, &k, &v); err != nil {
			lrows.Close()
			return nil, s.wrap(err)
		}
		runs[index[seq]].Labels[k] = v
	}
	lrows.Close()
	mrows, err := s.db.Query(`SELECT run_seq, variant, benchmark, sample, value, unit FROM measurements WHERE run_seq IN (`+sub+`) ORDER BY run_seq, variant, benchmark, unit, sample`, args...)
	if err != nil {
		return nil, s.wrap(err)
	}
	defer mrows.Close()
	for mrows.Next() {
		var seq int64
		var m Measurement
		if err := mrows.Scan(&seq, &m.Variant, &m.Benchmark, &m.Sample, &m.Value, &m.Unit); err != nil {
			return nil, s.wrap(err)
		}
		r := &runs[index[seq]]
		r.Measurements = append(r.Measurements, m)
	}
	return runs, s.wrap(mrows.Err())
}

// RunByID returns the stored run with the given id, reading only that run.
func (s *Store) RunByID(id string) (StoredRun, error) {
	runs, err := s.query("r.id = ?", []any{id})
	if err != nil {
		return StoredRun{}, err
	}
	if len(runs) == 0 {
		return StoredRun{}, fmt.Errorf("store %s holds no run %q", s.path, id)
	}
	return runs[0], nil
}

func labelFilter(filter map[string]string) (string, []any) {
	conds := []string{"1"}
	var args []any
	for _, k := range sortedKeys(filter) {
		conds = append(conds, `EXISTS (SELECT 1 FROM labels l WHERE l.run_seq = r.seq AND l.key = ? AND l.value = ?)`)
		args = append(args, k, filter[k])
	}
	return strings.Join(conds, " AND "), args
}

// Digest is a content hash of a run: its id, labels, roles, time and
// measurements, in canonical order. Its source (the path it was read from)
// is left out, so the same run read from another checkout is the same run.
func Digest(r *Run) string {
	h := sha256.New()
	w := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s", len(p), p)
		}
		h.Write([]byte{'\n'})
	}
	w("id", r.ID)
	for _, k := range sortedKeys(r.Labels) {
		w("label", k, r.Labels[k])
	}
	w("roles", r.Baseline, r.Candidate)
	w("time", timeText(r.Time).String)
	c := Run{Measurements: append([]Measurement(nil), r.Measurements...)}
	c.Sort()
	for _, m := range c.Measurements {
		w("m", m.Variant, m.Benchmark, strconv.Itoa(m.Sample), strconv.FormatUint(math.Float64bits(m.Value), 16), m.Unit)
	}
	return hex.EncodeToString(h.Sum(nil))
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
