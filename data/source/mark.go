package source

import (
	"context"
	"errors"
	"iter"

	"github.com/qoscal/qoscal/data/store"
)

// Marked is what Mark did: the store's location (store.Store.Location),
// the run's marks before this one, and whether this one was added (a
// mark the run has already is not).
type Marked struct {
	Location string
	Earlier  []store.Mark
	Added    bool
}

// Mark keeps mark m (qoscal mark) in the ledger of the store at loc. The
// run is looked up read-only first, so that a store that is missing is
// not made for a mark it cannot hold (an older store is upgraded by the
// write), and a run not stored is an error.
func Mark(ctx context.Context, loc string, m store.Mark) (*Marked, error) {
	out := &Marked{}
	if st, err := OpenStore(ctx, loc, store.ReadOnly); err == nil {
		_, err := st.RunByID(ctx, m.Run)
		var l store.Ledger
		if err == nil {
			l, err = st.Ledger(ctx, store.LedgerQuery{Run: m.Run})
		}
		st.Close()
		if err != nil {
			return nil, err
		}
		out.Earlier = l.Marks
	} else if older := (*store.OlderSchemaError)(nil); !errors.As(err, &older) {
		return nil, err
	}
	st, err := OpenStore(ctx, loc, store.ReadWrite)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	out.Location = st.Location()
	res, err := st.IngestEach(ctx, noRuns, store.IngestOptions{Now: m.Marked, Ledger: &store.Ledger{Marks: []store.Mark{m}}})
	if err != nil {
		return nil, err
	}
	out.Added = res.Ledger.MarksAdded > 0
	return out, st.Close()
}

// noRuns is an ingest of no runs: a ledger alone.
var noRuns iter.Seq2[store.StoredRun, error] = func(func(store.StoredRun, error) bool) {}
