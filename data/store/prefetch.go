package store

import (
	"iter"
	"sync"
)

// Prefetch reads seq in a goroutine of its own, up to depth items ahead of
// its caller, and hands the items on as iter.Pull2 does: next returns the
// next item and true, or false once seq is done. stop ends the reading and
// waits until seq has returned, so that nothing seq calls (a loader's
// warnings) runs after stop does; it may be called more than once, and
// must be called once the caller is done, as with iter.Pull2. A panic in
// seq is raised again by the next call of next.
//
// Reading ahead lets the parsing of result files use one core while the
// store writes with another: an ingest then takes about as long as the
// slower of the two, rather than their sum (issue 19).
func Prefetch[V any](seq iter.Seq2[V, error], depth int) (next func() (V, error, bool), stop func()) {
	type item struct {
		v     V
		err   error
		panic any
	}
	items := make(chan item, depth)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer close(items)
		defer func() {
			if p := recover(); p != nil {
				select {
				case items <- item{panic: p}:
				case <-done:
				}
			}
		}()
		for v, err := range seq {
			select {
			case items <- item{v: v, err: err}:
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() { close(done) })
		<-finished
	}
	next = func() (V, error, bool) {
		it, ok := <-items
		if it.panic != nil {
			panic(it.panic)
		}
		return it.v, it.err, ok
	}
	return next, stop
}
