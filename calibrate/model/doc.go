// Package model is the calibration model and its file: Matrix (every
// calibration run's log ratio per benchmark) with its per-benchmark bands
// and sub-suite floors, the one floor rule (FloorOf) with its options and
// methods (RecommendOptions, Method, the step grid), the environments and
// profiles a calibration was measured in, and the calibration file (File,
// ReadFile, ParseFile), written and strictly validated: its figures must
// follow from its matrix.
package model
