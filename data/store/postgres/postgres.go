// Package postgres is the store in a PostgreSQL database: the backend of
// store.Store for a history shared by a team's runners, through pgx.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// pgMigrations[i] takes a PostgreSQL store's schema from version i to
// version i+1; the version lives in the qoscal_meta table. The steps are
// the SQLite migrations' (the same versions, tables, columns and keys, so
// that a store copy between the two loses nothing) in PostgreSQL's
// dialect. Text columns that order measurements use the "C" collation, so
// that the database orders them byte by byte, as Run.Sort does. Append;
// never edit a released step.
var pgMigrations = []string{
	`CREATE TABLE runs (
		seq         bigserial PRIMARY KEY,
		id          text COLLATE "C" NOT NULL UNIQUE,
		source      text NOT NULL,
		measured_at text,
		baseline    text,
		candidate   text,
		digest      text NOT NULL,
		ingested_at text NOT NULL
	);
	CREATE TABLE labels (
		run_seq bigint NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		key     text COLLATE "C" NOT NULL,
		value   text COLLATE "C" NOT NULL,
		PRIMARY KEY (run_seq, key)
	);
	CREATE INDEX labels_by_key_value ON labels(key, value);
	CREATE TABLE measurements (
		run_seq   bigint NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		variant   text COLLATE "C" NOT NULL,
		benchmark text COLLATE "C" NOT NULL,
		sample    integer NOT NULL,
		value     double precision NOT NULL,
		unit      text COLLATE "C" NOT NULL,
		PRIMARY KEY (run_seq, variant, benchmark, unit, sample)
	);`,
	// Version 2: each series (variant, benchmark, unit) once, in the series
	// table, and a measurement refers to it by number, as in SQLite.
	`CREATE TABLE series (
		id        bigserial PRIMARY KEY,
		variant   text COLLATE "C" NOT NULL,
		benchmark text COLLATE "C" NOT NULL,
		unit      text COLLATE "C" NOT NULL,
		UNIQUE (variant, benchmark, unit)
	);
	INSERT INTO series (variant, benchmark, unit)
		SELECT DISTINCT variant, benchmark, unit FROM measurements ORDER BY variant, benchmark, unit;
	CREATE TABLE measurements_v2 (
		run_seq bigint NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		series  bigint NOT NULL REFERENCES series(id),
		sample  integer NOT NULL,
		value   double precision NOT NULL,
		PRIMARY KEY (run_seq, series, sample)
	);
	INSERT INTO measurements_v2 (run_seq, series, sample, value)
		SELECT m.run_seq, s.id, m.sample, m.value FROM measurements m
		JOIN series s ON s.variant = m.variant AND s.benchmark = m.benchmark AND s.unit = m.unit;
	DROP TABLE measurements;
	ALTER TABLE measurements_v2 RENAME TO measurements;
	ALTER INDEX measurements_v2_pkey RENAME TO measurements_pkey;`,
	// Version 3: the ledger, as in SQLite (verdicts, their bands, marks).
	`CREATE TABLE verdicts (
		seq                bigserial PRIMARY KEY,
		run_seq            bigint NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		calibration_sha256 text COLLATE "C" NOT NULL,
		calibration_name   text NOT NULL,
		verdict            text NOT NULL,
		detail             text NOT NULL,
		score              double precision NOT NULL,
		floor              double precision NOT NULL,
		floor_source       text NOT NULL,
		partial            boolean NOT NULL,
		kind               text NOT NULL,
		other_run          text NOT NULL,
		runner_health      text NOT NULL,
		runner_z           double precision,
		digest             text NOT NULL,
		recorded_at        text NOT NULL,
		UNIQUE (run_seq, calibration_sha256)
	);
	CREATE INDEX verdicts_by_calibration ON verdicts(calibration_sha256);
	CREATE TABLE verdict_bands (
		verdict_seq bigint NOT NULL REFERENCES verdicts(seq) ON DELETE CASCADE,
		benchmark   text COLLATE "C" NOT NULL,
		band        text NOT NULL,
		PRIMARY KEY (verdict_seq, benchmark)
	);
	CREATE TABLE marks (
		seq       bigserial PRIMARY KEY,
		run_seq   bigint NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
		truth     text NOT NULL,
		note      text NOT NULL,
		marked_at text NOT NULL,
		UNIQUE (run_seq, marked_at, truth, note)
	);`,
	// Version 4: the profile that judged a verdict, as in SQLite.
	`ALTER TABLE verdicts ADD COLUMN profile text NOT NULL DEFAULT '';`,
	// Version 5: each measurement's repetition (0: not said), as in
	// SQLite; PostgreSQL 11 and later add it without rewriting a row.
	`ALTER TABLE measurements ADD COLUMN repetition integer NOT NULL DEFAULT 0;`,
}

