package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// writeLedger writes a ledger in the ingest's transaction, after its runs
// (see store.Store): verdicts as backend.PlanVerdicts plans them, a
// replaced verdict updated in its row (so that it keeps its place) and its
// bands written anew; marks inserted in order, the same mark again
// skipped.
func (w *ingestWriter) writeLedger(l *store.Ledger) (res store.LedgerResult, err error) {
	seqs := map[string]int64{}
	runSeq := func(id, what string) (int64, error) {
		if seq, ok := seqs[id]; ok {
			return seq, nil
		}
		seq, found, err := w.lookupRun(id)
		if err != nil {
			return 0, err
		}
		if !found {
			return 0, &store.MissingRunError{Store: w.s.path, Run: id, What: what}
		}
		seqs[id] = seq
		return seq, nil
	}
	// The digests the store holds for the verdicts' keys, and their rows.
	stored := map[backend.VerdictKey]string{}
	rowOf := map[backend.VerdictKey]int64{}
	for i := range l.Verdicts {
		v := &l.Verdicts[i]
		seq, err := runSeq(v.Run, "verdict")
		if err != nil {
			return res, err
		}
		k := backend.KeyOf(v)
		if _, seen := rowOf[k]; seen {
			continue
		}
		rows, err := selectRows(w.c, `SELECT seq, digest FROM verdicts WHERE run_seq = ? AND calibration_sha256 = ?`, seq, v.Calibration.SHA256)
		if err != nil {
			return res, w.s.wrap(err)
		}
		var row int64
		var digest string
		if rows.Next() {
			err = rows.Scan(&row, &digest)
			stored[k] = digest
		}
		err = firstErr(err, rows.Err())
		rows.Close()
		if err != nil {
			return res, w.s.wrap(err)
		}
		rowOf[k] = row // 0: none
	}
	write, res := backend.PlanVerdicts(l.Verdicts, stored)
	for _, i := range write {
		v := &l.Verdicts[i]
		k := backend.KeyOf(v)
		runner := any(nil)
		if !math.IsNaN(v.RunnerZ) {
			runner = v.RunnerZ
		}
		partial := 0
		if v.Partial {
			partial = 1
		}
		cols := []any{v.Calibration.Name, v.Profile, v.Verdict, v.Detail, v.Score, v.Floor, v.FloorSource, partial, v.Kind, v.Other,
			v.RunnerHealth, runner, v.Digest(), store.LedgerTime(v.Recorded)}
		row := rowOf[k]
		if row == 0 {
			if err := w.exec(`INSERT INTO verdicts (run_seq, calibration_sha256, calibration_name, profile, verdict, detail, score, floor, floor_source, partial, kind, other_run, runner_health, runner_z, digest, recorded_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, append([]any{seqs[v.Run], v.Calibration.SHA256}, cols...)...); err != nil {
				return res, err
			}
			row = w.c.LastInsertRowID()
			rowOf[k] = row
		} else {
			if err := w.exec(`UPDATE verdicts SET calibration_name = ?, profile = ?, verdict = ?, detail = ?, score = ?, floor = ?, floor_source = ?, partial = ?, kind = ?, other_run = ?, runner_health = ?, runner_z = ?, digest = ?, recorded_at = ?
				WHERE seq = ?`, append(cols, row)...); err != nil {
				return res, err
			}
			if err := w.exec(`DELETE FROM verdict_bands WHERE verdict_seq = ?`, row); err != nil {
				return res, err
			}
		}
		for _, o := range v.Bands {
			if err := w.exec(`INSERT INTO verdict_bands (verdict_seq, benchmark, band) VALUES (?, ?, ?)`, row, o.Benchmark, o.Band); err != nil {
				return res, err
			}
		}
	}
	for i := range l.Marks {
		m := &l.Marks[i]
		seq, err := runSeq(m.Run, "mark")
		if err != nil {
			return res, err
		}
		if err := w.exec(`INSERT INTO marks (run_seq, truth, note, marked_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			seq, m.Truth, m.Note, store.LedgerTime(m.Marked)); err != nil {
			return res, err
		}
		if w.c.Changes() == 1 {
			res.MarksAdded++
		} else {
			res.MarksUnchanged++
		}
	}
	return res, nil
}

// lookupRun returns the seq of the stored run id, and whether there is one.
func (w *ingestWriter) lookupRun(id string) (int64, bool, error) {
	rows, err := selectRows(w.c, `SELECT seq FROM runs WHERE id = ?`, id)
	if err != nil {
		return 0, false, w.s.wrap(err)
	}
	defer rows.Close()
	if !rows.Next() {
		return 0, false, w.s.wrap(rows.Err())
	}
	var seq int64
	if err := rows.Scan(&seq); err != nil {
		return 0, false, w.s.wrap(err)
	}
	return seq, true, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Ledger implements store.Store: the verdicts, their bands and the marks
// of the selected runs, read in one read transaction.
func (s *Store) Ledger(ctx context.Context, q store.LedgerQuery) (l store.Ledger, err error) {
	c, err := s.beginRead(ctx)
	if err != nil {
		return l, err
	}
	defer s.release(c)
	defer func() { err = s.interrupted(ctx, err) }()
	where, args := labelFilter(q.Labels)
	if q.Run != "" {
		where, args = where+` AND r.id = ?`, append(args, q.Run)
	}
	vwhere, vargs := where, args
	if q.Calibration != "" {
		vwhere, vargs = where+` AND v.calibration_sha256 = ?`, append(args[:len(args):len(args)], q.Calibration)
	}
	rows, err := selectRows(c, `SELECT v.seq, r.id, v.calibration_sha256, v.calibration_name, v.profile, v.verdict, v.detail, v.score, v.floor, v.floor_source,
		v.partial, v.kind, v.other_run, v.runner_health, v.runner_z, v.recorded_at
		FROM verdicts v JOIN runs r ON r.seq = v.run_seq WHERE `+vwhere+` ORDER BY v.seq`, vargs...)
	if err != nil {
		return l, s.wrap(err)
	}
	at := map[int64]int{}
	for rows.Next() {
		var v store.Verdict
		var seq, partial int64
		var z sql.NullFloat64
		var recorded string
		if err := rows.Scan(&seq, &v.Run, &v.Calibration.SHA256, &v.Calibration.Name, &v.Profile, &v.Verdict, &v.Detail, &v.Score, &v.Floor, &v.FloorSource,
			&partial, &v.Kind, &v.Other, &v.RunnerHealth, &z, &recorded); err != nil {
			rows.Close()
			return l, s.wrap(err)
		}
		v.Partial = partial != 0
		v.RunnerZ = math.NaN()
		if z.Valid {
			v.RunnerZ = z.Float64
		}
		if v.Recorded, err = time.Parse(time.RFC3339Nano, recorded); err != nil {
			rows.Close()
			return l, backend.DamagedLedger(s.path, "verdicts", backend.TimeError("the verdict of run "+v.Run, recorded))
		}
		at[seq] = len(l.Verdicts)
		l.Verdicts = append(l.Verdicts, v)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return l, s.wrap(err)
	}
	if len(l.Verdicts) > 0 {
		rows, err := selectRows(c, `SELECT b.verdict_seq, b.benchmark, b.band FROM verdict_bands b
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
				return l, fmt.Errorf("store %s is damaged: a band refers to verdict %d, which was not read with it", s.path, seq)
			}
			l.Verdicts[i].Bands = append(l.Verdicts[i].Bands, o)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return l, s.wrap(err)
		}
	}
	rows, err = selectRows(c, `SELECT r.id, m.truth, m.note, m.marked_at FROM marks m JOIN runs r ON r.seq = m.run_seq WHERE `+where+` ORDER BY m.seq`, args...)
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
			return l, backend.DamagedLedger(s.path, "marks", backend.TimeError("the mark of run "+m.Run, marked))
		}
		l.Marks = append(l.Marks, m)
	}
	if err := rows.Err(); err != nil {
		return l, s.wrap(err)
	}
	if err := s.checkUnchanged(); err != nil {
		return l, err
	}
	return l, backend.CheckLedger(s.path, &l)
}
