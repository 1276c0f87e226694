// Package spread analyses calibration runs: Collect takes them one at a
// time and keeps only their ratios; Analyze gives the distribution of
// their scores, each benchmark's spread, the regimes of the scores, the
// windows a floor may be calibrated on, and the warnings about them.
package spread
