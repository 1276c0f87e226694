package sqlite

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"

	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// The store's schema: its migrations, version by version, the check that a
// file is a qoscal store of a version this build knows, and the upgrade.

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
	// Version 2 holds each series (variant, benchmark, unit) once, in the
	// series table, and a measurement refers to it by number: a row of
	// measurements is four numbers rather than three strings and three
	// numbers. The driver binds and returns no strings per row, and SQLite
	// compares integer keys (issue 19, 10,000 runs of 20 measurements: the
	// store file 11.6 → 6.3 MB, ingest of one CSV 1.2 → 0.8 s of CPU with
	// the run insert executed, spread --db 0.47 → 0.42 s). A series is
	// numbered in name order when migrated, in the order first seen after
	// that; the numbers mean nothing else, and readers order by name.
	`CREATE TABLE series (
		id        INTEGER PRIMARY KEY,
		variant   TEXT NOT NULL,
		benchmark TEXT NOT NULL,
		unit      TEXT NOT NULL,
		UNIQUE (variant, benchmark, unit)
	);
	INSERT INTO series (variant, benchmark, unit)
		SELECT DISTINCT variant, benchmark, unit FROM measurements ORDER BY variant, benchmark, unit;
	CREATE TABLE measurements_v2 (
		run_seq INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		series  INTEGER NOT NULL REFERENCES series(id),
		sample  INTEGER NOT NULL,
		value   REAL NOT NULL,
		PRIMARY KEY (run_seq, series, sample)
	) WITHOUT ROWID;
	INSERT INTO measurements_v2 (run_seq, series, sample, value)
		SELECT m.run_seq, s.id, m.sample, m.value FROM measurements m
		JOIN series s ON s.variant = m.variant AND s.benchmark = m.benchmark AND s.unit = m.unit;
	DROP TABLE measurements;
	ALTER TABLE measurements_v2 RENAME TO measurements;`,
	// Version 3 adds the ledger (store.Ledger): each verdict a gate
	// recorded, against the calibration named by the SHA-256 of its bytes
	// (one verdict per run and calibration), its benchmarks' bands, and
	// the marks people made of runs later. An older store gains empty
	// tables; its runs are left as they are.
	ledgerMigration,
	// Version 4 records which of a calibration's profiles (recommend
	// --by) judged a verdict: the value of its label, '' for the file's
	// top-level figures, which every verdict of an older store was
	// judged on.
	`ALTER TABLE verdicts ADD COLUMN profile TEXT NOT NULL DEFAULT '';`,
	// Version 5 keeps each measurement's repetition of the suite inside
	// its job (data.Measurement.Repetition; 0: the input did not say),
	// so that a run measured in repetitions is scored from the store as
	// from its folder: the mean of its repetitions' log scores (issue 35
	// item 3). An older store's rows read as 0, which they were: SQLite
	// adds the column without rewriting a row.
	`ALTER TABLE measurements ADD COLUMN repetition INTEGER NOT NULL DEFAULT 0;`,
}

// ledgerMigration is schema version 3, the ledger's tables.
const ledgerMigration = `CREATE TABLE verdicts (
		seq                INTEGER PRIMARY KEY,
		run_seq            INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		calibration_sha256 TEXT NOT NULL,
		calibration_name   TEXT NOT NULL,
		verdict            TEXT NOT NULL,
		detail             TEXT NOT NULL,
		score              REAL NOT NULL,
		floor              REAL NOT NULL,
		floor_source       TEXT NOT NULL,
		partial            INTEGER NOT NULL,
		kind               TEXT NOT NULL,
		other_run          TEXT NOT NULL,
		runner_health      TEXT NOT NULL,
		runner_z           REAL,
		digest             TEXT NOT NULL,
		recorded_at        TEXT NOT NULL,
		UNIQUE (run_seq, calibration_sha256)
	);
	CREATE INDEX verdicts_by_calibration ON verdicts(calibration_sha256);
	CREATE TABLE verdict_bands (
		verdict_seq INTEGER NOT NULL REFERENCES verdicts(seq) ON DELETE CASCADE,
		benchmark   TEXT NOT NULL,
		band        TEXT NOT NULL,
		PRIMARY KEY (verdict_seq, benchmark)
	) WITHOUT ROWID;
	CREATE TABLE marks (
		seq       INTEGER PRIMARY KEY,
		run_seq   INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		truth     TEXT NOT NULL,
		note      TEXT NOT NULL,
		marked_at TEXT NOT NULL,
		UNIQUE (run_seq, marked_at, truth, note)
	);`

