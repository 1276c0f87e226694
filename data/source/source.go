// Package source is where a command's runs come from: result files at
// PATHs (package load) or a store, opened by its location (OpenStore,
// which chooses the backend). It is the one package above both store
// backends, so that nothing below the command links a database driver.
package source

import (
	"context"
	"fmt"
	"iter"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/postgres"
	"github.com/qoscal/qoscal/data/store/sqlite"
)

// Source says where a command's runs come from: result files at paths
// (run folders, folders of run folders, CSV files), read by package load, or a
// store. It is the one place that turns "PATHs or --db" into runs.
type Source struct {
	// Paths are read when given; otherwise the store is.
	Paths []string
	// Load says how to read Paths.
	Load load.Options
	// Store is the store's location, read when Paths is empty.
	Store string
	// Labels keeps, of the stored runs, those that carry every label.
	Labels map[string]string
	// ID, when set with a store, reads that one run.
	ID string
	// Order is the order of stored runs.
	Order store.Order
}

// FromStore reports whether the source is a store.
func (s *Source) FromStore() bool { return len(s.Paths) == 0 }

// Runs reads the source's runs. With a store, an empty selection is a
// *NoRunsError, and a store that cannot be opened an *OpenError, so that a
// caller can suggest what to do instead.
func (s *Source) Runs(ctx context.Context) ([]data.Run, error) {
	if !s.FromStore() {
		return load.All(s.Paths, s.Load)
	}
	st, err := OpenStore(ctx, s.Store, store.ReadOnly)
	if err != nil {
		return nil, &OpenError{Err: err}
	}
	defer st.Close()
	if s.ID != "" {
		r, err := st.RunByID(ctx, s.ID)
		if err != nil {
			return nil, err
		}
		return []data.Run{r.Run}, nil
	}
	stored, err := st.Runs(ctx, store.Query{Labels: s.Labels, Order: s.Order})
	if err != nil {
		return nil, err
	}
	if len(stored) == 0 {
		return nil, &NoRunsError{Location: st.Location(), Labels: s.Labels}
	}
	runs := make([]data.Run, len(stored))
	for i := range stored {
		runs[i] = stored[i].Run
	}
	return runs, nil
}

// Each yields the source's runs one at a time, as Runs returns them and
// with its errors (yielded last), reading a store a page at a time and
// PATHs as load.Runs does: so that a command that needs each run once (an
// analysis, which keeps their ratios) never holds every run's
// measurements.
func (s *Source) Each(ctx context.Context) iter.Seq2[data.Run, error] {
	return func(yield func(data.Run, error) bool) {
		if !s.FromStore() {
			for r, err := range load.Runs(s.Paths, s.Load) {
				if !yield(r, err) || err != nil {
					return
				}
			}
			return
		}
		st, err := OpenStore(ctx, s.Store, store.ReadOnly)
		if err != nil {
			yield(data.Run{}, &OpenError{Err: err})
			return
		}
		defer st.Close()
		if s.ID != "" {
			r, err := st.RunByID(ctx, s.ID)
			yield(r.Run, err)
			return
		}
		n := 0
		for r, err := range st.EachRun(ctx, store.Query{Labels: s.Labels, Order: s.Order}) {
			if err != nil {
				yield(data.Run{}, err)
				return
			}
			n++
			if !yield(r.Run, nil) {
				return
			}
		}
		if n == 0 {
			yield(data.Run{}, &NoRunsError{Location: st.Location(), Labels: s.Labels})
		}
	}
}

// OpenError is a store that could not be opened.
type OpenError struct{ Err error }

func (e *OpenError) Error() string { return e.Err.Error() }
func (e *OpenError) Unwrap() error { return e.Err }

// NoRunsError is a store that holds no run with the labels asked for.
type NoRunsError struct {
	Location string
	Labels   map[string]string
}

func (e *NoRunsError) Error() string {
	if len(e.Labels) == 0 {
		return fmt.Sprintf("no runs in %s", e.Location)
	}
	return fmt.Sprintf("no runs in %s with labels %s", e.Location, data.FormatLabels(e.Labels))
}

// OpenStore opens the store at location: a PostgreSQL URL (postgres://…
// or postgresql://…, see postgres.Open) or else the name of a SQLite file
// (see sqlite.Open).
func OpenStore(ctx context.Context, location string, mode store.Mode) (store.Store, error) {
	if store.IsPostgresURL(location) {
		s, err := postgres.Open(ctx, location, mode)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	s, err := sqlite.Open(location, mode)
	if err != nil {
		return nil, err
	}
	return s, nil
}
