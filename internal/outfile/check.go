package outfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/qoscal/qoscal/data"
)

// Checks are the files a command reads and writes, checked (Check) before
// it reads any: a file it writes must not be one of the files it reads
// (compared by identity, os.SameFile, not by name: a result file inside a
// run folder, a CSV file, a zip artifact, the calibration file, a SQLite
// store), no file may be given to two outputs, and a file it replaces
// must not be a symbolic link (writing through one would change a file
// elsewhere, and renaming over one would silently put a file where the
// link was). An appended file may be a link (/dev/stderr is one); what it
// leads to must not be an input.
type Checks struct {
	Ins  []In
	Outs []Out
	// Dirs are the folders a command writes into (made if missing).
	Dirs []Out
	// Later are called before the inputs are compared with the outputs,
	// and only when an output exists to compare them with: they add
	// inputs whose listing reads folders (a folder of run folders).
	Later []func()
	// Bad is the first input refused outright (an in-memory SQLite
	// database keeps nothing), returned by Check before it reads
	// anything.
	Bad error
}

// In is a file a command reads.
type In struct {
	What string // what it is, for the message: "the calibration file"
	Path string
	// Meta is a run folder's qoscal.json read as the run's labels, the
	// one file gate --emit-meta may replace: a calibration file or a
	// result file of that name is an input like any other.
	Meta bool
}

// Out is a file (or, in Dirs, a folder) a command writes.
type Out struct {
	Flag   string // the flag or variable that names it: "--out"
	Path   string
	Append bool // appended to, else replaced
	// Meta is gate --emit-meta's qoscal.json, which replaces the one
	// the run folder may hold by design.
	Meta bool
	// Clear forgets the output when it is refused, so that the error is
	// not written into it (the step summary, $GITHUB_OUTPUT).
	Clear func()
}

// Check refuses an output that is a symbolic link (when replaced) or a
// folder, the same file given to two outputs (unless both append: a
// --summary naming the step summary), and an output that is one of the
// inputs, and first Bad and what checkFolders refuses. It reads no file.
func (c *Checks) Check() error {
	if c.Bad != nil {
		return c.Bad
	}
	if err := c.checkFolders(); err != nil {
		return err
	}
	type seen struct {
		o   Out
		st  fs.FileInfo // nil: it does not exist (or is no regular file)
		key string      // its absolute name, for outputs yet to be made
	}
	var outs []seen
	for _, o := range c.Outs {
		lst, err := os.Lstat(o.Path)
		if err == nil && lst.Mode()&fs.ModeSymlink != 0 && !o.Append {
			dest, _ := os.Readlink(o.Path)
			return refuse(o, fmt.Errorf("%s %s is a symbolic link (to %s): refused rather than write through it or replace it; remove the link, or name another file", o.Flag, o.Path, dest))
		}
		st, err := os.Stat(o.Path)
		if err == nil && st.IsDir() && !o.Append {
			return refuse(o, fmt.Errorf("%s %s is a folder: expected a file name", o.Flag, o.Path))
		}
		s := seen{o: o, key: absName(o.Path)}
		if err == nil && st.Mode().IsRegular() {
			s.st = st
		} else if err == nil {
			continue // a pipe, a terminal, /dev/null: written in place
		}
		for _, p := range outs {
			same := p.key == s.key || (p.st != nil && s.st != nil && os.SameFile(p.st, s.st))
			if same && !(p.o.Append && o.Append) {
				return refuse(o, fmt.Errorf("%s and %s name the same file %s: give each output a file of its own", p.o.Flag, o.Flag, o.Path))
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
	for _, l := range c.Later {
		l()
	}
	for _, in := range c.Ins {
		st, err := os.Stat(in.Path)
		if err != nil {
			continue
		}
		for _, s := range outs {
			if s.st == nil || !os.SameFile(st, s.st) {
				continue
			}
			if s.o.Meta && in.Meta {
				continue // --emit-meta rewrites the run's own qoscal.json
			}
			name := in.Path
			if name != s.o.Path {
				name = s.o.Path + " (" + in.Path + ")"
			}
			verb := "replace"
			if s.o.Append {
				verb = "append to"
			}
			return refuse(s.o, fmt.Errorf("%s %s is %s that this command reads: refused rather than %s its own input; name another file", s.o.Flag, name, in.What, verb))
		}
	}
	return nil
}

// checkFolders refuses an output named "-" (a file of that name, where
// stdout was meant), an output folder that exists and is no folder, and
// an output (a folder or a file) whose path runs through a file: "mkdir
// cal.json: not a directory" named no flag.
func (c *Checks) checkFolders() error {
	for _, o := range append(append([]Out(nil), c.Dirs...), c.Outs...) {
		if o.Path == "-" {
			// Read elsewhere as stdout; written here, a file named "-".
			return refuse(o, fmt.Errorf(`%s -: "-" is not a file name here: qoscal prints its results on stdout, and %s names a file to write (./- for a file named "-")`, o.Flag, o.Flag))
		}
	}
	for _, d := range c.Dirs {
		if st, err := os.Stat(d.Path); err == nil && !st.IsDir() {
			return fmt.Errorf("%s %s is %s, not a folder: expected the folder to write into (made if missing)", d.Flag, d.Path, kindName(st.Mode()))
		}
		if err := InFolder(d.Flag, d.Path, d.Path); err != nil {
			return err
		}
	}
	for _, o := range c.Outs {
		if err := InFolder(o.Flag, o.Path, filepath.Dir(o.Path)); err != nil {
			return refuse(o, err)
		}
	}
	return nil
}

// InFolder returns an error naming flag and path when the nearest part of
// dir that exists is no folder.
func InFolder(flag, path, dir string) error {
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

// refuse forgets the output o when it is one that errors are written to,
// and returns err.
func refuse(o Out, err error) error {
	if o.Clear != nil {
		o.Clear()
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
