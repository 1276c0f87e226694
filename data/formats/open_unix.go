//go:build unix

package formats

import (
	"os"
	"syscall"
)

// openRead opens the file name for reading, as os.Open does, but without
// offering the file to Go's network poller: for a regular file os.Open
// sets it non-blocking, asks epoll to watch it (which refuses), and sets
// it blocking again, five system calls of the eleven that reading a small
// result file took (issue 19: 20,000 files per 10,000 run folders).
// Result files are regular files (OpenFile checks), which the poller
// cannot wait on anyway.
func openRead(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}

// readWhole reads the regular file name, which a stat found to hold size
// bytes, whole into a buffer of wholeBufs (see readAll): with an open, as
// a rule one read, and a close, straight on the file descriptor (os.File
// adds an fcntl, and reading through bufio two more reads).
func readWhole(name string, size int64) (*[]byte, error) {
	var fd int
	for {
		var err error
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		break
	}
	defer syscall.Close(fd)
	return readAll(size, func(p []byte) (int, error) {
		for {
			n, err := syscall.Read(fd, p)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				return 0, &os.PathError{Op: "read", Path: name, Err: err}
			}
			return n, nil
		}
	})
}
