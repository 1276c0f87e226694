// Package outfile writes the files qoscal makes: calibration files,
// reports, charts, qoscal.json (gate --emit-meta), the step summary and
// $GITHUB_OUTPUT.
//
// A file qoscal makes or replaces (Write) is written to a new file in the
// same folder and renamed into place, so that a reader never sees half
// of it and a failure leaves the old one whole. The step summary and
// $GITHUB_OUTPUT are appended to (Append), by design. A file to replace
// that is a symbolic link is refused.
//
// Files are opened without blocking: a named pipe that nothing reads
// would otherwise hold the open, and the CI job, for ever. Such a pipe is
// refused (errNoReader); a pipe with a reader, a terminal or /dev/null is
// written to in place, as it cannot be renamed over. openNonblock is
// O_NONBLOCK where the system has it (outfile_unix.go), else 0.
package outfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

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

// Append appends b to path, creating it if needed, on a line of its
// own: when the file's last line is not ended (echo -n name=value >>
// "$GITHUB_OUTPUT" earlier in the step), a line break comes first, or
// b's first line would be read as the end of that one.
func Append(path string, b []byte) error {
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

// Write makes path hold b: written to a new file in the same folder,
// then renamed over path, so that path holds either what it held or all
// of b. A path that exists and is no regular file (a named pipe, a
// terminal, /dev/null) is written to in place, as a rename would replace
// it; a symbolic link is refused (the command's check has refused it already: this
// is the last line of defence against one made since).
func Write(path string, b []byte) error {
	st, err := os.Lstat(path)
	switch {
	case err == nil && st.Mode()&fs.ModeSymlink != 0:
		return &os.PathError{Op: "write", Path: path, Err: errSymlink}
	case err == nil && st.IsDir():
		return &os.PathError{Op: "write", Path: path, Err: errors.New("a folder, expected a file name")}
	case err == nil && !st.Mode().IsRegular():
		return writeOut(path, b, os.O_TRUNC|os.O_CREATE)
	}
	perm := fs.FileMode(0o644) // less the umask, as os.Create makes a file
	keep := err == nil
	if keep {
		perm = st.Mode().Perm()
	}
	tmp, err := createTemp(path, perm)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(b); err != nil {
		return err
	}
	if keep {
		// The file keeps its mode, as writing into it would have.
		if err := tmp.Chmod(perm); err != nil {
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		done = true
		return err
	}
	done = true
	return nil
}

// errSymlink is the error for a file to replace that is a symbolic link.
var errSymlink = errors.New("a symbolic link: refused rather than write through it or replace it")

// createTemp makes a new file beside path, named after it, with perm (less
// the umask).
func createTemp(path string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Split(path)
	var rnd [6]byte
	for range 100 {
		rand.Read(rnd[:])
		name := filepath.Join(dir, "."+base+"."+hex.EncodeToString(rnd[:])+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("%s: could not make a temporary file beside it", path)
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
