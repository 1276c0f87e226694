package model

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
)

// FileEnvironment is one environment among the runs a calibration rests
// on: the CPU model and the runner image their labels name (data.LabelCPU,
// data.LabelImage; either may be empty), and how many runs carried it.
type FileEnvironment struct {
	CPU   string `json:"cpu,omitempty"`
	Image string `json:"image,omitempty"`
	Runs  int    `json:"runs"`
}

// profilesVersion is the file version that adds environments, by and
// profiles: written only for a file that has one of them, so that a file
// without them stays a version earlier builds read.
const profilesVersion = 4

// SetEnvironments sets Environments from the runs' labels (labels returns
// a run's by its id): the distinct pairs of CPU model and runner image
// among the runs the calibration rests on (Matrix.Runs), each with how
// many runs carried it, sorted by CPU model, then image; none when no run
// carried either label. A file with them is version 4.
func (f *File) SetEnvironments(labels func(run string) map[string]string) {
	f.Environments = nil
	if f.Matrix == nil {
		return
	}
	count := map[FileEnvironment]int{}
	for _, id := range f.Matrix.Runs {
		l := labels(id)
		e := FileEnvironment{CPU: l[data.LabelCPU], Image: l[data.LabelImage]}
		if e.CPU != "" || e.Image != "" {
			count[e]++
		}
	}
	for e, n := range count {
		e.Runs = n
		f.Environments = append(f.Environments, e)
	}
	slices.SortFunc(f.Environments, compareEnvironments)
	if len(f.Environments) > 0 {
		f.Version = max(f.Version, profilesVersion)
	}
}

// compareEnvironments orders environments by CPU model, then image.
func compareEnvironments(a, b FileEnvironment) int {
	return cmp.Or(cmp.Compare(a.CPU, b.CPU), cmp.Compare(a.Image, b.Image))
}

// checkEnvironments checks the field environments: a version 4 field,
// each entry a CPU model or an image or both (names, as labels are),
// carried by one run or more, sorted without repeats, and no more runs in
// all than the calibration's.
func (f *File) checkEnvironments() error {
	if len(f.Environments) == 0 {
		return nil
	}
	if f.Version < profilesVersion {
		return fmt.Errorf("field environments is a field of version %d, and this file says version %d", profilesVersion, f.Version)
	}
	total := 0
	for i, e := range f.Environments {
		field := fmt.Sprintf("environments[%d]", i)
		if e.CPU == "" && e.Image == "" {
			return fmt.Errorf("field %s names neither a cpu nor an image", field)
		}
		if err := checkText(field+".cpu", e.CPU); err != nil {
			return err
		}
		if err := checkText(field+".image", e.Image); err != nil {
			return err
		}
		if e.Runs < 1 || e.Runs > f.Runs {
			return fmt.Errorf("field %s.runs %d: expected 1 to the %d calibration runs", field, e.Runs, f.Runs)
		}
		if i > 0 && compareEnvironments(f.Environments[i-1], e) >= 0 {
			return fmt.Errorf("field %s: expected the environments sorted by cpu, then image, each once", field)
		}
		total += e.Runs
	}
	if total > f.Runs {
		return fmt.Errorf("field environments counts %d runs, more than the calibration's %d", total, f.Runs)
	}
	return nil
}

