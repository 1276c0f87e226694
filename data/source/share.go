package source

import (
	"iter"
	"maps"

	"github.com/qoscal/qoscal/data"
)

// ShareLabels yields the runs of runs, each run whose labels (or source)
// are the previous run's sharing that run's: runs of one CI job mostly
// do, and a map per run was a quarter of the memory at 100,000 runs. No
// one changes a run's labels once read. A nil map is not shared for an
// empty one: JSON tells them apart.
func ShareLabels(runs iter.Seq2[data.Run, error]) iter.Seq2[data.Run, error] {
	return func(yield func(data.Run, error) bool) {
		var prev data.Run
		for r, err := range runs {
			if err == nil {
				if (r.Labels == nil) == (prev.Labels == nil) && maps.Equal(r.Labels, prev.Labels) {
					r.Labels = prev.Labels
				}
				if r.Source == prev.Source {
					r.Source = prev.Source
				}
				prev = data.Run{Labels: r.Labels, Source: r.Source}
			}
			if !yield(r, err) {
				return
			}
		}
	}
}
