//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the test process has used (user and
// system), for figures printed beside wall times on a busy machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
