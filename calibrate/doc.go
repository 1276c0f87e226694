// Package calibrate holds what every job of calibration shares: the
// ratio of a candidate to a baseline and its orientation by unit
// (Direction, Ratios), a run's score over a suite (RunRatios.ScoreOver,
// the only place a score is computed), a benchmark's unit (Unit), the
// regimes of a sequence (Regime), the warnings a result carries with
// their figures (Warning, one Figures type per way a warning arises) and
// the errors of choosing a metric or a direction. Each job is a package
// below it: spread (the analysis of calibration runs), model (the
// calibration model and its file), floor (the recommendation), gate (the
// gate's decision), drift and audit. It reads the run model of package
// data and the numerics of package stats; it parses no files, prints
// nothing and draws nothing.
package calibrate
