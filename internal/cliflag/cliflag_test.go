package cliflag

import "testing"

// value is what pflag asks of a flag's value.
type value interface {
	Set(string) error
	String() string
	Type() string
}

// TestValues: a flag takes a plain decimal number, as a result file
// holds it, and nothing of Go's syntax: --floor 1_0 was 10, and
// --rerun-band 0x1p-3 was 0.125.
func TestValues(t *testing.T) {
	cases := []struct {
		v      value
		in     string
		ok     bool
		want   string
		reason string
	}{
		{new(Float), "1.16", true, "1.16", "plain"},
		{new(Float), ".5", true, "0.5", "a leading point, as bc prints"},
		{new(Float), "116E-2", true, "1.16", "an exponent"},
		{new(Float), "-0.1", true, "-0.1", "a minus sign: the range check says why it is refused"},
		{new(Float), "1_0", false, "", "the sweep: --floor 1_0 was 10"},
		{new(Float), "0x1p-3", false, "", "the sweep: --rerun-band 0x1p-3 was 0.125"},
		{new(Float), "+1", false, "", "a plus sign"},
		{new(Float), " 1", false, "", "a space"},
		{new(Float), "NaN", false, "", "not a number"},
		{new(Float), "Inf", false, "", "not finite"},
		{new(Float), "1e999", false, "", "beyond a float64"},
		{new(Int), "20", true, "20", "plain"},
		{new(Int), "-1", true, "-1", "negative: the range check says why it is refused"},
		{new(Int), "0x10", false, "", "hex"},
		{new(Int), "1_000", false, "", "underscores"},
		{new(Int), "+5", false, "", "a plus sign"},
		{new(Int), "1e3", false, "", "an exponent is no whole number's"},
		{new(Int), "99999999999999999999", false, "", "beyond an int"},
		{new(Uint), "18446744073709551615", true, "18446744073709551615", "the largest seed"},
		{new(Duration), "90s", true, "1m30s", "a number and a unit"},
		{new(Duration), "1.5h", true, "1h30m0s", "a decimal number of hours"},
		{new(Duration), "250ms", true, "250ms", "milliseconds"},
		{new(Duration), "0", true, "0s", "no limit"},
		{new(Duration), "1h30m", false, "", "Go's compound syntax"},
		{new(Duration), "+5s", false, "", "a plus sign"},
		{new(Duration), "1_0s", false, "", "underscores"},
		{new(Duration), "90", false, "", "no unit"},
		{new(Uint), "-1", false, "", "negative"},
		{new(Uint), "0o7", false, "", "octal"},
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

func TestParseRate(t *testing.T) {
	for in, want := range map[string]float64{"0.001": 0.001, "1/1000": 0.001, " 1 / 4 ": 0.25} {
		if got, err := ParseRate(in); err != nil || got != want {
			t.Errorf("ParseRate(%q) = %v, %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1/0", "x", "1/-2", "0x1p-3", ""} {
		if _, err := ParseRate(in); err == nil {
			t.Errorf("ParseRate(%q) took it", in)
		}
	}
}
