package postgres

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// writeLedger writes a ledger in the ingest's transaction tx, after its
// runs (see store.Store), as the SQLite store does: verdicts as
// backend.PlanVerdicts plans them (a replaced verdict updated in its row,
// keeping its place, its bands written anew), then the marks in order,
// the same mark again skipped. The statements go in one batch: one round
// trip to the server, however many entries a copy brings.
func (s *Store) writeLedger(ctx context.Context, tx pgx.Tx, l *store.Ledger) (res store.LedgerResult, err error) {
	var ids []string
	for _, v := range l.Verdicts {
		ids = append(ids, v.Run)
	}
	for _, m := range l.Marks {
		ids = append(ids, m.Run)
	}
	if len(ids) == 0 {
		return res, nil
	}
	seqs := map[string]int64{}
	rows, err := tx.Query(ctx, `SELECT id, seq FROM runs WHERE id = ANY($1)`, ids)
	if err != nil {
		return res, s.wrap(err)
	}
	for rows.Next() {
		var id string
		var seq int64
		if err := rows.Scan(&id, &seq); err != nil {
			rows.Close()
			return res, s.wrap(err)
		}
		seqs[id] = seq
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, s.wrap(err)
	}
	for i, id := range ids {
		if _, ok := seqs[id]; !ok {
			what := "verdict"
			if i >= len(l.Verdicts) {
				what = "mark"
			}
			return res, &store.MissingRunError{Store: s.location, Run: id, What: what}
		}
	}
	stored := map[backend.VerdictKey]string{}
	if len(l.Verdicts) > 0 {
		var runSeqs []int64
		for _, v := range l.Verdicts {
			runSeqs = append(runSeqs, seqs[v.Run])
		}
		rows, err := tx.Query(ctx, `SELECT r.id, v.calibration_sha256, v.digest FROM verdicts v JOIN runs r ON r.seq = v.run_seq WHERE v.run_seq = ANY($1)`, runSeqs)
		if err != nil {
			return res, s.wrap(err)
		}
		for rows.Next() {
			var k backend.VerdictKey
			var digest string
			if err := rows.Scan(&k.Run, &k.SHA256, &digest); err != nil {
				rows.Close()
				return res, s.wrap(err)
			}
			stored[k] = digest
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return res, s.wrap(err)
		}
	}
	write, res := backend.PlanVerdicts(l.Verdicts, stored)
	var b pgx.Batch
	for _, i := range write {
		v := &l.Verdicts[i]
		seq := seqs[v.Run]
		var z any
		if !math.IsNaN(v.RunnerZ) {
			z = v.RunnerZ
		}
		b.Queue(`INSERT INTO verdicts (run_seq, calibration_sha256, calibration_name, verdict, detail, score, floor, floor_source, partial, kind, other_run, runner_health, runner_z, digest, recorded_at, profile)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
			ON CONFLICT (run_seq, calibration_sha256) DO UPDATE SET calibration_name = excluded.calibration_name, profile = excluded.profile, verdict = excluded.verdict,
				detail = excluded.detail, score = excluded.score, floor = excluded.floor, floor_source = excluded.floor_source,
				partial = excluded.partial, kind = excluded.kind, other_run = excluded.other_run, runner_health = excluded.runner_health,
				runner_z = excluded.runner_z, digest = excluded.digest, recorded_at = excluded.recorded_at`,
			seq, v.Calibration.SHA256, v.Calibration.Name, v.Verdict, v.Detail, v.Score, v.Floor, v.FloorSource, v.Partial, v.Kind, v.Other,
			v.RunnerHealth, z, v.Digest(), store.LedgerTime(v.Recorded), v.Profile)
		b.Queue(`DELETE FROM verdict_bands WHERE verdict_seq = (SELECT seq FROM verdicts WHERE run_seq = $1 AND calibration_sha256 = $2)`, seq, v.Calibration.SHA256)
		if len(v.Bands) > 0 {
			names, bands := make([]string, len(v.Bands)), make([]string, len(v.Bands))
			for j, o := range v.Bands {
				names[j], bands[j] = o.Benchmark, o.Band
			}
			b.Queue(`INSERT INTO verdict_bands (verdict_seq, benchmark, band)
				SELECT (SELECT seq FROM verdicts WHERE run_seq = $1 AND calibration_sha256 = $2), t.benchmark, t.band
				FROM unnest($3::text[], $4::text[]) AS t(benchmark, band)`, seq, v.Calibration.SHA256, names, bands)
		}
	}
	marks := b.Len()
	for _, m := range l.Marks {
		b.Queue(`INSERT INTO marks (run_seq, truth, note, marked_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
			seqs[m.Run], m.Truth, m.Note, store.LedgerTime(m.Marked))
	}
	if b.Len() == 0 {
		return res, nil
	}
	br := tx.SendBatch(ctx, &b)
	for i := 0; i < b.Len(); i++ {
		tag, err := br.Exec()
		if err != nil {
			br.Close()
			return store.LedgerResult{}, s.wrap(err)
		}
		if i >= marks {
			if tag.RowsAffected() == 1 {
				res.MarksAdded++
			} else {
				res.MarksUnchanged++
			}
		}
	}
	if err := br.Close(); err != nil {
		return store.LedgerResult{}, s.wrap(err)
	}
	return res, nil
}

// Ledger implements store.Store: the verdicts, their bands and the marks
// of the selected runs, read in one repeatable-read transaction.
func (s *Store) Ledger(ctx context.Context, q store.LedgerQuery) (l store.Ledger, err error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return l, s.wrap(err)
	}
	defer tx.Rollback(ctx)
	where, args := pgLabelFilter(q.Labels)
	if q.Run != "" {
		where, args = fmt.Sprintf("%s AND r.id = $%d", where, len(args)+1), append(args, q.Run)
	}
	vwhere, vargs := where, args
	if q.Calibration != "" {
		vwhere, vargs = fmt.Sprintf("%s AND v.calibration_sha256 = $%d", where, len(args)+1), append(args[:len(args):len(args)], q.Calibration)
	}
	rows, err := tx.Query(ctx, `SELECT v.seq, r.id, v.calibration_sha256, v.calibration_name, v.profile, v.verdict, v.detail, v.score, v.floor, v.floor_source,
		v.partial, v.kind, v.other_run, v.runner_health, v.runner_z, v.recorded_at
		FROM verdicts v JOIN runs r ON r.seq = v.run_seq WHERE `+vwhere+` ORDER BY v.seq`, vargs...)
	if err != nil {
		return l, s.wrap(err)
	}
	at := map[int64]int{}
	for rows.Next() {
		var v store.Verdict
		var seq int64
		var z *float64
		var recorded string
		if err := rows.Scan(&seq, &v.Run, &v.Calibration.SHA256, &v.Calibration.Name, &v.Profile, &v.Verdict, &v.Detail, &v.Score, &v.Floor, &v.FloorSource,
			&v.Partial, &v.Kind, &v.Other, &v.RunnerHealth, &z, &recorded); err != nil {
			rows.Close()
			return l, s.wrap(err)
		}
		v.RunnerZ = math.NaN()
		if z != nil {
			v.RunnerZ = *z
		}
		if v.Recorded, err = time.Parse(time.RFC3339Nano, recorded); err != nil {
			rows.Close()
			return l, backend.DamagedLedger(s.location, "verdicts", backend.TimeError("the verdict of run "+v.Run, recorded))
		}
		at[seq] = len(l.Verdicts)
		l.Verdicts = append(l.Verdicts, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return l, s.wrap(err)
	}
	if len(l.Verdicts) > 0 {
		rows, err := tx.Query(ctx, `SELECT b.verdict_seq, b.benchmark, b.band FROM verdict_bands b
			JOIN verdicts v ON v.seq = b.verdict_seq JOIN runs r ON r.seq = v.run_seq
			WHERE `+vwhere+` ORDER BY b.verdict_seq, b.benchmark`, vargs...)
		if err != nil {
			return l, s.wrap(err)
		}
		for rows.Next() {
			var seq int64
			var o store.BandOutcome
			if err := rows.Scan(&seq, &o.Benchmark, &o.Band); err != nil {
				rows.Close()
				return l, s.wrap(err)
			}
			i, ok := at[seq]
			if !ok {
				rows.Close()
				return l, fmt.Errorf("store %s is damaged: a band refers to verdict %d, which was not read with it", s.location, seq)
			}
			l.Verdicts[i].Bands = append(l.Verdicts[i].Bands, o)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return l, s.wrap(err)
		}
	}
	rows, err = tx.Query(ctx, `SELECT r.id, m.truth, m.note, m.marked_at FROM marks m JOIN runs r ON r.seq = m.run_seq WHERE `+where+` ORDER BY m.seq`, args...)
	if err != nil {
		return l, s.wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		var m store.Mark
		var marked string
		if err := rows.Scan(&m.Run, &m.Truth, &m.Note, &marked); err != nil {
			return l, s.wrap(err)
		}
		if m.Marked, err = time.Parse(time.RFC3339Nano, marked); err != nil {
			return l, backend.DamagedLedger(s.location, "marks", backend.TimeError("the mark of run "+m.Run, marked))
		}
		l.Marks = append(l.Marks, m)
	}
	if err := rows.Err(); err != nil {
		return l, s.wrap(err)
	}
	return l, backend.CheckLedger(s.location, &l)
}
