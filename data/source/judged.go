package source

import (
	"context"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// Judged returns the runs of the store at loc (those that carry every
// label of labels) that its ledger judged against the calibration of
// SHA-256 sha, in the order stored: the pushes qoscal watch watched, and
// audit replays. None when no verdict was.
func Judged(ctx context.Context, loc, sha string, labels map[string]string) ([]data.Run, error) {
	st, err := OpenStore(ctx, loc, store.ReadOnly)
	if err != nil {
		return nil, err
	}
	ledger, err := st.Ledger(ctx, store.LedgerQuery{Labels: labels, Calibration: sha})
	st.Close()
	if err != nil {
		return nil, err
	}
	judged := map[string]bool{}
	for _, v := range ledger.Verdicts {
		judged[v.Run] = true
	}
	if len(judged) == 0 {
		return nil, nil
	}
	src := Source{Store: loc, Labels: labels}
	all, err := src.Runs(ctx)
	if err != nil {
		return nil, err
	}
	var out []data.Run
	for _, r := range all {
		if judged[r.ID] {
			out = append(out, r)
		}
	}
	return out, nil
}
