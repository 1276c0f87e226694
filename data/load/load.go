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
		return VariantSpec{}, fmt.Errorf("%w (the stem of %s): name the variant with NAME=FILE", err, s)
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

// asSyntax returns err as a *formats.SyntaxError if it is one.
func asSyntax(err error) (*formats.SyntaxError, bool) {
	var se *formats.SyntaxError
	ok := errors.As(err, &se)
	return se, ok
}