// EnvironmentValues are the distinct values of the label key (data.LabelCPU
// or data.LabelImage) among the environments the calibration lists, sorted.
func (f *File) EnvironmentValues(key string) []string {
	var out []string
	for _, e := range f.Environments {
		v := e.CPU
		if key == data.LabelImage {
			v = e.Image
		}
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// EnvironmentWarnings are the warnings about a run's environment (its
// labels, data.LabelCPU and data.LabelImage among them) against the
// environments the calibration lists: one when its CPU model was never
// among them, one when its image was never among them. A run that does
// not say its CPU or image, or a calibration that lists none, gives none.
// With profiles, a run whose value of their label has no profile (or
// that has no value) is judged on the calibration of all the runs, and
// warned so, once: by the CPU's or image's warning when the profiles are
// by that.
func (f *File) EnvironmentWarnings(labels map[string]string) []calibrate.Warning {
	var out []calibrate.Warning
	for _, key := range []string{data.LabelCPU, data.LabelImage} {
		v, seen := labels[key], f.EnvironmentValues(key)
		if v == "" || len(seen) == 0 || slices.Contains(seen, v) {
			continue
		}
		out = append(out, calibrate.Warning{Kind: calibrate.WarnUnseenEnvironment, Figures: calibrate.UnseenFigures{Label: key, Value: v, Seen: seen}})
	}
	if f.By == "" {
		return out
	}
	if _, ok := f.Profile(labels[f.By]); ok {
		return out
	}
	for _, w := range out {
		if w.Figures.(calibrate.UnseenFigures).Label == f.By {
			return out // said already, of the CPU or the image
		}
	}
	return append(out, calibrate.Warning{Kind: calibrate.WarnUnseenEnvironment, Figures: calibrate.UnseenFigures{Label: f.By, Value: labels[f.By], Seen: f.ProfileValues()}})
}

// FileProfile is one profile of a calibration file (recommend --by): the
// calibration of the runs whose label By has the value Value, alone, by
// the file's method and parameters on the file's suite. Its fields are
// those of the file's own that depend on the runs, with the same shapes.
type FileProfile struct {
	Value     string            `json:"value"`
	Runs      int               `json:"runs"`
	Floor     float64           `json:"floor"`
	FloorText string            `json:"floor_text"`
	Observed  FileObserved      `json:"observed"`
	FPR       FileFPR           `json:"false_positive_rate"`
	Detection FileDetection     `json:"detection"`
	Health    map[string]Health `json:"baseline_health"`
	Variance  *FileVariance     `json:"variance_components,omitempty"`
	Matrix    *Matrix           `json:"matrix,omitempty"`
}

// NewProfile is the profile of value from the calibration file made of
// the recommendation on those runs alone (NewFile).
func NewProfile(value string, f *File) FileProfile {
	return FileProfile{Value: value, Runs: f.Runs, Floor: f.Floor, FloorText: f.FloorText, Observed: f.Observed,
		FPR: f.FPR, Detection: f.Detection, Health: f.Health, Variance: f.Variance, Matrix: f.Matrix}
}

// SetProfiles sets the file's profiles, by the label by, sorted by value.
// A file with them is version 4 (6 when a profile's repetitions drift:
// RhoVersion).
func (f *File) SetProfiles(by string, ps []FileProfile) {
	f.By, f.Profiles = by, slices.Clone(ps)
	slices.SortFunc(f.Profiles, func(a, b FileProfile) int { return cmp.Compare(a.Value, b.Value) })
	if len(ps) > 0 {
		f.Version = max(f.Version, profilesVersion)
	}
	for _, p := range ps {
		if p.Variance != nil && p.Variance.Rho != 0 {
			f.Version = max(f.Version, RhoVersion)
		}
	}
}

// Profile returns the calibration of the profile whose value is value:
// the file with that profile's fields in place of its own, and no
// profiles; false when the file has no such profile.
func (f *File) Profile(value string) (*File, bool) {
	i := slices.IndexFunc(f.Profiles, func(p FileProfile) bool { return p.Value == value })
	if value == "" || i < 0 {
		return nil, false
	}
	return f.withProfile(f.Profiles[i]), true
}

// ProfileValues are the values of the file's profiles, sorted.
func (f *File) ProfileValues() []string {
	out := make([]string, len(f.Profiles))
	for i, p := range f.Profiles {
		out[i] = p.Value
	}
	return out
}

// withProfile is the file with p's fields in place of its own, without
// profiles or environments (those of all the runs).
func (f *File) withProfile(p FileProfile) *File {
	c := *f
	c.By, c.Profiles, c.Environments = "", nil, nil
	c.Runs, c.Floor, c.FloorText, c.Observed = p.Runs, p.Floor, p.FloorText, p.Observed
	c.FPR, c.Detection, c.Health, c.Variance, c.Matrix = p.FPR, p.Detection, p.Health, p.Variance, p.Matrix
	return &c
}

// profileFields are the fields every profile has, with a value other
// than null.
var profileFields = []string{"value", "runs", "floor", "floor_text", "observed", "false_positive_rate", "detection",
	"baseline_health", "matrix", "matrix.runs", "matrix.benchmarks", "matrix.log_ratio"}

// checkProfiles checks the fields by and profiles: a version 4 pair, by
// a label key, the profiles sorted by value without repeats, each with
// every field, its runs among the file's own (the same log ratios) and
// none in two profiles, and each checked as a calibration of its own is
// (check): its floor follows from its matrix by the file's method, its
// observed scores are its matrix's.
func (f *File) checkProfiles(present map[string]bool) error {
	if f.By == "" && len(f.Profiles) == 0 {
		return nil
	}
	switch {
	case f.Version < profilesVersion:
		return fmt.Errorf("fields by and profiles are fields of version %d, and this file says version %d", profilesVersion, f.Version)
	case f.By == "":
		return fmt.Errorf("field profiles without field by: expected the label the profiles are by")
	case len(f.Profiles) == 0:
		return fmt.Errorf("field by %q without profiles: expected one profile per value of the label", clipText(f.By))
	}
	if err := checkName("by", f.By); err != nil {
		return err
	}
	row := map[string][]float64{}
	for i, id := range f.Matrix.Runs {
		row[id] = f.Matrix.LogRatio[i]
	}
	inProfile := map[string]string{}
	for i, p := range f.Profiles {
		field := fmt.Sprintf("profiles[%d]", i)
		for _, k := range profileFields {
			if !present[field+"."+k] {
				return fmt.Errorf("field %s.%s is missing", field, k)
			}
		}
		if err := checkName(field+".value", p.Value); err != nil {
			return err
		}
		if i > 0 && p.Value <= f.Profiles[i-1].Value {
			return fmt.Errorf("field %s.value %q: expected the profiles sorted by value, each once", field, clipText(p.Value))
		}
		what := fmt.Sprintf("field %s (%s %s)", field, f.By, clipText(p.Value))
		if err := f.withProfile(p).check(present); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		for j, id := range p.Matrix.Runs {
			r, ok := row[id]
			switch {
			case !ok:
				return fmt.Errorf("%s: run %s is not among the calibration's runs (matrix.runs)", what, clipText(id))
			case inProfile[id] != "":
				return fmt.Errorf("%s: run %s is also in the profile of %s", what, clipText(id), clipText(inProfile[id]))
			case !slices.Equal(r, p.Matrix.LogRatio[j]):
				return fmt.Errorf("%s: the log ratios of run %s are not the calibration's (matrix.log_ratio)", what, clipText(id))
			}
			inProfile[id] = p.Value
		}
	}
	return nil
}
