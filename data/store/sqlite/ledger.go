package sqlite

import (
	"context"

	"zombiezen.com/go/sqlite"

	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/internal/backend"
)

// connTx is a connection in a transaction as the ledger, written once for
// both stores in backend, reads and writes it (backend.Tx): each
// statement prepared once and kept by the connection, run one at a time.
type connTx struct{ c *sqlite.Conn }

func (t connTx) Query(query string, args ...any) (backend.QueryRows, error) {
	return queryRows(t.c, query, args)
}

func (t connTx) Exec(stmts []backend.Stmt) ([]int64, error) {
	changed := make([]int64, len(stmts))
	for i, st := range stmts {
		if err := execute(t.c, st.Query, st.Args...); err != nil {
			return nil, err
		}
		changed[i] = int64(t.c.Changes())
	}
	return changed, nil
}

// writeLedger writes a ledger in the ingest's transaction, after its runs
// (see store.Store, backend.WriteLedger).
func (w *ingestWriter) writeLedger(l *store.Ledger) (store.LedgerResult, error) {
	return backend.WriteLedger(connTx{w.c}, w.s.path, l)
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
	if l, err = backend.ReadLedger(connTx{c}, s.path, q); err != nil {
		return l, err
	}
	if err := s.checkUnchanged(); err != nil {
		return l, err
	}
	return l, backend.CheckLedger(s.path, &l)
}
