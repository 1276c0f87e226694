package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
	xunicode "golang.org/x/text/encoding/unicode"
)

// FileSchema names the calibration file format; FileVersion is the
// newest version this build writes and reads. Version 2 added the model
// (Matrix) and params.family_alpha; a version 1 file, without the matrix,
// is refused (ErrVersion1). Version 3 adds variance_components, and is
// written only for a calibration that has them (a file without them stays
// version 2, which older builds read); version 4 likewise adds
// environments, by and profiles (environment.go), and version 5
// false_positive_rate.rule, the margin rule's own rate (margin.go),
// written only for a margin floor.
const (
	FileSchema  = "qoscal-calibration"
	FileVersion = 5
	// minFileVersion is the oldest version read.
	MinFileVersion = 2
	// varianceVersion is the version that adds variance_components.
	VarianceVersion = 3
)

// MaxFileBytes is the largest calibration file ReadFile reads: 128 MiB.
// A file's size is about that of its matrix, 42 MB for 100,000 runs of 20
// benchmarks at full precision (calibrate.TestFileSize), so the limit
// leaves three times that; a larger file is refused before it is read, so
// that no file makes the gate hold an unbounded amount of memory.
const MaxFileBytes = 128 << 20

// ErrVersion1 is the error of a version 1 calibration file: it has no
// matrix, so its floor is a number nothing checks (a hand-edited 0.01
// would pass anything). The remedy, writing the file again from the same
// runs, is the caller's to word.
var ErrVersion1 = errors.New("version 1 has no matrix (the calibration runs' log ratios), so its floor cannot be checked against the runs it came from")

// File is the calibration file that a recommendation is written to
// (NewFile) and the gate reads (ReadFile). Its JSON layout is documented in
// docs/json.md; fields are only ever added within a version.
type File struct {
	Schema    string                    `json:"schema"`
	Version   int                       `json:"version"`
	Created   string                    `json:"created"` // RFC 3339, UTC
	Floor     float64                   `json:"floor"`
	FloorText string                    `json:"floor_text"` // the floor with the step's decimals
	Method    Method                    `json:"method"`
	Params    FileParams                `json:"params"`
	Baseline  string                    `json:"baseline"`
	Candidate string                    `json:"candidate"`
	Suite     []string                  `json:"suite"`
	Units     map[string]calibrate.Unit `json:"units"`
	Runs      int                       `json:"runs"`
	Observed  FileObserved              `json:"observed"`
	FPR       FileFPR                   `json:"false_positive_rate"`
	Detection FileDetection             `json:"detection"`
	Health    map[string]Health         `json:"baseline_health"`
	Labels    map[string]string         `json:"labels"`
	Tool      string                    `json:"tool"`
	// Variance is the variance components of the log score, when the
	// calibration runs were measured with repetitions: its SDs between
	// jobs and between the repetitions inside one (optional; version 2
	// files without it are read as before). The gate judges the mean of
	// a run's repetitions with the variance it gives (GateResult
	// .RepetitionFloor).
	Variance *FileVariance `json:"variance_components,omitempty"`
	// ExpectedSkips name the benchmark-like lines that every calibration
	// run's result files printed without a figure (a benchmark that never
	// prints one, such as xmalloc-test's ops/sec): sorted, each once;
	// omitted when none. A gated run that skips them is said nothing of;
	// a skip not named here is still a warning.
	ExpectedSkips []string `json:"expected_skips,omitempty"`
	// Environments are the CPU models and runner images the runs carried
	// as labels, with how many runs each (SetEnvironments; version 4,
	// omitted when no run carried them).
	Environments []FileEnvironment `json:"environments,omitempty"`
	// By and Profiles are the calibration's profiles (recommend --by):
	// the label they are by, and one calibration per value of it among
	// the runs, each on those runs alone (version 4, omitted without
	// them). The fields above stay the calibration of all the runs.
	By       string        `json:"by,omitempty"`
	Profiles []FileProfile `json:"profiles,omitempty"`
	// Matrix is the calibration's model: every run's log ratio per suite
	// benchmark. A file read by ParseFile always has one.
	Matrix *Matrix `json:"matrix,omitempty"`
	// Path is the name the file was read from (ParseFile's path), for
	// messages about it; it is not part of the file.
	Path string `json:"-"`
	// SHA256 is the SHA-256 of the file's bytes as ReadFile read them, in
	// lower-case hex: the calibration's identity in the verdict ledger
	// (gate --record, audit). Not part of the file; "" for a file not
	// read by ReadFile.
	SHA256 string `json:"-"`
}

// FileVariance is the variance components of the log score over the
// calibration runs measured with repetitions (Analysis.Variance).
type FileVariance struct {
	// Between and Within are the SDs of the log score between jobs and
	// between the repetitions of one job.
	Between float64 `json:"between"`
	Within  float64 `json:"within"`
	// MeanLog is the mean over those runs of their repetitions' mean
	// log score.
	MeanLog float64 `json:"mean_log"`
	// Runs and Repetitions are how many runs it rests on and how many
	// repetitions they hold in all.
	Runs        int `json:"runs"`
	Repetitions int `json:"repetitions"`
}

// SDOfMean is the SD of the mean log score of m repetitions of one job:
// √(between² + within²/m).
func (v *FileVariance) SDOfMean(m int) float64 {
	return math.Sqrt(v.Between*v.Between + v.Within*v.Within/float64(m))
}

// MeanVar is the variance of MeanLog as an estimate of a healthy job's
// mean: a run's variance over the runs it rests on, that variance being
// the model's between² + within²/r̄ (r̄ the mean repetitions a run) or
// the runs' own sdLog², whichever is larger. Every job is compared with
// the same estimate, so its error acts on one job's comparison as a job
// effect does: without it a job of many repetitions was judged against
// the calibration's mean as if it were exact, and with between estimated
// 0 (common with few runs) the floor closed in on that mean and failed
// the calibrated code itself (docs/STATS.md 2.15).
func (v *FileVariance) MeanVar(sdLog float64) float64 {
	return max(v.RunVar(), sdLog*sdLog) / float64(v.Runs)
}

