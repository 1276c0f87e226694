// Package store keeps runs: the Store interface that every backend
// implements (data/store/sqlite, data/store/postgres; data/source opens
// one by its location), what a store is asked (Query, Order) and answers
// (StoredRun, IngestResult, the errors), and the rules every backend
// shares (Digest, TimeText). It links no database driver, so that the
// packages that only read stored runs need none.
package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"iter"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data"
)

// Store keeps runs: the history that calibrations read and gates append
// to. It is an interface so that every command works the same on each
// backend: the embedded SQLite file (SQLite, the default) and, for a team,
// a shared database server. Every implementation passes the conformance
// suite in data/store/storetest.
//
// The contract, which the suite checks:
//   - Ingest is one transaction: every run of the call lands, or none,
//     also when the sequence of runs fails part-way (IngestEach).
//   - A run is keyed by its id and its content digest (Digest): storing the
//     same run again is a no-op counted as unchanged, also when two
//     writers store it at once; the same id with other content is a
//     *ConflictError unless IngestOptions.Replace, which keeps the run's
//     place in ingest order.
//   - Values come back bit for bit as they were stored (8-byte floats).
//   - Runs come back with their labels, and their measurements in
//     canonical order (Run.Sort), in the order the Query asks.
//   - The ledger (verdicts and marks, IngestOptions.Ledger) is written in
//     the ingest's transaction, after its runs; each entry names a run
//     stored already or among the ingest's runs, else the ingest fails
//     (*MissingRunError). A run keeps one verdict per calibration: the
//     same verdict again is unchanged, another replaces it in its place.
//     Marks are kept, every one, in the order made; the same mark again
//     is unchanged. A replaced run keeps its ledger.
type Store interface {
	// Ingest stores runs (see the contract above): IngestEach over the
	// slice, for callers that hold their runs already.
	Ingest(ctx context.Context, runs []data.Run, opt IngestOptions) (IngestResult, error)
	// IngestEach stores the runs that runs yields, taking them one at a
	// time into the one transaction, so that an ingest never holds all
	// its runs: its memory does not grow with their number. A run's
	// Ingested is the ingest time to record for it (a copy between stores
	// keeps when each run was first ingested); zero means opt's Now. An
	// error the sequence yields ends the ingest, storing nothing, and is
	// returned as it is.
	IngestEach(ctx context.Context, runs iter.Seq2[StoredRun, error], opt IngestOptions) (IngestResult, error)
	// Runs returns the stored runs that match q.
	Runs(ctx context.Context, q Query) ([]StoredRun, error)
	// EachRun yields the stored runs that match q, as Runs returns them,
	// reading them a page at a time in one read transaction, so that a
	// reader of every run (store copy) never holds them all. (TimeOrder
	// needs them all to sort: it reads them as Runs does.)
	EachRun(ctx context.Context, q Query) iter.Seq2[StoredRun, error]
	// RunByID returns one stored run; an id the store lacks is an error.
	RunByID(ctx context.Context, id string) (StoredRun, error)
	// Ledger returns the verdicts and marks of the stored runs that q
	// selects, each in the order it was recorded (see Ledger). Ingest
	// writes them (IngestOptions.Ledger).
	Ledger(ctx context.Context, q LedgerQuery) (Ledger, error)
	// Location names the store for messages (a file name).
	Location() string
	// Close releases the store.
	Close() error
}

// Mode says how a store is opened.
type Mode int

const (
	// ReadOnly opens an existing store and never writes to it: no schema
	// is made, no migration is run, so that reading cannot change a store.
	ReadOnly Mode = iota
	// ReadWrite opens a store for ingesting, making it if it is missing
	// and bringing its schema up to date.
	ReadWrite
)

