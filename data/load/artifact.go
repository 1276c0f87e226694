package load

// CI artifacts, read as they are downloaded. A job's result files, uploaded
// with actions/upload-artifact, come back either as a folder per artifact
// (gh run download, actions/download-artifact), which is a run folder
// named after the artifact, or as a .zip file per artifact (the Actions
// API), which qoscal reads as the folder it unpacks to, named after the
// zip: run-123456789.zip is the run run-123456789. A qoscal.json beside
// the result files (written by 'qoscal gate --emit-meta' in the job) gives
// the run's labels: os, runner, commit, attempt, github_run, and its time.
//
// A zip is unpacked into a temporary folder, removed when the run is read,
// under limits: no entry may leave the folder (an absolute name, "..", a
// drive letter), nor hold a ":" in its name (legal on Linux and macOS, a
// stream of another file on Windows: refused everywhere, so that an
// artifact reads alike on every runner), no symbolic link or other
// special file, at most
// ZipMaxEntries entries and ZipMaxBytes unpacked bytes, counted as they
// are written rather than trusted from the headers (a zip bomb is stopped
// at the limit). A zip that cannot be read is an error naming it.

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

// Limits of one zip artifact.
var (
	// ZipMaxEntries bounds the number of entries (files and folders).
	ZipMaxEntries = 10000
	// ZipMaxBytes bounds the bytes unpacked, all entries together.
	ZipMaxBytes int64 = 256 << 20
)

// isZip reports whether a file is read as a zip artifact: by its name.
func isZip(p string) bool { return strings.EqualFold(filepath.Ext(p), ".zip") }

// zipStem is a zip artifact's run id: its name without .zip.
func zipStem(p string) string {
	b := filepath.Base(p)
	return b[:len(b)-len(filepath.Ext(b))]
}

// zipLimits is what is left of a zip artifact's limits as it is read.
type zipLimits struct {
	entries int
	bytes   int64
}

// unpacked maps the temporary folder of each zip artifact being read to
// its limits. A zip found inside one (a zip of downloaded artifact zips)
// draws on the limits of the zip it came in, not on limits of its own:
// otherwise a small zip of many small bombs would write the byte limit
// once for each.
var unpacked = struct {
	sync.Mutex
	limits map[string]*zipLimits
}{limits: map[string]*zipLimits{}}

// limitsOf returns the limits a zip at p unpacks under: those of the
// unpacked artifact it is in, else fresh ones; nested tells which.
func limitsOf(p string) (lim *zipLimits, nested bool) {
	unpacked.Lock()
	defer unpacked.Unlock()
	for dir, l := range unpacked.limits {
		if strings.HasPrefix(p, dir+string(filepath.Separator)) {
			return l, true
		}
	}
	return &zipLimits{entries: ZipMaxEntries, bytes: ZipMaxBytes}, false
}

// release removes a folder unzip made.
func release(dir string) {
	unpacked.Lock()
	delete(unpacked.limits, dir)
	unpacked.Unlock()
	os.RemoveAll(dir)
}

