package main

import "math"

// checkFloor is the one check of a --floor value, shared by every command
// that takes one (plot, report, gate). A floor is a score, the geometric
// mean of ratios, so it is a finite number > 0: NaN, ±Inf, 0 and negative
// values are usage errors that name the flag. cmd names the command in the
// error.
func checkFloor(cmd string, v float64) error {
	if v > 0 && !math.IsInf(v, 1) { // NaN > 0 is false
		return nil
	}
	return usagef(cmd, "--floor must be a finite number > 0, got %v", v)
}
