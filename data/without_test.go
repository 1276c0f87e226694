package data

import (
	"maps"
	"slices"
	"testing"
)

func TestWithoutBenchmarks(t *testing.T) {
	ms := []Measurement{{Benchmark: "a", Variant: "x"}, {Benchmark: "b", Variant: "x"}, {Benchmark: "a", Variant: "y"}, {Benchmark: "c", Variant: "y"}}
	drop := NameSet([]string{"a", "z", "a"})
	if len(drop) != 2 || !drop["a"] || !drop["z"] {
		t.Fatalf("NameSet: %v", drop)
	}
	seen := map[string]bool{}
	got := WithoutBenchmarks(ms, drop, seen)
	if want := []Measurement{ms[1], ms[3]}; !slices.Equal(got, want) || !maps.Equal(seen, map[string]bool{"a": true}) {
		t.Errorf("got %v, seen %v; want %v, seen a", got, seen, want)
	}
	if ms[0].Benchmark != "a" || len(ms) != 4 {
		t.Errorf("ms changed: %v", ms)
	}
	// Nothing to drop: ms itself, nothing seen.
	keep := ms[1:2]
	seen = map[string]bool{}
	if got := WithoutBenchmarks(keep, drop, seen); &got[0] != &keep[0] || len(seen) != 0 {
		t.Errorf("nothing dropped: %v, seen %v", got, seen)
	}
}
