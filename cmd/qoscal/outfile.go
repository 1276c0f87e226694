package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/data/store/sqlite"
)

// The files qoscal writes: calibration files, reports, charts,
// qoscal.json (gate --emit-meta), the step summary and $GITHUB_OUTPUT.
//
// A file qoscal makes or replaces (writeFile) is written to a new file in
// the same folder and renamed into place, so that a reader never sees
// half of it and a failure leaves the old one whole. The step summary and
// $GITHUB_OUTPUT are appended to (appendFile), by design.
//
// Before a command reads anything, its files are checked (files.check):
// a file it writes must not be one of the files it reads (compared by
// identity, os.SameFile, not by name: a result file inside a run folder,
// a CSV file, a zip artifact, the calibration file, a SQLite store), no
// file may be given to two outputs, and a file it replaces must not be a
// symbolic link (writing through one would change a file elsewhere, and
// renaming over one would silently put a file where the link was). An
// appended file may be a link (/dev/stderr is one); what it leads to must
// not be an input.
//
// Files are opened without blocking: a named pipe that nothing reads
// would otherwise hold the open, and the CI job, for ever. Such a pipe is
// refused (errNoReader); a pipe with a reader, a terminal or /dev/null is
// written to in place, as it cannot be renamed over. openNonblock is
// O_NONBLOCK where the system has it (outfile_unix.go), else 0.

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
	if err := makeParents(path); err != nil {
		return err
	}
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

// writeFile makes path hold b: written to a new file in the same folder,
// then renamed over path, so that path holds either what it held or all
// of b. A path that exists and is no regular file (a named pipe, a
// terminal, /dev/null) is written to in place, as a rename would replace
// it; a symbolic link is refused (files.check has refused it already: this
// is the last line of defence against one made since).
func writeFile(path string, b []byte) error {
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
	if !keep {
		if err := makeParents(path); err != nil {
			return err
		}
	}
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

// makeParents makes the folders path is in, as mkdir -p would: every
// file qoscal writes may be named in a folder yet to be made (issue 35:
// measure --out refused one that plot --out made).
func makeParents(path string) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return nil
	}
	return os.MkdirAll(dir, 0o755)
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

// files are the files a command reads and writes, checked (check) before
// it reads any: see the top of this file.
type files struct {
	ins  []inFile
	outs []outFile
	// dirs are the folders a command writes into (made if missing).
	dirs []outFile
	// later are inputs listed only when an output exists to compare them
	// with (listing the files of a folder of run folders reads folders).
	later []func()
	// bad is the first store location refused outright (an in-memory
	// SQLite database keeps nothing), returned by check before it reads
	// anything.
	bad error
}

// inFile is a file a command reads.
type inFile struct {
	what string // what it is, for the message: "the calibration file"
	path string
	// meta is a run folder's qoscal.json read as the run's labels, the
	// one file gate --emit-meta may replace: a calibration file or a
	// result file of that name is an input like any other.
	meta bool
}

// outFile is a file a command writes.
type outFile struct {
	flag   string // the flag or variable that names it: "--out"
	path   string
	append bool // appended to, else replaced
	// meta is gate --emit-meta's qoscal.json, which replaces the one
	// the run folder may hold by design.
	meta bool
	// clear forgets the output when it is refused, so that the error is
	// not written into it (the step summary, $GITHUB_OUTPUT).
	clear func()
}

// newFiles starts the check of a command's files with the outputs every
// command may write: the step summary (an error is noted there) and, for
// the gate, $GITHUB_OUTPUT.
func (u *ui) newFiles() *files {
	f := &files{}
	if u.summary != "" {
		flag := u.summaryFlag
		if flag == "" {
			flag = "$GITHUB_STEP_SUMMARY"
		}
		f.outs = append(f.outs, outFile{flag: flag, path: u.summary, append: true, clear: func() { u.summary = "" }})
	}
	if p := u.stepOutputs; p != "" && (u.cmd == "gate" || u.gating) {
		f.outs = append(f.outs, outFile{flag: "$GITHUB_OUTPUT", path: p, append: true, clear: func() { u.stepOutputs = "" }})
	}
	return f
}

