package gate

import (
	"maps"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
)

// Judging is the calibration a run is judged on, chosen by ChooseProfile.
type Judging struct {
	// Cal is the calibration that judges the run: the file's profile of
	// the run's environment, or the file itself.
	Cal *model.File
	// Full is the calibration file as read, Profile the value of the
	// profile chosen ("" for none).
	Full    *model.File
	Profile string
	// Warnings are those about the run's environment against the
	// environments the calibration lists (model.File.EnvironmentWarnings).
	Warnings []calibrate.Warning
}

// ChooseProfile is the one choice of the calibration a run is judged on,
// for gate and measure --calibration alike: the file's profile whose
// value is the run's value of the file's profile label (labels, the run's
// environment), else the file itself, with the warnings about that
// environment. A nil file judges by a floor alone: nothing to choose.
func ChooseProfile(cal *model.File, labels map[string]string) Judging {
	j := Judging{Cal: cal, Full: cal}
	if cal == nil {
		return j
	}
	j.Warnings = cal.EnvironmentWarnings(labels)
	if cal.By == "" {
		return j
	}
	if p, ok := cal.Profile(labels[cal.By]); ok {
		j.Cal, j.Profile = p, labels[cal.By]
	}
	return j
}

// Where a run's environment labels came from (RunEnvironment).
const (
	EnvFromLabels  = "labels"
	EnvFromMachine = "machine"
)

// RunEnvironment is the labels that say a run's environment (data.LabelCPU
// and the others), which ChooseProfile chooses by, and where they came
// from: the run's own labels (EnvFromLabels: its folder's qoscal.json, the
// store's, or --label) when they name a CPU model; else those of the
// machine qoscal runs on (EnvFromMachine), which is the one that measured
// when the gate runs in the job that measured, filling the keys the run's
// labels lack. A run measured here (measuredHere: measure --calibration)
// always has the machine's labels under its own; a stored run never does.
// machine is called only when its labels are used.
func RunEnvironment(labels map[string]string, machine func() map[string]string, measuredHere, stored bool) (map[string]string, string) {
	env := maps.Clone(labels)
	if env == nil {
		env = map[string]string{}
	}
	from := EnvFromMachine
	if labels[data.LabelCPU] != "" {
		from = EnvFromLabels
	}
	if stored || from == EnvFromLabels && !measuredHere {
		return env, EnvFromLabels
	}
	for k, v := range machine() {
		if _, given := env[k]; !given {
			env[k] = v
		}
	}
	return env, from
}