// IsPostgresURL reports whether a store location names a PostgreSQL
// database (postgres:// or postgresql://, in any case) rather than a file.
func IsPostgresURL(location string) bool {
	l := strings.ToLower(location)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// RedactLocation is a store location fit for messages: a database URL
// without its password (in the user part or a password= parameter); a
// file name as it is.
func RedactLocation(location string) string {
	if !IsPostgresURL(location) {
		return location
	}
	return RedactURL(location)
}

// RedactURL hides the password of a database URL in messages (a
// PostgreSQL backend names its store so; see RedactLocation). It reads
// the URL by plain string cuts, not url.Parse, because the two parsers
// that matter disagree: pgx takes everything up to the first '@' as the
// user information and reads "1234#5678" as the password of
// postgres://u:1234#5678@host/db, where url.Parse sees a port and a
// fragment and would redact nothing. So: everything between the user
// name and the last '@' is hidden (a raw '@' in a password cannot leak
// either), and so is the value of every query parameter whose name holds
// "password" (password, sslpassword), up to the next '&'.
func RedactURL(location string) string {
	scheme, rest, ok := strings.Cut(location, "://")
	if _, err := url.Parse(location); err != nil || !ok {
		return "(a database URL that does not parse)"
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(scheme) + "://")
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		userinfo := rest[:at]
		user, _, hasPassword := strings.Cut(userinfo, ":")
		if hasPassword || strings.ContainsAny(userinfo, "#?/") {
			// A password, or text a parser may take for one: only the
			// name before it is shown.
			user, _, _ = strings.Cut(user, "#")
			user, _, _ = strings.Cut(user, "?")
			user, _, _ = strings.Cut(user, "/")
			b.WriteString(user + ":xxxxx@")
		} else {
			b.WriteString(userinfo + "@")
		}
		rest = rest[at+1:]
	}
	head, query, hasQuery := strings.Cut(rest, "?")
	b.WriteString(head)
	if !hasQuery {
		return b.String()
	}
	b.WriteByte('?')
	for i, kv := range strings.Split(query, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		k, _, hasValue := strings.Cut(kv, "=")
		if hasValue && strings.Contains(strings.ToLower(k), "password") {
			kv = k + "=xxxxx"
		}
		b.WriteString(kv)
	}
	return b.String()
}

// IngestOptions say how Ingest treats runs already stored.
type IngestOptions struct {
	// Replace overwrites a stored run of the same id and other content.
	Replace bool
	// Progress, if not nil, is called after each run taken: done runs of
	// total, where total is 0 when the number is not known ahead (a
	// stream of runs, IngestEach).
	Progress func(done, total int)
	// Now is the ingest time recorded; zero means the clock's time.
	// Reproducible outputs set it (SOURCE_DATE_EPOCH).
	Now time.Time
	// Ledger, if not nil, is stored in the same transaction, after the
	// runs: the verdicts and marks of runs stored already or among the
	// runs (gate --record stores its run and its verdict at once; store
	// copy, every run and then the whole ledger).
	Ledger *Ledger
}

// IngestTime returns the ingest time to record for r: its own when it has
// one (a copy between stores keeps it), else Now, else the clock's.
func (o IngestOptions) IngestTime(r *StoredRun) time.Time {
	if !r.Ingested.IsZero() {
		return r.Ingested
	}
	if o.Now.IsZero() {
		return time.Now()
	}
	return o.Now
}

// Each yields the runs of a slice, to be ingested now (IngestEach): the
// sequence behind Store.Ingest.
func Each(runs []data.Run) iter.Seq2[StoredRun, error] {
	return func(yield func(StoredRun, error) bool) {
		for i := range runs {
			if !yield(StoredRun{Run: runs[i]}, nil) {
				return
			}
		}
	}
}

// Incoming yields the runs of seq, to be ingested now (IngestEach): the
// runs a loader reads (see package load).
func Incoming(seq iter.Seq2[data.Run, error]) iter.Seq2[StoredRun, error] {
	return func(yield func(StoredRun, error) bool) {
		for r, err := range seq {
			if !yield(StoredRun{Run: r}, err) {
				return
			}
		}
	}
}

// OlderSchemaError is a store written by an older qoscal (an older schema
// version), opened read-only: it is upgraded in place by the first
// command that writes to it, and cannot be read before.
type OlderSchemaError struct {
	Store            string // the store's location (a URL without its password)
	Version, Current int    // its schema version, and this build's
}

func (e *OlderSchemaError) Error() string {
	return fmt.Sprintf("store %s has schema version %d, older than this qoscal's %d: upgrade it once with `qoscal store upgrade --db %s` (ingest and gate --record upgrade it too)", e.Store, e.Version, e.Current, e.Store)
}

// Query selects stored runs.
type Query struct {
	// Labels keeps the runs that carry every label given.
	Labels map[string]string
	// Order is the order of the runs returned.
	Order Order
}

// Order is an order of stored runs.
type Order int

const (
	// IngestOrder is the order the runs were first stored in (a replaced
	// run keeps its place).
	IngestOrder Order = iota
	// TimeOrder is the order of the runs' measured times, earliest first;
	// runs without a time come last, in ingest order.
	TimeOrder
)