// SchemaVersion is the store schema version this build writes.
var SchemaVersion = len(migrations)

// identify reads the store's schema version on c, after checking that the
// file is a qoscal store (or an empty SQLite database, version 0, which
// only Open with ReadWrite may make one).
func (s *Store) identify(c *sqlite.Conn) (int, error) {
	version, err := queryInt(c, "PRAGMA user_version")
	if err != nil {
		return 0, s.wrap(err)
	}
	app, err := queryInt(c, "PRAGMA application_id")
	if err != nil {
		return 0, s.wrap(err)
	}
	if app != 0 && app != backend.AppID {
		return 0, fmt.Errorf("store %s is a SQLite database of another program (application id %#x), not a qoscal store", s.path, app)
	}
	if version == 0 {
		tables, err := queryInt(c, "SELECT count(*) FROM sqlite_master")
		if err != nil {
			return 0, s.wrap(err)
		}
		if tables > 0 {
			return 0, fmt.Errorf("store %s is a SQLite database with tables of its own, not a qoscal store", s.path)
		}
	}
	if version < 0 {
		return 0, fmt.Errorf("store %s is damaged: its schema version is %d, which no qoscal writes", s.path, version)
	}
	if version > int64(len(migrations)) {
		return 0, fmt.Errorf("store %s was written by a newer qoscal (schema version %d; this qoscal knows up to %d): upgrade qoscal", s.path, version, len(migrations))
	}
	if version > 0 {
		if err := s.checkSchema(c, int(version)); err != nil {
			return 0, err
		}
	}
	return int(version), nil
}

// checkSchema checks that the store holds every table and column of
// schema version (as its migrations make them): a store that lacks one (a
// table dropped by hand, a half-restored copy) is damaged, and said so
// here, rather than found up to date by 'store upgrade' and failing later
// with "no such table".
func (s *Store) checkSchema(c *sqlite.Conn, version int) error {
	want, err := schemaOf(version)
	if err != nil {
		return err
	}
	got, err := tableColumns(c)
	if err != nil {
		return s.wrap(err)
	}
	for _, t := range want.tables {
		have, ok := got[t]
		if !ok {
			return fmt.Errorf("store %s is damaged: it lacks the table %s (schema version %d has %s): restore it from a copy, or ingest its runs into a new store", s.path, t, version, strings.Join(want.tables, ", "))
		}
		for _, c := range want.columns[t] {
			if !slices.Contains(have, c) {
				return fmt.Errorf("store %s is damaged: its table %s lacks the column %s (schema version %d): restore it from a copy, or ingest its runs into a new store", s.path, t, c, version)
			}
		}
	}
	return nil
}

// schema is the tables, in order, and their columns of a schema version.
type schema struct {
	tables  []string
	columns map[string][]string
}

// schemas[v-1] is schema version v, made once, by running the migrations
// on an in-memory database, so that the check follows the migrations.
var (
	schemasOnce sync.Once
	schemas     []schema
	schemasErr  error
)

func schemaOf(version int) (schema, error) {
	schemasOnce.Do(func() {
		c, err := sqlite.OpenConn(":memory:", sqlite.OpenReadWrite|sqlite.OpenCreate|sqlite.OpenMemory)
		if err != nil {
			schemasErr = err
			return
		}
		defer c.Close()
		for _, m := range migrations {
			if err := sqlitex.ExecuteScript(c, m, nil); err != nil {
				schemasErr = sqliteErr(err)
				return
			}
			cols, err := tableColumns(c)
			if err != nil {
				schemasErr = err
				return
			}
			sc := schema{columns: cols}
			for t := range cols {
				sc.tables = append(sc.tables, t)
			}
			sort.Strings(sc.tables)
			schemas = append(schemas, sc)
		}
	})
	if schemasErr != nil {
		return schema{}, fmt.Errorf("the store schema: %w (this is a bug in qoscal)", schemasErr)
	}
	return schemas[version-1], nil
}

