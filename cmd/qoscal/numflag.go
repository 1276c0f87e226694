package main

import (
	"time"

	"github.com/qoscal/qoscal/internal/cliflag"
)

// Number flags read their values by the rule a result file's values are
// read by (package cliflag), not by Go's. The flag set registers every
// float64, int and uint64 flag, and every duration, through the methods
// below, which shadow pflag's of the same names, so that no command can
// register one another way.

// DurationVar registers a duration flag read as a plain decimal number
// and a unit.
func (fs *flagSet) DurationVar(p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.FlagSet.Var((*cliflag.Duration)(p), name, usage)
}

// Float64Var registers a float64 flag read as a plain decimal number.
func (fs *flagSet) Float64Var(p *float64, name string, value float64, usage string) {
	*p = value
	fs.FlagSet.Var((*cliflag.Float)(p), name, usage)
}

// IntVar registers an int flag read as a whole number in plain decimals.
func (fs *flagSet) IntVar(p *int, name string, value int, usage string) {
	*p = value
	fs.FlagSet.Var((*cliflag.Int)(p), name, usage)
}

// Uint64Var registers a uint64 flag read as a whole number in plain
// decimals.
func (fs *flagSet) Uint64Var(p *uint64, name string, value uint64, usage string) {
	*p = value
	fs.FlagSet.Var((*cliflag.Uint)(p), name, usage)
}

// parseRate reads a rate: 0.001 or 1/1000 (cliflag.ParseRate).
func parseRate(s string) (float64, error) { return cliflag.ParseRate(s) }
