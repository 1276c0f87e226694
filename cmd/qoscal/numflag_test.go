package main

import (
	"testing"

	"github.com/spf13/pflag"

	"github.com/qoscal/qoscal/internal/cliflag"
)

// TestNumberFlagsArePlainDecimal: every number flag of every command is
// registered through the flag set's own Float64Var, IntVar and Uint64Var,
// which read a value as result files read theirs (a plain decimal), so
// that no flag takes Go's syntax: --floor 1_0 was 10, and --rerun-band
// 0x1p-3 was 0.125. A flag of pflag's own number types would take both.
func TestNumberFlagsArePlainDecimal(t *testing.T) {
	n := 0
	for _, name := range commandNames() {
		for _, fs := range commandFlags(commands[name]) {
			fs.VisitAll(func(f *pflag.Flag) {
				switch f.Value.(type) {
				case *cliflag.Float, *cliflag.Int, *cliflag.Uint, *cliflag.Duration:
					n++
					return
				}
				switch f.Value.Type() {
				case "float32", "float64", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count", "duration":
					t.Errorf("qoscal %s --%s is a pflag %s, which takes Go's number syntax: register it through the flag set's own methods (numflag.go)", name, f.Name, f.Value.Type())
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no number flag found: the check sees none")
	}
}
