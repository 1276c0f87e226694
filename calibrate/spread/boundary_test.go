package spread

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/qoscal/qoscal/calibrate"
)

// TestBoundaryChanges checks the rule that names the labels changed at a
// regime boundary, on runs whose labels the cases spell out one run at a
// time, split into two regimes at run 4 (index 3) unless a case says
// otherwise.
func TestBoundaryChanges(t *testing.T) {
	type lab = map[string]string
	rep := func(n int, l lab) []lab {
		out := make([]lab, n)
		for i := range out {
			out[i] = l
		}
		return out
	}
	cat := func(ls ...[]lab) []lab {
		var out []lab
		for _, l := range ls {
			out = append(out, l...)
		}
		return out
	}
	// ids gives each run a label of its own, as commit or github_run do.
	ids := func(ls []lab) []lab {
		out := make([]lab, len(ls))
		for i, l := range ls {
			m := lab{"github_run": fmt.Sprint(1000 + i)}
			for k, v := range l {
				m[k] = v
			}
			out[i] = m
		}
		return out
	}
	cases := []struct {
		name   string
		labels []lab
		cuts   []int // the first run of each regime after the first
		want   [][]calibrate.LabelChange
	}{
		{"the CPU model changes at the step",
			cat(rep(3, lab{"cpu": "X", "os": "linux"}), rep(4, lab{"cpu": "Y", "os": "linux"})), []int{3},
			[][]calibrate.LabelChange{nil, {{Label: "cpu", From: "X", To: "Y"}}}},
		{"two labels change at the step, in key order",
			cat(rep(3, lab{"image": "ubuntu24/1", "cpu": "X"}), rep(3, lab{"image": "ubuntu24/2", "cpu": "Y"})), []int{3},
			[][]calibrate.LabelChange{nil, {{Label: "cpu", From: "X", To: "Y"}, {Label: "image", From: "ubuntu24/1", To: "ubuntu24/2"}}}},
		{"no label changes: an empty list",
			rep(6, lab{"cpu": "X"}), []int{3},
			[][]calibrate.LabelChange{nil, {}}},
		{"a run identifier is never named",
			ids(cat(rep(3, lab{"cpu": "X"}), rep(3, lab{"cpu": "Y"}))), []int{3},
			[][]calibrate.LabelChange{nil, {{Label: "cpu", From: "X", To: "Y"}}}},
		{"the new value must hold for most of the new regime",
			cat(rep(3, lab{"cpu": "X"}), []lab{{"cpu": "Y"}, {"cpu": "X"}, {"cpu": "X"}}), []int{3},
			[][]calibrate.LabelChange{nil, {}}},
		{"the old value must hold for most of the old regime",
			cat([]lab{{"cpu": "Z"}, {"cpu": "Z"}, {"cpu": "X"}}, rep(3, lab{"cpu": "Y"})), []int{3},
			[][]calibrate.LabelChange{nil, {}}},
		{"a stray run on either side does not hide the change",
			cat([]lab{{"cpu": "X"}, {"cpu": "Z"}, {"cpu": "X"}, {"cpu": "X"}}, []lab{{"cpu": "Y"}, {"cpu": "Y"}, {"cpu": "X"}, {"cpu": "Y"}}), []int{4},
			[][]calibrate.LabelChange{nil, {{Label: "cpu", From: "X", To: "Y"}}}},
		{"the runs around the step must differ",
			cat(rep(3, lab{"cpu": "X"}), []lab{{"cpu": "X"}, {"cpu": "Y"}, {"cpu": "Y"}}), []int{3},
			[][]calibrate.LabelChange{nil, {}}},
		{"a label missing on either side of the step is not named",
			cat(rep(3, lab{}), rep(3, lab{"cpu": "Y"})), []int{3},
			[][]calibrate.LabelChange{nil, {}}},
		{"each boundary is named on its own",
			cat(rep(3, lab{"cpu": "X", "kernel": "6.5"}), rep(3, lab{"cpu": "X", "kernel": "6.8"}), rep(3, lab{"cpu": "Y", "kernel": "6.8"})), []int{3, 6},
			[][]calibrate.LabelChange{nil, {{Label: "kernel", From: "6.5", To: "6.8"}}, {{Label: "cpu", From: "X", To: "Y"}}}},
		{"one regime: nothing",
			rep(4, lab{"cpu": "X"}), nil,
			[][]calibrate.LabelChange{nil}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runs := make([]RunScore, len(c.labels))
			for i, l := range c.labels {
				runs[i] = RunScore{ID: fmt.Sprintf("run-%02d", i+1), Labels: l}
			}
			var rs []calibrate.Regime
			start := 0
			for _, end := range append(append([]int{}, c.cuts...), len(runs)) {
				rs = append(rs, calibrate.Regime{First: runs[start].ID, Last: runs[end-1].ID, Start: start, N: end - start})
				start = end
			}
			got := boundaryChanges(runs, rs, perRunLabels(runs))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("changes %#v, want %#v", got, c.want)
			}
		})
	}
}

// TestPerRunLabels: a key is a run identifier when it takes a value of
// its own on every run (of two or more) that carries it.
func TestPerRunLabels(t *testing.T) {
	runs := []RunScore{
		{Labels: map[string]string{"commit": "a", "cpu": "X", "attempt": "1", "only": "z"}},
		{Labels: map[string]string{"commit": "b", "cpu": "X", "attempt": "1"}},
		{Labels: map[string]string{"commit": "c", "cpu": "Y", "attempt": "2"}},
	}
	got := perRunLabels(runs)
	want := map[string]bool{"commit": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("per-run labels %v, want %v", got, want)
	}
}
