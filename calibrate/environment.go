package calibrate

import (
	"cmp"
	"fmt"
	"slices"

	"qoscal/data"
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
func (f *File) EnvironmentWarnings(labels map[string]string) []Warning {
	var out []Warning
	for _, key := range []string{data.LabelCPU, data.LabelImage} {
		v, seen := labels[key], f.EnvironmentValues(key)
		if v == "" || len(seen) == 0 || slices.Contains(seen, v) {
			continue
		}
		out = append(out, Warning{Kind: WarnUnseenEnvironment, Figures: UnseenFigures{Label: key, Value: v, Seen: seen}})
	}
	return out
}

// WarnUnseenEnvironment is the gate's warning that the run's CPU model,
// image, or the value of the label the calibration's profiles are by, was
// not among the calibration's runs; UnseenFigures.
const WarnUnseenEnvironment WarningKind = "unseen-environment"

// UnseenFigures: the run's value of the label Label was none of Seen, the
// values of the calibration's runs (sorted).
type UnseenFigures struct {
	Label, Value string
	Seen         []string
}

func (UnseenFigures) figures() {}