// in adds an input file.
func (f *files) in(what, path string) {
	if path != "" {
		f.ins = append(f.ins, inFile{what: what, path: path})
	}
}

// store adds a store as an input: a SQLite file and the files SQLite
// keeps beside it (a PostgreSQL URL is no file).
func (f *files) store(loc string) {
	if loc == "" || strings.Contains(loc, "://") {
		return
	}
	if err := sqlite.CheckLocation(loc); err != nil && f.bad == nil {
		f.bad = err
	}
	for _, s := range []string{"", "-wal", "-shm", "-journal"} {
		f.in("the store", loc+s)
	}
}

// runs adds the files the runs at paths are read from (load.ReadFiles),
// or, without paths, the result files the variants name.
func (f *files) runs(rf *runFlags, paths []string) {
	f.later = append(f.later, func() { f.runFiles(rf, paths) })
}

func (f *files) runFiles(rf *runFlags, paths []string) {
	var opt load.Options
	var specs []load.VariantSpec
	for _, s := range append([]string{rf.baseline, rf.candidate}, rf.variants...) {
		if v, err := load.ParseVariantSpec(s); err == nil {
			specs = append(specs, v)
		}
	}
	if len(paths) == 0 {
		for _, v := range specs {
			f.in("a result file", v.File)
		}
		return
	}
	if len(specs) > 0 {
		opt.Baseline = specs[0]
	}
	if len(specs) > 1 {
		opt.Candidate = specs[1]
		opt.Extra = specs[2:]
	}
	resultNames := map[string]bool{}
	for _, v := range specs {
		resultNames[filepath.Base(v.File)] = true
	}
	for _, p := range load.ReadFiles(paths, opt) {
		if filepath.Base(p) == load.MetaFile && !resultNames[load.MetaFile] {
			f.ins = append(f.ins, inFile{what: "a run's " + load.MetaFile, path: p, meta: true})
			continue
		}
		what := "a result file"
		if slices.Contains(paths, p) {
			what = "a PATH"
		}
		f.in(what, p)
	}
}

// out adds a file the command replaces; appendTo one it appends to.
func (f *files) out(flag, path string) {
	if path != "" {
		f.outs = append(f.outs, outFile{flag: flag, path: path})
	}
}

// dir adds a folder the command writes into, made if missing.
func (f *files) dir(flag, path string) {
	if path != "" {
		f.dirs = append(f.dirs, outFile{flag: flag, path: path})
	}
}

// checkFolders refuses an output named "-" (a file of that name, where
// stdout was meant), an output folder that exists and is no folder, and
// an output (a folder or a file) whose path runs through a file: "mkdir
// cal.json: not a directory" named no flag.
func (f *files) checkFolders() error {
	for _, o := range append(append([]outFile(nil), f.dirs...), f.outs...) {
		if o.path == "-" {
			// Read elsewhere as stdout; written here, a file named "-".
			return f.refuse(o, fmt.Errorf(`%s -: "-" is not a file name here: qoscal prints its results on stdout, and %s names a file to write (./- for a file named "-")`, o.flag, o.flag))
		}
	}
	for _, d := range f.dirs {
		if st, err := os.Stat(d.path); err == nil && !st.IsDir() {
			return fmt.Errorf("%s %s is %s, not a folder: expected the folder to write into (made if missing)", d.flag, d.path, kindName(st.Mode()))
		}
		if err := inFolder(d.flag, d.path, d.path); err != nil {
			return err
		}
	}
	for _, o := range f.outs {
		if err := inFolder(o.flag, o.path, filepath.Dir(o.path)); err != nil {
			return f.refuse(o, err)
		}
	}
	return nil
}