// unzip unpacks the zip artifact p into a new temporary folder and
// returns it; the caller releases it.
func unzip(p string) (dir string, err error) {
	// Stat before opening, as every input is: opening a named pipe blocks
	// until something writes to it, which nothing may.
	if st, err := os.Stat(p); err == nil && !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s: not a regular file but %s: expected a zip artifact", p, data.FileKind(st.Mode()))
	}
	zr, err := zip.OpenReader(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			return "", pathError(p, err)
		}
		return "", fmt.Errorf("%s: not a readable zip archive (%w)", p, err)
	}
	defer zr.Close()
	lim, nested := limitsOf(p)
	if len(zr.File) > lim.entries {
		within := ""
		if nested {
			within = " with the archive it is in"
		}
		return "", fmt.Errorf("%s: %d entries, more than the %d a result artifact may hold%s: refused", p, len(zr.File), ZipMaxEntries, within)
	}
	lim.entries -= len(zr.File)
	tmp, err := os.MkdirTemp("", "qoscal-artifact-")
	if err != nil {
		return "", err
	}
	unpacked.Lock()
	unpacked.limits[tmp] = lim
	unpacked.Unlock()
	defer func() {
		if err != nil {
			release(tmp)
		}
	}()
	dir = tmp
	for _, f := range zr.File {
		name, err := zipEntryName(f.Name)
		if err != nil {
			return "", fmt.Errorf("%s: entry %q %w: refused", p, f.Name, err)
		}
		mode := f.Mode()
		// A folder that cannot be made is one an earlier entry holds as a
		// file ("a", then "a/b"): said of the entry and the zip, not of
		// the temporary folder.
		mkdir := func(d string) error {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("%s: entry %q cannot be unpacked (%v): refused", p, f.Name, strings.ReplaceAll(err.Error(), dir, p))
			}
			return nil
		}
		switch {
		case mode.IsDir():
			if err := mkdir(filepath.Join(dir, name)); err != nil {
				return "", err
			}
			continue
		case !mode.IsRegular():
			return "", fmt.Errorf("%s: entry %q is %s, not a file: refused", p, f.Name, data.FileKind(mode))
		case f.Flags&0x1 != 0:
			// Go's reader does not decrypt: the entry would read as
			// damaged, or, stored, as its ciphertext.
			return "", fmt.Errorf("%s: entry %q is encrypted (a password-protected zip): refused; upload-artifact and the Actions API give plain zips", p, f.Name)
		}
		dst := filepath.Join(dir, name)
		if err := mkdir(filepath.Dir(dst)); err != nil {
			return "", err
		}
		n, err := unzipFile(f, dst, lim.bytes)
		if err != nil {
			return "", fmt.Errorf("%s: entry %q: %w", p, f.Name, err)
		}
		lim.bytes -= n
	}
	return dir, nil
}

// zipEntryName checks an entry's name and returns it as a local path: no
// absolute name, no "..", no drive letter or backslash trick, nothing
// that would leave the folder it is unpacked into.
func zipEntryName(name string) (string, error) {
	if strings.ContainsRune(name, '\\') {
		// Some Windows tools write \ as the separator; read it as one,
		// then judge the name like any other.
		name = strings.ReplaceAll(name, "\\", "/")
	}
	if strings.ContainsRune(name, 0) {
		return "", errors.New("has a NUL byte in its name")
	}
	clean := path.Clean(strings.TrimSuffix(name, "/"))
	local := filepath.FromSlash(clean)
	if clean == "." || path.IsAbs(name) || driveLetter(clean) || !filepath.IsLocal(clean) {
		return "", errors.New("would be written outside the artifact's folder")
	}
	if strings.Contains(clean, ":") {
		// Legal on Linux and macOS, but on Windows a name with a colon
		// is a file's stream (hoard.txt:x) or no name at all: refused on
		// every system, so that one artifact reads alike on every runner.
		return "", errors.New(`has a ":" in its name, which a Windows file name cannot hold (it would name a stream of another file); rename the file before uploading the artifact`)
	}
	if !filepath.IsLocal(local) {
		// A name this system reserves (NUL, COM1 on Windows).
		return "", errors.New("is a name this system reserves for a device, not a file")
	}
	return local, nil
}

// driveLetter reports whether a zip entry's name starts with a Windows
// drive (C:), which would put it outside the folder on Windows.
func driveLetter(name string) bool {
	return len(name) >= 2 && name[1] == ':' && ('a' <= name[0]|0x20 && name[0]|0x20 <= 'z')
}

// unzipFile writes one entry to dst, at most budget bytes, and returns how
// many it wrote. The count is of the bytes the entry really unpacks to,
// not its header's claim; the zip reader checks the entry's CRC-32.
func unzipFile(f *zip.File, dst string, budget int64) (int64, error) {
	rc, err := f.Open()
	if err != nil {
		return 0, fmt.Errorf("cannot be read (%w)", err)
	}
	defer rc.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return 0, errors.New("is in the archive twice")
		}
		return 0, err
	}
	n, err := io.Copy(out, io.LimitReader(rc, budget+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("cannot be read (%w): the archive is damaged", err)
	}
	if n > budget {
		return n, fmt.Errorf("unpacks to more than the %d bytes a result artifact may hold: refused (a zip bomb?)", ZipMaxBytes)
	}
	return n, nil
}

