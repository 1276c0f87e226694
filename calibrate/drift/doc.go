// Package drift tells whether the scores of runs since a calibration have
// drifted from it (Drift), the whole suite and each benchmark, with the
// advice to investigate or to calibrate again.
package drift
