package data

import (
	"context"
	"fmt"
)

// Source says where a command's runs come from: result files at paths
// (run folders, folders of run folders, CSV files), read with Load, or a
// store. It is the one place that turns "PATHs or --db" into runs.
type Source struct {
	// Paths are read when given; otherwise the store is.
	Paths []string
	// Load says how to read Paths.
	Load LoadOptions
	// Store is the store's location, read when Paths is empty.
	Store string
	// Labels keeps, of the stored runs, those that carry every label.
	Labels map[string]string
	// ID, when set with a store, reads that one run.
	ID string
	// Order is the order of stored runs.
	Order Order
}

// FromStore reports whether the source is a store.
func (s *Source) FromStore() bool { return len(s.Paths) == 0 }

// Runs reads the source's runs. With a store, an empty selection is a
// *NoRunsError, and a store that cannot be opened an *OpenError, so that a
// caller can suggest what to do instead.
func (s *Source) Runs(ctx context.Context) ([]Run, error) {
	if !s.FromStore() {
		return Load(s.Paths, s.Load)
	}
	st, err := Open(ctx, s.Store, ReadOnly)
	if err != nil {
		return nil, &OpenError{Err: err}
	}
	defer st.Close()
	if s.ID != "" {
		r, err := st.RunByID(ctx, s.ID)
		if err != nil {
			return nil, err
		}
		return []Run{r.Run}, nil
	}
	stored, err := st.Runs(ctx, Query{Labels: s.Labels, Order: s.Order})
	if err != nil {
		return nil, err
	}
	if len(stored) == 0 {
		return nil, &NoRunsError{Location: st.Location(), Labels: s.Labels}
	}
	runs := make([]Run, len(stored))
	for i := range stored {
		runs[i] = stored[i].Run
	}
	return runs, nil
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
	return fmt.Sprintf("no runs in %s with labels %s", e.Location, FormatLabels(e.Labels))
}