// tableColumns returns the columns of every table of the database.
func tableColumns(c *sqlite.Conn) (map[string][]string, error) {
	rows, err := selectRows(c, `SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	var t, col string
	for rows.Next() {
		if err := rows.Scan(&t, &col); err != nil {
			return nil, err
		}
		out[t] = append(out[t], col)
	}
	return out, rows.Err()
}

// Check reads every page of the store (PRAGMA quick_check), and reports a
// store that SQLite finds damaged: 'store upgrade' checks so before it
// says a store is up to date.
func (s *Store) Check(ctx context.Context) (err error) {
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	defer s.release(c)
	defer func() { err = s.interrupted(ctx, err) }()
	rows, err := selectRows(c, "PRAGMA quick_check")
	if err != nil {
		return s.wrap(err)
	}
	defer rows.Close()
	var problems []string
	var msg string
	for rows.Next() {
		if err := rows.Scan(&msg); err != nil {
			return s.wrap(err)
		}
		if msg != "ok" {
			for _, l := range strings.Split(msg, "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "*** in database") {
					problems = append(problems, l)
				}
			}
		}
	}
	if err := rows.Err(); err != nil {
		return s.wrap(err)
	}
	if len(problems) > 0 {
		more := ""
		if len(problems) > 3 {
			more = fmt.Sprintf("; and %d more problems", len(problems)-3)
			problems = problems[:3]
		}
		return fmt.Errorf("store %s is damaged: %s%s (SQLite's quick_check): restore it from a copy", s.path, strings.Join(problems, "; "), more)
	}
	return nil
}

// migrate checks what the file is, in a transaction that writes nothing,
// then puts it in WAL mode and brings its schema up to date.
func (s *Store) migrate(ctx context.Context) (err error) {
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	defer s.release(c)
	defer func() { err = s.interrupted(ctx, err) }()
	if err := execute(c, "BEGIN"); err != nil {
		return s.wrap(err)
	}
	if _, err := s.identify(c); err != nil {
		return err
	}
	if err := execute(c, "ROLLBACK"); err != nil {
		return s.wrap(err)
	}
	if err := execute(c, "PRAGMA journal_mode = WAL"); err != nil {
		return s.wrap(err)
	}
	if err := beginWrite(ctx, c); err != nil {
		return s.wrap(err)
	}
	// Again, in the transaction that migrates: another process may have
	// migrated the store since.
	version, err := s.identify(c)
	if err != nil {
		return err
	}
	if version == len(migrations) {
		return nil
	}
	for v := version; v < len(migrations); v++ {
		if err := sqlitex.ExecuteScript(c, migrations[v], nil); err != nil {
			return fmt.Errorf("store %s: migrating schema to version %d: %w", s.path, v+1, sqliteErr(err))
		}
	}
	for _, pragma := range []string{fmt.Sprintf("PRAGMA user_version = %d", len(migrations)), fmt.Sprintf("PRAGMA application_id = %d", backend.AppID)} {
		if err := execute(c, pragma); err != nil {
			return s.wrap(err)
		}
	}
	return s.wrap(execute(c, "COMMIT"))
}

// checkReadable checks, without writing, that a store opened read-only is a
// qoscal store at this build's schema version.
func (s *Store) checkReadable() error {
	c, err := s.conn(context.Background())
	if err != nil {
		return err
	}
	defer s.release(c)
	if err := execute(c, "BEGIN"); err != nil {
		return s.wrap(err)
	}
	version, err := s.identify(c)
	switch {
	case err != nil:
		return err
	case version == 0:
		return fmt.Errorf("store %s is an empty SQLite database, not a qoscal store: ingest runs into it first (qoscal ingest), or name a qoscal store with --db", s.path)
	case version < len(migrations):
		return &store.OlderSchemaError{Store: s.path, Version: version, Current: len(migrations)}
	}
	return nil
}
