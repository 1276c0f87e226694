package load

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

// Run folders: a result file per variant (or the results.csv of qoscal
// measure), read into one run with the labels of its files.

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

// benchKey is what a benchmark of a file is: its name and its qualified
// name (formats.Record.Qualified).
type benchKey struct{ name, qual string }
