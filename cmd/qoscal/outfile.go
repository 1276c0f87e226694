package main

import (
	"errors"
	"os"
	"syscall"
)

// Files qoscal writes (the step summary, $GITHUB_OUTPUT, reports, charts,
// qoscal.json) are opened without blocking: a named pipe that nothing
// reads would otherwise hold the open, and the CI job, for ever. Such a
// pipe is refused (errNoReader); a pipe with a reader, a terminal or
// /dev/null is written to as a file is. openNonblock is O_NONBLOCK where
// the system has it (outfile_unix.go), else 0.

// errNoReader is the error for a named pipe that nothing reads.
var errNoReader = errors.New("a named pipe (FIFO) that nothing reads: refused rather than wait for ever")

// openOut opens path for writing with flag (O_APPEND or O_TRUNC and
// O_CREATE), not waiting on a named pipe without a reader.
func openOut(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|os.O_WRONLY|openNonblock, 0o644)
	if err != nil {
		if openNonblock != 0 && errors.Is(err, syscall.ENXIO) {
			return nil, &os.PathError{Op: "open", Path: path, Err: errNoReader}
		}
		return nil, err
	}
	return f, nil
}

// appendFile appends b to path, creating it if needed, on a line of its
// own: when the file's last line is not ended (echo -n name=value >>
// "$GITHUB_OUTPUT" earlier in the step), a line break comes first, or
// b's first line would be read as the end of that one.
func appendFile(path string, b []byte) error {
	if unendedLine(path) {
		b = append([]byte{'\n'}, b...)
	}
	return writeOut(path, b, os.O_APPEND|os.O_CREATE)
}

// unendedLine reports whether path is a regular file whose last byte is
// not a line break. (Only a regular file is read: a pipe is not.)
func unendedLine(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return false
	}
	return last[0] != '\n'
}

// writeFile writes b to path, replacing what it held, as os.WriteFile
// does.
func writeFile(path string, b []byte) error {
	return writeOut(path, b, os.O_TRUNC|os.O_CREATE)
}

func writeOut(path string, b []byte, flag int) error {
	f, err := openOut(path, flag)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
