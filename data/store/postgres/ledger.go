package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// pgTx is a transaction as the ledger, written once for both stores in
// backend, reads and writes it (backend.Tx): placeholders numbered, and
// the statements of a write sent in one batch, one round trip to the
// server however many entries a copy brings.
type pgTx struct {
	ctx context.Context
	tx  pgx.Tx
}

func (t pgTx) Query(query string, args ...any) (backend.QueryRows, error) {
	return t.tx.Query(t.ctx, backend.Numbered(query), args...)
}

func (t pgTx) Exec(stmts []backend.Stmt) ([]int64, error) {
	var b pgx.Batch
	for _, st := range stmts {
		b.Queue(backend.Numbered(st.Query), st.Args...)
	}
	br := t.tx.SendBatch(t.ctx, &b)
	changed := make([]int64, len(stmts))
	for i := range stmts {
		tag, err := br.Exec()
		if err != nil {
			br.Close()
			return nil, err
		}
		changed[i] = tag.RowsAffected()
	}
	return changed, br.Close()
}

// writeLedger writes a ledger in the ingest's transaction tx, after its
// runs (see store.Store, backend.WriteLedger).
func (s *Store) writeLedger(ctx context.Context, tx pgx.Tx, l *store.Ledger) (store.LedgerResult, error) {
	return backend.WriteLedger(pgTx{ctx, tx}, s.location, l)
}

// Ledger implements store.Store: the verdicts, their bands and the marks
// of the selected runs, read in one repeatable-read transaction.
func (s *Store) Ledger(ctx context.Context, q store.LedgerQuery) (l store.Ledger, err error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return l, s.wrap(err)
	}
	defer tx.Rollback(ctx)
	if l, err = backend.ReadLedger(pgTx{ctx, tx}, s.location, q); err != nil {
		return l, err
	}
	return l, backend.CheckLedger(s.location, &l)
}
