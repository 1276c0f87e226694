//go:build !unix

package formats

import "os"

// openRead opens the file name for reading (see open_unix.go).
func openRead(name string) (*os.File, error) { return os.Open(name) }

// readWhole reads the regular file name, which a stat found to hold size
// bytes, whole into a buffer of wholeBufs (see open_unix.go and readAll).
func readWhole(name string, size int64) (*[]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(size, f.Read)
}
