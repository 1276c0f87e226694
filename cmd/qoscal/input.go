package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"qoscal/data"
)

// runFlags are the flags shared by every command that reads runs from
// PATHs: which result files hold which variant, and how to read them.
type runFlags struct {
	baseline, candidate string
	variants            []string
	runID               string
	format              string
	formatAlias         string // ingest's deprecated --format
	formatFlag          string
	skipIncomplete      bool
	stripProcs          bool
	ignoreColumns       bool
}

// addLoadFlags adds the flags naming variants and their files; single
// adds --run, for commands that take one run by its files; formatFlag is
// the name of the result-file format flag: --input-format in every
// command (ingest keeps --format as a deprecated alias: addFormatAlias).
func (f *runFlags) addLoadFlags(fs *pflag.FlagSet, single bool, formatFlag string) {
	fs.StringVar(&f.baseline, "baseline", "", "the baseline's `[NAME=]FILE`")
	fs.StringVar(&f.candidate, "candidate", "", "the candidate's `[NAME=]FILE`")
	fs.StringArrayVar(&f.variants, "variant", nil, "a further variant's `[NAME=]FILE`")
	if single {
		fs.StringVar(&f.runID, "run", "", "the run's `ID`")
	}
	fs.StringVar(&f.format, formatFlag, "auto", "result-file `FORMAT`")
	f.formatFlag = formatFlag
	fs.BoolVar(&f.skipIncomplete, "skip-incomplete", false, "skip run folders lacking a file")
	fs.BoolVar(&f.stripProcs, "strip-procs", false, "drop the -N GOMAXPROCS suffix of Go benchmark names")
	fs.BoolVar(&f.ignoreColumns, "ignore-columns", false, "ignore CSV columns qoscal does not know")
}

// addFormatAlias adds --format, hidden, as a deprecated alias of
// --input-format: ingest named the result-file format so before every
// command used --input-format.
func (f *runFlags) addFormatAlias(fs *pflag.FlagSet) {
	fs.StringVar(&f.formatAlias, "format", "", "deprecated: use --input-format")
	_ = fs.MarkHidden("format")
}

// loadOptions turns the flags into data.LoadOptions. With byName, the
// variant flags name variants, not files (see variantName).
func (f *runFlags) loadOptions(u *ui, cmd string, byName bool) (data.LoadOptions, error) {
	var opt data.LoadOptions
	flag, name := f.formatFlag, f.format
	if f.formatAlias != "" {
		if name != "auto" && name != f.formatAlias {
			return opt, usagef(cmd, "--format %s and --%s %s disagree: give --%s only", f.formatAlias, f.formatFlag, name, f.formatFlag)
		}
		u.warnf("--format is deprecated in %s: use --input-format", cmd)
		flag, name = "format", f.formatAlias
	}
	format, err := data.LookupFormat(name)
	if err != nil {
		return opt, usagef(cmd, "--%s: %v", flag, err)
	}
	opt.Format = format
	if err := data.CheckName("run id", f.runID); err != nil {
		return opt, usagef(cmd, "--run: %v", err)
	}
	opt.RunID = f.runID
	opt.SkipIncomplete = f.skipIncomplete
	opt.StripProcs = f.stripProcs
	opt.IgnoreColumns = f.ignoreColumns
	opt.Warn = func(msg string) { u.warnf("%s", msg) }
	parse := data.ParseVariantSpec
	if byName {
		parse = variantName
	}
	if f.baseline != "" {
		if opt.Baseline, err = parse(f.baseline); err != nil {
			return opt, usagef(cmd, "--baseline: %v", err)
		}
	}
	if f.candidate != "" {
		if opt.Candidate, err = parse(f.candidate); err != nil {
			return opt, usagef(cmd, "--candidate: %v", err)
		}
	}
	for _, v := range f.variants {
		spec, err := parse(v)
		if err != nil {
			return opt, usagef(cmd, "--variant: %v", err)
		}
		opt.Extra = append(opt.Extra, spec)
	}
	return opt, nil
}

// variantName reads a variant flag that names a variant and no file: in
// a store or a CSV file, where the runs say which variant is which. The
// name is NAME of NAME=FILE (the form that names a file in run folders),
// else the whole value: "gcc/O2" and "glibc-2.36" are ordinary names, not
// the file O2 and the stem glibc-2.
func variantName(s string) (data.VariantSpec, error) {
	if name, _, ok := strings.Cut(s, "="); ok && name != "" && !strings.ContainsAny(name, `/\`) {
		s = name
	}
	if err := data.CheckName("variant name", s); err != nil {
		return data.VariantSpec{}, err
	}
	return data.VariantSpec{Name: s}, nil
}

// namesVariants reports whether PATHs take the variant flags as names
// (variantName): every PATH is a file other than a zip artifact (a CSV
// file of runs). A run folder, a folder of run folders or an artifact
// takes them as files inside it.
func namesVariants(paths []string) bool {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || st.IsDir() || strings.EqualFold(filepath.Ext(p), ".zip") {
			return false
		}
	}
	return true
}

// load reads runs from PATHs, or, with no PATH, the single run whose files
// --baseline and --candidate name directly.
func (f *runFlags) load(cmd string, opt data.LoadOptions, paths []string) ([]data.Run, error) {
	if len(paths) == 0 {
		if f.baseline == "" || f.candidate == "" {
			return nil, usagef(cmd, "no PATH given: name run folders or CSV files, or a single run's files with --baseline and --candidate")
		}
		if f.runID == "" {
			return nil, usagef(cmd, "a single run given by its files needs an id: add --run ID")
		}
		for _, spec := range append([]data.VariantSpec{opt.Baseline, opt.Candidate}, opt.Extra...) {
			if st, err := os.Stat(spec.File); err == nil && st.IsDir() {
				return nil, usagef(cmd, "%s is a folder: give run folders as PATHs and file names with --baseline and --candidate", spec.File)
			}
		}
		run, err := data.LoadFiles(opt)
		if err != nil {
			return nil, err
		}
		return []data.Run{run}, nil
	}
	return data.Load(paths, opt)
}
