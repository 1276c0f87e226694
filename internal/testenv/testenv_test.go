package testenv

import "testing"

// TestSize: the full size only where QOSCAL_SLOW_TESTS=1 and not under
// the race detector; any other value of the variable is the quick run.
func TestSize(t *testing.T) {
	for _, c := range []struct {
		env  string
		slow bool
	}{{"", false}, {"0", false}, {"yes", false}, {"1", true}} {
		t.Setenv(SlowVar, c.env)
		if Slow() != c.slow {
			t.Errorf("%s=%q: Slow() = %v, want %v", SlowVar, c.env, Slow(), c.slow)
		}
		want := 10
		if c.slow && !Race {
			want = 1000
		}
		if got := Size(1000, 10); got != want {
			t.Errorf("%s=%q, race %v: Size(1000, 10) = %d, want %d", SlowVar, c.env, Race, got, want)
		}
	}
}
