//go:build !unix

package data

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

// statQuick stats name into a fileStat (see open_unix.go).
func statQuick(name string) (fileStat, error) {
	st, err := os.Stat(name)
	if err != nil {
		return fileStat{}, err
	}
	kind := kindOther
	switch {
	case st.Mode().IsRegular():
		kind = kindRegular
	case st.IsDir():
		kind = kindDir
	}
	return fileStat{kind: kind, size: st.Size()}, nil
}
