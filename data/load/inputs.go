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
