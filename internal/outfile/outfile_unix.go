//go:build unix

package outfile

import "syscall"

// openNonblock opens a named pipe without waiting for a reader: with none,
// the open fails with ENXIO at once.
const openNonblock = syscall.O_NONBLOCK