// pgTables are the tables of the schema, which a database must not hold
// already when qoscal makes its store there.
var pgTables = []string{"runs", "labels", "measurements", "series", "verdicts", "verdict_bands", "marks"}

// pgConnectTimeout bounds how long opening a connection may take, unless
// the URL or PGCONNECT_TIMEOUT says otherwise.
const pgConnectTimeout = 30 * time.Second

// pgLockKey is the key of the advisory lock that serialises schema
// migrations of stores in one database: "qosc" in ASCII, as SQLite's
// application id.
const pgLockKey = backend.AppID

// Store is a store in a PostgreSQL database: one history shared by the
// CI jobs of many runners. Its tables live in the first schema of the
// connection's search_path (public, unless the URL says otherwise).
//
// Many jobs may ingest at once. A run is keyed by its id (a unique key):
// an ingest inserts its runs with INSERT … ON CONFLICT DO NOTHING, which
// waits for a concurrent transaction inserting the same id and then skips
// the row; the run's stored digest then says whether the run was the same
// (unchanged, no error) or other content (a *ConflictError). Runs are
// inserted in id order, so that two ingests of overlapping runs take their
// locks in one order; an ingest that still loses a deadlock or
// serialisation conflict is tried again.
type Store struct {
	pool     *pgxpool.Pool
	location string // the URL without its password
	readOnly bool
}

// Open opens the store in the PostgreSQL database that url names.
// Credentials and anything the URL leaves out come from the standard PG*
// environment variables (PGPASSWORD, PGHOST, PGSSLMODE, …) and the
// password file, as for psql. The password is never shown: messages name
// the store by its URL without the password.
//
// ReadWrite makes the schema when the database has none and brings it up
// to date. ReadOnly writes nothing (every transaction of the session is
// read-only): the store must exist at this build's schema version.
// Both refuse a store written by a newer qoscal, and a database whose
// tables named like qoscal's are not a qoscal store.
func Open(ctx context.Context, url string, mode store.Mode) (*Store, error) {
	s := &Store{location: store.RedactURL(url), readOnly: mode != store.ReadWrite}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, s.wrap(err)
	}
	if s.readOnly {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = "qoscal"
	if cfg.ConnConfig.ConnectTimeout == 0 {
		// A CI job should fail, not hang, when the server is unreachable;
		// connect_timeout in the URL (or PGCONNECT_TIMEOUT) overrides it.
		cfg.ConnConfig.ConnectTimeout = pgConnectTimeout
	}
	if s.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, s.wrap(err)
	}
	if s.readOnly {
		err = s.checkReadable(ctx)
	} else {
		err = s.migrate(ctx)
	}
	if err != nil {
		s.pool.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store %s: %w", s.location, err)
}

// Location returns the store's URL without its password.
func (s *Store) Location() string { return s.location }

// Close closes the store's connections.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// identify reads the schema version of the store (0: no store yet), after
// checking that tables named like qoscal's belong to a qoscal store.
func (s *Store) identify(ctx context.Context, tx pgx.Tx) (int, error) {
	var meta *string
	if err := tx.QueryRow(ctx, `SELECT to_regclass('qoscal_meta')::text`).Scan(&meta); err != nil {
		return 0, s.wrap(err)
	}
	if meta == nil {
		for _, t := range pgTables {
			var found *string
			if err := tx.QueryRow(ctx, `SELECT to_regclass($1)::text`, t).Scan(&found); err != nil {
				return 0, s.wrap(err)
			}
			if found != nil {
				return 0, fmt.Errorf("store %s: the database already has a table %s that is not a qoscal store's (no qoscal_meta table): name another database, or another schema with search_path=NAME in the URL", s.location, *found)
			}
		}
		return 0, nil
	}
	var text string
	err := tx.QueryRow(ctx, `SELECT value FROM qoscal_meta WHERE key = 'schema_version'`).Scan(&text)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("store %s: its qoscal_meta table holds no schema_version: it is not a qoscal store", s.location)
	}
	if err != nil {
		return 0, s.wrap(err)
	}
	version, err := strconv.Atoi(text)
	if err != nil || version < 1 {
		return 0, fmt.Errorf("store %s: its schema_version %q is not a positive whole number: it is not a qoscal store", s.location, text)
	}
	if version > len(pgMigrations) {
		return 0, fmt.Errorf("store %s was written by a newer qoscal (schema version %d; this qoscal knows up to %d): upgrade qoscal", s.location, version, len(pgMigrations))
	}
	return version, nil
}

