// Package floor recommends a floor and says what it costs: Recommend,
// the cost of any floor (Cost, FloorCost) and its backtest on runs
// outside the calibration (Backtest), the recommendation at another floor
// (Recommendation.At), the window's earlier runs below it (CheckWindow),
// the calibration file of a recommendation (NewFile) and its profiles
// by a run label (Profiles).
package floor
