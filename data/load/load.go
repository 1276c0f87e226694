// Package load reads runs from where CI jobs leave them: run folders (a
// result file per variant), folders of run folders, CSV files of many
// runs, and zip artifacts as downloaded, each with the labels of its
// qoscal.json. Runs are read one at a time, so that a load holds one
// run, never all.
package load

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
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
		if err := data.CheckName("variant name", name); err != nil {
			return VariantSpec{}, err
		}
		return VariantSpec{Name: name, File: file}, nil
	}
	base := filepath.Base(s)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if stem == "" {
		stem = base
	}
	if err := data.CheckName("variant name", stem); err != nil {
		return VariantSpec{}, fmt.Errorf("%v (the stem of %s): name the variant with NAME=FILE", err, s)
	}
	return VariantSpec{Name: stem, File: s}, nil
}

// Options say how to read runs from paths. They are plain values: a
// Loader reads them and never changes them, and what its fast paths learn
// while it reads is kept in the Loader, not here.
type Options struct {
	// Baseline and Candidate name the two compared variants and their
	// result files inside each run folder (or, for Files, their paths).
	Baseline, Candidate VariantSpec
	// Extra are further variants measured in the same runs.
	Extra []VariantSpec
	// Format is the result-file format; nil detects it per file.
	Format *formats.Format
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
	// whole; 0 means formats.DefaultMaxJSONBytes.
	MaxJSONBytes int64
	// Warn receives warnings (skipped folders, parser notes); nil drops
	// them.
	Warn func(string)
	// ExpectedSkips name benchmark-like lines that the result files are
	// expected to print without a figure (a calibration file's
	// expected_skips): no note says they were skipped.
	ExpectedSkips []string
	// Skipped, when set, receives each run's id (as the run is yielded)
	// and the names of the benchmark-like lines its result files printed
	// without a figure (formats.Skipper: sorted, each once), expected or
	// not, just before the run is yielded; it is not called for a run
	// whose files skipped none.
	Skipped func(run string, names []string)
}

// variants returns the named variants, the baseline and the candidate
// first.
func (o *Options) variants() []VariantSpec {
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
	return vs
}

// A Loader reads runs with its Options: Runs yields the runs at PATHs one
// at a time, Files reads one run from files given by path. It keeps what
// its fast paths learn from one file and run to the next (the benchmark
// names read so far, each held once; how many measurements the last run
// had), and the parsers' notes until they are said. A Loader is for one
// goroutine at a time.
type Loader struct {
	opt Options
	// vs are l.vs: a load asks for them several times a run
	// folder, and the options do not change while it reads.
	vs []VariantSpec
	// warn is l.opt.Warn, or, while a zip artifact is read from its
	// temporary folder, it naming the zip instead (namedByZip).
	warn  func(string)
	notes *noteSet
	// runLen is how many measurements the last run read had: room for
	// as many is made for the next one's at once (run folders hold alike
	// files), rather than grown step by step.
	runLen int
	// names are the benchmark names read so far (formats.ParseOptions.Names).
	names formats.Names
	// expected is Options.ExpectedSkips as a set; skipped the names of
	// the lines the last run's files skipped (Options.Skipped).
	expected map[string]bool
	skipped  []string
}

// New returns a Loader that reads with opt.
func New(opt Options) *Loader {
	l := &Loader{opt: opt, vs: opt.variants(), warn: opt.Warn, names: formats.Names{}}
	if len(opt.ExpectedSkips) > 0 {
		l.expected = map[string]bool{}
		for _, name := range opt.ExpectedSkips {
			l.expected[name] = true
		}
	}
	return l
}

// reportSkipped passes the names of the lines the last run's files
// skipped to Options.Skipped, as the run with that id is yielded, and
// forgets them.
func (l *Loader) reportSkipped(id string) {
	if l.opt.Skipped != nil && len(l.skipped) > 0 {
		l.opt.Skipped(id, l.skipped)
	}
	l.skipped = nil
}

// Runs yields the runs at paths as New(opt).Runs does.
func Runs(paths []string, opt Options) iter.Seq2[data.Run, error] {
	return New(opt).Runs(paths)
}

