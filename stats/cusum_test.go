package stats

import (
	"math"
	"slices"
	"testing"
)

// TestCUSUM: the two-sided CUSUM by hand. With k = 1 the values 0.5, 2,
// 2, −3, 0 give S⁺ = 0, 1, 2, 0, 0 and S⁻ = 0, 0, 0, 2, 1: S⁺'s current
// excursion is empty (it starts after the last value, 5), S⁻'s starts at
// index 3. One value of −100 clipped to −4 moves S⁻ to 3, and a NaN
// counts as 0.
func TestCUSUM(t *testing.T) {
	got := CUSUM([]float64{0.5, 2, 2, -3, 0}, 1, 4)
	if want := (CUSUMState{Up: 0, Down: 1, UpStart: 5, DownStart: 3}); got != want {
		t.Errorf("CUSUM: %+v, want %+v", got, want)
	}
	if got := CUSUM([]float64{-100}, 1, 4); got.Down != 3 || got.DownStart != 0 || got.Up != 0 {
		t.Errorf("a clipped outlier: %+v, want S⁻ 3 from 0", got)
	}
	if got := CUSUM([]float64{3, math.NaN()}, 1, 4); got.Up != 1 {
		t.Errorf("NaN: S⁺ %v, want 2 − 1 = 1", got.Up)
	}
}

// TestUpperP: (1 + #{null ≥ x})/(B + 1), and the critical value, the
// smallest value of the sample whose p-value is at most alpha: of 1…99 at
// 5%, 96 (p = 5/100), not 95 (6/100).
func TestUpperP(t *testing.T) {
	null := []float64{1, 2, 3, 4}
	for _, c := range []struct{ x, want float64 }{{2.5, 0.6}, {5, 0.2}, {0, 1}, {2, 0.8}} {
		if got := UpperP(null, c.x); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("UpperP(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	var big []float64
	for i := 1; i <= 99; i++ {
		big = append(big, float64(i))
	}
	if h := UpperCritical(big, 0.05); h != 96 || UpperP(big, h) > 0.05 || UpperP(big, 95) <= 0.05 {
		t.Errorf("UpperCritical = %v, want 96", h)
	}
	if h := UpperCritical(null, 0.05); !math.IsInf(h, 1) {
		t.Errorf("4 draws at 5%%: %v, want +Inf (no value is that rare)", h)
	}
}

// TestCUSUMNullOneRun: checked after a single new run, the statistic is
// max(0, |z| − k) with z = (x − m)/s, and (x − m)/(s·sqrt(1 + 1/n)) is
// Student t with n − 1 degrees of freedom for a normal calibration of n
// and an independent new value, so P(stat ≥ h) = 2·(1 − T_{n−1}((h + k)/
// sqrt(1 + 1/n))): the simulation's share matches it within 4 binomial SEs
// at n = 10, where the calibration's error is large; and it is seeded.
func TestCUSUMNullOneRun(t *testing.T) {
	const b, n, k = 100000, 10, 1.0
	null := CUSUMNull(n, 1, 1, 0, k, math.Inf(1), b, 3)
	if !slices.IsSorted(null) || !slices.Equal(null, CUSUMNull(n, 1, 1, 0, k, math.Inf(1), b, 3)) {
		t.Fatal("not sorted, or not the same twice with one seed")
	}
	for _, h := range []float64{0.5, 1.5, 3} {
		want := 2 * (1 - TCDF((h+k)/math.Sqrt(1+1.0/n), n-1))
		got := UpperP(null, h) - 1.0/(b+1)
		if se := math.Sqrt(want * (1 - want) / b); math.Abs(got-want) > 4*se {
			t.Errorf("h %v: simulated %.5f, Student t %.5f (SE %.5f)", h, got, want, se)
		}
	}
}

// TestCUSUMNullAutocorrelation: positively autocorrelated runs wander
// further, so the null's 95% point grows with ρ.
func TestCUSUMNullAutocorrelation(t *testing.T) {
	prev := 0.0
	for _, rho := range []float64{0, 0.25, 0.5} {
		h := UpperCritical(CUSUMNull(30, 20, 3, rho, 1, 4, 5000, 1), 0.05)
		if !(h > prev) {
			t.Errorf("ρ = %v: h %v, not above %v", rho, h, prev)
		}
		prev = h
	}
}

// TestCUSUMChanges: the values dated to a change, worked by hand (k 1,
// clip 4, h 5): each value's step s + z − k on the side it moves.
func TestCUSUMChanges(t *testing.T) {
	for _, c := range []struct {
		z      []float64
		want   string
		reason string
	}{
		{[]float64{0.5, -0.5, 0.9, -0.9}, "....", "within ±k: neither side leaves 0"},
		{[]float64{0, -3.6, 0.3, -0.4, 0.1}, ".....", "one dip: S⁻ 2.6, 1.3, 0.7, 0: below h"},
		{[]float64{0, -5, -5, 0.2, 0.2, 0, -0.5, 0}, ".XX.....", "two runs at −5 (clipped to −4): S⁻ 3, 6 ≥ 5; the recovery after the peak is not marked"},
		{[]float64{-2, -2, -2, -2, -2, -2, 0}, "XXXXXX.", "a drift of −2: S⁻ 1, 2, …, 6 reaches 5 at the fifth; marked from the start to the peak"},
		{[]float64{0, 6, 6, -0.5, 0}, ".XX..", "an upward change: S⁺ 3, 6"},
		{[]float64{0, -3, -3}, "...", "an excursion open at the end below h: S⁻ 2, 4"},
		{[]float64{0, -5, -5}, ".XX", "an excursion open at the end that reached h: S⁻ 3, 6"},
		{[]float64{-4, -4, math.NaN(), -1}, "XX..", "NaN counts as 0: S⁻ 3, 6, 5, 5: the peak is the second"},
	} {
		got := ""
		for _, ch := range CUSUMChanges(c.z, 1, 4, 5) {
			got += map[bool]string{true: "X", false: "."}[ch]
		}
		if got != c.want {
			t.Errorf("%s: %v marked %s, want %s", c.reason, c.z, got, c.want)
		}
	}
}
