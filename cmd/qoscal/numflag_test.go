package main

import (
	"testing"

	"github.com/spf13/pflag"
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
				case *floatValue, *intValue, *uintValue:
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
	cases := []struct {
		v      pflag.Value
		in     string
		ok     bool
		want   string
		reason string
	}{
		{new(floatValue), "1.16", true, "1.16", "plain"},
		{new(floatValue), ".5", true, "0.5", "a leading point, as bc prints"},
		{new(floatValue), "116E-2", true, "1.16", "an exponent"},
		{new(floatValue), "-0.1", true, "-0.1", "a minus sign: the range check says why it is refused"},
		{new(floatValue), "1_0", false, "", "the sweep: --floor 1_0 was 10"},
		{new(floatValue), "0x1p-3", false, "", "the sweep: --rerun-band 0x1p-3 was 0.125"},
		{new(floatValue), "+1", false, "", "a plus sign"},
		{new(floatValue), " 1", false, "", "a space"},
		{new(floatValue), "NaN", false, "", "not a number"},
		{new(floatValue), "Inf", false, "", "not finite"},
		{new(floatValue), "1e999", false, "", "beyond a float64"},
		{new(intValue), "20", true, "20", "plain"},
		{new(intValue), "-1", true, "-1", "negative: the range check says why it is refused"},
		{new(intValue), "0x10", false, "", "hex"},
		{new(intValue), "1_000", false, "", "underscores"},
		{new(intValue), "+5", false, "", "a plus sign"},
		{new(intValue), "1e3", false, "", "an exponent is no whole number's"},
		{new(intValue), "99999999999999999999", false, "", "beyond an int"},
		{new(uintValue), "18446744073709551615", true, "18446744073709551615", "the largest seed"},
		{new(uintValue), "-1", false, "", "negative"},
		{new(uintValue), "0o7", false, "", "octal"},
	}
	for _, c := range cases {
		err := c.v.Set(c.in)
		if (err == nil) != c.ok {
			t.Errorf("%s Set(%q) = %v, want ok %v (%s)", c.v.Type(), c.in, err, c.ok, c.reason)
			continue
		}
		if c.ok && c.v.String() != c.want {
			t.Errorf("%s Set(%q): %s, want %s (%s)", c.v.Type(), c.in, c.v.String(), c.want, c.reason)
		}
	}
}