// RunVar is the variance of a calibration run's log score under the
// model: between² + within²/r̄, r̄ the mean repetitions a run.
func (v *FileVariance) RunVar() float64 {
	rbar := float64(v.Repetitions) / float64(v.Runs)
	return v.Between*v.Between + v.Within*v.Within/rbar
}

// EffectiveBetween is the SD of a job's effect against the calibration's
// mean: √(between² + MeanVar(sdLog)).
func (v *FileVariance) EffectiveBetween(sdLog float64) float64 {
	return math.Sqrt(v.Between*v.Between + v.MeanVar(sdLog))
}

// SDOfMeanVsCalibration is the SD of the difference between the mean log
// score of m repetitions of one new job and MeanLog: the job's effect,
// the calibration mean's error with it (EffectiveBetween), and the
// repetitions' noise, √(EffectiveBetween² + within²/m).
func (v *FileVariance) SDOfMeanVsCalibration(m int, sdLog float64) float64 {
	b := v.EffectiveBetween(sdLog)
	return math.Sqrt(b*b + v.Within*v.Within/float64(m))
}

// FileParams are the method's parameters.
type FileParams struct {
	Margin     float64 `json:"margin"`
	Step       float64 `json:"step"`
	Alpha      float64 `json:"alpha,omitempty"`
	Coverage   float64 `json:"coverage,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	Seed       uint64  `json:"seed"`
	// FamilyAlpha is the bands' family-wise rate (version 2).
	FamilyAlpha float64 `json:"family_alpha,omitempty"`
	// TargetFPR is the target-fpr method's target (version 2).
	TargetFPR float64 `json:"target_fpr,omitempty"`
}

// FileObserved summarises the calibration scores.
type FileObserved struct {
	Min     float64 `json:"min"`
	Median  float64 `json:"median"`
	Max     float64 `json:"max"`
	MeanLog float64 `json:"mean_log"`
	SDLog   float64 `json:"sd_log"`
}

// FileFPR are the floor's estimated false-positive rates.
type FileFPR struct {
	Predictive       NullFloat `json:"predictive"`
	Upper95          NullFloat `json:"upper95"`
	DistributionFree NullFloat `json:"distribution_free"`
	// Rule is the margin rule's own rate (MarginRuleRate on the matrix's
	// scores with params.margin, step and seed; version 5): the rate a
	// margin floor claims, where the predictive rate is that of the floor
	// taken as given (docs/STATS.md 2.1). Only in a margin file (and its
	// profiles, each on its own matrix); omitted otherwise and in older
	// files, which claim the predictive rate as before.
	Rule *NullFloat `json:"rule,omitempty"`
}

// StatedRate is the model's rate the file states for its floor (gate's
// cost sentence, audit's claim): the
// margin rule's own rate when the file has it (false_positive_rate.rule),
// else the predictive rate.
func (f *File) StatedRate() float64 {
	if r := f.FPR.Rule; r != nil && !math.IsNaN(float64(*r)) {
		return float64(*r)
	}
	return float64(f.FPR.Predictive)
}

// FileDetection are the floor's detection figures.
type FileDetection struct {
	R50 NullFloat `json:"r50"`
	R90 NullFloat `json:"r90"`
}

// NullFloat is a figure that may be undefined (NaN: a model-based rate
// of scores that never varied); it is null in JSON.
type NullFloat float64

func (f NullFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

func (f *NullFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = NullFloat(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = NullFloat(v)
	return nil
}

// Health is one benchmark's baseline history in log space: the median and
// scaled MAD of ln(baseline value) over the calibration runs, for the
// gate's runner-health check (STATS.md 3.4).
type Health struct {
	MedianLog float64 `json:"median_log"`
	MADLog    float64 `json:"mad_log"`
}

// ExpectSkips sets ExpectedSkips from the lines each run's result files
// skipped (by run id, as load.Options.Skipped names them): the names
// skipped in every run the calibration rests on (Matrix.Runs). A name
// skipped in some runs only is a benchmark that sometimes fails to print,
// which a gate should still warn of.
func (f *File) ExpectSkips(skipped map[string][]string) {
	f.ExpectedSkips = nil
	if f.Matrix == nil || len(f.Matrix.Runs) == 0 {
		return
	}
	count := map[string]int{}
	for _, id := range f.Matrix.Runs {
		for _, name := range skipped[id] {
			count[name]++
		}
	}
	for name, n := range count {
		if n == len(f.Matrix.Runs) {
			f.ExpectedSkips = append(f.ExpectedSkips, name)
		}
	}
	sort.Strings(f.ExpectedSkips)
}

// Write writes the file as indented JSON.
//
// The matrix is written one run to a line, so that a file of 1,000 runs
// stays readable in a diff (and about 200 bytes a run for 10 benchmarks);
// the values keep full precision, so that the scores and the floor follow
// from it bit for bit.
func (f *File) Write(w io.Writer) error {
	c := *f
	c.Matrix, c.Profiles = nil, nil
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return err
	}
	if f.Matrix != nil || len(f.Profiles) > 0 {
		var buf bytes.Buffer
		buf.Write(bytes.TrimSuffix(b, []byte("\n}")))
		if len(f.Profiles) > 0 {
			// Each profile as the file itself: its fields indented, its
			// matrix one run to a line.
			buf.WriteString(",\n  \"profiles\": [")
			for i, p := range f.Profiles {
				if i > 0 {
					buf.WriteByte(',')
				}
				pc := p
				pc.Matrix = nil
				pb, err := json.MarshalIndent(&pc, "    ", "  ")
				if err != nil {
					return err
				}
				buf.WriteString("\n    ")
				buf.Write(bytes.TrimSuffix(pb, []byte("\n    }")))
				if p.Matrix != nil {
					buf.WriteString(",\n      \"matrix\": ")
					if err := writeMatrix(&buf, p.Matrix, "      "); err != nil {
						return err
					}
				}
				buf.WriteString("\n    }")
			}
			buf.WriteString("\n  ]")
		}
		if m := f.Matrix; m != nil {
			buf.WriteString(",\n  \"matrix\": ")
			if err := writeMatrix(&buf, m, "  "); err != nil {
				return err
			}
		}
		buf.WriteString("\n}")
		b = buf.Bytes()
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeMatrix writes a matrix as an object whose closing brace is at
// indent: its runs and benchmarks on a line each, then its log ratios
// one run to a line.
func writeMatrix(buf *bytes.Buffer, m *Matrix, indent string) error {
	line := func(prefix string, v any, suffix string) error {
		j, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.WriteString(prefix)
		buf.Write(j)
		buf.WriteString(suffix)
		return nil
	}
	buf.WriteString("{\n")
	if err := line(indent+`  "runs": `, m.Runs, ",\n"); err != nil {
		return err
	}
	if err := line(indent+`  "benchmarks": `, m.Benchmarks, ",\n"); err != nil {
		return err
	}
	buf.WriteString(indent + `  "log_ratio": [`)
	for i, row := range m.LogRatio {
		sep := ","
		if i == len(m.LogRatio)-1 {
			sep = ""
		}
		if err := line("\n"+indent+"    ", row, sep); err != nil {
			return err
		}
	}
	buf.WriteString("\n" + indent + "  ]\n" + indent + "}")
	return nil
}

// WriteFile writes the calibration to path, atomically: a reader never sees
// half a file.
func (f *File) WriteFile(path string) error {
	tmp, err := os.CreateTemp(dirOf(path), ".qoscal-calibration-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := f.Write(tmp); err != nil {
		tmp.Close()
		return err
	}
	// CreateTemp makes the file private; a calibration is committed and
	// read by CI jobs, so make it readable as os.Create would.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a folder: expected the calibration file's name, such as %s", path, filepath.Join(path, "gate.json"))
	} else if err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a file: the calibration would replace it", path, data.FileKind(st.Mode()))
	}
	return os.Rename(tmp.Name(), path)
}

func dirOf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if os.IsPathSeparator(path[i]) {
			return path[:i+1]
		}
	}
	return "."
}

// ReadFile reads and checks a calibration file: its schema and version,
// and that every field the gate needs is there and sane.
//
// A name that is not a regular file (a named pipe, a device, a socket) is
// refused before it is opened, as a result file is: a FIFO would block the
// gate for ever, and /dev/zero would be read without end. A file larger
// than MaxFileBytes is refused before it is read, and one that grows past
// it while it is read, when it does.
func ReadFile(path string) (*File, error) { return readFile(path, MaxFileBytes) }

// readFile is ReadFile with the size limit given.
func readFile(path string, limit int64) (*File, error) {
	st, err := os.Stat(path)
	if err == nil && !st.IsDir() && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("calibration file %s: not a regular file but %s", path, data.FileKind(st.Mode()))
	}
	if err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, fmt.Errorf("calibration file %s: %d bytes, more than the %s a calibration file may hold", path, st.Size(), sizeText(limit))
	}
	b, err := readLimited(path, limit)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("calibration file %s: no such file", path)
		}
		return nil, fmt.Errorf("calibration file %s: %v", path, err)
	}
	if int64(len(b)) > limit {
		// It grew after the size was checked.
		return nil, fmt.Errorf("calibration file %s: more than the %s a calibration file may hold", path, sizeText(limit))
	}
	sum := sha256.Sum256(b)
	if b, err = decodeText(b); err != nil {
		return nil, fmt.Errorf("calibration file %s: %v", path, err)
	}
	f, err := ParseFile(path, b)
	if err != nil {
		return nil, err
	}
	f.SHA256 = hex.EncodeToString(sum[:])
	return f, nil
}

// decodeText returns a calibration file's bytes as UTF-8 JSON text, as
// result files are read: a UTF-8 byte-order mark (an editor on Windows)
// is dropped, and UTF-16 (PowerShell's Out-File and > write it), with a
// byte-order mark or without one, is decoded. Without a mark, UTF-16 is
// known as RFC 4627 (section 3) knows it: JSON text begins with an ASCII
// character, so its first two bytes are 00 xx in UTF-16BE and xx 00 in
// UTF-16LE.
func decodeText(b []byte) ([]byte, error) {
	var order xunicode.Endianness
	var what string
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return b[3:], nil
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		order, what, b = xunicode.LittleEndian, "little-endian, with a byte-order mark", b[2:]
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		order, what, b = xunicode.BigEndian, "big-endian, with a byte-order mark", b[2:]
	case len(b) >= 2 && b[0] != 0 && b[1] == 0:
		order, what = xunicode.LittleEndian, "little-endian"
	case len(b) >= 2 && b[0] == 0 && b[1] != 0:
		order, what = xunicode.BigEndian, "big-endian"
	default:
		return b, nil
	}
	if len(b)%2 != 0 {
		n := len(b)
		if strings.Contains(what, "mark") {
			n += 2
		}
		return nil, fmt.Errorf("UTF-16 (%s) with an odd number of bytes (%d): the file is cut", what, n)
	}
	out, err := xunicode.UTF16(order, xunicode.IgnoreBOM).NewDecoder().Bytes(b)
	if err != nil {
		return nil, fmt.Errorf("UTF-16 (%s) that does not decode: %v", what, err)
	}
	return out, nil
}

// readLimited reads the file at path, at most limit+1 bytes of it (one
// more than the limit, to tell a file at the limit from one past it).
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// sizeText is a size limit in MiB and in bytes: "128 MiB (134217728 bytes)".
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB (%d bytes)", n>>20, n)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ParseFile parses the bytes of a calibration file named path and checks
// every field: that it is there, has the right type, and holds a value a
// file written from a recommendation could hold (the floor on its
// step's grid, equal to floor_text and what its method gives on the
// matrix; the observed scores those of the matrix; rates in [0, 1]; every
// suite benchmark with a unit and a direction; names free of control
// characters). A file edited by hand, cut, or made to fool the gate is
// refused with the field named, never read as something else: so is a
// field the reader does not know (a later version that adds one raises
// the version), a key given twice, and a version 1 file (ErrVersion1).
func ParseFile(path string, b []byte) (*File, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("calibration file %s: %s", path, fmt.Sprintf(format, args...))
	}
	var head struct {
		Schema  string `json:"schema"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, bad("not valid JSON: %v", jsonErr(b, err))
	}
	if head.Schema != FileSchema {
		return nil, bad("schema is %q, expected %q: not a qoscal calibration file", clipText(head.Schema), FileSchema)
	}
	if head.Version > FileVersion {
		return nil, bad("version %d is newer than this qoscal reads (%d): upgrade qoscal", head.Version, FileVersion)
	}
	if head.Version < 1 {
		return nil, bad("version %d: expected %d", head.Version, FileVersion)
	}
	present, err := checkKeys(b)
	if err != nil {
		return nil, fmt.Errorf("calibration file %s: %w", path, err)
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, bad("%v", jsonErr(b, err))
	}
	if f.Version < MinFileVersion {
		return nil, fmt.Errorf("calibration file %s: %w", path, ErrVersion1)
	}
	for _, k := range requiredFields {
		if !present[k] {
			return nil, bad("field %s is missing", k)
		}
	}
	if err := f.check(present); err != nil {
		return nil, fmt.Errorf("calibration file %s: %w", path, err)
	}
	f.Path = path
	return &f, nil
}

