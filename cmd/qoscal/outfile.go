package main

import (
	"slices"
	"strings"

	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/data/store/sqlite"
	"github.com/qoscal/qoscal/internal/outfile"
)

// The files qoscal writes are written by package internal/outfile: a
// file it makes or replaces to a new file renamed into place
// (outfile.Write, writeFile here), the step summary and $GITHUB_OUTPUT
// appended to (outfile.Append, appendFile here). Before a command reads
// anything, its files are checked (files.check, outfile.Checks): no
// output is one of its inputs, a symbolic link it would replace, or
// another output's file.

// writeFile and appendFile are outfile's Write and Append; inFolder its
// InFolder.
var (
	writeFile  = outfile.Write
	appendFile = outfile.Append
	inFolder   = outfile.InFolder
)

// files are the files a command reads and writes, checked (check) before
// it reads any.
type files struct{ c outfile.Checks }

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
		f.c.Outs = append(f.c.Outs, outfile.Out{Flag: flag, Path: u.summary, Append: true, Clear: func() { u.summary = "" }})
	}
	if p := u.stepOutputs; p != "" && (u.cmd == "gate" || u.gating) {
		f.c.Outs = append(f.c.Outs, outfile.Out{Flag: "$GITHUB_OUTPUT", Path: p, Append: true, Clear: func() { u.stepOutputs = "" }})
	}
	return f
}

// check is outfile.Checks.Check: it reads no file.
func (f *files) check() error { return f.c.Check() }

// in adds an input file.
func (f *files) in(what, path string) {
	if path != "" {
		f.c.Ins = append(f.c.Ins, outfile.In{What: what, Path: path})
	}
}

// store adds a store as an input: a SQLite file and the files SQLite
// keeps beside it (a PostgreSQL URL is no file); a location that is no
// store file (sqlite.CheckLocation) is refused by check.
func (f *files) store(loc string) {
	if loc == "" || strings.Contains(loc, "://") {
		return
	}
	if err := sqlite.CheckLocation(loc); err != nil && f.c.Bad == nil {
		f.c.Bad = err
	}
	for _, s := range []string{"", "-wal", "-shm", "-journal"} {
		f.in("the store", loc+s)
	}
}

// runs adds the files the runs at paths are read from (load.ReadFiles),
// or, without paths, the result files the variants name.
func (f *files) runs(rf *runFlags, paths []string) {
	f.c.Later = append(f.c.Later, func() { f.runFiles(rf, paths) })
}

func (f *files) runFiles(rf *runFlags, paths []string) {
	for _, in := range load.InputFiles(paths, append([]string{rf.baseline, rf.candidate}, rf.variants...)) {
		what := "a result file"
		switch {
		case in.Meta:
			what = "a run's " + load.MetaFile
		case slices.Contains(paths, in.Path):
			what = "a PATH"
		}
		f.c.Ins = append(f.c.Ins, outfile.In{What: what, Path: in.Path, Meta: in.Meta})
	}
}

// out adds a file the command replaces; appendTo one it appends to; dir
// a folder it writes into, made if missing; meta gate --emit-meta's
// qoscal.json, which may replace the run's own (an input) by design.
func (f *files) out(flag, path string) {
	if path != "" {
		f.c.Outs = append(f.c.Outs, outfile.Out{Flag: flag, Path: path})
	}
}

func (f *files) appendTo(flag, path string) {
	if path != "" {
		f.c.Outs = append(f.c.Outs, outfile.Out{Flag: flag, Path: path, Append: true})
	}
}

func (f *files) dir(flag, path string) {
	if path != "" {
		f.c.Dirs = append(f.c.Dirs, outfile.Out{Flag: flag, Path: path})
	}
}

func (f *files) meta(flag, path string) {
	f.c.Outs = append(f.c.Outs, outfile.Out{Flag: flag, Path: path, Meta: true})
}
