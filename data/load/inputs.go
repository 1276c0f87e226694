package load

import (
	"os"
	"path/filepath"
)

// ReadFiles lists the files that Runs would read at paths
// with opt, as far as they exist: a PATH that is a file (a CSV file, a zip
// artifact) itself; in a run folder, the variants' result files and its
// MetaFile; in a folder of run folders, those of each subfolder, and each
// zip artifact. It reads folders, never files, so that a command can
// check, before it reads any input, that none of the files it writes is
// one of them (compared by identity: the caller stats what it lists).
//
// A run folder that 'qoscal measure' wrote gives its MeasuredFile and
// its MetaFile. A folder is listed as Runs reads it: a folder that holds every
// variant's file is one run, else its subfolders are. Without variants
// that name files (a store's names, or CSV), a folder's files are not
// known, and only its zip artifacts and the MetaFiles are listed.
func ReadFiles(paths []string, opt Options) []string {
	var out []string
	vs := opt.variants()
	add := func(p string) {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			out = append(out, p)
		}
	}
	runFolder := func(dir string) (files []string, complete bool) {
		complete = len(vs) > 0
		for _, v := range vs {
			if v.File == "" {
				complete = false
				continue
			}
			p := filepath.Join(dir, v.File)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				files = append(files, p)
			} else {
				complete = false
			}
		}
		return append(files, filepath.Join(dir, MetaFile)), complete
	}
	namesFiles := opt.Baseline.File != "" && opt.Candidate.File != ""
	hasAll := func(dir string) bool { _, complete := runFolder(dir); return complete }
	hasAny := func(dir string) bool { files, _ := runFolder(dir); return len(files) > 1 }
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		if measuredFolder(p) && (!namesFiles || !hasAll(p)) {
			add(filepath.Join(p, MeasuredFile))
			add(filepath.Join(p, MetaFile))
			continue
		}
		if files, complete := runFolder(p); complete {
			for _, f := range files {
				add(f)
			}
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			continue
		}
		for _, e := range entries {
			sub := filepath.Join(p, e.Name())
			switch {
			case e.IsDir() && measuredFolder(sub) && !hasAny(sub):
				add(filepath.Join(sub, MeasuredFile))
				add(filepath.Join(sub, MetaFile))
			case e.IsDir():
				files, _ := runFolder(sub)
				for _, f := range files {
					add(f)
				}
			case e.Type().IsRegular() && isZip(e.Name()):
				out = append(out, sub)
			}
		}
	}
	return out
}

// InputFile is a file a command reads runs from (InputFiles); Meta marks
// a run folder's MetaFile read as the run's labels.
type InputFile struct {
	Path string
	Meta bool
}

// InputFiles lists, as ReadFiles does, the files that the runs at paths
// are read from with the variants of specs (as --baseline, --candidate
// and --variant give them, in that order; one that does not parse is left
// out), or, without paths, the files the variants name. A MetaFile is
// marked Meta unless a variant names a file of that name (a result file).
func InputFiles(paths, specs []string) []InputFile {
	var opt Options
	var vs []VariantSpec
	for _, s := range specs {
		if v, err := ParseVariantSpec(s); err == nil {
			vs = append(vs, v)
		}
	}
	var out []InputFile
	if len(paths) == 0 {
		for _, v := range vs {
			if v.File != "" {
				out = append(out, InputFile{Path: v.File})
			}
		}
		return out
	}
	if len(vs) > 0 {
		opt.Baseline = vs[0]
	}
	if len(vs) > 1 {
		opt.Candidate = vs[1]
		opt.Extra = vs[2:]
	}
	resultNames := map[string]bool{}
	for _, v := range vs {
		resultNames[filepath.Base(v.File)] = true
	}
	for _, p := range ReadFiles(paths, opt) {
		out = append(out, InputFile{Path: p, Meta: filepath.Base(p) == MetaFile && !resultNames[MetaFile]})
	}
	return out
}
