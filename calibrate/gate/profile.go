package gate

import (
	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
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