// migrate makes or upgrades the schema in one transaction, holding an
// advisory lock so that jobs opening a new store at once make it once.
func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.wrap(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(pgLockKey)); err != nil {
		return s.wrap(err)
	}
	version, err := s.identify(ctx, tx)
	if err != nil {
		return err
	}
	if version == len(pgMigrations) {
		return s.wrap(tx.Commit(ctx))
	}
	if version == 0 {
		var schema *string
		if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
			return s.wrap(err)
		}
		if schema == nil {
			return fmt.Errorf("store %s: no schema of the search path exists to make the store in: create it (CREATE SCHEMA name), or name one with search_path=NAME in the URL", s.location)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE qoscal_meta (key text PRIMARY KEY, value text NOT NULL)`); err != nil {
			return s.wrap(err)
		}
	}
	for v := version; v < len(pgMigrations); v++ {
		if _, err := tx.Exec(ctx, pgMigrations[v]); err != nil {
			return fmt.Errorf("store %s: migrating schema to version %d: %w", s.location, v+1, err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO qoscal_meta (key, value) VALUES ('schema_version', $1)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, strconv.Itoa(len(pgMigrations))); err != nil {
		return s.wrap(err)
	}
	return s.wrap(tx.Commit(ctx))
}

// checkReadable checks, without writing, that the database holds a
// qoscal store at this build's schema version.
func (s *Store) checkReadable(ctx context.Context) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return s.wrap(err)
	}
	defer tx.Rollback(ctx)
	version, err := s.identify(ctx, tx)
	switch {
	case err != nil:
		return err
	case version == 0:
		return fmt.Errorf("no store at %s: ingest runs first (qoscal ingest), or name the store with --db", s.location)
	case version < len(pgMigrations):
		return &store.OlderSchemaError{Store: s.location, Version: version, Current: len(pgMigrations)}
	}
	return nil
}

// pgRetries is how many times an ingest that lost a deadlock or a
// serialisation conflict to a concurrent ingest is tried in all.
const pgRetries = 5

// Ingest implements Store: IngestEach over the slice.
func (s *Store) Ingest(ctx context.Context, runs []data.Run, opt store.IngestOptions) (store.IngestResult, error) {
	return backend.Ingest(ctx, s, runs, opt)
}

// pgBatchRuns is how many runs an ingest stages with one COPY per table:
// what it holds of its runs at once.
var pgBatchRuns = 500

// IngestEach implements Store, in one transaction of two steps.
//
// First the runs are staged as they come, a batch at a time, by COPY into
// temporary tables that only this transaction sees: the call holds a
// batch, never all its runs, and takes no lock another ingest waits on.
//
// Then one statement inserts every new id into runs, in id order, so that
// two ingests of overlapping runs take their locks on ids in one order,
// as when all runs were held (a stream of runs cannot be sorted, its
// staged copy can); the rest (counting, conflicts, replacing, labels and
// measurements) is done by statements over the staged tables. An ingest
// that loses a deadlock or serialisation conflict to a concurrent one in
// this step rolls back to a savepoint taken after staging, which releases
// the locks it took, and tries the step again: the runs, which a stream
// cannot yield twice, stay staged.
func (s *Store) IngestEach(ctx context.Context, runs iter.Seq2[store.StoredRun, error], opt store.IngestOptions) (store.IngestResult, error) {
	if s.readOnly {
		return store.IngestResult{}, fmt.Errorf("store %s is open read-only", s.location)
	}
	if err := opt.Ledger.Check(); err != nil {
		return store.IngestResult{}, fmt.Errorf("store %s: %w", s.location, err)
	}
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return store.IngestResult{}, s.wrap(err)
	}
	defer tx.Rollback(ctx)
	n, err := s.stage(ctx, tx, runs, opt)
	if err != nil {
		return store.IngestResult{}, err
	}
	var res store.IngestResult
	if n > 0 {
		if _, err := tx.Exec(ctx, `SAVEPOINT qoscal_staged`); err != nil {
			return store.IngestResult{}, s.wrap(err)
		}
		for try := 1; ; try++ {
			res, err = s.store(ctx, tx, opt)
			var pe *pgconn.PgError
			if try < pgRetries && errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001") && ctx.Err() == nil {
				if _, err := tx.Exec(ctx, `ROLLBACK TO SAVEPOINT qoscal_staged`); err != nil {
					return store.IngestResult{}, s.wrap(err)
				}
				continue
			}
			if err != nil {
				return store.IngestResult{}, err
			}
			break
		}
	}
	if opt.Ledger != nil {
		if res.Ledger, err = s.writeLedger(ctx, tx, opt.Ledger); err != nil {
			return store.IngestResult{}, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return store.IngestResult{}, s.wrap(err)
	}
	return res, nil
}

// stage copies the runs into the transaction's temporary tables, a batch
// at a time, numbering them in call order (ord), and returns how many
// there were.
func (s *Store) stage(ctx context.Context, tx pgx.Tx, runs iter.Seq2[store.StoredRun, error], opt store.IngestOptions) (int, error) {
	if _, err := tx.Exec(ctx, `
		CREATE TEMPORARY TABLE qoscal_incoming (ord bigint, id text COLLATE "C", source text, measured_at text,
			baseline text, candidate text, digest text, ingested_at text, bare_digest text) ON COMMIT DROP;
		CREATE TEMPORARY TABLE qoscal_incoming_labels (ord bigint, key text, value text) ON COMMIT DROP;
		CREATE TEMPORARY TABLE qoscal_incoming_measurements (ord bigint, variant text COLLATE "C", benchmark text COLLATE "C",
			sample integer, value double precision, unit text COLLATE "C", repetition integer) ON COMMIT DROP`); err != nil {
		return 0, s.wrap(err)
	}
	var batch []store.StoredRun
	first := 0 // the ord of batch[0]
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		rows := make([][]any, len(batch))
		var labels [][]any
		for i := range batch {
			r := &batch[i]
			ord := int64(first + i)
			rows[i] = []any{ord, r.ID, r.Source, pgNullable(store.TimeText(r.Time)), pgNullable(r.Baseline),
				pgNullable(r.Candidate), store.Digest(&r.Run), backend.IngestText(opt.IngestTime(r)), pgNullable(backend.BareDigest(&r.Run))}
			for _, k := range store.SortedKeys(r.Labels) {
				labels = append(labels, []any{ord, k, r.Labels[k]})
			}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"qoscal_incoming"},
			[]string{"ord", "id", "source", "measured_at", "baseline", "candidate", "digest", "ingested_at", "bare_digest"},
			pgx.CopyFromRows(rows)); err != nil {
			return s.wrap(err)
		}
		if len(labels) > 0 {
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"qoscal_incoming_labels"}, []string{"ord", "key", "value"}, pgx.CopyFromRows(labels)); err != nil {
				return s.wrap(err)
			}
		}
		src := &measurementRows{runs: batch, first: first, progress: opt.Progress}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"qoscal_incoming_measurements"},
			[]string{"ord", "variant", "benchmark", "sample", "value", "unit", "repetition"}, src); err != nil {
			return s.wrap(err)
		}
		first += len(batch)
		clear(batch)
		batch = batch[:0]
		return nil
	}
	for r, err := range runs {
		if err != nil {
			return 0, err
		}
		batch = append(batch, r)
		if len(batch) >= pgBatchRuns {
			if err := flush(); err != nil {
				return 0, err
			}
		}
	}
	if err := flush(); err != nil {
		return 0, err
	}
	return first, nil
}

// store moves the staged runs into the store's tables (see IngestEach).
// Each id is counted as storing the runs one by one would (as the SQLite
// store does): a run is added, unchanged, a conflict or replaced against
// what the store holds, or what an earlier run of this call with its id
// left; the content an id ends with is its last run's.
func (s *Store) store(ctx context.Context, tx pgx.Tx, opt store.IngestOptions) (store.IngestResult, error) {
	var res store.IngestResult
	// qoscal_ids: each id, its first and last run, and the seq it is
	// stored under if it is new. Sequence numbers in order of first
	// appearance keep ingest order.
	if _, err := tx.Exec(ctx, `CREATE TEMPORARY TABLE qoscal_ids ON COMMIT DROP AS
		WITH ids AS (SELECT id, min(ord) AS first, max(ord) AS last FROM qoscal_incoming GROUP BY id),
		seqs AS (SELECT nextval(pg_get_serial_sequence('runs', 'seq')) AS seq FROM generate_series(1, (SELECT count(*) FROM ids)))
		SELECT i.id, i.first, i.last, q.seq
		FROM (SELECT *, row_number() OVER (ORDER BY first) AS n FROM ids) i
		JOIN (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM seqs) q USING (n)`); err != nil {
		return res, s.wrap(err)
	}
	// Inserting in id order keeps lock order.
	if _, err := tx.Exec(ctx, `INSERT INTO runs (seq, id, source, measured_at, baseline, candidate, digest, ingested_at)
		SELECT i.seq, n.id, n.source, n.measured_at, n.baseline, n.candidate, n.digest, n.ingested_at
		FROM qoscal_ids i JOIN qoscal_incoming n ON n.ord = i.last ORDER BY i.id ON CONFLICT (id) DO NOTHING`); err != nil {
		return res, s.wrap(err)
	}
	// stored: the ids that were already stored (by an earlier ingest, or
	// by a concurrent one that committed while this one waited on its
	// key), under their seq. cur is the digest each run meets: the
	// previous run of its id in this call, else the stored one; completes
	// says cur is the run without its repetitions (BareDigest), which an
	// older qoscal stored: it is given them, whatever the replace mode.
	if _, err := tx.Exec(ctx, `CREATE TEMPORARY TABLE qoscal_class ON COMMIT DROP AS
		SELECT *, coalesce(cur = bare_digest, false) AS completes FROM (SELECT n.ord, n.id, n.source, n.digest, n.bare_digest,
			coalesce(lag(n.digest) OVER (PARTITION BY n.id ORDER BY n.ord), r.digest) AS cur,
			r.seq AS stored
		FROM qoscal_incoming n JOIN qoscal_ids i ON i.id = n.id
		LEFT JOIN runs r ON r.id = n.id AND r.seq <> i.seq) c`); err != nil {
		return res, s.wrap(err)
	}
	if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE cur IS NULL), count(*) FILTER (WHERE cur <> digest AND NOT completes),
		count(*) FILTER (WHERE completes) FROM qoscal_class`).Scan(&res.Added, &res.Replaced, &res.Completed); err != nil {
		return res, s.wrap(err)
	}
	rows, err := tx.Query(ctx, `SELECT id, source, cur = digest, completes FROM qoscal_class WHERE cur IS NOT NULL ORDER BY ord`)
	if err != nil {
		return res, s.wrap(err)
	}
	for rows.Next() {
		var id, source string
		var same, completes bool
		if err := rows.Scan(&id, &source, &same, &completes); err != nil {
			rows.Close()
			return store.IngestResult{}, s.wrap(err)
		}
		if !same && !completes && !opt.Replace {
			rows.Close()
			return store.IngestResult{}, &store.ConflictError{Store: s.location, ID: id, Source: source}
		}
		if same {
			res.Unchanged++
			res.AlreadyStored = append(res.AlreadyStored, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return store.IngestResult{}, s.wrap(err)
	}
	// qoscal_written: the ids whose content changes, the run whose content
	// they take (their last) and the seq it is written under.
	if _, err := tx.Exec(ctx, `CREATE TEMPORARY TABLE qoscal_written ON COMMIT DROP AS
		SELECT i.last, coalesce(c.stored, i.seq) AS seq, c.stored IS NOT NULL AS replaced
		FROM qoscal_ids i JOIN qoscal_class c ON c.ord = i.first
		WHERE EXISTS (SELECT 1 FROM qoscal_class d WHERE d.id = i.id AND d.cur IS DISTINCT FROM d.digest)`); err != nil {
		return store.IngestResult{}, s.wrap(err)
	}
	if res.Replaced+res.Completed > 0 {
		// Keep each replaced run's place (seq) in ingest order; replace
		// the rest.
		for _, q := range []string{
			`DELETE FROM labels WHERE run_seq IN (SELECT seq FROM qoscal_written WHERE replaced)`,
			`DELETE FROM measurements WHERE run_seq IN (SELECT seq FROM qoscal_written WHERE replaced)`,
			`UPDATE runs r SET source = n.source, measured_at = n.measured_at, baseline = n.baseline,
				candidate = n.candidate, digest = n.digest, ingested_at = n.ingested_at
				FROM qoscal_written w JOIN qoscal_incoming n ON n.ord = w.last WHERE w.replaced AND r.seq = w.seq`,
		} {
			if _, err := tx.Exec(ctx, q); err != nil {
				return store.IngestResult{}, s.wrap(err)
			}
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO labels (run_seq, key, value)
		SELECT w.seq, l.key, l.value FROM qoscal_written w JOIN qoscal_incoming_labels l ON l.ord = w.last`); err != nil {
		return store.IngestResult{}, s.wrap(err)
	}
	// Series not stored yet are added first, in name order, so that two
	// ingests adding the same series take their locks in one order; one
	// that waits for another's series skips it (ON CONFLICT) and, reading
	// committed rows, finds it in the next statement.
	if _, err := tx.Exec(ctx, `INSERT INTO series (variant, benchmark, unit)
		SELECT DISTINCT m.variant, m.benchmark, m.unit
		FROM qoscal_written w JOIN qoscal_incoming_measurements m ON m.ord = w.last
		ORDER BY m.variant, m.benchmark, m.unit
		ON CONFLICT DO NOTHING`); err != nil {
		return store.IngestResult{}, s.wrap(err)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO measurements (run_seq, series, sample, value, repetition)
		SELECT w.seq, s.id, m.sample, m.value, m.repetition
		FROM qoscal_written w JOIN qoscal_incoming_measurements m ON m.ord = w.last
		JOIN series s ON s.variant = m.variant AND s.benchmark = m.benchmark AND s.unit = m.unit`)
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "23505" {
			return store.IngestResult{}, fmt.Errorf("store %s: a run holds one measurement twice (%s)", s.location, pe.Detail)
		}
		return store.IngestResult{}, s.wrap(err)
	}
	res.Measurements = int(tag.RowsAffected())
	return res, nil
}

// pgNullable is a text column's value: NULL for the empty string.
func pgNullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// measurementRows streams the measurements of a batch of runs to COPY,
// without building the rows first, and reports progress run by run. A
// sample or repetition number beyond the integer column's range is an
// error, never cut to fit.
type measurementRows struct {
	runs     []store.StoredRun
	first    int // the ord of runs[0]
	progress func(done, total int)
	run, m   int // the next measurement: runs[run].Measurements[m]
	row      [7]any
	err      error
}

func (c *measurementRows) Next() bool {
	for c.run < len(c.runs) {
		r := &c.runs[c.run]
		if c.m < len(r.Measurements) {
			m := &r.Measurements[c.m]
			c.row = [7]any{int64(c.first + c.run), m.Variant, m.Benchmark, int32(m.Sample), m.Value, m.Unit, int32(m.Repetition)}
			if int(int32(m.Sample)) != m.Sample || int(int32(m.Repetition)) != m.Repetition {
				c.err = fmt.Errorf("run %s: %s %s sample %d, repetition %d: beyond the store's 32-bit numbers", r.ID, m.Variant, m.Benchmark, m.Sample, m.Repetition)
			}
			c.m++
			return true
		}
		c.run++
		c.m = 0
		if c.progress != nil {
			c.progress(c.first+c.run, 0)
		}
	}
	return false
}

func (c *measurementRows) Values() ([]any, error) { return c.row[:], c.err }
func (c *measurementRows) Err() error             { return c.err }

// Runs implements Store. The label selection is done by the database
// (labels are indexed by key and value), so that a team's store is not
// read whole to find one runner's runs.
func (s *Store) Runs(ctx context.Context, q store.Query) ([]store.StoredRun, error) {
	where, args := pgLabelFilter(q.Labels)
	runs, err := s.query(ctx, where, args)
	if err != nil {
		return nil, err
	}
	q.Order.Sort(runs)
	return runs, nil
}

// RunByID implements Store; it reads only that run.
func (s *Store) RunByID(ctx context.Context, id string) (store.StoredRun, error) {
	runs, err := s.query(ctx, "r.id = $1", []any{id})
	if err != nil {
		return store.StoredRun{}, err
	}
	if len(runs) == 0 {
		return store.StoredRun{}, fmt.Errorf("store %s holds no run %q", s.location, id)
	}
	return runs[0], nil
}

// pgLabelFilter is the condition on runs r that keeps the runs carrying
// every label of filter, with its arguments ($1, $2, …).
func pgLabelFilter(filter map[string]string) (string, []any) {
	conds := []string{"true"}
	var args []any
	for _, k := range store.SortedKeys(filter) {
		conds = append(conds, fmt.Sprintf(`EXISTS (SELECT 1 FROM labels l WHERE l.run_seq = r.seq AND l.key = $%d AND l.value = $%d)`, len(args)+1, len(args)+2))
		args = append(args, k, filter[k])
	}
	return strings.Join(conds, " AND "), args
}

// query loads the runs that match a condition on runs r, with their
// labels and measurements, in ingest order. Its three reads share one
// snapshot (a repeatable-read transaction), so that a concurrent ingest is
// seen whole or not at all.
func (s *Store) query(ctx context.Context, where string, args []any) ([]store.StoredRun, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, s.wrap(err)
	}
	defer tx.Rollback(ctx)
	runs, _, err := s.queryTx(ctx, tx, where, args)
	return runs, err
}