// loadZip reads the runs of a zip artifact given as a PATH: one run named
// after the zip when the result files are at its top, else the run
// folders inside it (a zip of downloaded artifact folders).
func (l *Loader) loadZip(p string, yield func(data.Run) error) error {
	dir, err := unzip(p)
	if err != nil {
		return err
	}
	defer release(dir)
	defer l.namedByZip(dir, p)()
	if present, _, stats := l.statFiles(dir); present == len(l.vs) {
		id := l.opt.RunID
		if id == "" {
			id = zipStem(p)
		}
		r, err := l.loadRunFolder(dir, id, stats)
		if err != nil {
			return unzipPaths(err, dir, p)
		}
		r.Source = zipPath(r.Source, dir, p)
		return yield(r)
	}
	// The runs are yielded as they are read; an error of the caller's
	// (yield's) is returned as it is, one of reading names the zip.
	var fromYield error
	err = l.loadPath(dir, func(r data.Run) error {
		r.Source = zipPath(r.Source, dir, p)
		fromYield = yield(r)
		return fromYield
	})
	if err != nil && err != fromYield {
		return unzipPaths(err, dir, p)
	}
	return err
}

// loadZipRun reads a zip artifact found in a folder of run folders as the
// run it holds, named after the zip: its result files at its top, or in
// its one folder (a zip of a run folder). ok is false when the zip holds
// none of the result files there (not a run).
func (l *Loader) loadZipRun(p string) (run data.Run, missing []string, ok bool, err error) {
	dir, err := unzip(p)
	if err != nil {
		return data.Run{}, nil, false, err
	}
	defer release(dir)
	defer l.namedByZip(dir, p)()
	root := dir
	present, missing, stats := l.statFiles(root)
	if sub, ok := onlyFolder(dir); present == 0 && ok {
		// A zip of its run folder (zip -r run-2.zip run-2): the result
		// files are one folder down.
		root = sub
		present, missing, stats = l.statFiles(root)
	}
	if present == 0 {
		// Not a run; but one holding a result file deeper down is said,
		// not passed over: the runs read would be one fewer than given.
		if where := l.findResultFile(dir); where != "" {
			l.warnf("skipped artifact %s: it holds %s, but a run artifact holds its result files at its top or in its one folder", p, zipPath(where, dir, p))
		}
		return data.Run{}, nil, false, nil
	}
	if len(missing) > 0 {
		return data.Run{}, missing, true, nil
	}
	r, err := l.loadRunFolder(root, zipStem(p), stats)
	if err != nil {
		return data.Run{}, nil, true, unzipPaths(err, dir, p)
	}
	r.Source = p
	return r, nil, true, nil
}

// onlyFolder returns the one entry of dir when it is a folder.
func onlyFolder(dir string) (string, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || !entries[0].IsDir() {
		return "", false
	}
	return filepath.Join(dir, entries[0].Name()), true
}

// findResultFile returns the first file under dir, in walk order, named
// like one of the variants' result files, or "".
func (l *Loader) findResultFile(dir string) string {
	names := map[string]bool{}
	for _, v := range l.vs {
		names[filepath.Base(v.File)] = true
	}
	found := ""
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && names[d.Name()] {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// namedByZip makes the warnings said while the zip artifact zipFile is
// read from its temporary folder dir name the zip instead: those said at
// once (Options.Warn), and the parsers' notes gathered until the load ends, which
// the returned function rewrites when the zip is read (the folder is gone
// by the time they are said).
func (l *Loader) namedByZip(dir, zipFile string) func() {
	warn := l.warn
	if warn != nil {
		l.warn = func(s string) { warn(strings.ReplaceAll(s, dir, zipFile)) }
	}
	return func() {
		l.warn = warn
		if l.notes == nil {
			return
		}
		files := make(map[string][]string, len(l.notes.files))
		for i, rest := range l.notes.order {
			named := strings.ReplaceAll(rest, dir, zipFile)
			for _, f := range l.notes.files[rest] {
				files[named] = append(files[named], zipPath(f, dir, zipFile))
			}
			l.notes.order[i] = named
		}
		l.notes.files = files
	}
}

// zipPath names a file of an unpacked artifact by the zip it came from:
// run-1.zip/baseline.txt rather than a temporary folder.
func zipPath(s, dir, zipFile string) string {
	if rest, ok := strings.CutPrefix(s, dir); ok {
		return zipFile + filepath.ToSlash(rest)
	}
	return strings.ReplaceAll(s, dir, zipFile)
}

// unzipPaths rewrites the temporary folder in an error's file names to the
// zip's name.
func unzipPaths(err error, dir, zipFile string) error {
	var ie *formats.InputError
	if errors.As(err, &ie) {
		for _, se := range ie.Errs {
			se.File = zipPath(se.File, dir, zipFile)
		}
		return ie
	}
	var se *formats.SyntaxError
	if errors.As(err, &se) {
		se.File = zipPath(se.File, dir, zipFile)
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), dir, zipFile))
}