// Sort puts runs, which come in ingest order, in the order o: what a
// backend does to the runs it reads before it returns them.
func (o Order) Sort(runs []StoredRun) {
	if o != TimeOrder {
		return
	}
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i].Time, runs[j].Time
		if a.IsZero() || b.IsZero() {
			return !a.IsZero() && b.IsZero()
		}
		return a.Before(b)
	})
}

// DefaultStore is the store file used when neither --db nor QOSCAL_DB names
// one.
const DefaultStore = "qoscal.db"

// IngestResult counts what an Ingest did.
type IngestResult struct {
	Added     int // runs new to the store
	Replaced  int // runs whose stored content was replaced (replace mode)
	Unchanged int // runs already stored with the same content
	// Completed counts runs stored without their repetitions (by a qoscal
	// before schema version 5, which did not keep them, or from input that
	// did not say) that the ingest gave them: the same samples, each now
	// with its repetition, whatever the replace mode. The run is then
	// scored as from its folder.
	Completed    int
	Measurements int // measurements written
	// AlreadyStored lists the ids of the unchanged runs.
	AlreadyStored []string
	// Ledger counts what the ingest did to the ledger.
	Ledger LedgerResult
}

// ConflictError reports a run id already stored with other content.
type ConflictError struct {
	Store, ID, Source string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("run %s (from %s) is already in %s with different content: use --replace to overwrite it, or give it another id", e.ID, e.Source, e.Store)
}

// StoredRun is a run as kept in the store, with when it was ingested.
type StoredRun struct {
	data.Run
	Ingested time.Time
}

// Digest is a content hash of a run: its id, labels, roles, time and
// measurements, in canonical order. Its source (the path it was read from)
// is left out, so the same run read from another checkout is the same run.
// A measurement's repetition (schema version 5) is hashed only when it is
// not 0: a run without repetitions has the digest that stores written
// before repetitions were kept hold for it, and a run with them differs
// from the same samples stored without them.
//
// Each line hashed is its parts, each written as its length in decimal,
// a colon and its bytes, then a newline. Stored runs carry their digest,
// so this text must never change (TestDigestPinned holds it); it is built
// in one buffer, not printed part by part, which took a sixth of an
// ingest's time.
func Digest(r *data.Run) string {
	h := sha256.New()
	var buf []byte
	part := func(p string) {
		buf = strconv.AppendInt(buf, int64(len(p)), 10)
		buf = append(buf, ':')
		buf = append(buf, p...)
	}
	partBytes := func(p []byte) {
		buf = strconv.AppendInt(buf, int64(len(p)), 10)
		buf = append(buf, ':')
		buf = append(buf, p...)
	}
	line := func() {
		buf = append(buf, '\n')
		if len(buf) >= 4096 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	buf = make([]byte, 0, 4096+256)
	part("id")
	part(r.ID)
	line()
	for _, k := range SortedKeys(r.Labels) {
		part("label")
		part(k)
		part(r.Labels[k])
		line()
	}
	part("roles")
	part(r.Baseline)
	part(r.Candidate)
	line()
	part("time")
	part(TimeText(r.Time))
	line()
	ms := r.Measurements
	// A parsed or stored run's measurements are mostly in canonical order
	// (Run.Sort) already: then no copy is sorted.
	if !slices.IsSortedFunc(ms, data.CompareMeasurements) {
		c := data.Run{Measurements: append([]data.Measurement(nil), ms...)}
		c.Sort()
		ms = c.Measurements
	}
	var num [24]byte
	for i := range ms {
		m := &ms[i]
		part("m")
		part(m.Variant)
		part(m.Benchmark)
		partBytes(strconv.AppendInt(num[:0], int64(m.Sample), 10))
		partBytes(strconv.AppendUint(num[:0], math.Float64bits(m.Value), 16))
		part(m.Unit)
		if m.Repetition != 0 {
			// One more part on the line: a line of six parts never
			// reads as one of seven, as every part is length-prefixed.
			partBytes(strconv.AppendInt(num[:0], int64(m.Repetition), 10))
		}
		line()
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))
}

// ReadPage is how many runs a backend's EachRun reads at once (a
// variable, so that tests read several pages of a few runs).
var ReadPage = 1000

// TimeText is how a run's measured time is kept, by both backends and in
// its Digest: RFC 3339 with nanoseconds, in UTC; "" for no time.
func TimeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// SortedKeys returns the keys of m (labels), sorted: the order in which
// runs' labels are digested and written.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
