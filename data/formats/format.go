// Package formats reads result files, a record at a time: the text
// decoding (UTF-8 with or without a BOM, UTF-16, CR, LF, CRLF), one parser
// per format behind a registry with detection (Register, LookupFormat),
// the rule every measured value is read by, and the limits of a file.
// Every bad line is a *SyntaxError naming its file and line. A new format
// is one file here that registers itself. It imports the standard
// library, golang.org/x/text and golang.org/x/perf only.
package formats

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data"
)

// Record is one measurement read from a result file, with what the file
// says about the run it belongs to. Single-run formats (ops) leave Run,
// Labels and Role empty, and Variant empty too: the caller knows which
// variant the file holds.
type Record struct {
	data.Measurement
	Line   int               // where in the file the record was read
	Run    string            // run id, for formats that hold many runs
	Labels map[string]string // labels of that run
	Role   string            // RoleBaseline, RoleCandidate or ""
	Time   time.Time         // when the run was measured, if the file says
	// Qualified is the benchmark's name qualified by what else tells it
	// apart in its file (its Go package, its Google Benchmark family, its
	// pytest-benchmark module and group), for formats that have such; ""
	// when the name alone is the benchmark. Records of one file with the
	// same Benchmark and different Qualified are different benchmarks;
	// the loader names them by Qualified (see Qualifier).
	Qualified string
}

// Parser reads records from one result file, a record at a time.
//
// Next returns the next record. A *SyntaxError reports one bad line (file,
// line, message); the parser can go on after it, and the caller decides
// whether to. io.EOF marks the end of the input. Any other error is an I/O
// error after which the parser must not be used.
type Parser interface {
	Next() (Record, error)
}

// Format is one result-file format known to qoscal.
type Format struct {
	// Name is how --input-format names it.
	Name string
	// Doc is a one-line description for help texts.
	Doc string
	// Detect reports whether head, the start of a file's decoded text,
	// looks like this format.
	Detect func(head []byte) bool
	// New returns a parser for the decoded text r of the named file.
	New func(r io.Reader, file string, opt ParseOptions) Parser
	// MultiRun is true for formats that name runs and variants themselves.
	MultiRun bool
	// Exts are file-name extensions (".csv") that settle the format when
	// no format recognises the content, so that a broken file of a known
	// kind gets that format's own error message.
	Exts []string
	// VariantsInside is true for formats whose one file may hold several
	// variants as entries named after them (hyperfine's A/B commands).
	VariantsInside bool
	// Scoped is true for formats whose records carry a Qualified name:
	// the loader then names the benchmarks that share a name in one
	// file by it (see Qualifier).
	Scoped bool
}

var (
	registry = map[string]*Format{}
	// inOrder are the registered formats in name order, the order
	// detection tries them in (kept, not made for every file).
	inOrder []*Format
)

// Register adds a format to the registry. It is called from the init
// function of each format's file; registering a name twice panics, as that
// is a programming error.
func Register(f *Format) {
	if _, dup := registry[f.Name]; dup {
		panic("formats: format registered twice: " + f.Name)
	}
	registry[f.Name] = f
	inOrder = append(inOrder, f)
	sort.Slice(inOrder, func(i, j int) bool { return inOrder[i].Name < inOrder[j].Name })
}

// FormatNames returns the registered format names, sorted.
func FormatNames() []string {
	names := make([]string, len(inOrder))
	for i, f := range inOrder {
		names[i] = f.Name
	}
	return names
}

