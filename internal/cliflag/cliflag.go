// Package cliflag holds qoscal's flags apart from any command: a
// command's set of flags listed in its help from their registration
// (Set, in set.go), and the value types of the number and duration flags
// (pflag, data/formats and render only). Each value type reads its value by
// the rule a result file's values are read by (formats.ParseNumber: a
// plain decimal number, as benchmarks print them), not by Go's, which
// also takes 0x1p0, 1_0 (ten), +1, Inf and NaN: a flag takes what a result
// file holds and nothing else. Each is a pflag.Value (Set, String, Type);
// their types keep pflag's names ("float64", "int", "uint64", "duration"),
// by which the command words a flag's error, and their values print as
// pflag's do.
package cliflag

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data/formats"
)

// Float is a float64 flag read as a plain decimal number.
type Float float64

func (v *Float) Set(s string) error {
	x, err := formats.ParseNumber(s)
	if err != nil {
		return err
	}
	*v = Float(x)
	return nil
}

func (v *Float) Type() string   { return "float64" }
func (v *Float) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }

// Int is an int flag read as a whole number in plain decimals.
type Int int

func (v *Int) Set(s string) error {
	n, _, err := formats.ParseWhole(s, strconv.IntSize, true)
	if err != nil {
		return err
	}
	*v = Int(n)
	return nil
}

func (v *Int) Type() string   { return "int" }
func (v *Int) String() string { return strconv.Itoa(int(*v)) }

// Uint is a uint64 flag read as a whole number in plain decimals.
type Uint uint64

func (v *Uint) Set(s string) error {
	_, n, err := formats.ParseWhole(s, 64, false)
	if err != nil {
		return err
	}
	*v = Uint(n)
	return nil
}

func (v *Uint) Type() string   { return "uint64" }
func (v *Uint) String() string { return strconv.FormatUint(uint64(*v), 10) }

// Duration is a duration flag read as a plain decimal number and
// one unit, ms, s, m or h (90s, 1.5h), or 0: not Go's syntax, which also
// takes 1h30m, +5s and the like.
type Duration time.Duration

var durationUnits = []struct {
	suffix string
	unit   time.Duration
}{{"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}}

func (v *Duration) Set(s string) error {
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
		*v = Duration(time.Duration(math.Round(x * float64(u.unit))))
		return nil
	}
	return fmt.Errorf("%q: expected a plain number and a unit, ms, s, m or h (90s, 10m), or 0", s)
}

func (v *Duration) Type() string   { return "duration" }
func (v *Duration) String() string { return time.Duration(*v).String() }

// ParseRate reads a rate given as a plain decimal number (0.001) or a
// fraction of two (1/1000).
func ParseRate(s string) (float64, error) {
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
