package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/data/store/sqlite"
	"github.com/qoscal/qoscal/internal/outfile"
)

// The files qoscal writes are written by package internal/outfile: a
// file it makes or replaces to a new file renamed into place
// (outfile.Write, writeFile here), the step summary and $GITHUB_OUTPUT
// appended to (outfile.Append, appendFile here).
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

// writeFile and appendFile are outfile's Write and Append.
var (
	writeFile  = outfile.Write
	appendFile = outfile.Append
)

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
