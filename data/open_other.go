//go:build !unix

package data

import "os"

// openRead opens the file name for reading (see open_unix.go).
func openRead(name string) (*os.File, error) { return os.Open(name) }