// requiredFields are the fields every file has, besides those of params
// (checkParams), with a value other than null.
var requiredFields = []string{
	"schema", "version", "created", "floor", "floor_text", "method", "params", "baseline", "candidate",
	"suite", "units", "runs", "observed", "false_positive_rate", "detection", "baseline_health", "labels", "tool",
	"matrix", "matrix.runs", "matrix.benchmarks", "matrix.log_ratio",
}

// check validates the decoded fields; present holds the fields written
// with a value other than null (checkKeys), for the sub-fields that must
// be there.
func (f *File) check(present map[string]bool) error {
	if _, err := time.Parse(time.RFC3339, f.Created); err != nil {
		return fmt.Errorf("field created %q: expected an RFC 3339 time like 2026-12-01T08:00:00Z", clipText(f.Created))
	}
	switch f.Method {
	case MethodTargetFPR, MethodMargin, MethodPrediction, MethodTolerance:
	default:
		return fmt.Errorf("field method %q: expected target-fpr, margin, prediction or tolerance", clipText(string(f.Method)))
	}
	if err := f.checkParams(present); err != nil {
		return err
	}
	if err := checkName("baseline", f.Baseline); err != nil {
		return err
	}
	if err := checkName("candidate", f.Candidate); err != nil {
		return err
	}
	if f.Baseline == f.Candidate {
		return fmt.Errorf("fields baseline and candidate are both %q: expected two variants", f.Baseline)
	}
	if len(f.Suite) == 0 {
		return errors.New("field suite is empty: expected the benchmark names the floor was calibrated on")
	}
	inSuite := map[string]bool{}
	for i, name := range f.Suite {
		if err := checkName(fmt.Sprintf("suite[%d]", i), name); err != nil {
			return err
		}
		if inSuite[name] {
			return fmt.Errorf("field suite names %s twice", name)
		}
		inSuite[name] = true
		u, ok := f.Units[name]
		if !ok {
			return fmt.Errorf("field units has no entry for suite benchmark %s", name)
		}
		if err := checkName("units."+name+".unit", u.Unit); err != nil {
			return err
		}
		if u.Direction != "higher" && u.Direction != "lower" {
			return fmt.Errorf("field units.%s.direction %q: expected higher or lower", name, clipText(u.Direction))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(f.Units)) {
		if !inSuite[name] {
			return fmt.Errorf("field units names %s, which is not in the suite", clipText(name))
		}
	}
	if f.Runs < spread.MinCalibrationRuns {
		return fmt.Errorf("field runs %d: the %s method needs at least %d calibration runs, as qoscal recommend does", f.Runs, f.Method, spread.MinCalibrationRuns)
	}
	if err := f.checkObserved(); err != nil {
		return err
	}
	if err := f.checkFloor(); err != nil {
		return err
	}
	if err := f.checkModel(); err != nil {
		return err
	}
	if v := f.Variance; v != nil {
		switch {
		case f.Version < VarianceVersion:
			return fmt.Errorf("field variance_components is a field of version %d, and this file says version %d", VarianceVersion, f.Version)
		case !isFinite(v.Between) || !isFinite(v.Within) || v.Between < 0 || v.Within < 0:
			return fmt.Errorf("field variance_components: between %v and within %v: expected SDs, finite and >= 0", v.Between, v.Within)
		case !isFinite(v.MeanLog):
			return fmt.Errorf("field variance_components.mean_log %v: expected a finite log score", v.MeanLog)
		case v.Runs < 2 || v.Runs > f.Runs:
			return fmt.Errorf("field variance_components.runs %d: expected 2 to the %d calibration runs", v.Runs, f.Runs)
		case v.Repetitions <= v.Runs:
			return fmt.Errorf("field variance_components.repetitions %d: expected more than its %d runs (some run with 2 repetitions or more)", v.Repetitions, v.Runs)
		}
		if err := f.checkVariance(); err != nil {
			return err
		}
	}
	for _, r := range []struct {
		name string
		v    NullFloat
	}{{"predictive", f.FPR.Predictive}, {"upper95", f.FPR.Upper95}, {"distribution_free", f.FPR.DistributionFree}} {
		if v := float64(r.v); !math.IsNaN(v) && !(v >= 0 && v <= 1) {
			return fmt.Errorf("field false_positive_rate.%s %v: expected a rate in [0, 1] or null", r.name, v)
		}
	}
	for _, r := range []struct {
		name string
		v    NullFloat
	}{{"r50", f.Detection.R50}, {"r90", f.Detection.R90}} {
		if v := float64(r.v); !math.IsNaN(v) && !(v > 0 && !math.IsInf(v, 0)) {
			return fmt.Errorf("field detection.%s %v: expected a regression factor > 0 or null", r.name, v)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(f.Health)) {
		h := f.Health[name]
		if err := checkName("baseline_health key", name); err != nil {
			return err
		}
		if !isFinite(h.MedianLog) || !isFinite(h.MADLog) || h.MADLog < 0 {
			return fmt.Errorf("field baseline_health.%s: expected a finite median_log and a finite mad_log >= 0", name)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(f.Labels)) {
		if err := checkName("labels key", k); err != nil {
			return err
		}
		if err := checkText("labels."+k, f.Labels[k]); err != nil {
			return err
		}
	}
	for i, name := range f.ExpectedSkips {
		if err := checkName(fmt.Sprintf("expected_skips[%d]", i), name); err != nil {
			return err
		}
		if i > 0 && name <= f.ExpectedSkips[i-1] {
			return fmt.Errorf("field expected_skips: %s after %s: expected the names sorted, each once", clipText(name), clipText(f.ExpectedSkips[i-1]))
		}
	}
	if err := f.checkEnvironments(); err != nil {
		return err
	}
	if err := f.checkProfiles(present); err != nil {
		return err
	}
	return checkText("tool", f.Tool)
}

func (f *File) checkParams(present map[string]bool) error {
	for _, k := range []string{"margin", "step", "seed"} {
		if !present["params."+k] {
			return fmt.Errorf("field params.%s is missing", k)
		}
	}
	p := f.Params
	if !(p.Margin >= 0 && p.Margin < 1) {
		return fmt.Errorf("field params.margin %v: expected a fraction in [0, 1)", p.Margin)
	}
	if !(p.Step > 0 && p.Step <= 1) {
		return fmt.Errorf("field params.step %v: expected a step in (0, 1]", p.Step)
	}
	switch f.Method {
	case MethodTargetFPR:
		if !(p.TargetFPR > 0 && p.TargetFPR < 0.5) {
			return fmt.Errorf("field params.target_fpr %v: the target-fpr method needs a rate in (0, 0.5)", p.TargetFPR)
		}
	case MethodPrediction:
		if !(p.Alpha > 0 && p.Alpha < 0.5) {
			return fmt.Errorf("field params.alpha %v: the prediction method needs alpha in (0, 0.5)", p.Alpha)
		}
	case MethodTolerance:
		if !(p.Coverage > 0.5 && p.Coverage < 1) {
			return fmt.Errorf("field params.coverage %v: the tolerance method needs coverage in (0.5, 1)", p.Coverage)
		}
		if !(p.Confidence > 0 && p.Confidence < 1) {
			return fmt.Errorf("field params.confidence %v: the tolerance method needs confidence in (0, 1)", p.Confidence)
		}
	}
	return nil
}

// checkObserved checks the summary of the calibration scores: positive,
// finite, ordered, and a geometric mean exp(mean_log) between the lowest
// and the highest.
func (f *File) checkObserved() error {
	o := f.Observed
	for _, v := range []struct {
		name string
		v    float64
	}{{"min", o.Min}, {"median", o.Median}, {"max", o.Max}} {
		if !isFinite(v.v) || !(v.v > 0) {
			return fmt.Errorf("field observed.%s %v: expected a score > 0", v.name, v.v)
		}
	}
	if !(o.Min <= o.Median && o.Median <= o.Max) {
		return fmt.Errorf("fields observed.min %v, median %v and max %v: expected min <= median <= max", o.Min, o.Median, o.Max)
	}
	if !isFinite(o.MeanLog) || !isFinite(o.SDLog) || o.SDLog < 0 {
		return fmt.Errorf("fields observed.mean_log %v and sd_log %v: expected finite numbers, sd_log >= 0", o.MeanLog, o.SDLog)
	}
	if g := math.Exp(o.MeanLog); !(g >= o.Min*(1-1e-9) && g <= o.Max*(1+1e-9)) {
		return fmt.Errorf("field observed.mean_log %v: its geometric mean %v lies outside observed.min %v .. max %v", o.MeanLog, g, o.Min, o.Max)
	}
	return nil
}

// varianceCheckRate is the chance, under the model, that checkVariance
// refuses the variance components of a file recommend wrote, for each of
// its two checks: small, so that a real calibration is refused about
// never, since the checks are there for edits that move a floor by far.
const varianceCheckRate = 1e-6

// checkVariance checks variance_components against the runs' scores in
// the (already checked) matrix, from which it was estimated (the same
// runs' repetitions). The sequential gate and the floor for a mean of
// repetitions rest on it, and an edit of mean_log or between alone moved
// them far below the floor the matrix checks. (i) V = between² +
// within²/r̄ (r̄ the mean repetitions a run) is the variance of a run's
// log score under the model: it must not be so large that the n runs'
// sample variance s² falls below V·χ²(n−1; varianceCheckRate)/(n − 1). A
// V smaller than the runs' spread is allowed: it makes the gate stricter,
// not laxer, and the sequential gate uses max(V, s²) (an estimated
// between of 0 is common with few runs). (ii) mean_log is within
// z·√(max(V, s²)/runs) + within² of observed.mean_log, z the normal
// quantile at 1 − varianceCheckRate (within² allows for the gap between a
// mean of per-repetition scores and a score of pooled ratios).
func (f *File) checkVariance() error {
	v, o := f.Variance, f.Observed
	V := v.RunVar()
	s2 := o.SDLog * o.SDLog
	df := float64(f.Runs - 1)
	if V > 0 && s2*df/V < stats.ChiSquaredQuantile(varianceCheckRate, df) {
		return fmt.Errorf("field variance_components: between %v and within %v give a run's log score an SD of %.4g, which the %d runs' scores (sd_log %.4g) rule out", v.Between, v.Within, math.Sqrt(V), f.Runs, o.SDLog)
	}
	tol := stats.NormalQuantile(1-varianceCheckRate)*math.Sqrt(max(V, s2)/float64(v.Runs)) + v.Within*v.Within
	if math.Abs(v.MeanLog-o.MeanLog) > tol {
		return fmt.Errorf("field variance_components.mean_log %v: the runs' mean log score is %.6g (observed.mean_log), and the two estimate one mean (at most %.3g apart)", v.MeanLog, o.MeanLog, tol)
	}
	return nil
}

// checkModel checks the file's model against the rest of the file: the
// matrix has a row of finite log ratios for every run and a column for
// every suite benchmark in suite order, its scores give the observed min,
// median and max, and the method gives the floor on it (check has made
// sure there are runs enough for the method to give one). A file whose
// figures do not follow from its data is refused.
func (f *File) checkModel() error {
	m := f.Matrix
	if !(f.Params.FamilyAlpha > 0 && f.Params.FamilyAlpha < 0.5) {
		return fmt.Errorf("field params.family_alpha %v: expected a rate in (0, 0.5)", f.Params.FamilyAlpha)
	}
	if len(m.Runs) != f.Runs || len(m.LogRatio) != f.Runs {
		return fmt.Errorf("field matrix has %d run ids and %d rows, but runs is %d", len(m.Runs), len(m.LogRatio), f.Runs)
	}
	if len(m.Benchmarks) != len(f.Suite) {
		return fmt.Errorf("field matrix.benchmarks has %d names, but the suite %d", len(m.Benchmarks), len(f.Suite))
	}
	for j, b := range m.Benchmarks {
		if b != f.Suite[j] {
			return fmt.Errorf("field matrix.benchmarks[%d] is %q, but suite[%d] is %q: expected the suite, in order", j, clipText(b), j, f.Suite[j])
		}
	}
	seen := map[string]bool{}
	for i, id := range m.Runs {
		if err := checkName(fmt.Sprintf("matrix.runs[%d]", i), id); err != nil {
			return err
		}
		if seen[id] {
			return fmt.Errorf("field matrix.runs names run %s twice", clipText(id))
		}
		seen[id] = true
	}
	for i, row := range m.LogRatio {
		if len(row) != len(m.Benchmarks) {
			return fmt.Errorf("field matrix.log_ratio[%d] has %d values, expected %d", i, len(row), len(m.Benchmarks))
		}
		for j, x := range row {
			if !isFinite(x) || math.Abs(x) > 700 {
				return fmt.Errorf("field matrix.log_ratio[%d][%d] %v: expected a finite log ratio", i, j, x)
			}
		}
	}
	scores, err := m.Scores(f.Suite)
	if err != nil {
		return fmt.Errorf("field matrix: %v", err)
	}
	lo, hi := stats.MinMax(scores)
	med := stats.Median(scores)
	for _, c := range []struct {
		name      string
		file, got float64
	}{{"min", f.Observed.Min, lo}, {"median", f.Observed.Median, med}, {"max", f.Observed.Max, hi}} {
		if math.Abs(c.file-c.got) > 1e-12*math.Abs(c.got) {
			return fmt.Errorf("field observed.%s %v is not the matrix's (%v)", c.name, c.file, c.got)
		}
	}
	// The gate moves the floor for a mean of repetitions by the runs'
	// mean and SD of log scores: they must be the matrix's too.
	logs, err := stats.Logs(scores)
	if err != nil {
		return fmt.Errorf("field matrix: %v", err)
	}
	for _, c := range []struct {
		name      string
		file, got float64
	}{{"mean_log", f.Observed.MeanLog, stats.Mean(logs)}, {"sd_log", f.Observed.SDLog, stats.SD(logs)}} {
		if math.Abs(c.file-c.got) > 1e-9*(1+math.Abs(c.got)) {
			return fmt.Errorf("field observed.%s %v is not the matrix's (%v)", c.name, c.file, c.got)
		}
	}
	_, floor, _, err := FloorOf(scores, f.RecommendOptions())
	if err != nil {
		return fmt.Errorf("field matrix: %v", err)
	}
	if floor != f.Floor {
		return &FloorMismatchError{Floor: f.Floor, Method: f.Method, Want: floor}
	}
	if err := CheckFloorUseful(scores, f.Floor, f.RecommendOptions()); err != nil {
		return fmt.Errorf("field floor %v: %w", f.Floor, err)
	}
	return f.checkRule(scores)
}

// checkRule checks false_positive_rate.rule: a field of version 5, of a
// margin file, and the rate MarginRuleRate gives on the matrix's scores
// with the file's margin, step and seed (bit for bit when written; the
// tolerance allows only for the last digit).
func (f *File) checkRule(scores []float64) error {
	r := f.FPR.Rule
	if r == nil {
		return nil
	}
	switch {
	case f.Version < RuleVersion:
		return fmt.Errorf("field false_positive_rate.rule is a field of version %d, and this file says version %d", RuleVersion, f.Version)
	case f.Method != MethodMargin:
		return fmt.Errorf("field false_positive_rate.rule is the margin rule's rate, and this file's method is %s", f.Method)
	}
	want := MarginRuleRate(scores, f.Params.Margin, f.Params.Step, f.Params.Seed)
	got := float64(*r)
	if math.IsNaN(want) != math.IsNaN(got) || math.Abs(got-want) > 1e-12*math.Abs(want) {
		return fmt.Errorf("field false_positive_rate.rule %v is not the margin rule's rate on the matrix (%v)", got, want)
	}
	return nil
}

// RecommendOptions returns the method and parameters the file's floor was
// made with.
func (f *File) RecommendOptions() RecommendOptions {
	o := DefaultRecommendOptions
	o.Method, o.Margin, o.Step = f.Method, f.Params.Margin, f.Params.Step
	o.Alpha, o.Coverage, o.Confidence, o.Seed = f.Params.Alpha, f.Params.Coverage, f.Params.Confidence, f.Params.Seed
	if f.Params.TargetFPR > 0 {
		o.TargetFPR = f.Params.TargetFPR
	}
	if f.Params.FamilyAlpha > 0 {
		o.FamilyAlpha = f.Params.FamilyAlpha
	}
	return o
}

// FormatFloor prints a floor as the file prints its own: with
// the step's decimals.
func (f *File) FormatFloor(floor float64) string {
	return FormatOnStep(floor, f.Params.Step)
}

// checkFloor checks that the floor is a positive number on its step's
// grid, no higher than the highest calibration score, and that floor_text
// is that number with the step's decimals (the text is what the gate
// prints, the number what it compares: they must not disagree).
func (f *File) checkFloor() error {
	if !isFinite(f.Floor) || !(f.Floor > 0) {
		return fmt.Errorf("field floor %v: expected a number > 0", f.Floor)
	}
	if f.Floor < f.Params.Step {
		return fmt.Errorf("field floor %v: below one step (%v) of its grid: expected a floor >= %v", f.Floor, f.Params.Step, f.Params.Step)
	}
	if f.Floor > f.Observed.Max {
		return fmt.Errorf("field floor %v is above every calibration score (observed.max %v): every healthy run would fail", f.Floor, f.Observed.Max)
	}
	want := f.FormatFloor(f.Floor)
	if f.FloorText != want {
		return fmt.Errorf("field floor_text %q disagrees with field floor %v (expected %q)", clipText(f.FloorText), f.Floor, want)
	}
	if RoundDown(f.Floor, f.Params.Step) != f.Floor {
		return fmt.Errorf("field floor %v is not on the grid of params.step %v", f.Floor, f.Params.Step)
	}
	return nil
}

// checkName checks a name: non-empty, and as data.CheckName checks the
// names of result files.
func checkName(field, s string) error {
	if s == "" {
		return fmt.Errorf("field %s is empty: expected a name", field)
	}
	return checkText(field, s)
}

// checkText checks text that reaches output (a label value, the tool): at
// most data.MaxNameLen bytes of valid UTF-8 without control characters or
// line separators, which would break a line of output or forge one.
func checkText(field, s string) error { return data.CheckName("field "+field, s) }

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// clipText shortens s for an error message.
func clipText(s string) string {
	if len(s) <= 80 {
		return s
	}
	return s[:80] + "..."
}

// checkKeys walks the objects of a document that is valid JSON (ParseFile
// has decoded it once) and checks their keys. It refuses a key given
// twice in one object: JSON readers disagree on which one wins, so a file
// with two floors is refused rather than read either way. Go's decoder
// matches a key to a field without regard to case (Unicode simple
// folding: "Floor", "ſtep"), so in the objects decoded into structs two
// keys equal under folding are the same key; the maps keyed by benchmark
// name or label (units, baseline_health, labels) compare keys exactly. It
// refuses a key that is no field of the object it is in (the fields of
// File and the types it holds, spelt exactly), which the decoder would
// ignore or match to a field without regard to case. It returns the
// fields written with a value other than null, by path ("floor",
// "params.step", "matrix.log_ratio"), in the struct objects.
//
// It scans the bytes itself and steps over arrays whole, rather than
// reading every token with json.Decoder: a matrix of 100,000 runs holds
// millions of numbers, and the decoder's Token builds an error string for
// each number it ends.
func checkKeys(b []byte) (map[string]bool, error) {
	w := keyWalker{b: b, present: map[string]bool{}}
	w.space()
	if w.i >= len(b) || b[w.i] != '{' {
		return nil, errors.New("expected a JSON object")
	}
	if err := w.object("", ""); err != nil {
		return nil, err
	}
	return w.present, nil
}

// keyWalker walks a valid JSON document from b[i].
type keyWalker struct {
	b       []byte
	i       int
	present map[string]bool
}

// object walks the object at b[i], whose path is path ("", ".params",
// ".units.larson") and whose path with map keys as "*" is schema.
func (w *keyWalker) object(path, schema string) error {
	known := fileKeys[schema] // nil: keys not checked
	fold := !mapFields[schema]
	keys := map[string]string{} // key as compared -> key as written
	w.i++                       // {
	for {
		w.space()
		switch w.b[w.i] {
		case '}':
			w.i++
			return nil
		case ',':
			w.i++
			w.space()
		}
		start := w.i
		w.skipString()
		var k string
		if err := json.Unmarshal(w.b[start:w.i], &k); err != nil {
			return err
		}
		field := strings.TrimPrefix(path+"."+k, ".")
		ck := k
		if fold {
			ck = foldKey(k)
		}
		if first, dup := keys[ck]; dup {
			if first != k {
				return fmt.Errorf("field %s appears twice (as %s and %s: JSON readers disagree on whether case matters)", fieldText(field), fieldText(first), fieldText(k))
			}
			return fmt.Errorf("field %s appears twice", fieldText(field))
		}
		keys[ck] = k
		if known != nil && !known[k] {
			return &UnknownFieldError{Field: fieldText(field)}
		}
		w.space()
		w.i++ // :
		w.space()
		if known != nil {
			w.present[field] = !bytes.HasPrefix(w.b[w.i:], []byte("null"))
		}
		if w.b[w.i] == '[' && fileKeys[schema+"."+k+"[]"] != nil {
			if err := w.array(path+"."+k, schema+"."+k+"[]"); err != nil {
				return err
			}
			continue
		}
		if w.b[w.i] != '{' {
			w.skipValue()
			continue
		}
		child := schema + "." + k
		if mapFields[schema] {
			child = schema + ".*"
		}
		if err := w.object(path+"."+k, child); err != nil {
			return err
		}
	}
}

// array walks the array at b[i] whose elements are objects of schema
// (".environments[]"), each as object walks one, its path with its index
// ("environments[0]"); an element that is not an object is left to the
// decoder to refuse.
func (w *keyWalker) array(path, schema string) error {
	w.i++ // [
	for n := 0; ; n++ {
		w.space()
		switch w.b[w.i] {
		case ']':
			w.i++
			return nil
		case ',':
			w.i++
			w.space()
		}
		if w.b[w.i] != '{' {
			w.skipValue()
			continue
		}
		if err := w.object(fmt.Sprintf("%s[%d]", path, n), schema); err != nil {
			return err
		}
	}
}

// space steps over white space.
func (w *keyWalker) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// skipString steps over the string at b[i].
func (w *keyWalker) skipString() {
	for w.i++; w.i < len(w.b); w.i++ {
		switch w.b[w.i] {
		case '\\':
			w.i++
		case '"':
			w.i++
			return
		}
	}
}

// skipValue steps over the value at b[i]: a string, a literal, or an
// array or object whole (objects inside arrays are left to the decoder,
// which refuses them, but for the arrays of objects fileKeys names, which
// object walks with array).
func (w *keyWalker) skipValue() {
	depth := 0
	for w.i < len(w.b) {
		switch c := w.b[w.i]; c {
		case '"':
			w.skipString()
			if depth == 0 {
				return
			}
			continue
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return // the end of the enclosing object: a literal ended
			}
			depth--
			if depth == 0 {
				w.i++
				return
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return
			}
		}
		w.i++
	}
}

// fileKeys are the keys of each struct object of a calibration file, by
// its path with map keys as "*"; an object at another path (one where an
// array or a number belongs) is left to the decoder to refuse.
var fileKeys = map[string]map[string]bool{
	"":                                jsonKeys(File{}),
	".params":                         jsonKeys(FileParams{}),
	".observed":                       jsonKeys(FileObserved{}),
	".false_positive_rate":            jsonKeys(FileFPR{}),
	".detection":                      jsonKeys(FileDetection{}),
	".units.*":                        jsonKeys(calibrate.Unit{}),
	".baseline_health.*":              jsonKeys(Health{}),
	".matrix":                         jsonKeys(Matrix{}),
	".variance_components":            jsonKeys(FileVariance{}),
	".environments[]":                 jsonKeys(FileEnvironment{}),
	".profiles[]":                     jsonKeys(FileProfile{}),
	".profiles[].observed":            jsonKeys(FileObserved{}),
	".profiles[].false_positive_rate": jsonKeys(FileFPR{}),
	".profiles[].detection":           jsonKeys(FileDetection{}),
	".profiles[].baseline_health.*":   jsonKeys(Health{}),
	".profiles[].matrix":              jsonKeys(Matrix{}),
	".profiles[].variance_components": jsonKeys(FileVariance{}),
}

// mapFields are the objects of a calibration file that are maps, keyed by
// benchmark name or label key: any key, compared exactly.
var mapFields = map[string]bool{".units": true, ".baseline_health": true, ".labels": true, ".profiles[].baseline_health": true}

// jsonKeys returns the JSON names of a struct's fields.
func jsonKeys(v any) map[string]bool {
	t := reflect.TypeOf(v)
	keys := map[string]bool{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}

// fieldText is a field's path as an error names it: shortened, and quoted
// when it holds a character that could break or forge a line of output.
func fieldText(s string) string {
	if data.CheckName("field", s) != nil {
		return strconv.Quote(clipText(s))
	}
	return clipText(s)
}

// foldKey maps a key to one spelling per class of keys that are equal
// under Unicode simple case folding (bytes.EqualFold, as encoding/json
// matches keys to fields): each rune becomes the smallest of its orbit.
func foldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

// jsonErr adds the line of a JSON syntax error, and says what a field of
// the wrong type should have held in JSON's words.
func jsonErr(b []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1
		for _, c := range b[:min(int(se.Offset), len(b))] {
			if c == '\n' {
				line++
			}
		}
		return fmt.Errorf("line %d: %v", line, err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "the document"
		} else {
			field = "field " + field
		}
		return fmt.Errorf("%s: expected %s, got %s", field, jsonKind(te.Type), te.Value)
	}
	return err
}

// jsonKind names a Go type as the JSON value it decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another type"
}

// soleUnit returns the unit of every suite benchmark when they share one,
// else "".
func (f *File) SoleUnit() string {
	unit := ""
	for _, b := range f.Suite {
		u := f.Units[b].Unit
		if unit != "" && u != unit {
			return ""
		}
		unit = u
	}
	return unit
}

// DirectionOf returns the direction recorded for a suite benchmark.
func (f *File) DirectionOf(bench string) calibrate.Direction {
	switch f.Units[bench].Direction {
	case "higher":
		return calibrate.HigherIsBetter
	case "lower":
		return calibrate.LowerIsBetter
	}
	return calibrate.Auto
}

// Z is the runner-health robust z of a baseline's log value lnb against
// this history, (lnb − median)/MAD; false when the MAD is 0 (the history
// has no spread to judge by).
func (h Health) Z(lnb float64) (float64, bool) {
	if !(h.MADLog > 0) {
		return math.NaN(), false
	}
	return (lnb - h.MedianLog) / h.MADLog, true
}
