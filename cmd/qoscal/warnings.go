package main

import (
	"github.com/qoscal/qoscal/calibrate"
	calgate "github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/present"
)

// warningTexts words lists of warnings as the command line says them,
// grouped (present.WarningTexts).
func warningTexts(lists ...[]calibrate.Warning) []string {
	return present.WarningTexts(lists...)
}

// warnAll prints warnings, grouped as warningTexts groups them: on
// stderr, or under Actions as annotations titled by what they are about.
func (u *ui) warnAll(ws []calibrate.Warning) {
	for _, l := range present.WarningLines(ws) {
		u.warnAbout(present.WarningTitle(l.Kind), l.Text)
	}
}

// floorSourceName names where the gate's floor came from, as the JSON
// field floor_source and the messages spell it.
func floorSourceName(src string) string {
	if src == calgate.FloorGiven {
		return "--floor"
	}
	return src
}
