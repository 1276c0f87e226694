package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: without GOGC in the environment the collector's target is
// gcPercent; a GOGC the user sets (here 50, which the runtime has read
// already) is left alone.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	tuneGC("")
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC: target %d, want %d", got, gcPercent)
	}
	tuneGC("50")
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=50: target changed to %d", got)
	}
}