// MetaFile is the name of the run's metadata file beside its result files.
const MetaFile = "qoscal.json"

// metaMaxBytes bounds a qoscal.json: a few short fields, and in a run
// folder that 'qoscal measure' wrote (version 2) the log of its
// invocations, about 150 bytes each.
const metaMaxBytes = 16 << 20

// Meta is what a CI job says about its run in qoscal.json: written by
// 'qoscal gate --emit-meta' (version 1) and 'qoscal measure' (version 2),
// read as the run's labels wherever its result files are read from a
// folder or an artifact.
type Meta struct {
	// Version is the file's schema version: 1, or 2 with the fields
	// below Time.
	Version int `json:"version"`
	// RunID and Attempt are the Actions run (GITHUB_RUN_ID,
	// GITHUB_RUN_ATTEMPT).
	RunID   string `json:"run_id,omitempty"`
	Attempt string `json:"attempt,omitempty"`
	// Commit is the commit measured (GITHUB_SHA).
	Commit string `json:"commit,omitempty"`
	// RunnerOS and RunnerName are the runner's (RUNNER_OS, RUNNER_NAME).
	RunnerOS   string `json:"runner_os,omitempty"`
	RunnerName string `json:"runner_name,omitempty"`
	// Time is when the job wrote the file, RFC 3339.
	Time string `json:"time,omitempty"`
	// QoscalVersion is the qoscal that wrote the file (internal/version:
	// v1.2.3, or 0.0.0-dev+COMMIT off a release); optional, within
	// version 2.
	QoscalVersion string `json:"qoscal_version,omitempty"`

	// Labels are the run's labels (measure --label), applied as the
	// labels the other fields give (version 2).
	Labels map[string]string `json:"labels,omitempty"`
	// Environment is the machine the run was measured on (version 2).
	Environment *Environment `json:"environment,omitempty"`
	// Measure is how 'qoscal measure' ran the variants: their commands,
	// the order of the invocations actually run and each one's wall time
	// (version 2; docs/json.md). It is kept as the JSON object it is,
	// compacted, and read by nothing in qoscal: a record for people.
	Measure json.RawMessage `json:"measure,omitempty"`
}

// Environment is a fingerprint of the machine a run was measured on, as
// far as the system tells it: what tells a slow runner from a slow
// commit.
type Environment struct {
	// CPUModel is the processor's name; CPUs the logical processors
	// qoscal may use.
	CPUModel string `json:"cpu_model,omitempty"`
	CPUs     int    `json:"cpus,omitempty"`
	// OS and Arch are Go's names of the system (linux, amd64); Kernel
	// its kernel's release.
	OS     string `json:"os,omitempty"`
	Arch   string `json:"arch,omitempty"`
	Kernel string `json:"kernel,omitempty"`
	// ImageOS and ImageVersion are the GitHub Actions runner image
	// ($ImageOS, $ImageVersion).
	ImageOS      string `json:"image_os,omitempty"`
	ImageVersion string `json:"image_version,omitempty"`
	// LoadBefore and LoadAfter are the load averages over 1, 5 and 15
	// minutes before the first invocation and after the last, where
	// the system has them.
	LoadBefore []float64 `json:"load_before,omitempty"`
	LoadAfter  []float64 `json:"load_after,omitempty"`
}

// MetaVersion is the version of qoscal.json that 'qoscal gate
// --emit-meta' writes; MeasuredMetaVersion the version 'qoscal measure'
// writes, with labels, environment and measure. Both are read.
const (
	MetaVersion         = 1
	MeasuredMetaVersion = 2
)

