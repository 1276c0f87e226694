//go:build !unix

package outfile

// openNonblock is 0 where opening a file for writing does not wait on a
// reader the way a Unix named pipe does.
const openNonblock = 0