// All reads every run at paths (Runs, gathered), or returns the first
// error.
func All(paths []string, opt Options) ([]data.Run, error) {
	var runs []data.Run
	for r, err := range Runs(paths, opt) {
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// Files reads one run from result files given by path, as
// New(opt).Files does.
func Files(opt Options) (data.Run, error) { return New(opt).Files() }

// noteSet gathers the parsers' notes of one Runs or Files call, so
// that a note that many result files share (the same benchmark without a
// figure in every run folder) is said once, naming the first file and how
// many more say the same, instead of once per file.
type noteSet struct {
	order []string            // the notes without their file, in order
	files map[string][]string // note -> the files it came from
}

// note records a parser's note about file.
func (l *Loader) note(file, note string) {
	if l.notes == nil {
		l.notes = &noteSet{files: map[string][]string{}}
	}
	rest, ok := strings.CutPrefix(note, file+": ")
	if !ok {
		file, rest = "", note
	}
	if _, seen := l.notes.files[rest]; !seen {
		l.notes.order = append(l.notes.order, rest)
	}
	l.notes.files[rest] = append(l.notes.files[rest], file)
}

// flushNotes passes the gathered notes to Warn.
func (l *Loader) flushNotes() {
	if l.notes == nil {
		return
	}
	for _, rest := range l.notes.order {
		files := l.notes.files[rest]
		msg := rest
		if files[0] != "" {
			msg = files[0] + ": " + rest
		}
		if n := len(files) - 1; n > 0 {
			msg += fmt.Sprintf(" (likewise in %s)", pluralFiles(n))
		}
		l.warnf("%s", msg)
	}
	l.notes = nil
}

func pluralFiles(n int) string {
	if n == 1 {
		return "1 more file"
	}
	return fmt.Sprintf("%d more files", n)
}

func (l *Loader) warnf(format string, args ...any) {
	if l.warn != nil {
		l.warn(fmt.Sprintf(format, args...))
	}
}

func (l *Loader) checkVariants(needFiles bool) error {
	vs := l.vs
	if needFiles && (l.opt.Baseline.File == "" || l.opt.Candidate.File == "") {
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

// Runs yields the runs at paths, one at a time, the way every command
// reads runs. A path is a run folder (it holds the named result files), a
// folder of run folders (each subfolder that holds them is a run, named
// after the subfolder, in natural order: run-2 before run-10), a CSV file
// of many runs, or a zip artifact. Runs come in path order. Each run's id
// is checked (prefixed, valid, not seen before: a run id seen twice is an
// error) before it is yielded. A folder of run folders is never held
// whole, nor a CSV file whose runs' rows are grouped (see
// eachMultiRunFile; any other CSV file is, until it is read to its end,
// since a run's rows may be anywhere in it). A failure to read is yielded
// as the sequence's last error; runs of a path that then fails may have
// been yielded before it. The parsers' notes are said (Warn) when the
// sequence ends, unless its consumer stopped taking runs.
func (l *Loader) Runs(paths []string) iter.Seq2[data.Run, error] {
	return func(yield func(data.Run, error) bool) {
		stopped := false
		err := l.each(paths, func(r data.Run) error {
			if !yield(r, nil) {
				stopped = true
				return errStopped
			}
			return nil
		})
		if err != nil && !stopped {
			yield(data.Run{}, err)
		}
	}
}

// each reads the runs at paths, passing each to fn as it is read (see
// Runs); an error from fn stops the reading and is returned.
func (l *Loader) each(paths []string, fn func(data.Run) error) (err error) {
	if err := checkPaths(paths); err != nil {
		return err
	}
	// The parsers' notes are said at the end, unless Runs's consumer
	// stopped taking runs: an ingest that failed (a conflict, say) stops
	// after a number of runs that depends on the store, and the notes of
	// the files read by then would differ with it. They are dropped then,
	// not left for the Loader's next read.
	defer func() {
		if errors.Is(err, errStopped) {
			l.notes = nil
		} else {
			l.flushNotes()
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
		err := l.loadPath(p, func(r data.Run) error {
			r.ID = l.opt.IDPrefix + r.ID
			if err := data.CheckName("run id", r.ID); err != nil {
				return fmt.Errorf("%s: %w", r.Source, err)
			}
			h := maphash.String(seed, r.ID)
			if _, again := seen[h]; again {
				if prev, ok := firstSource(paths, l.opt, r.ID, n); ok {
					return fmt.Errorf("run id %q appears twice: in %s and in %s", r.ID, prev, r.Source)
				}
			}
			seen[h] = struct{}{}
			n++
			l.reportSkipped(r.ID)
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

// firstSource reads paths again, with a Loader of its own that says
// nothing, and returns the source of the first run with the given id
// among the first n runs.
func firstSource(paths []string, opt Options, id string, n int) (string, bool) {
	opt.Warn, opt.Skipped = nil, nil
	l := New(opt)
	found := errors.New("found")
	var source string
	i := 0
	for _, p := range paths {
		err := l.loadPath(p, func(r data.Run) error {
			if i >= n {
				return errStopped
			}
			i++
			if l.opt.IDPrefix+r.ID == id {
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

// errStopped ends each when Runs's consumer stops taking runs (an ingest
// that failed).
var errStopped = errors.New("stopped")

// loadPath reads the runs at p, passing each to yield as it is read.
func (l *Loader) loadPath(p string, yield func(data.Run) error) error {
	st, err := os.Stat(p)
	if err != nil {
		return pathError(p, err)
	}
	if !st.IsDir() {
		if isZip(p) {
			return l.loadZip(p, yield)
		}
		return l.eachMultiRunFile(p, yield)
	}
	filesNamed := l.opt.Baseline.File != "" && l.opt.Candidate.File != ""
	if measuredFolder(p) && (!filesNamed || !l.allPresent(p)) {
		return l.loadMeasuredFolder(p, yield)
	}
	if !filesNamed && hasMeasuredFolders(p) {
		return l.loadMeasuredFolders(p, yield)
	}
	if err := l.checkVariants(true); err != nil {
		return err
	}
	if present, _, stats := l.statFiles(p); present == len(l.vs) {
		id := l.opt.RunID
		if id == "" {
			id = filepath.Base(filepath.Clean(p))
		}
		r, err := l.loadRunFolder(p, id, stats)
		if err != nil {
			return err
		}
		return yield(r)
	}
	if l.opt.RunID != "" {
		_, missing := l.presentFiles(p)
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
	data.NaturalSort(names)
	found := 0
	for _, name := range names {
		dir := filepath.Join(p, name)
		if zips[name] {
			r, missing, isRun, err := l.loadZipRun(dir)
			switch {
			case err != nil:
				return err
			case !isRun:
				continue
			case len(missing) > 0:
				if !l.opt.SkipIncomplete {
					return fmt.Errorf("artifact %s lacks %s (use --skip-incomplete to skip such artifacts)", dir, strings.Join(missing, " and "))
				}
				l.warnf("skipped incomplete artifact %s: it lacks %s", dir, strings.Join(missing, " and "))
				continue
			}
			found++
			if err := yield(r); err != nil {
				return err
			}
			continue
		}
		present, missing, stats := l.statFiles(dir)
		switch {
		case present == 0 && measuredFolder(dir):
			if err := l.loadMeasuredFolder(dir, yield); err != nil {
				return err
			}
			found++
			continue
		case present == 0:
			continue // not a run folder
		case len(missing) > 0:
			if !l.opt.SkipIncomplete {
				return fmt.Errorf("run folder %s lacks %s (use --skip-incomplete to skip such folders)", dir, strings.Join(missing, " and "))
			}
			l.warnf("skipped incomplete run folder %s: it lacks %s", dir, strings.Join(missing, " and "))
			continue
		}
		r, err := l.loadRunFolder(dir, name, stats)
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
		for _, v := range l.vs {
			files = append(files, v.File)
		}
		msg := fmt.Sprintf("%s holds no run: expected %s in it, or subfolders holding them", p, strings.Join(files, " and "))
		if sets := l.setsBelow(p, names); len(sets) > 0 {
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
func (l *Loader) allPresent(dir string) bool {
	present, _, _ := l.statFiles(dir)
	return present == len(l.vs)
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
func (l *Loader) loadMeasuredFolders(p string, yield func(data.Run) error) error {
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
	data.NaturalSort(names)
	for _, name := range names {
		dir := filepath.Join(p, name)
		if !measuredFolder(dir) {
			continue
		}
		if err := l.loadMeasuredFolder(dir, yield); err != nil {
			return err
		}
	}
	return nil
}

// loadMeasuredFolder reads the run of a folder that 'qoscal measure'
// wrote: the one run of its MeasuredFile (its id the CSV's, unless
// Options.RunID names it), with the labels of its MetaFile.
func (l *Loader) loadMeasuredFolder(dir string, yield func(data.Run) error) error {
	p := filepath.Join(dir, MeasuredFile)
	var runs []data.Run
	if err := l.eachMultiRunFile(p, func(r data.Run) error { runs = append(runs, r); return nil }); err != nil {
		return err
	}
	if len(runs) != 1 {
		return fmt.Errorf("%s holds %d runs: the results of a run folder that 'qoscal measure' wrote are one run", p, len(runs))
	}
	run := runs[0]
	if l.opt.RunID != "" {
		run.ID = l.opt.RunID
	}
	run.Source = dir
	if err := readMeta(dir, &run); err != nil {
		return err
	}
	return yield(run)
}

// presentFiles counts which of the named result files exist in dir and
// lists the missing ones.
func (l *Loader) presentFiles(dir string) (present int, missing []string) {
	present, missing, _ = l.statFiles(dir)
	return present, missing
}

// statFiles is presentFiles that also returns the paths of the files and
// what it found of each (folderFiles), so that reading them need not ask
// again: a run folder took two stats of each file, one here and one in
// OpenFile (issue 19).
func (l *Loader) statFiles(dir string) (present int, missing []string, ff folderFiles) {
	vs := l.vs
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
// of l.vs, and what a stat found of each (the zero fileStat:
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
func (l *Loader) loadRunFolder(dir, id string, ff folderFiles) (data.Run, error) {
	run := data.Run{ID: id, Source: dir}
	if err := l.readVariants(&run, ff.paths, ff.stats); err != nil {
		return data.Run{}, err
	}
	if err := readMeta(dir, &run); err != nil {
		return data.Run{}, err
	}
	return run, nil
}

// Files reads one run from result files given by path: the baseline's
// and the candidate's files (and any extra variants'). The run's id is
// Options.RunID.
func (l *Loader) Files() (data.Run, error) {
	if err := l.checkVariants(true); err != nil {
		return data.Run{}, err
	}
	if err := data.CheckName("run id", l.opt.RunID); err != nil {
		return data.Run{}, err
	}
	run := data.Run{ID: l.opt.RunID}
	var files []string
	for _, v := range l.vs {
		files = append(files, v.File)
	}
	run.Source = strings.Join(files, ",")
	defer l.flushNotes()
	if err := l.readVariants(&run, files, nil); err != nil {
		return data.Run{}, err
	}
	l.reportSkipped(run.ID)
	return run, nil
}

// readVariants reads each variant's result file, files[i] for the i-th of
// l.vs, into run; stats[i], when stats is not nil, is what a
// stat of that file found (a regular file is then not stat-ed again).
func (l *Loader) readVariants(run *data.Run, files []string, stats []fileStat) error {
	run.Baseline, run.Candidate = l.opt.Baseline.Name, l.opt.Candidate.Name
	run.Labels = copyLabels(l.opt.Labels)
	l.skipped = nil
	fileLabels := map[string]*fileLabel{}
	var bad formats.InputError
	type origin struct {
		name string
		line int
	}
	for i, v := range l.vs {
		path := files[i]
		var f *formats.File
		var err error
		if stats != nil && stats[i].kind == kindRegular {
			f, err = formats.OpenRegular(path, stats[i].size, l.opt.Format)
		} else {
			f, err = formats.OpenFile(path, l.opt.Format)
		}
		if err != nil {
			if se, ok := asSyntax(err); ok {
				bad.Add(se)
				continue
			}
			return pathError(path, err)
		}
		f.Options.MaxJSONBytes = l.opt.MaxJSONBytes
		if l.names == nil {
			l.names = formats.Names{}
		}
		f.Options.Names = l.names
		f.Options.ExpectedSkips = l.expected
		if f.Format.MultiRun {
			f.Close()
			return fmt.Errorf("%s is in %s format, which holds whole runs: give it as a PATH, not as a variant's file", path, f.Format.Name)
		}
		// The records are read one at a time into the run's
		// measurements (the variant's are those from start on): a large
		// file is never held as records.
		start := len(run.Measurements)
		stripped := map[benchKey]origin{} // stripped benchmark -> the first name that gave it
		clashed := map[benchKey]bool{}
		var q *formats.Qualifier
		if f.Format.Scoped {
			q = formats.NewQualifier()
		}
		notes, err := formats.EachRecord(f, func(r formats.Record) error {
			m := r.Measurement
			m.Variant = v.Name
			qual := r.Qualified
			if l.opt.StripProcs {
				m.Benchmark = stripProcs(m.Benchmark)
				if qual != "" {
					qual = stripProcs(qual)
				}
				// Two names of one package (or other scope) that
				// become one are one benchmark; of two packages, two.
				k := benchKey{m.Benchmark, qual}
				if o, seen := stripped[k]; !seen {
					stripped[k] = origin{r.Benchmark, r.Line}
				} else if o.name != r.Benchmark && !clashed[k] {
					clashed[k] = true
					bad.Add(&formats.SyntaxError{File: path, Line: r.Line, Msg: fmt.Sprintf("--strip-procs makes %s and %s%s one benchmark, %s: leave out --strip-procs, or run the benchmarks with one -cpu value", r.Benchmark, o.name, lineNote(o.line), m.Benchmark)})
				}
			}
			if q != nil {
				q.Add(m.Benchmark, qual, r.Line)
			}
			if len(run.Measurements) == start {
				// Room for as many measurements as the last run had, or
				// as the parser expects of this file.
				if run.Measurements == nil {
					run.Measurements = make([]data.Measurement, 0, max(l.runLen, f.SizeHint()))
				} else {
					run.Measurements = slices.Grow(run.Measurements, f.SizeHint())
				}
			}
			run.Measurements = append(run.Measurements, m)
			run.Time = earliest(run.Time, r.Time)
			for k, val := range r.Labels {
				fileLabels[k] = fileLabels[k].add(v.Name, val)
			}
			return nil
		})
		f.Close()
		if err != nil {
			// The file's records read before its errors are dropped.
			run.Measurements = run.Measurements[:start]
			// (ie is declared here, not for every file: errors.As makes
			// it a heap allocation.)
			if ie := (*formats.InputError)(nil); errors.As(err, &ie) {
				bad.Merge(ie)
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
			if errs := q.Apply(path, func(i int, name string) { ms[i].Benchmark = name }); errs != nil {
				run.Measurements = run.Measurements[:start]
				bad.Add(errs...)
				continue
			}
		}
		for _, n := range notes {
			l.note(path, n)
		}
		if sk := f.Skipped(); len(sk) > 0 {
			l.skipped = mergeSorted(l.skipped, sk)
		}
		if f.Format.VariantsInside {
			picked := pickVariant(run.Measurements[start:], v.Name, path)
			run.Measurements = append(run.Measurements[:start], picked...)
		}
	}
	mergeFileLabels(run, fileLabels)
	l.runLen = len(run.Measurements)
	return bad.Err()
}

// mergeSorted returns the union of two sorted lists of distinct names,
// sorted.
func mergeSorted(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// loadMultiRunFile reads a file that holds whole runs (CSV).
func (l *Loader) loadMultiRunFile(p string) ([]data.Run, error) {
	f, err := formats.OpenFile(p, l.opt.Format)
	if err != nil {
		return nil, pathError(p, err)
	}
	defer f.Close()
	f.Options.IgnoreColumns = l.opt.IgnoreColumns
	if !f.Format.MultiRun {
		return nil, fmt.Errorf("%s is a single %s result file, not a run: give run folders as PATHs, or name the files with --baseline and --candidate", p, f.Format.Name)
	}
	f.Options.MaxJSONBytes = l.opt.MaxJSONBytes
	g := newRunGrouper(p, &l.opt)
	notes, err := formats.EachRecord(f, func(r formats.Record) error { g.add(r); return nil })
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		l.note(p, n)
	}
	return g.runs()
}

// yieldRuns passes runs to yield in order, stopping at its first error.
func yieldRuns(runs []data.Run, yield func(data.Run) error) error {
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
// next begins. A first, light pass over the file (formats.RunsGrouped) tells
// which: a grouped file is read once more, passing each run on as soon as
// it is whole, holding one run at a time; any other file is held whole, as
// loadMultiRunFile does. Either way the runs, the checks and the errors
// are the same: after any error in the file no further run is passed on,
// and the errors of the whole file are returned together.
func (l *Loader) eachMultiRunFile(p string, yield func(data.Run) error) error {
	if !formats.RunsGrouped(p, l.opt.Format) {
		runs, err := l.loadMultiRunFile(p)
		if err != nil {
			return err
		}
		return yieldRuns(runs, yield)
	}
	f, err := formats.OpenFile(p, l.opt.Format)
	if err != nil {
		return pathError(p, err)
	}
	defer f.Close()
	f.Options.IgnoreColumns = l.opt.IgnoreColumns
	f.Options.MaxJSONBytes = l.opt.MaxJSONBytes
	f.Options.GroupedRuns = true
	g := newRunGrouper(p, &l.opt)
	// pass hands on the run gathered so far, unless an error was found
	// (the file's errors are then reported together at its end), and
	// starts afresh.
	pass := func() error {
		if g.bad.Err() != nil {
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
	notes, err := formats.EachRecord(f, func(rec formats.Record) error {
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
	if err := g.bad.Err(); err != nil {
		return err
	}
	for _, n := range notes {
		l.note(p, n)
	}
	return pass()
}

// runsFromRecords groups a multi-run file's records into runs, in order of
// first appearance, checking that each run's labels and roles agree.
func runsFromRecords(file string, recs []formats.Record, opt *Options) ([]data.Run, error) {
	g := newRunGrouper(file, opt)
	for _, r := range recs {
		g.add(r)
	}
	return g.runs()
}

// runGrouper groups a multi-run file's records into runs as they are read.
type runGrouper struct {
	file      string
	opt       *Options
	byID      map[string]*data.Run
	labelLine map[string]int
	order     []string
	bad       formats.InputError
	seen      map[mkey]int
	ids       formats.NameIDs
}

// mkey names one measurement of a run by the ids of its names (see
// nameIDs): 24 bytes of key a measurement, where four strings took 72.
type mkey struct {
	run, variant, bench, unit int32
	sample                    int
}

func newRunGrouper(file string, opt *Options) *runGrouper {
	return &runGrouper{file: file, opt: opt, byID: map[string]*data.Run{}, labelLine: map[string]int{}, seen: map[mkey]int{}, ids: formats.NameIDs{}}
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
	g.bad.Add(&formats.SyntaxError{File: g.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (g *runGrouper) add(rec formats.Record) {
	id := rec.Run
	r, ok := g.byID[id]
	if !ok {
		r = &data.Run{ID: id, Source: g.file, Labels: copyLabels(g.opt.Labels), Time: rec.Time}
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
	k := mkey{g.ids.ID(id), g.ids.ID(rec.Variant), g.ids.ID(rec.Benchmark), g.ids.ID(rec.Unit), rec.Sample}
	if prev, dup := g.seen[k]; dup {
		g.badf(rec.Line, "run %s: %s sample %d of %s already given on line %d", id, rec.Variant, rec.Sample, rec.Benchmark, prev)
		return
	}
	g.seen[k] = rec.Line
	switch rec.Role {
	case data.RoleBaseline:
		if r.Baseline != "" && r.Baseline != rec.Variant {
			g.badf(rec.Line, "run %s: baseline is %s here but %s elsewhere", id, rec.Variant, r.Baseline)
		}
		r.Baseline = rec.Variant
	case data.RoleCandidate:
		if r.Candidate != "" && r.Candidate != rec.Variant {
			g.badf(rec.Line, "run %s: candidate is %s here but %s elsewhere", id, rec.Variant, r.Candidate)
		}
		r.Candidate = rec.Variant
	}
	r.Measurements = append(r.Measurements, rec.Measurement)
}

func (g *runGrouper) runs() ([]data.Run, error) {
	if err := g.bad.Err(); err != nil {
		return nil, err
	}
	runs := make([]data.Run, 0, len(g.order))
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
	var se *formats.SyntaxError
	var ie *formats.InputError
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
func pickVariant(ms []data.Measurement, variant, path string) []data.Measurement {
	var out []data.Measurement
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
func mergeFileLabels(run *data.Run, fileLabels map[string]*fileLabel) {
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
func (l *Loader) setsBelow(p string, names []string) []string {
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
			if _, missing := l.presentFiles(filepath.Join(p, name, e.Name())); len(missing) == 0 {
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

// benchKey is what a benchmark of a file is: its name and its qualified
// name (formats.Record.Qualified).
type benchKey struct{ name, qual string }

// asSyntax returns err as a *formats.SyntaxError if it is one.
func asSyntax(err error) (*formats.SyntaxError, bool) {
	var se *formats.SyntaxError
	ok := errors.As(err, &se)
	return se, ok
}
