package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/data/load"
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

// loadHelp is what the variant flags name in a command: the
// descriptions of --baseline, --candidate and --variant (where their FILE
// is looked for, what becomes of a further variant), and of --run: ""
// leaves --run out, for commands that read many runs.
type loadHelp struct {
	baseline, candidate, variant, run string
}

// calibratedLoadHelp is the help of the commands that read runs against a
// calibration (drift, watch): a variant's name defaults to the file's.
var calibratedLoadHelp = loadHelp{
	baseline:  "in run folders, the baseline's result `[NAME=]FILE` (NAME defaults to the calibration's)",
	candidate: "the candidate's `[NAME=]FILE`, likewise",
	variant:   "a further variant's result `[NAME=]FILE` in each run folder, read with the others, not compared",
}

// addLoadFlags adds the flags naming variants and their files, and how to
// read them; formatFlag is the name of the result-file format flag:
// --input-format in every command (ingest keeps --format as a deprecated
// alias: addFormatAlias).
func (f *runFlags) addLoadFlags(fs *flagSet, h loadHelp, formatFlag string) {
	fs.StringVar(&f.baseline, "baseline", "", h.baseline)
	fs.StringVar(&f.candidate, "candidate", "", h.candidate)
	fs.StringArrayVar(&f.variants, "variant", nil, h.variant)
	if h.run != "" {
		fs.StringVar(&f.runID, "run", "", h.run)
	}
	fs.StringVar(&f.format, formatFlag, "auto", "the result files' `FORMAT`: auto (found for each file), "+strings.Join(formats.FormatNames(), ", "))
	f.formatFlag = formatFlag
	fs.BoolVar(&f.stripProcs, "strip-procs", false, "drop the -N GOMAXPROCS suffix of Go benchmark names (BenchmarkX-8 becomes BenchmarkX)")
	fs.BoolVar(&f.ignoreColumns, "ignore-columns", false, "ignore CSV columns qoscal does not know (else they are an error)")
	fs.BoolVar(&f.skipIncomplete, "skip-incomplete", false, "skip, with a warning, run folders lacking a file (else they are an error)")
}

// addFormatAlias adds --format, hidden, as a deprecated alias of
// --input-format: ingest named the result-file format so before every
// command used --input-format. The help says so in --input-format's text.
func (f *runFlags) addFormatAlias(fs *flagSet) {
	fs.StringVar(&f.formatAlias, "format", "", "deprecated: use --input-format")
	_ = fs.MarkHidden("format")
	in := fs.Lookup(f.formatFlag)
	in.Usage += "; --format is a deprecated alias"
}

// loadOptions turns the flags into load.Options. With byName, the
// variant flags name variants, not files (see variantName).
func (f *runFlags) loadOptions(u *ui, byName bool) (load.Options, error) {
	var opt load.Options
	flag, name := f.formatFlag, f.format
	if f.formatAlias != "" {
		if name != "auto" && name != f.formatAlias {
			return opt, usagef("--format %s and --%s %s disagree: give --%s only", f.formatAlias, f.formatFlag, name, f.formatFlag)
		}
		u.warnf("--format is deprecated in %s: use --input-format", u.cmd)
		flag, name = "format", f.formatAlias
	}
	format, err := formats.LookupFormat(name)
	if err != nil {
		return opt, usagef("--%s: %v", flag, err)
	}
	opt.Format = format
	if err := data.CheckName("run id", f.runID); err != nil {
		return opt, usagef("--run: %v", err)
	}
	opt.RunID = f.runID
	opt.SkipIncomplete = f.skipIncomplete
	opt.StripProcs = f.stripProcs
	opt.IgnoreColumns = f.ignoreColumns
	opt.Warn = func(msg string) { u.warnf("%s", msg) }
	parse := load.ParseVariantSpec
	if byName {
		parse = variantName
	}
	if f.baseline != "" {
		if opt.Baseline, err = parse(f.baseline); err != nil {
			return opt, usagef("--baseline: %v", err)
		}
	}
	if f.candidate != "" {
		if opt.Candidate, err = parse(f.candidate); err != nil {
			return opt, usagef("--candidate: %v", err)
		}
	}
	for _, v := range f.variants {
		spec, err := parse(v)
		if err != nil {
			return opt, usagef("--variant: %v", err)
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
func variantName(s string) (load.VariantSpec, error) {
	if name, _, ok := strings.Cut(s, "="); ok && name != "" && !strings.ContainsAny(name, `/\`) {
		s = name
	}
	if err := data.CheckName("variant name", s); err != nil {
		return load.VariantSpec{}, err
	}
	return load.VariantSpec{Name: s}, nil
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
func (f *runFlags) load(opt load.Options, paths []string) ([]data.Run, error) {
	if len(paths) == 0 {
		if f.baseline == "" || f.candidate == "" {
			return nil, usagef("no PATH given: name run folders or CSV files, or a single run's files with --baseline and --candidate")
		}
		if f.runID == "" {
			return nil, usagef("a single run given by its files needs an id: add --run ID")
		}
		for _, spec := range append([]load.VariantSpec{opt.Baseline, opt.Candidate}, opt.Extra...) {
			if st, err := os.Stat(spec.File); err == nil && st.IsDir() {
				return nil, usagef("%s is a folder: give run folders as PATHs and file names with --baseline and --candidate", spec.File)
			}
		}
		run, err := load.Files(opt)
		if err != nil {
			return nil, err
		}
		return []data.Run{run}, nil
	}
	return load.All(paths, opt)
}
