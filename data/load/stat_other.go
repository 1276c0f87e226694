//go:build !unix

package load

import "os"

// statQuick stats name into a fileStat (see stat_unix.go).
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