// ParseMeta reads a qoscal.json: one JSON object of the fields of Meta,
// no other field, each a printable one-line name, the time RFC 3339.
func ParseMeta(file string, b []byte) (*Meta, error) {
	bad := func(format string, args ...any) error {
		return &formats.SyntaxError{File: file, Msg: fmt.Sprintf(format, args...)}
	}
	if len(b) > metaMaxBytes {
		return nil, bad("%d bytes: a %s holds a few short fields (at most %d bytes)", len(b), MetaFile, metaMaxBytes)
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if err := metaKeys(b); err != nil {
		return nil, bad("expected the JSON object that 'qoscal gate --emit-meta' writes: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m Meta
	if err := dec.Decode(&m); err != nil {
		return nil, bad("expected the JSON object that 'qoscal gate --emit-meta' writes: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad("expected one JSON object, found more after it")
	}
	if m.Version != MetaVersion && m.Version != MeasuredMetaVersion {
		return nil, bad("version %d: this qoscal reads versions %d and %d", m.Version, MetaVersion, MeasuredMetaVersion)
	}
	if m.Version == MetaVersion && (m.Labels != nil || m.Environment != nil || m.Measure != nil) {
		return nil, bad("labels, environment and measure are fields of version %d, not %d", MeasuredMetaVersion, MetaVersion)
	}
	for _, f := range []struct{ name, v string }{
		{"run_id", m.RunID}, {"attempt", m.Attempt}, {"commit", m.Commit},
		{"runner_os", m.RunnerOS}, {"runner_name", m.RunnerName}, {"qoscal_version", m.QoscalVersion},
	} {
		if err := data.CheckName(f.name, f.v); err != nil {
			return nil, bad("%v", err)
		}
	}
	for k, v := range m.Labels {
		if k == "" {
			return nil, bad("labels: an empty key")
		}
		if err := data.CheckName("label key", k); err != nil {
			return nil, bad("labels: %v", err)
		}
		if err := data.CheckName("label "+k+" value", v); err != nil {
			return nil, bad("labels: %v", err)
		}
	}
	// Empty fields are as absent ones, so that the file writes back
	// as it reads.
	if len(m.Labels) == 0 {
		m.Labels = nil
	}
	if e := m.Environment; e != nil {
		if len(e.LoadBefore) == 0 {
			e.LoadBefore = nil
		}
		if len(e.LoadAfter) == 0 {
			e.LoadAfter = nil
		}
	}
	if err := m.Environment.check(); err != nil {
		return nil, bad("environment: %v", err)
	}
	if m.Measure != nil {
		if t := bytes.TrimSpace(m.Measure); len(t) == 0 || t[0] != '{' {
			return nil, bad("measure: expected a JSON object")
		}
		var c bytes.Buffer
		if err := json.Compact(&c, m.Measure); err != nil {
			return nil, bad("measure: %v", err)
		}
		m.Measure = c.Bytes()
	}
	if m.Time != "" {
		if _, err := time.Parse(time.RFC3339, m.Time); err != nil {
			return nil, bad("time %q: expected RFC 3339 (2026-12-01T08:00:00Z)", data.Clip(m.Time))
		}
	}
	return &m, nil
}

// check checks an environment's fields: printable one-line names, a
// count that is not negative, load averages of up to three finite
// figures, none negative.
func (e *Environment) check() error {
	if e == nil {
		return nil
	}
	for _, f := range []struct{ name, v string }{
		{"cpu_model", e.CPUModel}, {"os", e.OS}, {"arch", e.Arch}, {"kernel", e.Kernel},
		{"image_os", e.ImageOS}, {"image_version", e.ImageVersion},
	} {
		if err := data.CheckName(f.name, f.v); err != nil {
			return err
		}
	}
	if e.CPUs < 0 {
		return fmt.Errorf("cpus %d: expected a count", e.CPUs)
	}
	for _, l := range []struct {
		name string
		v    []float64
	}{{"load_before", e.LoadBefore}, {"load_after", e.LoadAfter}} {
		if len(l.v) > 3 {
			return fmt.Errorf("%s holds %d figures: expected the load averages over 1, 5 and 15 minutes", l.name, len(l.v))
		}
		for _, x := range l.v {
			if !(x >= 0) || math.IsInf(x, 0) {
				return fmt.Errorf("%s: %v is no load average", l.name, x)
			}
		}
	}
	return nil
}

// metaFields are the keys of qoscal.json, as Meta's JSON tags spell them.
var metaFields = []string{"version", "run_id", "attempt", "commit", "runner_os", "runner_name", "time", "qoscal_version", "labels", "environment", "measure"}

// metaKeys checks the keys of qoscal.json's object as they are written:
// each one of metaFields, exactly, and once. Go's decoder alone would take
// "Commit" for "commit" and the last of two for both, so a file could say
// two commits and be read as the one another JSON reader would not pick.
// A document that is not an object is left to the decoder to refuse.
func metaKeys(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		k, _ := tok.(string)
		switch {
		case !slices.Contains(metaFields, k):
			return fmt.Errorf("unknown field %q (the fields are %s)", data.Clip(k), strings.Join(metaFields, ", "))
		case seen[k]:
			return fmt.Errorf("field %q appears twice", k)
		}
		seen[k] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
	}
	return nil
}

// RunLabels are the run labels the metadata gives: os (lower case),
// runner, commit, attempt, github_run; the environment's (EnvLabels); and
// those of its labels field (which win). Empty fields give none.
func (m *Meta) RunLabels() map[string]string {
	l := map[string]string{}
	for k, v := range map[string]string{
		"os": strings.ToLower(m.RunnerOS), "runner": m.RunnerName, "commit": m.Commit,
		"attempt": m.Attempt, "github_run": m.RunID,
	} {
		if v != "" {
			l[k] = v
		}
	}
	for k, v := range m.Environment.Labels() {
		l[k] = v
	}
	for k, v := range m.Labels {
		l[k] = v
	}
	return l
}

// Labels are the run labels the environment gives (data.LabelCPU and
// the others): cpu (the model), cpus,
// kernel, arch, and image (the image's OS and version, or either alone
// when only one is known); empty fields give none, and a nil environment
// none at all.
func (e *Environment) Labels() map[string]string {
	l := map[string]string{}
	if e == nil {
		return l
	}
	image := strings.TrimSpace(e.ImageOS + " " + e.ImageVersion)
	cpus := ""
	if e.CPUs > 0 {
		cpus = strconv.Itoa(e.CPUs)
	}
	for k, v := range map[string]string{
		data.LabelCPU: e.CPUModel, data.LabelCPUs: cpus, data.LabelKernel: e.Kernel, data.LabelArch: e.Arch, data.LabelImage: image,
	} {
		// A label is a name: the image's two halves, each a name, may
		// together be longer than one.
		if v != "" && data.CheckName(k, v) == nil {
			l[k] = v
		}
	}
	return l
}

// readMeta applies dir's qoscal.json, if there is one, to run: its labels
// (a label given on the command line wins) and its time when the result
// files gave none.
func readMeta(dir string, run *data.Run) error {
	p := filepath.Join(dir, MetaFile)
	if _, err := statQuick(p); errors.Is(err, os.ErrNotExist) {
		return nil // most run folders have none: asked without os.Stat's allocations
	}
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return pathError(p, err)
	case !st.Mode().IsRegular():
		// Said rather than passed over: the run would lose its labels.
		return &formats.SyntaxError{File: p, Msg: fmt.Sprintf("not a regular file but %s: expected the JSON file that 'qoscal gate --emit-meta' writes", data.FileKind(st.Mode()))}
	}
	if st.Size() > metaMaxBytes {
		return &formats.SyntaxError{File: p, Msg: fmt.Sprintf("%d bytes: a %s holds a few short fields (at most %d bytes)", st.Size(), MetaFile, metaMaxBytes)}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return pathError(p, err)
	}
	m, err := ParseMeta(p, b)
	if err != nil {
		return err
	}
	for k, v := range m.RunLabels() {
		if run.Labels == nil {
			run.Labels = map[string]string{}
		}
		if _, given := run.Labels[k]; !given {
			run.Labels[k] = v
		}
	}
	if run.Time.IsZero() && m.Time != "" {
		run.Time, _ = time.Parse(time.RFC3339, m.Time)
	}
	return nil
}
