package present

import (
	"fmt"
	"math"
	"strings"
)

// ratio formats a ratio or score with two decimals ("1.55"); "-" when
// undefined.
func ratio(v float64) string { return dec(v, 2) }

// dec formats v with dec decimals; "-" when undefined.
func dec(v float64, dec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf("%.*f", dec, v)
}

// pct formats a fraction as a percentage with one decimal ("13.5%").
func pct(frac float64) string {
	if math.IsNaN(frac) || math.IsInf(frac, 0) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", frac*100)
}

// thousands formats a value with thousands separators and no decimals
// when it is large ("31,225,137"), with significant decimals when small.
func thousands(v float64) string {
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

// rangeOf formats a min–max pair of ratios: "0.87–0.90".
func rangeOf(lo, hi float64) string { return ratio(lo) + "–" + ratio(hi) }

// value formats a measured value in its unit's natural scale: times in
// s, ms, µs or ns; everything else with thousands separators.
func value(v float64, unit string) string {
	perOp := strings.HasSuffix(unit, "/op")
	switch strings.TrimSuffix(strings.ToLower(unit), "/op") {
	case "s", "sec", "secs", "seconds", "cpu-sec":
		out := timeText(v)
		if perOp {
			out += "/op"
		}
		if strings.HasPrefix(unit, "cpu-") {
			out += " cpu"
		}
		return out
	}
	return thousands(v)
}

// timeText formats seconds with a readable unit: 1.23 s, 45.6 ms, 789 µs,
// 12.3 ns.
func timeText(sec float64) string {
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

// rate formats a small probability readably, always in percent: 0.84%,
// 0.0012%, 3.2e-07%.
func rate(p float64) string {
	switch {
	case math.IsNaN(p):
		return "-"
	case p == 0:
		return "0"
	case p >= 0.001:
		return fmt.Sprintf("%.2f%%", p*100)
	case p >= 1e-6:
		return fmt.Sprintf("%.4f%%", p*100)
	}
	// Tiny rates in percent too, so that a column or a line never mixes
	// percentages with bare probabilities: 8.6e-07 is "8.6e-05%".
	return fmt.Sprintf("%.1e%%", p*100)
}

// oneIn renders a rate as "1 in N" (N rounded), "never" for 0, or a
// percentage of runs for a rate of one half or more.
func oneIn(p float64) string {
	return rateWords(p, "unknown", "%.0f%% of runs", "1 in %s", "less than 1 in %s")
}

// perRun is oneIn with its unit: "1 in 103 runs".
func perRun(p float64) string {
	s := oneIn(p)
	if strings.HasPrefix(s, "1 in ") || strings.HasPrefix(s, "less than 1 in ") {
		return s + " runs"
	}
	return s
}

// howOften says how often a per-run rate happens: "about once in 119
// runs".
func howOften(p float64) string {
	return rateWords(p, "at an unknown rate", "in %.0f%% of runs", "about once in %s runs", "less than once in %s runs")
}

// minRateWords is the smallest rate said as once in N runs: below it,
// a model's far tail says nothing that precise (and a floor that far
// below the runs is not the question), so the words cap N ("less than
// once in 1,000,000,000 runs").
const minRateWords = 1e-9

// rateWords says a per-run rate in words: unknown for NaN, "never" for 0,
// a percentage (half, a format of one %f) for rates of one half or more,
// once in N runs (one, a format of one %s), or, below minRateWords, less
// than once in 1/minRateWords runs (tiny, a format of one %s).
func rateWords(p float64, unknown, half, one, tiny string) string {
	switch {
	case math.IsNaN(p):
		return unknown
	case p <= 0:
		return "never"
	case p >= 0.5:
		return fmt.Sprintf(half, p*100)
	case p < minRateWords:
		return fmt.Sprintf(tiny, thousands(1/minRateWords))
	}
	return fmt.Sprintf(one, thousands(math.Round(1/p)))
}

// trimPct formats a fraction as a percentage with at most two decimals
// and no trailing zeros: 0.13 is "13".
func trimPct(frac float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", frac*100), "0"), ".")
}

// trimFloat formats v with at most four decimals and no trailing zeros.
func trimFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
}

// Plural is "1 benchmark", "10 benchmarks".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// dash shows an empty name as "-".
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
