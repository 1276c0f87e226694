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

// warnAll prints warnings on stderr.
func (u *ui) warnAll(ws []calibrate.Warning) {
	for _, w := range ws {
		u.warnf("%s", warningText(w))
	}
}

// floorSourceName names where the gate's floor came from, as the JSON
// field floor_source and the messages spell it.
func floorSourceName(src string) string {
	if src == calibrate.FloorGiven {
		return "--floor"
	}
	return src
}
