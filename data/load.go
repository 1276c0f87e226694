package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// VariantSpec names a variant and the result file that holds it.
type VariantSpec struct {
	Name string
	File string
}

// ParseVariantSpec parses "NAME=FILE" or "FILE". Without "NAME=", the name
// is the file's stem: "results/hoard.txt" is variant "hoard". A prefix that
// contains a path separator is part of the file name, not a variant name.
func ParseVariantSpec(s string) (VariantSpec, error) {
	if s == "" {
		return VariantSpec{}, errors.New("empty variant: expected [NAME=]FILE")
	}
	if name, file, ok := strings.Cut(s, "="); ok && !strings.ContainsAny(name, `/\`) {
		if name == "" || file == "" {
			return VariantSpec{}, fmt.Errorf("variant %q: expected NAME=FILE with both parts non-empty", s)
		}
		if err := CheckName("variant name", name); err != nil {
			return VariantSpec{}, err
		}
		return VariantSpec{Name: name, File: file}, nil
	}
	base := filepath.Base(s)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if stem == "" {
		stem = base
	}
	if err := CheckName("variant name", stem); err != nil {
		return VariantSpec{}, fmt.Errorf("%v (the stem of %s): name the variant with NAME=FILE", err, s)
	}
	return VariantSpec{Name: stem, File: s}, nil
}

// LoadOptions says how to read runs from paths.
type LoadOptions struct {
	// Baseline and Candidate name the two compared variants and their
	// result files inside each run folder (or, for LoadFiles, their paths).
	Baseline, Candidate VariantSpec
	// Extra are further variants measured in the same runs.
	Extra []VariantSpec
	// Format is the result-file format; nil detects it per file.
	Format *Format
	// SkipIncomplete skips, with a warning, run folders that lack one of
	// the named files, instead of failing.
	SkipIncomplete bool
	// RunID names the run when a path is a single run folder.
	RunID string
	// IDPrefix is put before every run id read (folder names repeat across
	// sets: healthy/run-01 and regressed/run-01).
	IDPrefix string
	// Labels are added to every run read.
	Labels map[string]string
	// StripProcs drops the -N GOMAXPROCS suffix of Go benchmark names
	// (BenchmarkX-8 becomes BenchmarkX).
	StripProcs bool
	// IgnoreColumns ignores CSV columns qoscal does not know, instead of
	// refusing the file.
	IgnoreColumns bool
	// MaxJSONBytes bounds the size of a JSON result file, which is decoded
	// whole; 0 means DefaultMaxJSONBytes.
	MaxJSONBytes int64
	// Warn receives warnings (skipped folders, parser notes); nil drops
	// them.
	Warn func(string)

	notes *noteSet
	// runLen is how many measurements the last run read had: room for
	// as many is made for the next one's at once (run folders hold alike
	// files), rather than grown step by step.
	runLen int
	// names are the benchmark names read so far (ParseOptions.names).
	names map[string]string
	// vs caches variants(): a load asks for them several times a run
	// folder, and the options do not change while it reads.
	vs []VariantSpec
}

// noteSet gathers the parsers' notes of one Load or LoadFiles call, so
// that a note that many result files share (the same benchmark without a
// figure in every run folder) is said once, naming the first file and how
// many more say the same, instead of once per file.
type noteSet struct {
	order []string            // the notes without their file, in order
	files map[string][]string // note -> the files it came from
}

// note records a parser's note about file.
func (o *LoadOptions) note(file, note string) {
	if o.notes == nil {
		o.notes = &noteSet{files: map[string][]string{}}
	}
	rest, ok := strings.CutPrefix(note, file+": ")
	if !ok {
		file, rest = "", note
	}
	if _, seen := o.notes.files[rest]; !seen {
		o.notes.order = append(o.notes.order, rest)
	}
	o.notes.files[rest] = append(o.notes.files[rest], file)
}

// flushNotes passes the gathered notes to Warn.
func (o *LoadOptions) flushNotes() {
	if o.notes == nil {
		return
	}
	for _, rest := range o.notes.order {
		files := o.notes.files[rest]
		msg := rest
		if files[0] != "" {
			msg = files[0] + ": " + rest
		}
		if n := len(files) - 1; n > 0 {
			msg += fmt.Sprintf(" (likewise in %s)", pluralFiles(n))
		}
		o.warn("%s", msg)
	}
	o.notes = nil
}

func pluralFiles(n int) string {
	if n == 1 {
		return "1 more file"
	}
	return fmt.Sprintf("%d more files", n)
}

// variants returns the named variants, the baseline and the candidate
// first. The slice is shared: callers must not change it.
func (o *LoadOptions) variants() []VariantSpec {
	if o.vs != nil {
		return o.vs
	}
	vs := make([]VariantSpec, 0, 2+len(o.Extra))
	for _, v := range [2]VariantSpec{o.Baseline, o.Candidate} {
		if v.File != "" || v.Name != "" {
			vs = append(vs, v)
		}
	}
	for _, v := range o.Extra {
		if v.File != "" || v.Name != "" {
			vs = append(vs, v)
		}
	}
	o.vs = vs
	return vs
}

func (o *LoadOptions) warn(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

func (o *LoadOptions) checkVariants(needFiles bool) error {
	vs := o.variants()
	if needFiles && (o.Baseline.File == "" || o.Candidate.File == "") {
		return errors.New("run folders need --baseline and --candidate: the result file of each variant inside every run folder")
	}
	seen := map[string]bool{}
	for _, v := range vs {
		if seen[v.Name] {
			return fmt.Errorf("variant name %q is given twice: name them with NAME=FILE", v.Name)
		}
		seen[v.Name] = true
	}
	return nil
}

// Load reads runs from paths. A path is a run folder (it holds the named
// result files), a folder of run folders (each subfolder that holds them is
// a run, named after the subfolder, in natural order: run-2 before run-10),
// or a CSV file of many runs. Runs come back in path order. A run id seen
// twice is an error.
func Load(paths []string, opt LoadOptions) ([]Run, error) {
	if err := checkPaths(paths); err != nil {
		return nil, err
	}
	defer opt.flushNotes()
	var runs []Run
	where := map[string]string{}
	for _, p := range paths {
		var got []Run
		if err := loadPath(p, &opt, func(r Run) error { got = append(got, r); return nil }); err != nil {
			return nil, err
		}
		for _, r := range got {
			r.ID = opt.IDPrefix + r.ID
			if err := CheckName("run id", r.ID); err != nil {
				return nil, fmt.Errorf("%s: %w", r.Source, err)
			}
			if prev, dup := where[r.ID]; dup {
				return nil, fmt.Errorf("run id %q appears twice: in %s and in %s", r.ID, prev, r.Source)
			}
			where[r.ID] = r.Source
			runs = append(runs, r)
		}
	}
	return runs, nil
}

// LoadEach reads runs from paths as Load does, passing each run to fn as
// soon as it is read instead of returning them all: a folder of run
// folders is then never held whole, nor a CSV file whose runs' rows are
// grouped (see eachMultiRunFile; any other CSV file is, until it is read
// to its end, since a run's rows may be anywhere in it). Each run's
// id is checked (prefixed, valid, not seen before) before fn sees it. An
// error from fn stops reading and is returned; after any error, fn may
// have seen runs of a path that then failed.
func LoadEach(paths []string, opt LoadOptions, fn func(Run) error) (err error) {
	if err := checkPaths(paths); err != nil {
		return err
	}
	// The parsers' notes are said at the end, unless LoadSeq's consumer
	// stopped taking runs: an ingest that failed (a conflict, say) stops
	// after a number of runs that depends on the store, and the notes of
	// the files read by then would differ with it.
	defer func() {
		if !errors.Is(err, errStopped) {
			opt.flushNotes()
		}
	}()
	// A run id seen before is found by a 64-bit hash of each id, not by a
	// map of ids and sources, which grew with every run: only when a
	// hash comes again are the paths read once more, to name where the
	// id was first (or to find that two ids shared a hash).
	seed := maphash.MakeSeed()
	seen := map[uint64]struct{}{}
	n := 0
	for _, p := range paths {
		err := loadPath(p, &opt, func(r Run) error {
			r.ID = opt.IDPrefix + r.ID
			if err := CheckName("run id", r.ID); err != nil {
				return fmt.Errorf("%s: %w", r.Source, err)
			}
			h := maphash.String(seed, r.ID)
			if _, again := seen[h]; again {
				if prev, ok := firstSource(paths, opt, r.ID, n); ok {
					return fmt.Errorf("run id %q appears twice: in %s and in %s", r.ID, prev, r.Source)
				}
			}
			seen[h] = struct{}{}
			n++
			return fn(r)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkPaths refuses an empty PATH before any is read: it is what an
// unset variable gives ("qoscal ingest $RESULTS"), and os.Stat's error
// for it named no path at all (": no such file or folder").
func checkPaths(paths []string) error {
	for i, p := range paths {
		if p == "" {
			return fmt.Errorf("PATH %d is empty (an unset variable?): expected a run folder, a folder of run folders, a CSV file or a zip artifact", i+1)
		}
	}
	return nil
}

// firstSource reads paths again, as LoadEach does, and returns the source
// of the first run with the given id among the first n runs.
func firstSource(paths []string, opt LoadOptions, id string, n int) (string, bool) {
	opt.Warn, opt.notes = nil, nil
	found := errors.New("found")
	var source string
	i := 0
	for _, p := range paths {
		err := loadPath(p, &opt, func(r Run) error {
			if i >= n {
				return errStopped
			}
			i++
			if opt.IDPrefix+r.ID == id {
				source = r.Source
				return found
			}
			return nil
		})
		if err != nil {
			return source, err == found
		}
	}
	return "", false
}

// LoadSeq yields the runs that LoadEach reads, one at a time, for
// Store.IngestEach (through Incoming); a failure to read is yielded as
// the sequence's last error.
func LoadSeq(paths []string, opt LoadOptions) iter.Seq2[Run, error] {
	return func(yield func(Run, error) bool) {
		stopped := false
		err := LoadEach(paths, opt, func(r Run) error {
			if !yield(r, nil) {
				stopped = true
				return errStopped
			}
			return nil
		})
		if err != nil && !stopped {
			yield(Run{}, err)
		}
	}
}

// errStopped ends LoadEach when LoadSeq's consumer stops taking runs (an
// ingest that failed).
var errStopped = errors.New("stopped")

// loadPath reads the runs at p, passing each to yield as it is read.
func loadPath(p string, opt *LoadOptions, yield func(Run) error) error {
	st, err := os.Stat(p)
	if err != nil {
		return pathError(p, err)
	}
	if !st.IsDir() {
		if isZip(p) {
			return loadZip(p, opt, yield)
		}
		return eachMultiRunFile(p, opt, yield)
	}
	filesNamed := opt.Baseline.File != "" && opt.Candidate.File != ""
	if measuredFolder(p) && (!filesNamed || !allPresent(p, opt)) {
		return loadMeasuredFolder(p, opt, yield)
	}
	if !filesNamed && hasMeasuredFolders(p) {
		return loadMeasuredFolders(p, opt, yield)
	}
	if err := opt.checkVariants(true); err != nil {
		return err
	}
	if present, _, stats := statFiles(p, opt); present == len(opt.variants()) {
		id := opt.RunID
		if id == "" {
			id = filepath.Base(filepath.Clean(p))
		}
		r, err := loadRunFolder(p, id, opt, stats)
		if err != nil {
			return err
		}
		return yield(r)
	}
	if opt.RunID != "" {
		_, missing := presentFiles(p, opt)
		return fmt.Errorf("run folder %s lacks %s", p, strings.Join(missing, " and "))
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return pathError(p, err)
	}
	var names []string
	zips := map[string]bool{} // zip artifacts among the run folders (artifact.go)
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		} else if e.Type().IsRegular() && isZip(e.Name()) {
			names = append(names, e.Name())
			zips[e.Name()] = true
		}
	}
	NaturalSort(names)
	found := 0
	for _, name := range names {
		dir := filepath.Join(p, name)
		if zips[name] {
			r, missing, isRun, err := loadZipRun(dir, opt)
			switch {
			case err != nil:
				return err
			case !isRun:
				continue
			case len(missing) > 0:
				if !opt.SkipIncomplete {
					return fmt.Errorf("artifact %s lacks %s (use --skip-incomplete to skip such artifacts)", dir, strings.Join(missing, " and "))
				}
				opt.warn("skipped incomplete artifact %s: it lacks %s", dir, strings.Join(missing, " and "))
				continue
			}
			found++
			if err := yield(r); err != nil {
				return err
			}
			continue
		}
		present, missing, stats := statFiles(dir, opt)
		switch {
		case present == 0 && measuredFolder(dir):
			if err := loadMeasuredFolder(dir, opt, yield); err != nil {
				return err
			}
			found++
			continue
		case present == 0:
			continue // not a run folder
		case len(missing) > 0:
			if !opt.SkipIncomplete {
				return fmt.Errorf("run folder %s lacks %s (use --skip-incomplete to skip such folders)", dir, strings.Join(missing, " and "))
			}
			opt.warn("skipped incomplete run folder %s: it lacks %s", dir, strings.Join(missing, " and "))
			continue
		}
		r, err := loadRunFolder(dir, name, opt, stats)
		if err != nil {
			return err
		}
		found++
		if err := yield(r); err != nil {
			return err
		}
	}
	if found == 0 {
		files := make([]string, 0, 2)
		for _, v := range opt.variants() {
			files = append(files, v.File)
		}
		msg := fmt.Sprintf("%s holds no run: expected %s in it, or subfolders holding them", p, strings.Join(files, " and "))
		if sets := setsBelow(p, names, opt); len(sets) > 0 {
			msg += fmt.Sprintf("; its subfolders %s hold run folders: name them as PATHs", strings.Join(sets, ", "))
		}
		return errors.New(msg)
	}
	return nil
}

// MeasuredFile is the results of a run folder that 'qoscal measure'
// wrote, in the csv format, beside its MetaFile (version 2). Such a
// folder is a run without naming its variants' files: the CSV's role
// column says which variant is which.
const MeasuredFile = "results.csv"

// IsMeasuredFolder reports whether dir is a run folder that 'qoscal
// measure' wrote: it holds MeasuredFile and a MetaFile.
func IsMeasuredFolder(dir string) bool { return measuredFolder(dir) }

func measuredFolder(dir string) bool {
	for _, name := range [2]string{MeasuredFile, MetaFile} {
		if st, err := statQuick(filepath.Join(dir, name)); err != nil || st.kind == kindDir || st.kind == kindNone {
			return false
		}
	}
	return true
}

// allPresent reports whether dir holds every named variant's file.
func allPresent(dir string, opt *LoadOptions) bool {
	present, _, _ := statFiles(dir, opt)
	return present == len(opt.variants())
}

// hasMeasuredFolders reports whether a subfolder of p is a measured run
// folder (measuredFolder).
func hasMeasuredFolders(p string) bool {
	entries, err := os.ReadDir(p)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() && measuredFolder(filepath.Join(p, e.Name())) {
			return true
		}
	}
	return false
}

// loadMeasuredFolders reads the measured run folders among p's
// subfolders, in natural order, when no variant's file is named.
func loadMeasuredFolders(p string, opt *LoadOptions, yield func(Run) error) error {
	entries, err := os.ReadDir(p)
	if err != nil {
		return pathError(p, err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	NaturalSort(names)
	for _, name := range names {
		dir := filepath.Join(p, name)
		if !measuredFolder(dir) {
			continue
		}
		if err := loadMeasuredFolder(dir, opt, yield); err != nil {
			return err
		}
	}
	return nil
}

// loadMeasuredFolder reads the run of a folder that 'qoscal measure'
// wrote: the one run of its MeasuredFile (its id the CSV's, unless
// LoadOptions.RunID names it), with the labels of its MetaFile.
func loadMeasuredFolder(dir string, opt *LoadOptions, yield func(Run) error) error {
	p := filepath.Join(dir, MeasuredFile)
	var runs []Run
	if err := eachMultiRunFile(p, opt, func(r Run) error { runs = append(runs, r); return nil }); err != nil {
		return err
	}
	if len(runs) != 1 {
		return fmt.Errorf("%s holds %d runs: the results of a run folder that 'qoscal measure' wrote are one run", p, len(runs))
	}
	run := runs[0]
	if opt.RunID != "" {
		run.ID = opt.RunID
	}
	run.Source = dir
	if err := readMeta(dir, &run); err != nil {
		return err
	}
	return yield(run)
}

// presentFiles counts which of the named result files exist in dir and
// lists the missing ones.
func presentFiles(dir string, opt *LoadOptions) (present int, missing []string) {
	present, missing, _ = statFiles(dir, opt)
	return present, missing
}

// statFiles is presentFiles that also returns the paths of the files and
// what it found of each (folderFiles), so that reading them need not ask
// again: a run folder took two stats of each file, one here and one in
// OpenFile (issue 19).
func statFiles(dir string, opt *LoadOptions) (present int, missing []string, ff folderFiles) {
	vs := opt.variants()
	ff = folderFiles{paths: make([]string, len(vs)), stats: make([]fileStat, len(vs))}
	for i, v := range vs {
		ff.paths[i] = filepath.Join(dir, v.File)
		if st, err := statQuick(ff.paths[i]); err == nil && st.kind != kindDir {
			present++
			ff.stats[i] = st
		} else {
			missing = append(missing, v.File)
		}
	}
	return present, missing, ff
}

// folderFiles are the paths of a run folder's result files, in the order
// of opt.variants(), and what a stat found of each (the zero fileStat:
// missing).
type folderFiles struct {
	paths []string
	stats []fileStat
}

// fileStat is what statQuick finds of a file: its kind and its size.
type fileStat struct {
	kind fileKind
	size int64
}

type fileKind uint8

const (
	kindNone    fileKind = iota // not found
	kindRegular                 // a regular file
	kindDir                     // a folder
	kindOther                   // a FIFO, a device, a socket...
)

// loadRunFolder reads the run in dir, whose result files statFiles found.
func loadRunFolder(dir, id string, opt *LoadOptions, ff folderFiles) (Run, error) {
	run := Run{ID: id, Source: dir}
	if err := readVariants(&run, ff.paths, ff.stats, opt); err != nil {
		return Run{}, err
	}
	if err := readMeta(dir, &run); err != nil {
		return Run{}, err
	}
	return run, nil
}

// LoadFiles reads one run from result files given by path: the baseline's
// and the candidate's files (and any extra variants'). The run's id is
// opt.RunID.
func LoadFiles(opt LoadOptions) (Run, error) {
	if err := opt.checkVariants(true); err != nil {
		return Run{}, err
	}
	if err := CheckName("run id", opt.RunID); err != nil {
		return Run{}, err
	}
	run := Run{ID: opt.RunID}
	var files []string
	for _, v := range opt.variants() {
		files = append(files, v.File)
	}
	run.Source = strings.Join(files, ",")
	defer opt.flushNotes()
	if err := readVariants(&run, files, nil, &opt); err != nil {
		return Run{}, err
	}
	return run, nil
}

// readVariants reads each variant's result file, files[i] for the i-th of
// opt.variants(), into run; stats[i], when stats is not nil, is what a
// stat of that file found (a regular file is then not stat-ed again).
func readVariants(run *Run, files []string, stats []fileStat, opt *LoadOptions) error {
	run.Baseline, run.Candidate = opt.Baseline.Name, opt.Candidate.Name
	run.Labels = copyLabels(opt.Labels)
	fileLabels := map[string]*fileLabel{}
	var bad InputError
	type origin struct {
		name string
		line int
	}
	for i, v := range opt.variants() {
		path := files[i]
		var f *File
		var err error
		if stats != nil && stats[i].kind == kindRegular {
			f, err = openRegular(path, stats[i].size, opt.Format)
		} else {
			f, err = OpenFile(path, opt.Format)
		}
		if err != nil {
			if se, ok := asSyntax(err); ok {
				bad.Add(se)
				continue
			}
			return pathError(path, err)
		}
		f.Options.MaxJSONBytes = opt.MaxJSONBytes
		if opt.names == nil {
			opt.names = map[string]string{}
		}
		f.Options.names = opt.names
		if f.Format.MultiRun {
			f.Close()
			return fmt.Errorf("%s is in %s format, which holds whole runs: give it as a PATH, not as a variant's file", path, f.Format.Name)
		}
		// The records are read one at a time into the run's
		// measurements (the variant's are those from start on): a large
		// file is never held as records.
		start := len(run.Measurements)
		stripped := map[identKey]origin{} // stripped benchmark -> the first name that gave it
		clashed := map[identKey]bool{}
		var q *qualifier
		if f.Format.Scoped {
			q = newQualifier()
		}
		notes, err := eachRecord(f, func(r Record) {
			m := r.Measurement
			m.Variant = v.Name
			qual := r.Qualified
			if opt.StripProcs {
				m.Benchmark = stripProcs(m.Benchmark)
				if qual != "" {
					qual = stripProcs(qual)
				}
				// Two names of one package (or other scope) that
				// become one are one benchmark; of two packages, two.
				k := identKey{m.Benchmark, qual}
				if o, seen := stripped[k]; !seen {
					stripped[k] = origin{r.Benchmark, r.Line}
				} else if o.name != r.Benchmark && !clashed[k] {
					clashed[k] = true
					bad.Add(&SyntaxError{File: path, Line: r.Line, Msg: fmt.Sprintf("--strip-procs makes %s and %s%s one benchmark, %s: leave out --strip-procs, or run the benchmarks with one -cpu value", r.Benchmark, o.name, lineNote(o.line), m.Benchmark)})
				}
			}
			if q != nil {
				q.add(m.Benchmark, qual, r.Line)
			}
			if len(run.Measurements) == start {
				// Room for as many measurements as the last run had, or
				// as the parser expects of this file.
				if run.Measurements == nil {
					run.Measurements = make([]Measurement, 0, max(opt.runLen, f.sizeHint))
				} else {
					run.Measurements = slices.Grow(run.Measurements, f.sizeHint)
				}
			}
			run.Measurements = append(run.Measurements, m)
			run.Time = earliest(run.Time, r.Time)
			for k, val := range r.Labels {
				fileLabels[k] = fileLabels[k].add(v.Name, val)
			}
		})
		f.Close()
		if err != nil {
			// The file's records read before its errors are dropped.
			run.Measurements = run.Measurements[:start]
			// (ie is declared here, not for every file: errors.As makes
			// it a heap allocation.)
			if ie := (*InputError)(nil); errors.As(err, &ie) {
				bad.merge(ie)
				continue
			}
			if se, ok := asSyntax(err); ok {
				bad.Add(se)
				continue
			}
			return err
		}
		if q != nil {
			ms := run.Measurements[start:]
			if errs := q.apply(path, func(i int, name string) { ms[i].Benchmark = name }); errs != nil {
				run.Measurements = run.Measurements[:start]
				bad.Add(errs...)
				continue
			}
		}
		for _, n := range notes {
			opt.note(path, n)
		}
		if f.Format.VariantsInside {
			picked := pickVariant(run.Measurements[start:], v.Name, path)
			run.Measurements = append(run.Measurements[:start], picked...)
		}
	}
	mergeFileLabels(run, fileLabels)
	opt.runLen = len(run.Measurements)
	return bad.err()
}

// loadMultiRunFile reads a file that holds whole runs (CSV).
func loadMultiRunFile(p string, opt *LoadOptions) ([]Run, error) {
	f, err := OpenFile(p, opt.Format)
	if err != nil {
		return nil, pathError(p, err)
	}
	defer f.Close()
	f.Options.IgnoreColumns = opt.IgnoreColumns
	if !f.Format.MultiRun {
		return nil, fmt.Errorf("%s is a single %s result file, not a run: give run folders as PATHs, or name the files with --baseline and --candidate", p, f.Format.Name)
	}
	f.Options.MaxJSONBytes = opt.MaxJSONBytes
	g := newRunGrouper(p, opt)
	notes, err := eachRecord(f, g.add)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		opt.note(p, n)
	}
	return g.runs()
}

// yieldRuns passes runs to yield in order, stopping at its first error.
func yieldRuns(runs []Run, yield func(Run) error) error {
	for _, r := range runs {
		if err := yield(r); err != nil {
			return err
		}
	}
	return nil
}

// eachMultiRunFile reads a file that holds whole runs (CSV), passing each
// run to yield. A run's rows may be anywhere in such a file, so in
// general no run is whole until the file is read to its end; but most
// files hold each run's rows together, and then a run is whole when the
// next begins. A first, light pass over the file (runsGrouped) tells
// which: a grouped file is read once more, passing each run on as soon as
// it is whole, holding one run at a time; any other file is held whole, as
// loadMultiRunFile does. Either way the runs, the checks and the errors
// are the same: after any error in the file no further run is passed on,
// and the errors of the whole file are returned together.
func eachMultiRunFile(p string, opt *LoadOptions, yield func(Run) error) error {
	if !runsGrouped(p, opt) {
		runs, err := loadMultiRunFile(p, opt)
		if err != nil {
			return err
		}
		return yieldRuns(runs, yield)
	}
	f, err := OpenFile(p, opt.Format)
	if err != nil {
		return pathError(p, err)
	}
	defer f.Close()
	f.Options.IgnoreColumns = opt.IgnoreColumns
	f.Options.MaxJSONBytes = opt.MaxJSONBytes
	f.Options.groupedRuns = true
	g := newRunGrouper(p, opt)
	// pass hands on the run gathered so far, unless an error was found
	// (the file's errors are then reported together at its end), and
	// starts afresh.
	pass := func() error {
		if g.bad.err() != nil {
			g.reset()
			return nil
		}
		runs, err := g.runs()
		g.reset()
		if err != nil {
			return err
		}
		return yieldRuns(runs, yield)
	}
	notes, err := eachRecordUntil(f, func(rec Record) error {
		if len(g.order) > 0 && g.order[0] != rec.Run {
			if err := pass(); err != nil {
				return err
			}
		}
		g.add(rec)
		return nil
	})
	if err != nil {
		return err
	}
	if err := g.bad.err(); err != nil {
		return err
	}
	for _, n := range notes {
		opt.note(p, n)
	}
	return pass()
}

// runsGrouped reports whether the rows of each run of the CSV file p are
// adjacent, reading only its run column; false when unsure (a file that
// does not read, or is not CSV: loadMultiRunFile then reads it whole and
// says what is wrong). It keeps a 64-bit hash of each run id seen; two ids
// of one hash make it answer false, which is safe.
func runsGrouped(p string, opt *LoadOptions) bool {
	f, err := OpenFile(p, opt.Format)
	if err != nil {
		return false
	}
	defer f.Close()
	if f.Format != csvFormat {
		return false
	}
	cr := csv.NewReader(newLineLimit(f.Text, p))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	col := -1
	seed := maphash.MakeSeed()
	done := map[uint64]struct{}{}
	var cur string
	started := false
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return col >= 0
		}
		if err != nil {
			return false
		}
		if len(row) == 1 && strings.TrimSpace(row[0]) == "" {
			continue
		}
		if col < 0 {
			for i, name := range row {
				if strings.ToLower(strings.TrimSpace(name)) == "run" {
					col = i
				}
			}
			if col < 0 {
				return false
			}
			continue
		}
		if col >= len(row) {
			return false
		}
		id := strings.TrimSpace(row[col])
		if started && id == cur {
			continue
		}
		if started {
			done[maphash.String(seed, cur)] = struct{}{}
		}
		h := maphash.String(seed, id)
		if _, seen := done[h]; seen {
			return false
		}
		cur, started = id, true
	}
}

// runsFromRecords groups a multi-run file's records into runs, in order of
// first appearance, checking that each run's labels and roles agree.
func runsFromRecords(file string, recs []Record, opt *LoadOptions) ([]Run, error) {
	g := newRunGrouper(file, opt)
	for _, r := range recs {
		g.add(r)
	}
	return g.runs()
}

// runGrouper groups a multi-run file's records into runs as they are read.
type runGrouper struct {
	file      string
	opt       *LoadOptions
	byID      map[string]*Run
	labelLine map[string]int
	order     []string
	bad       InputError
	seen      map[mkey]int
	ids       nameIDs
}

// mkey names one measurement of a run by the ids of its names (see
// nameIDs): 24 bytes of key a measurement, where four strings took 72.
type mkey struct {
	run, variant, bench, unit int32
	sample                    int
}

func newRunGrouper(file string, opt *LoadOptions) *runGrouper {
	return &runGrouper{file: file, opt: opt, byID: map[string]*Run{}, labelLine: map[string]int{}, seen: map[mkey]int{}, ids: nameIDs{}}
}

// reset forgets the runs gathered (not the errors found), for the next
// run of a grouped file.
func (g *runGrouper) reset() {
	clear(g.byID)
	clear(g.labelLine)
	clear(g.seen)
	clear(g.ids)
	g.order = g.order[:0]
}

func (g *runGrouper) badf(line int, format string, args ...any) {
	g.bad.Add(&SyntaxError{File: g.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (g *runGrouper) add(rec Record) {
	id := rec.Run
	r, ok := g.byID[id]
	if !ok {
		r = &Run{ID: id, Source: g.file, Labels: copyLabels(g.opt.Labels), Time: rec.Time}
		for k, v := range rec.Labels {
			if old, clash := r.Labels[k]; clash && old != v {
				g.badf(rec.Line, "run %s: label %s=%s clashes with --label %s=%s", id, k, v, k, old)
			}
			r.Labels[k] = v
		}
		g.byID[id] = r
		g.labelLine[id] = rec.Line
		g.order = append(g.order, id)
	} else {
		for k, v := range rec.Labels {
			if old := r.Labels[k]; old != v {
				g.badf(rec.Line, "run %s: label %s=%s differs from %s=%s on line %d", id, k, v, k, old, g.labelLine[id])
			}
		}
		r.Time = earliest(r.Time, rec.Time)
	}
	k := mkey{g.ids.id(id), g.ids.id(rec.Variant), g.ids.id(rec.Benchmark), g.ids.id(rec.Unit), rec.Sample}
	if prev, dup := g.seen[k]; dup {
		g.badf(rec.Line, "run %s: %s sample %d of %s already given on line %d", id, rec.Variant, rec.Sample, rec.Benchmark, prev)
		return
	}
	g.seen[k] = rec.Line
	switch rec.Role {
	case RoleBaseline:
		if r.Baseline != "" && r.Baseline != rec.Variant {
			g.badf(rec.Line, "run %s: baseline is %s here but %s elsewhere", id, rec.Variant, r.Baseline)
		}
		r.Baseline = rec.Variant
	case RoleCandidate:
		if r.Candidate != "" && r.Candidate != rec.Variant {
			g.badf(rec.Line, "run %s: candidate is %s here but %s elsewhere", id, rec.Variant, r.Candidate)
		}
		r.Candidate = rec.Variant
	}
	r.Measurements = append(r.Measurements, rec.Measurement)
}

func (g *runGrouper) runs() ([]Run, error) {
	if err := g.bad.err(); err != nil {
		return nil, err
	}
	runs := make([]Run, 0, len(g.order))
	for _, id := range g.order {
		r := g.byID[id]
		// Roles named on the command line win over the file's, since they
		// name variants inside the file.
		if n := g.opt.Baseline.Name; n != "" {
			r.Baseline = n
		}
		if n := g.opt.Candidate.Name; n != "" {
			r.Candidate = n
		}
		if r.Baseline != "" && r.Baseline == r.Candidate {
			return nil, fmt.Errorf("%s: run %s: %s is both baseline and candidate", g.file, id, r.Baseline)
		}
		runs = append(runs, *r)
	}
	return runs, nil
}

func copyLabels(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// pathError rewrites an os error about path into a short message.
func pathError(path string, err error) error {
	var se *SyntaxError
	var ie *InputError
	if errors.As(err, &se) || errors.As(err, &ie) {
		return err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file or folder", path)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied", path)
	}
	return err
}

// earliest returns the earlier of two times, ignoring zero ones.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// pickVariant keeps, of a file that holds several variants as entries
// (hyperfine's commands), the entry named after the variant, as one
// benchmark named after the file's stem; a file with no such entry is
// taken whole, every entry a benchmark.
func pickVariant(ms []Measurement, variant, path string) []Measurement {
	var out []Measurement
	for _, m := range ms {
		if m.Benchmark == variant {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return ms
	}
	base := filepath.Base(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	for i := range out {
		out[i].Benchmark = stem
	}
	return out
}

var procsSuffix = regexp.MustCompile(`-\d+$`)

// stripProcs drops a trailing -N (the GOMAXPROCS suffix).
func stripProcs(name string) string { return procsSuffix.ReplaceAllString(name, "") }

// fileLabel gathers the values of one label key across the result files of
// a run: the last value each variant's file gave, and every value seen.
type fileLabel struct {
	byVariant map[string]string
	distinct  map[string]bool
}

func (l *fileLabel) add(variant, val string) *fileLabel {
	if l == nil {
		l = &fileLabel{byVariant: map[string]string{}, distinct: map[string]bool{}}
	}
	if old, ok := l.byVariant[variant]; !ok || old != val {
		l.byVariant[variant] = val
	}
	if !l.distinct[val] {
		l.distinct[val] = true
	}
	return l
}

// mergeFileLabels adds the labels that result files carry (Go's goos:,
// pkg:, cpu: lines; Google Benchmark's context) to the run. A key on which
// the variants' files disagree (a commit id, say) is kept per variant, as
// VARIANT.KEY; labels given on the command line win.
func mergeFileLabels(run *Run, fileLabels map[string]*fileLabel) {
	for k, l := range fileLabels {
		if _, given := run.Labels[k]; given {
			continue
		}
		if len(l.distinct) == 1 {
			for val := range l.distinct {
				run.Labels[k] = val
			}
			continue
		}
		for variant, val := range l.byVariant {
			run.Labels[variant+"."+k] = val
		}
	}
}

// setsBelow lists the subfolders of p (named in names) that are folders of
// run folders themselves, for the hint of an error.
func setsBelow(p string, names []string, opt *LoadOptions) []string {
	var sets []string
	for _, name := range names {
		entries, err := os.ReadDir(filepath.Join(p, name))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			if _, missing := presentFiles(filepath.Join(p, name, e.Name()), opt); len(missing) == 0 {
				sets = append(sets, filepath.Join(p, name))
				break
			}
		}
	}
	return sets
}

// lineNote says where a record came from, for records that have a line.
func lineNote(line int) string {
	if line == 0 {
		return ""
	}
	return fmt.Sprintf(" (line %d)", line)
}
