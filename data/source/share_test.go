package source

import (
	"errors"
	"reflect"
	"testing"

	"github.com/qoscal/qoscal/data"
)

func TestShareLabels(t *testing.T) {
	bad := errors.New("bad run")
	in := []struct {
		run data.Run
		err error
	}{
		{data.Run{ID: "1", Labels: map[string]string{"a": "1"}}, nil},
		{data.Run{ID: "2", Labels: map[string]string{"a": "1"}}, nil},
		{data.Run{}, bad},
		{data.Run{ID: "3", Labels: map[string]string{"a": "1"}}, nil},
		{data.Run{ID: "4", Labels: map[string]string{}}, nil},
		{data.Run{ID: "5"}, nil},
		{data.Run{ID: "6"}, nil},
	}
	seq := func(yield func(data.Run, error) bool) {
		for _, r := range in {
			if !yield(r.run, r.err) {
				return
			}
		}
	}
	var out []data.Run
	var errs []error
	for r, err := range ShareLabels(seq) {
		out, errs = append(out, r), append(errs, err)
	}
	if len(out) != len(in) || errs[2] != bad {
		t.Fatalf("got %d runs, errors %v", len(out), errs)
	}
	same := func(i, j int) bool {
		return reflect.ValueOf(out[i].Labels).UnsafePointer() == reflect.ValueOf(out[j].Labels).UnsafePointer()
	}
	if !same(0, 1) || !same(0, 3) {
		t.Error("equal labels, through an error between, are not shared")
	}
	if out[4].Labels == nil || len(out[4].Labels) != 0 || out[5].Labels != nil || out[6].Labels != nil {
		t.Errorf("an empty map and nil told apart: %v %v %v", out[4].Labels, out[5].Labels, out[6].Labels)
	}
	for i, r := range out {
		if r.ID != in[i].run.ID {
			t.Errorf("run %d is %s, want %s", i, r.ID, in[i].run.ID)
		}
	}
	// Stopping early stops.
	n := 0
	for range ShareLabels(seq) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break: %d runs", n)
	}
}
