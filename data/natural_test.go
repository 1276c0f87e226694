package data

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNaturalSort(t *testing.T) {
	in := []string{"run-10", "run-2", "run-1", "run-02", "b", "a10b", "a2b", "run-1a"}
	NaturalSort(in)
	want := []string{"a2b", "a10b", "b", "run-1", "run-1a", "run-02", "run-2", "run-10"}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