// inFolder returns an error naming flag and path when the nearest part of
// dir that exists is no folder.
func inFolder(flag, path, dir string) error {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err == nil {
			if st.IsDir() {
				return nil
			}
			return fmt.Errorf("%s %s: %s is %s, not a folder", flag, path, d, kindName(st.Mode()))
		}
		if up := filepath.Dir(d); up == d {
			return nil
		}
	}
}

// kindName names the kind of a file: "a file" for a regular one, else as
// data.FileKind does ("a character device").
func kindName(m fs.FileMode) string {
	if m.IsRegular() {
		return "a file"
	}
	return data.FileKind(m)
}

func (f *files) appendTo(flag, path string) {
	if path != "" {
		f.outs = append(f.outs, outFile{flag: flag, path: path, append: true})
	}
}

// meta adds gate --emit-meta's qoscal.json, which may replace the run's
// own (an input) by design.
func (f *files) meta(flag, path string) {
	f.outs = append(f.outs, outFile{flag: flag, path: path, meta: true})
}

// check refuses, with exit 2, an output that is a symbolic link (when
// replaced) or a folder, the same file given to two outputs (unless both
// append: --summary naming the step summary), and an output that is one
// of the inputs, and first a store location that is no store file
// (sqlite.CheckLocation). It reads no file.
func (f *files) check() error {
	if f.bad != nil {
		return f.bad
	}
	if err := f.checkFolders(); err != nil {
		return err
	}
	type seen struct {
		o   outFile
		st  fs.FileInfo // nil: it does not exist (or is no regular file)
		key string      // its absolute name, for outputs yet to be made
	}
	var outs []seen
	for _, o := range f.outs {
		lst, err := os.Lstat(o.path)
		if err == nil && lst.Mode()&fs.ModeSymlink != 0 && !o.append {
			dest, _ := os.Readlink(o.path)
			return f.refuse(o, fmt.Errorf("%s %s is a symbolic link (to %s): refused rather than write through it or replace it; remove the link, or name another file", o.flag, o.path, dest))
		}
		st, err := os.Stat(o.path)
		if err == nil && st.IsDir() && !o.append {
			return f.refuse(o, fmt.Errorf("%s %s is a folder: expected a file name", o.flag, o.path))
		}
		s := seen{o: o, key: absName(o.path)}
		if err == nil && st.Mode().IsRegular() {
			s.st = st
		} else if err == nil {
			continue // a pipe, a terminal, /dev/null: written in place
		}
		for _, p := range outs {
			same := p.key == s.key || (p.st != nil && s.st != nil && os.SameFile(p.st, s.st))
			if same && !(p.o.append && o.append) {
				return f.refuse(o, fmt.Errorf("%s and %s name the same file %s: give each output a file of its own", p.o.flag, o.flag, o.path))
			}
		}
		outs = append(outs, s)
	}
	exist := false
	for _, s := range outs {
		exist = exist || s.st != nil
	}
	if !exist {
		return nil // no file to write exists yet: none is an input
	}
	for _, l := range f.later {
		l()
	}
	for _, in := range f.ins {
		st, err := os.Stat(in.path)
		if err != nil {
			continue
		}
		for _, s := range outs {
			if s.st == nil || !os.SameFile(st, s.st) {
				continue
			}
			if s.o.meta && in.meta {
				continue // --emit-meta rewrites the run's own qoscal.json
			}
			name := in.path
			if name != s.o.path {
				name = s.o.path + " (" + in.path + ")"
			}
			verb := "replace"
			if s.o.append {
				verb = "append to"
			}
			return f.refuse(s.o, fmt.Errorf("%s %s is %s that this command reads: refused rather than %s its own input; name another file", s.o.flag, name, in.what, verb))
		}
	}
	return nil
}

// refuse forgets the output o when it is one that errors are written to,
// and returns err.
func (f *files) refuse(o outFile, err error) error {
	if o.clear != nil {
		o.clear()
	}
	return err
}

// absName is path as an absolute name, its folder's symbolic links
// resolved where the folder exists, so that two names of a file yet to be
// made compare equal.
func absName(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	dir, base := filepath.Split(abs)
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(d, base)
	}
	return abs
}