// LookupFormat returns the named format, or an error listing the known
// ones. "auto" and "" return nil: detect the format from the content.
func LookupFormat(name string) (*Format, error) {
	if name == "" || name == "auto" {
		return nil, nil
	}
	if f, ok := registry[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown format %q: known formats are auto, %s", name, strings.Join(FormatNames(), ", "))
}

// detect returns the first registered format (in name order) whose Detect
// accepts head.
func detect(head []byte) *Format {
	for _, f := range inOrder {
		if f.Detect(head) {
			return f
		}
	}
	return nil
}

// byExt returns the format that claims the file name's extension, if any.
func byExt(name string) *Format {
	ext := strings.ToLower(filepath.Ext(name))
	for _, f := range inOrder {
		for _, e := range f.Exts {
			if ext == e {
				return f
			}
		}
	}
	return nil
}

// ParseOptions say how a parser reads a file.
type ParseOptions struct {
	// IgnoreColumns ignores CSV columns qoscal does not know, instead of
	// refusing the file (a column such as "set" may be what tells runs
	// apart).
	IgnoreColumns bool
	// MaxJSONBytes bounds the size of a JSON result file, which is decoded
	// whole; 0 means DefaultMaxJSONBytes.
	MaxJSONBytes int64
	// GroupedRuns tells a multi-run parser (CSV) that each run's rows are
	// adjacent (see RunsGrouped), so that what it keeps to check a run's
	// rows can be dropped when the next run begins.
	GroupedRuns bool
	// Names, when not nil, holds the benchmark names read so far by the
	// parsers of one load, each once: a folder of run folders repeats the
	// same names in every file. The loader that reads the files keeps it.
	Names Names
	// ExpectedSkips are the benchmark-like lines a parser is expected to
	// skip for want of a figure, by name (a calibration's expected_skips:
	// a benchmark that never prints one): they are still named by
	// Skipped, but no note says they were skipped.
	ExpectedSkips map[string]bool
}

// Names holds strings read from result files, each once (see Intern).
type Names map[string]string

// Intern returns s held once in n (a copy of s, so that what the parser
// read s from is not kept alive); with n nil, or full (maxInterned
// strings), a copy of its own.
func (n Names) Intern(s string) string {
	if c, ok := n[s]; ok {
		return c
	}
	c := strings.Clone(s)
	if n != nil && len(n) < maxInterned {
		n[c] = c
	}
	return c
}

// File is an open result file: its decoded text, its detected encoding and
// its format.
type File struct {
	Name    string
	Format  *Format
	Text    *TextReader
	Options ParseOptions
	closer  io.Closer
	// sizeHint is how many records the parser expects, when it knows
	// (JSON formats, decoded whole); 0 otherwise.
	sizeHint int
	// skipped are the names of the benchmark-like lines the parser
	// skipped (Skipper), once read.
	skipped []string
}

// OpenFile opens a result file, decodes its text and settles its format:
// the given one, or the detected one when format is nil.
//
// A name that is not a regular file (a named pipe, a device, a socket) is
// refused before it is opened: reading a FIFO with no writer would block
// for ever. (A file swapped for a FIFO between the stat and the open is
// not guarded against.)
func OpenFile(name string, format *Format) (*File, error) {
	st, err := StatFile(name)
	if err != nil {
		return nil, err
	}
	return OpenRegular(name, st.Size(), format)
}

// StatFile stats the result file name, as OpenFile does before it opens
// it, and refuses a name that is a folder or not a regular file (a named
// pipe, a device, a socket; a symbolic link to one): opening a FIFO with
// no writer blocks for ever, and reading /dev/zero never ends. Whoever
// reads a result file by other means than OpenFile (a hash of its bytes)
// checks it with StatFile first.
func StatFile(name string) (os.FileInfo, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a folder, expected a result file", name)
	}
	if !st.Mode().IsRegular() {
		return nil, &SyntaxError{File: name, Msg: fmt.Sprintf("not a regular file but %s: expected a result file (save the output to a file first)", data.FileKind(st.Mode()))}
	}
	return st, nil
}

// OpenRegular is OpenFile for a file that a stat found to be a regular
// file of size bytes (a loader that stats a run folder's files once).
func OpenRegular(name string, size int64, format *Format) (*File, error) {
	if size <= wholeMax {
		if buf, err := readWhole(name, size); err == nil {
			return openBytes(name, buf, format)
		}
		// A file that cannot be read so is opened as any other, which
		// fails in the same way and says so as it always has.
	}
	f, err := openRead(name)
	if err != nil {
		return nil, err
	}
	tf, err := openReaderSize(name, f, size, format)
	if err != nil {
		f.Close()
		return nil, err
	}
	tf.closer = f
	return tf, nil
}

// OpenReader reads a result file's text from r, as OpenFile reads a file
// of that name: its encoding decoded, its format the given one or the
// detected one when format is nil.
func OpenReader(name string, r io.Reader, format *Format) (*File, error) {
	return openReaderSize(name, r, -1, format)
}

