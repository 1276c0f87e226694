// Package gate is the gate's decision: one new run judged against a
// calibration file (Gate: its suite, score, floor, per-benchmark bands and
// the runner's health), a pair of runs (GatePair), the repetitions of a
// run and the sequential stop (GateSequential), the scores of a
// measurement's repetitions as they end (Scorer), and how many repetitions
// a slide needs to be detected (Detect).
package gate
