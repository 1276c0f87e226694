package main

import (
	"strings"

	"qoscal/calibrate"
)

// warningText is a library warning in the command line's words: where a
// flag changes what the warning is about, the text names it. The library's
// messages name no flag (calibrate.Warning).
func warningText(w calibrate.Warning) string {
	switch w.Kind {
	case calibrate.WarnCommonSuite:
		return "--allow-partial: " + w.Msg
	case calibrate.WarnRunExcluded:
		return w.Msg + " (use --allow-partial to gate on the common benchmarks instead)"
	case calibrate.WarnFloorOverride:
		return "--floor" + strings.TrimPrefix(w.Msg, "the given floor")
	}
	return w.Msg
}

// warningTexts renders lists of warnings, in order.
func warningTexts(lists ...[]calibrate.Warning) []string {
	out := []string{}
	for _, ws := range lists {
		for _, w := range ws {
			out = append(out, warningText(w))
		}
	}
	return out
}

// warnAll prints warnings: on stderr, or under Actions as annotations
// titled by what they are about.
func (u *ui) warnAll(ws []calibrate.Warning) {
	for _, w := range ws {
		u.warnAbout(warningTitle[w.Kind], warningText(w))
	}
}

// warningTitle is what an annotation of a warning says it is about, for
// the warnings a pull request's reader most needs to tell apart.
var warningTitle = map[calibrate.WarningKind]string{
	calibrate.WarnRunnerDegraded:  "runner degraded",
	calibrate.WarnRunnerUnchecked: "runner health not checked",
	calibrate.WarnBelowBand:       "below calibrated bands",
	calibrate.WarnAboveBand:       "above calibrated bands",
	calibrate.WarnPartialGate:     "partial suite",
	calibrate.WarnNotCalibrated:   "not calibrated",
	calibrate.WarnFloorOverride:   "floor override",
}

// floorSourceName names where the gate's floor came from, as the JSON
// field floor_source and the messages spell it.
func floorSourceName(src string) string {
	if src == calibrate.FloorGiven {
		return "--floor"
	}
	return src
}
