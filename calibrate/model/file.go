package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/qoscal/qoscal/stats"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
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
// written only for a margin floor, and version 6 variance_components.rho
// (RhoVersion), written only when the repetitions drift inside a job.
const (
	FileSchema  = "qoscal-calibration"
	FileVersion = 6
	// MinFileVersion is the oldest version read.
	MinFileVersion = 2
	// VarianceVersion is the version that adds variance_components.
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
	// Rho is the lag-1 autocorrelation of the repetitions inside a job
	// when they drift (stats.VarianceComponentsAR1; version 6, omitted
	// when 0): within is then their marginal SD, and a mean of m
	// repetitions has the within-job variance within²·AR1MeanVar(rho, m).
	Rho float64 `json:"rho,omitempty"`
}

// RhoVersion is the file version that adds variance_components.rho,
// written only when the repetitions drift (a file without it keeps its
// version, which older builds read).
const RhoVersion = 6

// SDOfMean is the SD of the mean log score of m repetitions of one job:
// √(between² + WithinVar(m)).
func (v *FileVariance) SDOfMean(m int) float64 {
	return math.Sqrt(v.Between*v.Between + v.WithinVar(m))
}

// WithinVar is the within-job part of the variance of a mean of m
// repetitions: within²/m, or within²·AR1MeanVar(rho, m) when the
// repetitions drift inside the job.
func (v *FileVariance) WithinVar(m int) float64 {
	if v.Rho == 0 {
		return v.Within * v.Within / float64(m)
	}
	return v.Within * v.Within * stats.AR1MeanVar(v.Rho, m)
}

// IIDWithin is the within-job SD that a model of independent
// repetitions needs to give a mean of m repetitions its variance,
// √(m·WithinVar(m)): within itself when rho is 0. Larger than within
// under drift, and for fewer repetitions it overstates their mean's
// variance, never understates it (AR1MeanVar(ρ, k)·k grows with k for
// ρ ≥ 0).
func (v *FileVariance) IIDWithin(m int) float64 {
	return math.Sqrt(float64(m) * v.WithinVar(m))
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
// model: between² + within²/r̄ (WithinVar(r̄) under drift), r̄ the mean
// repetitions a run.
func (v *FileVariance) RunVar() float64 {
	rbar := float64(v.Repetitions) / float64(v.Runs)
	if v.Rho != 0 {
		// r̄ to the nearest whole repetition: the file keeps no run's own.
		return v.Between*v.Between + v.WithinVar(max(1, int(math.Round(rbar))))
	}
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
// repetitions' noise, √(EffectiveBetween² + WithinVar(m)).
func (v *FileVariance) SDOfMeanVsCalibration(m int, sdLog float64) float64 {
	b := v.EffectiveBetween(sdLog)
	return math.Sqrt(b*b + v.WithinVar(m))
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
		return nil, fmt.Errorf("calibration file %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		// It grew after the size was checked.
		return nil, fmt.Errorf("calibration file %s: more than the %s a calibration file may hold", path, sizeText(limit))
	}
	sum := sha256.Sum256(b)
	if b, err = decodeText(b); err != nil {
		return nil, fmt.Errorf("calibration file %s: %w", path, err)
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
		return nil, fmt.Errorf("UTF-16 (%s) that does not decode: %w", what, err)
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

// SoleUnit returns the unit of every suite benchmark when they share one,
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
