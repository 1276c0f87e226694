//go:build unix

package load

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used, on
// all its threads: what a benchmark costs in CPU, besides its wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