// openReaderSize settles the format of r, the text of the named file of
// size bytes (-1: unknown), which sizes the reading buffers.
func openReaderSize(name string, r io.Reader, size int64, format *Format) (*File, error) {
	tr, err := newTextReader(name, r, size)
	if err != nil {
		return nil, err
	}
	if format == nil {
		var whole bool
		format, whole = detectText(tr.Peek)
		if format == nil {
			format = byExt(name)
		}
		if format == nil {
			tr.release()
			return nil, noFormatError(name, whole)
		}
	}
	return &File{Name: name, Format: format, Text: tr}, nil
}

// DetectLimit is how much of a result file's text format detection reads
// at most: four lines of the longest a text result file may hold
// (maxLine), so that a log whose first result comes after a build's or a
// warm-up's chatter is read as the harness's own script reads it, and no
// file is read without end to find out that it holds no result.
const DetectLimit = 4 * maxLine

// detectText tells the format from the text that peek shows (its first n
// bytes, or all of it when shorter): from the first sniffLen bytes, where
// nearly every file shows its format, else, when the text goes on, from
// as much of it as DetectLimit allows. whole says whether detection saw
// the whole text.
func detectText(peek func(n int) []byte) (f *Format, whole bool) {
	head := peek(sniffLen)
	if f := detect(head); f != nil || len(head) < sniffLen {
		return f, len(head) < sniffLen
	}
	head = peek(DetectLimit)
	return detect(head), len(head) < DetectLimit
}

func noFormatError(name string, whole bool) error {
	where := "in the file"
	if !whole {
		where = fmt.Sprintf("in its first %s", sizeName(DetectLimit))
	}
	return &SyntaxError{File: name, Msg: fmt.Sprintf("no benchmark results found %s: cannot tell the format (known formats: %s); use --input-format", where, strings.Join(FormatNames(), ", "))}
}

