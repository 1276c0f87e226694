package backend

import (
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data/store"
)

// Tx is a backend's transaction as the ledger reads and writes it, the
// one implementation of the ledger both stores use (WriteLedger,
// ReadLedger). Statements are written with SQLite's ? placeholders and
// in SQL both engines take; the PostgreSQL store numbers the placeholders
// (Numbered). Arguments are int64, float64, string, bool or nil; errors
// are returned as the engine gave them (the ledger names the store:
// StoreError).
type Tx interface {
	// Query runs one statement and returns its rows, which the caller
	// closes.
	Query(query string, args ...any) (QueryRows, error)
	// Exec runs statements in order and returns the number of rows each
	// changed. The PostgreSQL store sends them in one batch: one round
	// trip to the server, however many entries a copy brings.
	Exec(stmts []Stmt) ([]int64, error)
}

// QueryRows are a query's rows (Rows) that the caller closes.
type QueryRows interface {
	Rows
	Close()
}

// Stmt is one statement with its arguments.
type Stmt struct {
	Query string
	Args  []any
}

// Numbered returns query with its ? placeholders numbered as
// PostgreSQL's ($1, $2, ...). The ledger's statements hold no ? in a
// string or a name.
func Numbered(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// LabelFilter is the condition on runs r that keeps the runs carrying
// every label of filter, with ? placeholders, and its arguments.
func LabelFilter(filter map[string]string) (string, []any) {
	conds := []string{"1 = 1"}
	var args []any
	for _, k := range store.SortedKeys(filter) {
		conds = append(conds, `EXISTS (SELECT 1 FROM labels l WHERE l.run_seq = r.seq AND l.key = ? AND l.value = ?)`)
		args = append(args, k, filter[k])
	}
	return strings.Join(conds, " AND "), args
}

// VerdictKey is what identifies a verdict in a store: its run and its
// calibration's SHA-256.
type VerdictKey struct{ Run, SHA256 string }

// KeyOf is a verdict's key.
func KeyOf(v *store.Verdict) VerdictKey { return VerdictKey{v.Run, v.Calibration.SHA256} }

// PlanVerdicts decides what an ingest writes of the verdicts in, given the
// digests the store holds for their keys (stored): the indices in in of
// the verdicts to write, in order, and the counts, as storing them one by
// one would count them. A key new to the store is added; the same digest
// again is unchanged; another digest replaces the verdict (in its place).
// Of several verdicts with one key in one call the last is written, and
// only if it differs from what the store holds.
func PlanVerdicts(in []store.Verdict, stored map[VerdictKey]string) (write []int, res store.LedgerResult) {
	cur := map[VerdictKey]string{}
	last := map[VerdictKey]int{}
	for i := range in {
		k := KeyOf(&in[i])
		d := in[i].Digest()
		old, ok := cur[k]
		if !ok {
			old, ok = stored[k]
		}
		switch {
		case !ok:
			res.VerdictsAdded++
		case old == d:
			res.VerdictsUnchanged++
		default:
			res.VerdictsReplaced++
		}
		cur[k] = d
		last[k] = i
	}
	for k, i := range last {
		if old, ok := stored[k]; !ok || old != cur[k] {
			write = append(write, i)
		}
	}
	slices.Sort(write)
	return write, res
}

// lookupChunk is how many keys one lookup of the ledger's write names
// (id IN (?, ...)); a shorter list is padded with its last key, so that
// each lookup is one statement, prepared once.
const lookupChunk = 64

// inChunks runs query, which ends in "IN (" and is completed here, over
// keys lookupChunk at a time, and calls scan on each row.
func inChunks[K any](tx Tx, location, query string, keys []K, scan func(QueryRows) error) error {
	marks := strings.TrimSuffix(strings.Repeat("?, ", lookupChunk), ", ")
	args := make([]any, lookupChunk)
	for len(keys) > 0 {
		n := min(len(keys), lookupChunk)
		for i := range args {
			args[i] = keys[min(i, n-1)]
		}
		keys = keys[n:]
		rows, err := tx.Query(query+marks+")", args...)
		if err != nil {
			return StoreError(location, err)
		}
		for rows.Next() {
			if err := scan(rows); err != nil {
				rows.Close()
				return StoreError(location, err)
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return StoreError(location, err)
		}
	}
	return nil
}

// WriteLedger writes a ledger in an ingest's transaction, after its runs
// (see store.Store), for the store at location (named in errors):
// verdicts as PlanVerdicts plans them, a replaced verdict updated in its
// row (so that it keeps its place) and its bands written anew; then the
// marks in order, the same mark again skipped. Every entry's run must be
// stored (store.MissingRunError).
func WriteLedger(tx Tx, location string, l *store.Ledger) (res store.LedgerResult, err error) {
	var ids []string
	seen := map[string]bool{}
	for _, v := range l.Verdicts {
		if !seen[v.Run] {
			seen[v.Run] = true
			ids = append(ids, v.Run)
		}
	}
	verdictRuns := len(ids)
	for _, m := range l.Marks {
		if !seen[m.Run] {
			seen[m.Run] = true
			ids = append(ids, m.Run)
		}
	}
	if len(ids) == 0 {
		return res, nil
	}
	seqs := map[string]int64{}
	err = inChunks(tx, location, `SELECT id, seq FROM runs WHERE id IN (`, ids, func(rows QueryRows) error {
		var id string
		var seq int64
		err := rows.Scan(&id, &seq)
		seqs[id] = seq
		return err
	})
	if err != nil {
		return res, err
	}
	for _, v := range l.Verdicts {
		if _, ok := seqs[v.Run]; !ok {
			return res, &store.MissingRunError{Store: location, Run: v.Run, What: "verdict"}
		}
	}
	for _, m := range l.Marks {
		if _, ok := seqs[m.Run]; !ok {
			return res, &store.MissingRunError{Store: location, Run: m.Run, What: "mark"}
		}
	}
	// The digests the store holds for the verdicts' keys.
	stored := map[VerdictKey]string{}
	runSeqs := make([]int64, verdictRuns)
	for i, id := range ids[:verdictRuns] {
		runSeqs[i] = seqs[id]
	}
	err = inChunks(tx, location, `SELECT r.id, v.calibration_sha256, v.digest FROM verdicts v JOIN runs r ON r.seq = v.run_seq WHERE v.run_seq IN (`, runSeqs, func(rows QueryRows) error {
		var k VerdictKey
		var digest string
		err := rows.Scan(&k.Run, &k.SHA256, &digest)
		stored[k] = digest
		return err
	})
	if err != nil {
		return res, err
	}
	write, res := PlanVerdicts(l.Verdicts, stored)
	var stmts []Stmt
	for _, i := range write {
		v := &l.Verdicts[i]
		seq := seqs[v.Run]
		var z any
		if !math.IsNaN(v.RunnerZ) {
			z = v.RunnerZ
		}
		// An upsert updates the row it finds: the verdict keeps its seq,
		// its place in the ledger's order.
		stmts = append(stmts, Stmt{`INSERT INTO verdicts (run_seq, calibration_sha256, calibration_name, profile, verdict, detail, score, floor, floor_source, partial, kind, other_run, runner_health, runner_z, digest, recorded_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (run_seq, calibration_sha256) DO UPDATE SET calibration_name = excluded.calibration_name, profile = excluded.profile, verdict = excluded.verdict,
				detail = excluded.detail, score = excluded.score, floor = excluded.floor, floor_source = excluded.floor_source,
				partial = excluded.partial, kind = excluded.kind, other_run = excluded.other_run, runner_health = excluded.runner_health,
				runner_z = excluded.runner_z, digest = excluded.digest, recorded_at = excluded.recorded_at`,
			[]any{seq, v.Calibration.SHA256, v.Calibration.Name, v.Profile, v.Verdict, v.Detail, v.Score, v.Floor, v.FloorSource, v.Partial, v.Kind, v.Other,
				v.RunnerHealth, z, v.Digest(), store.LedgerTime(v.Recorded)}})
		stmts = append(stmts, Stmt{`DELETE FROM verdict_bands WHERE verdict_seq = (SELECT seq FROM verdicts WHERE run_seq = ? AND calibration_sha256 = ?)`,
			[]any{seq, v.Calibration.SHA256}})
		for _, o := range v.Bands {
			stmts = append(stmts, Stmt{`INSERT INTO verdict_bands (verdict_seq, benchmark, band)
				VALUES ((SELECT seq FROM verdicts WHERE run_seq = ? AND calibration_sha256 = ?), ?, ?)`,
				[]any{seq, v.Calibration.SHA256, o.Benchmark, o.Band}})
		}
	}
	marks := len(stmts)
	for _, m := range l.Marks {
		stmts = append(stmts, Stmt{`INSERT INTO marks (run_seq, truth, note, marked_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{seqs[m.Run], m.Truth, m.Note, store.LedgerTime(m.Marked)}})
	}
	if len(stmts) == 0 {
		return res, nil
	}
	changed, err := tx.Exec(stmts)
	if err != nil {
		return store.LedgerResult{}, StoreError(location, err)
	}
	for _, n := range changed[marks:] {
		if n == 1 {
			res.MarksAdded++
		} else {
			res.MarksUnchanged++
		}
	}
	return res, nil
}

// ReadLedger reads the verdicts, their bands and the marks of the runs q
// selects, in a read transaction of the store at location (named in
// errors). A ledger time that does not read as one is a damaged store;
// the caller checks the rest (CheckLedger).
func ReadLedger(tx Tx, location string, q store.LedgerQuery) (l store.Ledger, err error) {
	where, args := LabelFilter(q.Labels)
	if q.Run != "" {
		where, args = where+` AND r.id = ?`, append(args, q.Run)
	}
	vwhere, vargs := where, args
	if q.Calibration != "" {
		vwhere, vargs = where+` AND v.calibration_sha256 = ?`, append(args[:len(args):len(args)], q.Calibration)
	}
	rows, err := tx.Query(`SELECT v.seq, r.id, v.calibration_sha256, v.calibration_name, v.profile, v.verdict, v.detail, v.score, v.floor, v.floor_source,
		v.partial, v.kind, v.other_run, v.runner_health, v.runner_z, v.recorded_at
		FROM verdicts v JOIN runs r ON r.seq = v.run_seq WHERE `+vwhere+` ORDER BY v.seq`, vargs...)
	if err != nil {
		return l, StoreError(location, err)
	}
	at := map[int64]int{}
	for rows.Next() {
		var v store.Verdict
		var seq int64
		var z sql.NullFloat64
		var recorded string
		if err := rows.Scan(&seq, &v.Run, &v.Calibration.SHA256, &v.Calibration.Name, &v.Profile, &v.Verdict, &v.Detail, &v.Score, &v.Floor, &v.FloorSource,
			&v.Partial, &v.Kind, &v.Other, &v.RunnerHealth, &z, &recorded); err != nil {
			rows.Close()
			return l, StoreError(location, err)
		}
		v.RunnerZ = math.NaN()
		if z.Valid {
			v.RunnerZ = z.Float64
		}
		if v.Recorded, err = time.Parse(time.RFC3339Nano, recorded); err != nil {
			rows.Close()
			return l, DamagedLedger(location, "verdicts", TimeError("the verdict of run "+v.Run, recorded))
		}
		at[seq] = len(l.Verdicts)
		l.Verdicts = append(l.Verdicts, v)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return l, StoreError(location, err)
	}
	if len(l.Verdicts) > 0 {
		rows, err := tx.Query(`SELECT b.verdict_seq, b.benchmark, b.band FROM verdict_bands b
			JOIN verdicts v ON v.seq = b.verdict_seq JOIN runs r ON r.seq = v.run_seq
			WHERE `+vwhere+` ORDER BY b.verdict_seq, b.benchmark`, vargs...)
		if err != nil {
			return l, StoreError(location, err)
		}
		for rows.Next() {
			var seq int64
			var o store.BandOutcome
			if err := rows.Scan(&seq, &o.Benchmark, &o.Band); err != nil {
				rows.Close()
				return l, StoreError(location, err)
			}
			i, ok := at[seq]
			if !ok {
				rows.Close()
				return l, fmt.Errorf("store %s is damaged: a band refers to verdict %d, which was not read with it", location, seq)
			}
			l.Verdicts[i].Bands = append(l.Verdicts[i].Bands, o)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return l, StoreError(location, err)
		}
	}
	rows, err = tx.Query(`SELECT r.id, m.truth, m.note, m.marked_at FROM marks m JOIN runs r ON r.seq = m.run_seq WHERE `+where+` ORDER BY m.seq`, args...)
	if err != nil {
		return l, StoreError(location, err)
	}
	defer rows.Close()
	for rows.Next() {
		var m store.Mark
		var marked string
		if err := rows.Scan(&m.Run, &m.Truth, &m.Note, &marked); err != nil {
			return l, StoreError(location, err)
		}
		if m.Marked, err = time.Parse(time.RFC3339Nano, marked); err != nil {
			return l, DamagedLedger(location, "marks", TimeError("the mark of run "+m.Run, marked))
		}
		l.Marks = append(l.Marks, m)
	}
	if err := rows.Err(); err != nil {
		return l, StoreError(location, err)
	}
	return l, nil
}

// CheckLedger checks every entry of a ledger read from the store at
// location (store.Verdict.Check, store.Mark.Check), as a write checks
// them: a value no qoscal writes (an infinite score, a mark that is
// neither healthy nor regressed) was put there by something else, and is
// reported as a damaged store, naming the table and the run of the row,
// rather than counted by the audit or printed.
func CheckLedger(location string, l *store.Ledger) error {
	for i := range l.Verdicts {
		v := l.Verdicts[i]
		if err := v.CheckBands(); err != nil {
			return DamagedLedger(location, "verdict_bands", err)
		}
		v.Bands = nil
		if err := v.Check(); err != nil {
			return DamagedLedger(location, "verdicts", err)
		}
	}
	for i := range l.Marks {
		if err := l.Marks[i].Check(); err != nil {
			return DamagedLedger(location, "marks", err)
		}
	}
	return nil
}

// DamagedLedger is the error of a row of the ledger's table that holds a
// value no qoscal writes: err says which row (by its run) and what.
func DamagedLedger(location, table string, err error) error {
	return fmt.Errorf("store %s is damaged: in its table %s, %w", location, table, err)
}

// TimeError is a ledger time that does not read as one: what (the
// verdict or the mark of run ID) and the text stored.
func TimeError(what, text string) error {
	return fmt.Errorf("%s: time %q is not an RFC 3339 time", what, text)
}