// EachRun implements Store: the runs are read a page at a time, in one
// repeatable-read transaction (one snapshot: a concurrent ingest is seen
// whole or not at all).
func (s *Store) EachRun(ctx context.Context, q store.Query) iter.Seq2[store.StoredRun, error] {
	return func(yield func(store.StoredRun, error) bool) {
		if q.Order != store.IngestOrder {
			backend.YieldAll(s.Runs(ctx, q))(yield)
			return
		}
		tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
		if err != nil {
			yield(store.StoredRun{}, s.wrap(err))
			return
		}
		defer tx.Rollback(ctx)
		where, args := pgLabelFilter(q.Labels)
		page := fmt.Sprintf(`r.seq IN (SELECT r.seq FROM runs r WHERE %s AND r.seq > $%d ORDER BY r.seq LIMIT $%d)`, where, len(args)+1, len(args)+2)
		var last int64
		for {
			runs, seqs, err := s.queryTx(ctx, tx, page, append(args[:len(args):len(args)], last, store.ReadPage))
			if err != nil {
				yield(store.StoredRun{}, err)
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

// queryTx is query in the transaction tx; it returns the runs' seqs too.
func (s *Store) queryTx(ctx context.Context, tx pgx.Tx, where string, args []any) ([]store.StoredRun, []int64, error) {
	rows, err := tx.Query(ctx, `SELECT seq, id, source, measured_at, baseline, candidate, ingested_at FROM runs r WHERE `+where+` ORDER BY seq`, args...)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	rr := backend.NewRunsRead(s.location)
	err = rr.AddRuns(rows)
	rows.Close()
	if err != nil {
		return nil, nil, err
	}
	if len(rr.Runs) == 0 {
		return nil, nil, nil
	}
	sub := `SELECT seq FROM runs r WHERE ` + where
	rows, err = tx.Query(ctx, `SELECT run_seq, key, value FROM labels WHERE run_seq IN (`+sub+`)`, args...)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	err = rr.AddLabels(rows)
	rows.Close()
	if err != nil {
		return nil, nil, err
	}
	rows, err = tx.Query(ctx, `SELECT m.run_seq, s.variant, s.benchmark, m.sample, m.value, s.unit, m.repetition FROM measurements m JOIN series s ON s.id = m.series WHERE m.run_seq IN (`+sub+`) ORDER BY m.run_seq, s.variant, s.benchmark, s.unit, m.sample`, args...)
	if err != nil {
		return nil, nil, s.wrap(err)
	}
	defer rows.Close()
	var seq int64
	var sample, repetition int32
	var m data.Measurement
	for rows.Next() {
		if err := rows.Scan(&seq, &m.Variant, &m.Benchmark, &sample, &m.Value, &m.Unit, &repetition); err != nil {
			return nil, nil, s.wrap(err)
		}
		m.Sample, m.Repetition = int(sample), int(repetition)
		r, err := rr.Find(seq)
		if err != nil {
			return nil, nil, err
		}
		r.Measurements = append(r.Measurements, m)
	}
	return rr.Runs, rr.Seqs, s.wrap(rows.Err())
}
