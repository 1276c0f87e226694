package calibrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"time"
)

// FileSchema names the calibration file format; FileVersion is the
// version this build writes and the newest it reads.
const (
	FileSchema  = "qoscal-calibration"
	FileVersion = 1
)

// File is the calibration file that `qoscal recommend --write` makes and
// `qoscal gate --calibration` reads. Its JSON layout is documented in
// docs/json.md; fields are only ever added within a version.
type File struct {
	Schema    string            `json:"schema"`
	Version   int               `json:"version"`
	Created   string            `json:"created"` // RFC 3339, UTC
	Floor     float64           `json:"floor"`
	FloorText string            `json:"floor_text"` // the floor with the step's decimals
	Method    Method            `json:"method"`
	Params    FileParams        `json:"params"`
	Baseline  string            `json:"baseline"`
	Candidate string            `json:"candidate"`
	Suite     []string          `json:"suite"`
	Units     map[string]Unit   `json:"units"`
	Runs      int               `json:"runs"`
	Observed  FileObserved      `json:"observed"`
	FPR       FileFPR           `json:"false_positive_rate"`
	Detection FileDetection     `json:"detection"`
	Health    map[string]Health `json:"baseline_health"`
	Labels    map[string]string `json:"labels"`
	Tool      string            `json:"tool"`
}

// FileParams are the method's parameters.
type FileParams struct {
	Margin     float64 `json:"margin"`
	Step       float64 `json:"step"`
	Alpha      float64 `json:"alpha,omitempty"`
	Coverage   float64 `json:"coverage,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	Seed       uint64  `json:"seed"`
}

// Unit is a benchmark's unit and the direction it improves in.
type Unit struct {
	Unit      string `json:"unit"`
	Direction string `json:"direction"` // "higher" or "lower"
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

// NewFile builds the calibration file of a recommendation.
func NewFile(a *Analysis, r *Recommendation, labels map[string]string, created time.Time, tool string) *File {
	f := &File{
		Schema: FileSchema, Version: FileVersion,
		Created: created.UTC().Format(time.RFC3339),
		Floor:   r.Floor, FloorText: r.FormatFloor(r.Floor), Method: r.Options.Method,
		Params:   FileParams{Margin: r.Options.Margin, Step: r.Options.Step, Seed: r.Options.Seed},
		Baseline: a.Baseline, Candidate: a.Candidate,
		Suite: append([]string(nil), a.Suite...), Units: map[string]Unit{},
		Runs: a.Score.N,
		Observed: FileObserved{Min: a.Score.Min, Median: a.Score.Median, Max: a.Score.Max,
			MeanLog: a.Score.MeanLog, SDLog: a.Score.SDLog},
		FPR:       FileFPR{Predictive: NullFloat(r.Cost.Predictive), Upper95: NullFloat(r.Cost.Upper95), DistributionFree: NullFloat(r.Cost.DistributionFree)},
		Detection: FileDetection{R50: NullFloat(r.Cost.R50), R90: NullFloat(r.Cost.R90)},
		Health:    map[string]Health{},
		Labels:    map[string]string{},
		Tool:      tool,
	}
	switch r.Options.Method {
	case MethodPrediction:
		f.Params.Alpha = r.Options.Alpha
	case MethodTolerance:
		f.Params.Coverage, f.Params.Confidence = r.Options.Coverage, r.Options.Confidence
	}
	for _, b := range a.Suite {
		f.Units[b] = Unit{Unit: a.Units[b], Direction: a.Directions[b].Key()}
	}
	for _, h := range a.BaselineSpread {
		f.Health[h.Name] = Health{MedianLog: h.MedianLog, MADLog: h.MADLog}
	}
	for k, v := range labels {
		f.Labels[k] = v
	}
	sort.Strings(f.Suite)
	return f
}

// Write writes the file as indented JSON.
func (f *File) Write(w io.Writer) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
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
	if err := tmp.Close(); err != nil {
		return err
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
func ReadFile(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("calibration file %s: no such file", path)
		}
		return nil, fmt.Errorf("calibration file %s: %v", path, err)
	}
	return ParseFile(path, b)
}

// ParseFile parses the bytes of a calibration file named path.
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
		return nil, bad("schema is %q, expected %q: not a qoscal calibration file", head.Schema, FileSchema)
	}
	if head.Version > FileVersion {
		return nil, bad("version %d is newer than this qoscal reads (%d): upgrade qoscal", head.Version, FileVersion)
	}
	if head.Version < 1 {
		return nil, bad("version %d: expected 1", head.Version)
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, bad("%v", jsonErr(b, err))
	}
	switch {
	case !(f.Floor > 0) || math.IsInf(f.Floor, 0):
		return nil, bad("floor %v: expected a number > 0", f.Floor)
	case f.Baseline == "" || f.Candidate == "":
		return nil, bad("baseline and candidate must be named")
	case len(f.Suite) == 0:
		return nil, bad("the suite is empty")
	}
	for _, b := range f.Suite {
		u, ok := f.Units[b]
		if !ok || (u.Direction != "higher" && u.Direction != "lower") {
			return nil, bad("benchmark %s has no unit direction (higher or lower)", b)
		}
	}
	return &f, nil
}

// jsonErr adds the line of a JSON syntax error.
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
		return fmt.Errorf("field %s: expected %v, got %s", te.Field, te.Type, te.Value)
	}
	return err
}

// DirectionOf returns the direction recorded for a suite benchmark.
func (f *File) DirectionOf(bench string) Direction {
	switch f.Units[bench].Direction {
	case "higher":
		return HigherIsBetter
	case "lower":
		return LowerIsBetter
	}
	return Auto
}
