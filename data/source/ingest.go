package source

import (
	"context"
	"iter"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// prefetchRuns is how many runs Ingest reads ahead of the store: enough
// to keep both busy, few enough that memory does not grow with the input.
const prefetchRuns = 64

// Ingest stores the runs that runs yields into the store at loc, made
// when missing, and returns the store's location (a URL without its
// password) and what it stored. The runs are read as they are stored,
// never all held: read ahead by a goroutine of their own (up to
// prefetchRuns), so that parsing and storing use a core each; the
// reading has stopped when Ingest returns. The first run is read before
// the store is opened, so that input that fails at once (a file that
// does not parse, a bad CSV) does not make a store; now, the ingest's
// time, is asked after it. inputFailed says that err is the input's (a
// run that could not be read), not the store's or the clock's.
func Ingest(ctx context.Context, loc string, runs iter.Seq2[data.Run, error], opt store.IngestOptions, now func() (time.Time, error)) (location string, res store.IngestResult, inputFailed bool, err error) {
	next, stop := store.Prefetch(runs, prefetchRuns)
	defer stop()
	first, err, ok := next()
	if ok && err != nil {
		return "", res, true, err
	}
	if opt.Now, err = now(); err != nil {
		return "", res, false, err
	}
	st, err := OpenStore(ctx, loc, store.ReadWrite)
	if err != nil {
		return "", res, false, err
	}
	defer st.Close()
	var inputErr error
	all := func(yield func(data.Run, error) bool) {
		if !ok || !yield(first, nil) {
			return
		}
		for {
			r, err, more := next()
			if err != nil {
				inputErr = err
			}
			if !more || !yield(r, err) {
				return
			}
		}
	}
	res, err = st.IngestEach(ctx, store.Incoming(all), opt)
	stop()
	return st.Location(), res, err != nil && err == inputErr, err
}