// sizeName says a size of whole MiB as "4 MiB", else in bytes.
func sizeName(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// openBytes settles the format of the named file, read whole into buf (a
// buffer of wholeBufs, which it takes over). Plain text (see plainText)
// is kept as one string that its parser reads from directly; any other
// file is read as openReaderSize reads it, from buf, with the same
// results and errors.
func openBytes(name string, buf *[]byte, format *Format) (*File, error) {
	text, ok := plainText(*buf)
	if !ok {
		f, err := openReaderSize(name, bytes.NewReader(*buf), int64(len(*buf)), format)
		if err != nil {
			putWholeBuf(buf)
			return nil, err
		}
		f.Text.raw = buf
		return f, nil
	}
	if format == nil {
		// What a TextReader's Peek would show.
		var whole bool
		format, whole = detectText(func(n int) []byte { return text[:min(len(text), n)] })
		if format == nil {
			format = byExt(name)
		}
		if format == nil {
			putWholeBuf(buf)
			return nil, noFormatError(name, whole)
		}
	}
	tr := &TextReader{Encoding: EncUTF8, file: name, whole: string(text), isWhole: true}
	putWholeBuf(buf)
	return &File{Name: name, Format: format, Text: tr}, nil
}

// Close closes the underlying file, and gives the buffers of its text
// back for the next file: neither the file's Text nor its parser may be
// used after it.
func (f *File) Close() error {
	f.Text.release()
	if f.closer != nil {
		return f.closer.Close()
	}
	return nil
}

// Parser returns a parser over the file's text.
func (f *File) Parser() Parser { return f.Format.New(f.Text, f.Name, f.Options) }

// SizeHint is how many records the file's parser expects, once reading
// has begun, when it knows (the JSON formats, decoded whole); 0 otherwise.
func (f *File) SizeHint() int { return f.sizeHint }

// Skipped names the benchmark-like lines that the file's parser skipped
// for want of a figure (Skipper), sorted, each once, once the file is
// read (EachRecord); nil when there were none.
func (f *File) Skipped() []string { return f.skipped }

// Skipper is implemented by parsers that skip benchmark-like lines which
// print no figure ("xmalloc-test: threads=4 ... time=0.626 sec"): Skipped
// names them, sorted, each once (at most MaxSkipNames of them).
type Skipper interface {
	Skipped() []string
}

// MaxSkipNames bounds how many names of skipped lines a parser keeps: a
// suite has tens of benchmarks, and a file of a million distinct
// benchmark-like lines must not be held name by name.
const MaxSkipNames = 100

// ReadAll parses every record of a file, and returns the parser's notes
// (see Noter). Syntax errors are gathered into one *InputError (the first
// MaxKept of them, and a count of the rest); an I/O error stops reading. A
// file that yields no record at all is an error too: there is nothing to
// measure. Records of benchmarks that share a name in the file are named
// by their qualified names, as the loader names them (see Qualifier).
func ReadAll(f *File) ([]Record, []string, error) {
	var recs []Record
	var q *Qualifier
	if f.Format.Scoped {
		q = NewQualifier()
	}
	notes, err := eachRecord(f, func(r Record) {
		if q != nil {
			q.Add(r.Benchmark, r.Qualified, r.Line)
		}
		recs = append(recs, r)
	})
	if err != nil {
		return nil, nil, err
	}
	if q != nil {
		if errs := q.Apply(f.Name, func(i int, name string) { recs[i].Benchmark = name }); errs != nil {
			var ie InputError
			ie.Add(errs...)
			return nil, nil, &ie
		}
	}
	return recs, notes, nil
}

// eachRecord parses a file, passing every good record to fn as it is read
// (by value: a pointer would make every record a heap allocation), and
// returns the parser's notes. Errors are as ReadAll's; fn may have seen records of a file that
// turns out to have errors.
func eachRecord(f *File, fn func(Record)) ([]string, error) {
	return EachRecord(f, func(r Record) error { fn(r); return nil })
}

// EachRecord parses a file, passing every good record to fn as it is
// read, and returns the parser's notes, as eachRecord (and ReadAll) do;
// an error of fn stops the reading and is returned as it is. The records
// are checked (their names, the file's limits) before fn sees them.
func EachRecord(f *File, fn func(Record) error) ([]string, error) {
	p := f.Parser()
	if h, ok := p.(interface{ remaining() int }); ok {
		f.sizeHint = h.remaining()
	}
	var bad InputError
	n := 0
	limits := recordLimits{file: f.Name, multi: f.Format.MultiRun, grouped: f.Options.GroupedRuns}
	for {
		r, err := p.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if se, ok := asSyntax(err); ok {
				bad.Add(se)
				continue
			}
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		if err := checkRecordNames(&r); err != nil {
			bad.Add(&SyntaxError{File: f.Name, Line: r.Line, Msg: err.Error()})
			continue
		}
		if se := limits.check(&r); se != nil {
			bad.Add(se)
			return nil, bad.Err() // the file is refused: read no further
		}
		n++
		if err := fn(r); err != nil {
			return nil, err
		}
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}
	var notes []string
	if nt, ok := p.(Noter); ok {
		notes = nt.Notes()
	}
	if sk, ok := p.(Skipper); ok {
		f.skipped = sk.Skipped()
	}
	if n == 0 {
		msg := fmt.Sprintf("no result lines (format %s: %s)", f.Format.Name, f.Format.Doc)
		if len(notes) > 0 {
			// What the parser left out (a benchmark that reported an
			// error) is why there is nothing: say it here, where the
			// notes would otherwise never be shown.
			said := make([]string, len(notes))
			for i, n := range notes {
				said[i] = strings.TrimPrefix(n, f.Name+": ")
			}
			msg += ": every benchmark was left out: " + strings.Join(said, "; ")
		}
		return nil, &SyntaxError{File: f.Name, Msg: msg}
	}
	return notes, nil
}

// checkRecordNames checks the names a record carries: benchmark, variant,
// run id and unit (labels are checked where they are read).
func checkRecordNames(r *Record) error {
	for _, n := range [...]struct{ kind, s string }{
		{"benchmark name", r.Benchmark}, {"variant name", r.Variant}, {"run id", r.Run}, {"unit", r.Unit},
	} {
		if err := data.CheckName(n.kind, n.s); err != nil {
			return err
		}
	}
	return nil
}

// checkLabels checks the keys and values of labels.
func checkLabels(labels map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if err := data.CheckName("label key", k); err != nil {
			return err
		}
		if err := data.CheckName("label "+k+" value", labels[k]); err != nil {
			return err
		}
	}
	return nil
}
