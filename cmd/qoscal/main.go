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
	tuneGC(os.Getenv("GOGC"))
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// gcPercent is the garbage collector's target (GOGC) unless the
// environment sets one. A command reads runs a page at a time and keeps
// little of what it reads, so at Go's default of 100 the collector runs
// often over a small heap: at 200, spread and recommend over 10,000 stored
// runs take 0.15 and 0.19 s of CPU instead of 0.17 and 0.22 (medians of 5,
// issue 19), for 1-5 MiB more peak memory (over 100,000 runs: see README,
// At scale).
const gcPercent = 200

// tuneGC sets the collector's target to gcPercent when env (the GOGC
// variable) is empty: a GOGC the user sets is the runtime's to follow.
func tuneGC(env string) {
	if env == "" {
		debug.SetGCPercent(gcPercent)
	}
}
