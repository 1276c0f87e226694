//go:build unix

package load

import "syscall"

// statQuick stats name (following symbolic links, as os.Stat does) into
// a fileStat, without os.Stat's allocations of a FileInfo and its name:
// three stats a run folder (issue 19). Its error is the bare errno.
func statQuick(name string) (fileStat, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(name, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fileStat{}, err
		}
		break
	}
	kind := kindOther
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		kind = kindRegular
	case syscall.S_IFDIR:
		kind = kindDir
	}
	return fileStat{kind: kind, size: st.Size}, nil
}
