package present

import (
	"math"
	"testing"
)

func TestNumberFormats(t *testing.T) {
	cases := []struct{ got, want, reason string }{
		{thousands(31225137), "31,225,137", "thousands separators"},
		{thousands(999), "999", "no separator below 1000"},
		{thousands(10), "10", "an integer keeps its zeros"},
		{thousands(0.0725), "0.0725", "small values keep 4 significant digits"},
		{thousands(2.5), "2.5", "trailing zeros trimmed"},
		{thousands(-1234567), "-1,234,567", "negative"},
		{ratio(1.546235), "1.55", "ratios with two decimals"},
		{oneIn(0.0999), "1 in 10", "rounded reciprocal"},
		{oneIn(0.008373), "1 in 119", "the worked example"},
		{rate(0.008373223), "0.84%", "percent with two decimals"},
		{rate(7.4e-6), "0.0007%", "small rates"},
		{rate(3.2e-9), "3.2e-07%", "tiny rates, in percent like the others"},
		{oneIn(1.6e-17), "less than 1 in 1,000,000,000", "no false precision in a rate of a far floor (review)"},
		{howOften(1.6e-17), "less than once in 1,000,000,000 runs", "no false precision in a rate of a far floor (review)"},
		{perRun(8.7e-13), "less than 1 in 1,000,000,000 runs", "the unit after the cap"},
		{oneIn(1.01e-9), "1 in 990,099,010", "just above the cap"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q (%s)", c.got, c.want, c.reason)
		}
	}
}

// TestSlideArticle: the summary's slides take "an" where the number is
// said with a vowel sound (eight, eleven, eighteen, eighty-…) and "a"
// otherwise; an undefined slide reads "an unknown".
func TestSlideArticle(t *testing.T) {
	cases := []struct {
		r    float64
		want string
	}{
		{0.92, "an 8%"},
		{0.89, "an 11%"},
		{0.82, "an 18%"},
		{0.19, "an 81%"},
		{0.90, "a 10%"},
		{0.88, "a 12%"},
		{0.99, "a 1%"},
		{0.25, "a 75%"},
		{math.NaN(), "an unknown"},
	}
	for _, c := range cases {
		if got := withArticle(slidePct(c.r, 0)); got != c.want {
			t.Errorf("slide of r=%v: got %q, want %q", c.r, got, c.want)
		}
	}
}
