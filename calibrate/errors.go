package calibrate

import (
	"fmt"
	"strings"
)

// DirectionError is a unit whose direction qoscal does not know (or no
// unit at all), when the direction was not given (Auto): qoscal does not
// guess which way a metric improves.
type DirectionError struct {
	Unit string // "" for measurements without a unit
}

func (e *DirectionError) Error() string {
	if e.Unit == "" {
		return "the measurements have no unit, so it is unknown whether higher is better"
	}
	return fmt.Sprintf("unit %q is unknown, so it is unknown whether higher is better", e.Unit)
}

// MetricsError is a benchmark that reports several metrics, none of them
// the default, when no metric was chosen.
type MetricsError struct {
	Run, Benchmark, Variant string
	Metrics                 []string // sorted
}

func (e *MetricsError) Error() string {
	return fmt.Sprintf("run %s: %s of %s reports several metrics (%s)", e.Run, e.Benchmark, e.Variant, strings.Join(e.Metrics, ", "))
}

// NoMetricError is a run without measurements of the metric chosen.
type NoMetricError struct {
	Run string
	// Unit is the unit looked for, Metric the metric as it was chosen
	// ("time" for sec/op), Has the units the run has, sorted.
	Unit, Metric string
	Has          []string
}

func (e *NoMetricError) Error() string {
	return fmt.Sprintf("run %s has no %s measurements; it has %s", e.Run, e.Unit, strings.Join(e.Has, ", "))
}
