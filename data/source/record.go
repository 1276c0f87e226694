package source

import (
	"context"
	"maps"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// Record keeps the runs judged (gate --record: one, the two of a pair, or
// a run and its rerun) and the verdict v in the ledger with them, in one
// transaction of the store at loc (made when missing): a verdict is kept
// with its run. It returns the store's location, for messages, and what
// the ingest did.
func Record(ctx context.Context, loc string, runs []data.Run, v store.Verdict, now time.Time) (string, store.IngestResult, error) {
	st, err := OpenStore(ctx, loc, store.ReadWrite)
	if err != nil {
		return "", store.IngestResult{}, err
	}
	defer st.Close()
	res, err := st.Ingest(ctx, runs, store.IngestOptions{Now: now, Ledger: &store.Ledger{Verdicts: []store.Verdict{v}}})
	return st.Location(), res, err
}

// Labelled copies the runs, each with labels added to its own (a label
// given replaces the run's of the same key); the runs are left as they
// are.
func Labelled(runs []*data.Run, labels map[string]string) []data.Run {
	out := make([]data.Run, len(runs))
	for i, r := range runs {
		out[i] = *r
		if len(labels) > 0 {
			out[i].Labels = maps.Clone(r.Labels)
			if out[i].Labels == nil {
				out[i].Labels = map[string]string{}
			}
			maps.Copy(out[i].Labels, labels)
		}
	}
	return out
}
