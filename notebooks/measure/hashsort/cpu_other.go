//go:build !unix

package main

import "time"

var start = time.Now()

// cpuTime is the wall time since the start where the CPU time is not at
// hand.
func cpuTime() time.Duration { return time.Since(start) }
