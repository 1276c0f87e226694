package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// jfloat is a float64 in JSON output: NaN and infinities (a statistic that
// is undefined for the input, such as a variance share when the score did
// not vary) are written as null, never as invalid JSON.
type jfloat float64

func (f jfloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// fx formats a ratio or score with two decimals ("1.55"); "-" when
// undefined.
func fx(v float64) string { return fdec(v, 2) }

func fdec(v float64, dec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf("%.*f", dec, v)
}

// fpct formats a fraction as a percentage with one decimal ("13.5%").
func fpct(frac float64) string {
	if math.IsNaN(frac) || math.IsInf(frac, 0) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", frac*100)
}

// fthousands formats a value with thousands separators and no decimals
// when it is large ("31,225,137"), with significant decimals when small.
func fthousands(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	if math.Abs(v) < 1000 {
		s := fmt.Sprintf("%.4g", v)
		if strings.Contains(s, ".") && !strings.Contains(s, "e") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		return s
	}
	s := fmt.Sprintf("%.0f", math.Abs(v))
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// frange formats a min–max pair of ratios: "0.87–0.90".
func frange(lo, hi float64) string { return fx(lo) + "–" + fx(hi) }

// fvalue formats a measured value in its unit's natural scale: times in
// s, ms, µs or ns; everything else with thousands separators.
func fvalue(v float64, unit string) string {
	perOp := strings.HasSuffix(unit, "/op")
	switch strings.TrimSuffix(strings.ToLower(unit), "/op") {
	case "s", "sec", "secs", "seconds", "cpu-sec":
		out := ftime(v)
		if perOp {
			out += "/op"
		}
		if strings.HasPrefix(unit, "cpu-") {
			out += " cpu"
		}
		return out
	}
	return fthousands(v)
}

// ftime formats seconds with a readable unit: 1.23 s, 45.6 ms, 789 µs, 12.3 ns.
func ftime(sec float64) string {
	a := math.Abs(sec)
	switch {
	case a >= 1:
		return fmt.Sprintf("%.3g s", sec)
	case a >= 1e-3:
		return fmt.Sprintf("%.3g ms", sec*1e3)
	case a >= 1e-6:
		return fmt.Sprintf("%.3g µs", sec*1e6)
	}
	return fmt.Sprintf("%.3g ns", sec*1e9)
}
