package main

import (
	"fmt"
	"strings"

	"qoscal/calibrate"
	"qoscal/present"
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

// warningTexts renders lists of warnings, in order, with the warnings
// about single runs grouped by kind (see groupRunWarnings).
func warningTexts(lists ...[]calibrate.Warning) []string {
	out := []string{}
	for _, ws := range lists {
		out = append(out, groupRunWarnings(ws)...)
	}
	return out
}

// warnAll prints warnings, grouped as warningTexts groups them: on
// stderr, or under Actions as annotations titled by what they are about.
func (u *ui) warnAll(ws []calibrate.Warning) {
	for _, g := range groupWarnings(ws) {
		u.warnAbout(warningTitle[g.Kind], g.Msg)
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
	calibrate.WarnFewRuns:         "thin calibration",
	calibrate.WarnFloorBelowOne:   "floor below 1.0",
	warnSameFile:                  "same file",
}

// namedRuns is how many more runs a grouped warning names before it says
// how many more there are.
const namedRuns = 3

// groupRunWarnings renders warnings in order, with at most one line per
// kind of warning about single runs (an outlier run, a run left out): the
// first such warning's text, where it stood, then how many more runs the
// same is said of, naming the next few ("(likewise 38 more runs: run-07,
// run-12, run-31 and 35 more)"). Clean noise over 100,000 runs has dozens
// of outlier runs, which one line per run buried (issue 19).
func groupRunWarnings(ws []calibrate.Warning) []string {
	gs := groupWarnings(ws)
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.Msg
	}
	return out
}

// groupWarnings is groupRunWarnings keeping each line's kind: Msg holds
// the line as said (warningText, grouped).
func groupWarnings(ws []calibrate.Warning) []calibrate.Warning {
	runs := map[calibrate.WarningKind][]string{}
	for _, w := range ws {
		if w.Run != "" {
			runs[w.Kind] = append(runs[w.Kind], w.Run)
		}
	}
	out := make([]calibrate.Warning, 0, len(ws))
	said := map[calibrate.WarningKind]bool{}
	for _, w := range ws {
		ids := runs[w.Kind]
		if w.Run == "" || len(ids) == 1 {
			out = append(out, calibrate.Warning{Kind: w.Kind, Run: w.Run, Msg: warningText(w)})
			continue
		}
		if said[w.Kind] {
			continue
		}
		said[w.Kind] = true
		rest := ids[1:]
		named := rest[:min(namedRuns, len(rest))]
		list := strings.Join(named, ", ")
		if more := len(rest) - len(named); more > 0 {
			list += fmt.Sprintf(" and %d more", more)
		}
		out = append(out, calibrate.Warning{Kind: w.Kind, Msg: fmt.Sprintf("%s (likewise %s: %s)", warningText(w), present.Plural(len(rest), "more run"), list)})
	}
	return out
}

// floorSourceName names where the gate's floor came from, as the JSON
// field floor_source and the messages spell it.
func floorSourceName(src string) string {
	if src == calibrate.FloorGiven {
		return "--floor"
	}
	return src
}
