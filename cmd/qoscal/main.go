// Command qoscal calibrates and runs benchmark QoS gates in CI: it stores
// runs of unchanged code, measures how much their geometric-mean score
// moves, recommends a floor, and judges new runs against it.
//
// Run "qoscal help" for the commands.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// gcPercent is the garbage collector's target (GOGC) for the analysis
// commands (spread, recommend, plot, report) unless the environment sets
// one. They read runs a page at a time and keep little of what they read,
// so at Go's default of 100 the collector runs often over a small heap:
// at 200, spread and recommend over 10,000 stored runs take 0.15 and 0.19 s
// of CPU instead of 0.17 and 0.22 (medians of 5, issue 19), for 1-5 MiB
// more peak memory (over 100,000 runs: see README, At scale). Ingest keeps
// the default: it gained nothing, and its memory is to stay flat.
const gcPercent = 200

// tuneGC sets the collector's target to gcPercent when env (the GOGC
// variable) is empty: a GOGC the user sets is the runtime's to follow.
func tuneGC(env string) {
	if env == "" {
		debug.SetGCPercent(gcPercent)
	}
}
