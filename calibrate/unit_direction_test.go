package calibrate

import "testing"

func TestUnitDirection(t *testing.T) {
	for _, u := range []string{"ops/sec", "B/s", "MB/s"} {
		if d, err := unitDirection(u); err != nil || d != HigherIsBetter {
			t.Errorf("%s: %v %v", u, d, err)
		}
	}
	for _, u := range []string{"sec/op", "ns/op", "B/op", "allocs/op", "seconds", "ms", "bytes"} {
		if d, err := unitDirection(u); err != nil || d != LowerIsBetter {
			t.Errorf("%s: %v %v", u, d, err)
		}
	}
	_, err := unitDirection("furlongs")
	if want := `unit "furlongs" is unknown, so it is unknown whether higher is better`; err == nil || err.Error() != want {
		t.Errorf("unknown unit: %v", err)
	}
}
