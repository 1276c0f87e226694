package present

import (
	"fmt"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
)

// GateEnvironment is the environment a gated run was measured on, as the
// gate found it: the run's CPU model and runner image (data.LabelCPU,
// data.LabelImage; "" when not known), and From, where they came from:
// "labels" (the run's, from its folder's qoscal.json or the store) or
// "machine" (the machine the gate ran on, for a run read from files
// without a cpu label: the job that measured).
type GateEnvironment struct {
	CPU   *string `json:"cpu"`
	Image *string `json:"image"`
	From  string  `json:"from"`
}

// NewGateEnvironment is the environment of labels found in from; nil
// when they name neither a CPU model nor an image.
func NewGateEnvironment(labels map[string]string, from string) *GateEnvironment {
	cpu, image := labels[data.LabelCPU], labels[data.LabelImage]
	if cpu == "" && image == "" {
		return nil
	}
	return &GateEnvironment{CPU: orNull(cpu), Image: orNull(image), From: from}
}

// orNull is s, or nil (null in JSON) when it is empty.
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// environmentWarningText words the warnings about a run's environment
// (calibrate.UnseenFigures): "this runner's CPU, X, was not in the
// calibration: its verdict rests on runs from Y".
func environmentWarningText(w calibrate.Warning) (string, bool) {
	f, ok := w.Figures.(calibrate.UnseenFigures)
	if !ok {
		return "", false
	}
	what := "label " + f.Label
	switch f.Label {
	case data.LabelCPU:
		what = "CPU"
	case data.LabelImage:
		what = "image"
	}
	if f.Value == "" {
		return fmt.Sprintf("this run has no %s, so none of the calibration's profiles (%s) applies: its verdict rests on the calibration of all its runs", what, joinAnd(f.Seen)), true
	}
	return fmt.Sprintf("this runner's %s, %s, was not in the calibration: its verdict rests on runs from %s", what, f.Value, joinAnd(f.Seen)), true
}

// profileSentence says which profile of the calibration judged the run:
// "Judged on the profile of cpu Model A in the calibration file
// prof.json: its 6 runs alone, floor 1.21x (on all 12 runs: 1.02x)."; ""
// when none did.
func (g *Gate) profileSentence() string {
	if g.Profile == "" || g.Full == nil || g.Cal == nil {
		return ""
	}
	return fmt.Sprintf("Judged on the profile of %s %s in the calibration file %s: its %s alone, floor %sx (on all %d runs: %sx).",
		g.Full.By, g.Profile, g.CalPath, Plural(g.Cal.Runs, "run"), g.Cal.FloorText, g.Full.Runs, g.Full.FloorText)
}
