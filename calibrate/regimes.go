package calibrate

// LabelChange is a run label whose value changed where a regime began:
// the environment (a CPU model, a runner image, a kernel) that coincides
// with the step of the scores, which is most often its cause.
type LabelChange struct {
	Label, From, To string
}

// Regime is a stretch of consecutive calibration runs between change
// points of a sequence (docs/STATS.md 5).
type Regime struct {
	// First and Last are the ids of its first and last runs; Start is
	// the index of its first run in Analysis.Runs, N its number of runs.
	First, Last string
	Start, N    int
	// Median is the median score (or ratio, for a benchmark's regimes).
	Median float64
	// Changes are the run labels that changed at its first run (the rule
	// of boundaryChanges): nil for the first regime, empty when no label
	// changed at the step.
	Changes []LabelChange
}

// Span is "run-04..run-12", or the one run's id.
func (r Regime) Span() string {
	if r.First == r.Last {
		return r.First
	}
	return r.First + ".." + r.Last
}
