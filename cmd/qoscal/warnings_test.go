package main

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"qoscal/calibrate"
)

func outlierWarning(id string) calibrate.Warning {
	return calibrate.Warning{Kind: calibrate.WarnOutlierRun, Run: id, Msg: "run " + id + " is an outlier"}
}

// TestGroupRunWarnings: warnings of a kind about single runs are one
// line, where the first was, naming the next three runs and the count
// (issue 19: 39 outlier lines at 100,000 runs; at most one line per
// kind); a lone one keeps its line; warnings about no run are never
// grouped.
func TestGroupRunWarnings(t *testing.T) {
	few := []calibrate.Warning{outlierWarning("r1"), {Kind: calibrate.WarnFewRuns, Msg: "few"}, outlierWarning("r2"), outlierWarning("r3")}
	if diff := cmp.Diff([]string{"run r1 is an outlier (likewise 2 more runs: r2, r3)", "few"}, groupRunWarnings(few)); diff != "" {
		t.Errorf("three outliers (-want +got):\n%s", diff)
	}
	two := []calibrate.Warning{outlierWarning("r1"), outlierWarning("r2")}
	if diff := cmp.Diff([]string{"run r1 is an outlier (likewise 1 more run: r2)"}, groupRunWarnings(two)); diff != "" {
		t.Errorf("two outliers (-want +got):\n%s", diff)
	}
	one := []calibrate.Warning{outlierWarning("r1")}
	if diff := cmp.Diff([]string{"run r1 is an outlier"}, groupRunWarnings(one)); diff != "" {
		t.Errorf("one outlier (-want +got):\n%s", diff)
	}
	var many []calibrate.Warning
	many = append(many, calibrate.Warning{Kind: calibrate.WarnNotNormal, Msg: "not normal"})
	for i := range 39 {
		many = append(many, outlierWarning(fmt.Sprintf("r%d", i+1)))
	}
	many = append(many,
		calibrate.Warning{Kind: calibrate.WarnRunExcluded, Run: "x1", Msg: "run x1 lacks b"},
		calibrate.Warning{Kind: calibrate.WarnNoisyBench, Msg: "noisy"})
	want := []string{
		"not normal",
		"run r1 is an outlier (likewise 38 more runs: r2, r3, r4 and 35 more)",
		"run x1 lacks b (use --allow-partial to gate on the common benchmarks instead)",
		"noisy",
	}
	if diff := cmp.Diff(want, groupRunWarnings(many)); diff != "" {
		t.Errorf("39 outliers (-want +got):\n%s", diff)
	}
	four := []calibrate.Warning{outlierWarning("r1"), outlierWarning("r2"), outlierWarning("r3"), outlierWarning("r4")}
	if diff := cmp.Diff([]string{"run r1 is an outlier (likewise 3 more runs: r2, r3, r4)"}, groupRunWarnings(four)); diff != "" {
		t.Errorf("four outliers (-want +got):\n%s", diff)
	}
}
