package main

import "testing"

func TestNumberFormats(t *testing.T) {
	cases := []struct{ got, want, reason string }{
		{fthousands(31225137), "31,225,137", "thousands separators"},
		{fthousands(999), "999", "no separator below 1000"},
		{fthousands(10), "10", "an integer keeps its zeros"},
		{fthousands(0.0725), "0.0725", "small values keep 4 significant digits"},
		{fthousands(2.5), "2.5", "trailing zeros trimmed"},
		{fthousands(-1234567), "-1,234,567", "negative"},
		{fx(1.546235), "1.55", "ratios with two decimals"},
		{oneIn(0.0999), "1 in 10", "rounded reciprocal"},
		{oneIn(0.008373), "1 in 119", "the worked example"},
		{frate(0.008373223), "0.84%", "percent with two decimals"},
		{frate(7.4e-6), "0.0007%", "small rates"},
		{frate(3.2e-9), "3.2e-09", "tiny rates"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q (%s)", c.got, c.want, c.reason)
		}
	}
}
