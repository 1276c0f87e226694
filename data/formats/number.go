package formats

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/qoscal/qoscal/data"
)

// A measured value is read from a result file by one rule, whatever the
// format: it is a plain decimal number, as benchmark harnesses print
// them (printf's %d, %f, %e and %g, Go's strconv, Python's repr, JSON):
//
//	-? ( DIGITS [ . DIGITS? ] | . DIGITS ) ( (e|E) (+|-)? DIGITS )?
//
// 5514093, 0.072, 1.5e-9, 1E+06, .5 (bc prints it so) and 5. are values;
// 0x1p40, 1_000_000, +9e15, " 1e9", inf and NaN, which Go's
// strconv.ParseFloat also takes, are not, and neither is anything else
// (a cell with a space in it, a quoted number in JSON). A minus sign is
// taken, so that a negative value is refused for what it is (not
// positive) rather than as text. A plain decimal may have any number of
// digits: it is read as the float64 nearest to it, as strconv rounds, so
// digits beyond the 17th significant one (more than a float64 holds:
// printf("%.40f") prints such) change nothing. Its length is bounded by
// the line it is on (maxLine) or the JSON file it is in (MaxJSONBytes).
//
// JSON's own number grammar is a part of this rule (it has no hex,
// underscores, plus sign, or leading point), so the JSON formats read
// their values with encoding/json and check them with checkSample.

// plainDecimal reports whether s is a plain decimal number (see above).
func plainDecimal[T string | []byte](s T) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for ; i < len(s) && isDigit(s[i]); i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// errNotPlain is parseNumber's error for text that is not a plain
// decimal number.
var errNotPlain = errors.New("not a plain decimal number")

// parseNumber reads a plain decimal number (plainDecimal) as
// strconv.ParseFloat(s, 64) does: the same float64 and the same range
// error. A whole number of at most 15 digits (what ops/sec figures are)
// it reads itself: such a number is below 2^53, so it is exactly a
// float64, the one ParseFloat returns. Any other text is errNotPlain.
// FuzzParseNumber checks all three.
func parseNumber(s string) (float64, error) {
	if len(s) > 0 && len(s) <= 15 {
		var n uint64
		whole := true
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				whole = false
				break
			}
			n = n*10 + uint64(c-'0')
		}
		if whole {
			return float64(n), nil
		}
	}
	if !plainDecimal(s) {
		return 0, errNotPlain
	}
	return strconv.ParseFloat(s, 64)
}

// ParseNumber reads s by the rule every measured value is read by: a
// plain decimal number (see plainDecimal), as the float64 nearest to it;
// any other text (0x1p0, 1_000, +1, " 1", inf, NaN) is an error, and so
// is a plain decimal beyond a float64's range (1e999). The command line's
// number flags read their values by it, so that a flag takes what a
// result file holds and nothing else.
func ParseNumber(s string) (float64, error) {
	v, err := parseNumber(s)
	if err == errNotPlain {
		return 0, notPlainError(s)
	}
	return v, err
}

// ParseWhole reads s as a whole number in plain decimals: digits, with a
// minus sign before them for a negative one (no plus sign, base prefix
// or underscore), that fits in bits bits (64 at most), unsigned unless
// signed is set. It is ParseNumber's rule for counts: no point and no
// exponent.
func ParseWhole(s string, bits int, signed bool) (int64, uint64, error) {
	digits := s
	if signed {
		digits = strings.TrimPrefix(s, "-")
	}
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, 0, fmt.Errorf("%q is not a whole number in plain decimals", data.Clip(s))
	}
	if signed {
		n, err := strconv.ParseInt(s, 10, bits)
		return n, 0, err
	}
	n, err := strconv.ParseUint(s, 10, bits)
	return 0, n, err
}

// parseValue parses the text of a measured value: a plain decimal number
// (see plainDecimal), finite, greater than zero and within [MinValue,
// MaxValue]. Ratios and geometric means need positive values, so zero,
// negatives and values out of that range are refused here rather than
// clamped later.
func parseValue(s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("missing value")
	}
	v, err := parseNumber(s)
	switch {
	case err == errNotPlain:
		return 0, notPlainError(s)
	case err != nil:
		// A plain decimal that strconv cannot hold (1e999) is out of
		// range; it has no other error.
		return 0, rangeError(data.Clip(s))
	case v == 0 && strings.ContainsAny(mantissa(s), "123456789"):
		// A non-zero number too small for a float64 (1e-400) parses as 0.
		return 0, rangeError(data.Clip(s))
	case v <= 0:
		return 0, fmt.Errorf("value %s is not positive: measurements must be > 0", data.Clip(s))
	case v < MinValue || v > MaxValue:
		return 0, rangeError(data.Clip(s))
	}
	return v, nil
}

// mantissa returns s, a plain decimal number, without its exponent.
func mantissa(s string) string {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		return s[:i]
	}
	return s
}

// notPlainError says why s is not a value: NaN and infinities by name,
// anything else as not a plain decimal number.
func notPlainError(s string) error {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "nan":
		return fmt.Errorf("value %q is not a number (NaN)", s)
	case "inf", "infinity":
		return fmt.Errorf("value %q is not finite", s)
	}
	return fmt.Errorf("value %q is not a plain decimal number: expected digits with an optional point and exponent, as benchmarks print them (5514093, 0.072, 1.5e-9)", data.Clip(s))
}

// MinValue and MaxValue bound the values qoscal accepts. Any measurement
// of time, size or rate lies far inside them (a femtosecond is 1e-15 s; a
// petabyte 1e15 B). The bounds are chosen so that the ratio of any two
// accepted values, and so any score, lies within [1e-300, 1e300]: a
// finite, normal float64, never the infinity or the subnormal number that
// 1e308 over 1e-320 would give (1e-320 is itself subnormal: it has lost
// most of its precision).
const (
	MinValue = 1e-150
	MaxValue = 1e150
)

func rangeError(v string) error {
	return fmt.Errorf("value %s is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number", v)
}

// checkSample validates a JSON-decoded value like parseValue does (the
// JSON decoder has checked its text: see plainDecimal).
func checkSample(v float64) error {
	switch {
	case math.IsNaN(v):
		return fmt.Errorf("value is not a number (NaN)")
	case math.IsInf(v, 0):
		return fmt.Errorf("value %v is not finite", v)
	case v <= 0:
		return fmt.Errorf("value %v is not positive: measurements must be > 0", v)
	case v < MinValue || v > MaxValue:
		return rangeError(fmt.Sprint(v))
	}
	return nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
