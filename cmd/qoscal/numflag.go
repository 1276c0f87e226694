package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data/formats"
)

// Number flags read their values by the rule a result file's values are
// read by (formats.ParseNumber: a plain decimal number, as benchmarks
// print them), not by Go's, which also takes 0x1p0, 1_0 (ten), +1, Inf
// and NaN: a flag takes what a result file holds and nothing else. The
// flag set registers every float64, int and uint64 flag through the
// methods below, which shadow pflag's of the same names, so that no
// command can register one another way. Their types keep pflag's names
// ("float64", "int", "uint64"), by which parseFlags words the error, and
// their defaults print as pflag's do.

// floatValue is a float64 flag read as a plain decimal number.
type floatValue float64

func (v *floatValue) Set(s string) error {
	x, err := formats.ParseNumber(s)
	if err != nil {
		return err
	}
	*v = floatValue(x)
	return nil
}

func (v *floatValue) Type() string   { return "float64" }
func (v *floatValue) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }

// intValue is an int flag read as a whole number in plain decimals.
type intValue int

func (v *intValue) Set(s string) error {
	n, _, err := formats.ParseWhole(s, strconv.IntSize, true)
	if err != nil {
		return err
	}
	*v = intValue(n)
	return nil
}

func (v *intValue) Type() string   { return "int" }
func (v *intValue) String() string { return strconv.Itoa(int(*v)) }

// uintValue is a uint64 flag read as a whole number in plain decimals.
type uintValue uint64

func (v *uintValue) Set(s string) error {
	_, n, err := formats.ParseWhole(s, 64, false)
	if err != nil {
		return err
	}
	*v = uintValue(n)
	return nil
}

func (v *uintValue) Type() string   { return "uint64" }
func (v *uintValue) String() string { return strconv.FormatUint(uint64(*v), 10) }

// durationValue is a duration flag read as a plain decimal number and
// one unit, ms, s, m or h (90s, 1.5h), or 0: not Go's syntax, which also
// takes 1h30m, +5s and the like.
type durationValue time.Duration

var durationUnits = []struct {
	suffix string
	unit   time.Duration
}{{"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}}

func (v *durationValue) Set(s string) error {
	if s == "0" {
		*v = 0
		return nil
	}
	for _, u := range durationUnits {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok || num == "" || strings.ContainsAny(num[len(num)-1:], "mhs") {
			continue
		}
		x, err := formats.ParseNumber(num)
		if err != nil || x < 0 || x*float64(u.unit) > float64(math.MaxInt64) {
			break
		}
		*v = durationValue(time.Duration(math.Round(x * float64(u.unit))))
		return nil
	}
	return fmt.Errorf("%q: expected a plain number and a unit, ms, s, m or h (90s, 10m), or 0", s)
}

func (v *durationValue) Type() string   { return "duration" }
func (v *durationValue) String() string { return time.Duration(*v).String() }

// DurationVar registers a duration flag read as a plain decimal number
// and a unit.
func (fs *flagSet) DurationVar(p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.FlagSet.Var((*durationValue)(p), name, usage)
}

// Float64Var registers a float64 flag read as a plain decimal number.
func (fs *flagSet) Float64Var(p *float64, name string, value float64, usage string) {
	*p = value
	fs.FlagSet.Var((*floatValue)(p), name, usage)
}

// IntVar registers an int flag read as a whole number in plain decimals.
func (fs *flagSet) IntVar(p *int, name string, value int, usage string) {
	*p = value
	fs.FlagSet.Var((*intValue)(p), name, usage)
}

// Uint64Var registers a uint64 flag read as a whole number in plain
// decimals.
func (fs *flagSet) Uint64Var(p *uint64, name string, value uint64, usage string) {
	*p = value
	fs.FlagSet.Var((*uintValue)(p), name, usage)
}

// parseRate reads a rate given as a plain decimal number (0.001) or a
// fraction of two (1/1000).
func parseRate(s string) (float64, error) {
	bad := fmt.Errorf("%q: expected a rate like 0.001 or 1/1000", s)
	if a, b, ok := strings.Cut(s, "/"); ok {
		x, err1 := formats.ParseNumber(strings.TrimSpace(a))
		y, err2 := formats.ParseNumber(strings.TrimSpace(b))
		if err1 != nil || err2 != nil || !(y > 0) {
			return 0, bad
		}
		return x / y, nil
	}
	v, err := formats.ParseNumber(strings.TrimSpace(s))
	if err != nil {
		return 0, bad
	}
	return v, nil
}
