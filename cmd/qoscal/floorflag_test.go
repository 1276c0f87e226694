package main

import (
	"math"
	"testing"
)

func TestCheckFloor(t *testing.T) {
	tests := []struct {
		v      float64
		want   string // "" for accepted
		reason string
	}{
		{1.25, "", "the worked example's floor"},
		{0.5, "", "a floor below parity is a real floor (a candidate allowed to be slower)"},
		{1e-6, "", "the smallest floor in range"},
		{1e6, "", "the largest floor in range"},
		{math.SmallestNonzeroFloat64, "--floor must be in [1e-06, 1e+06], got 5e-324: a score is a geomean of ratios, never that far from 1", "tiny but positive: passes every run (found by the sweep)"},
		{math.MaxFloat64, "--floor must be in [1e-06, 1e+06], got 1.7976931348623157e+308: a score is a geomean of ratios, never that far from 1", "huge but finite: fails every run"},
		{0, "--floor must be a finite number > 0, got 0", "issue 11: --floor 0 was accepted"},
		{-1, "--floor must be a finite number > 0, got -1", "negative"},
		{math.NaN(), "--floor must be a finite number > 0, got NaN", "issue 11: --floor NaN was accepted"},
		{math.Inf(1), "--floor must be a finite number > 0, got +Inf", "issue 11: --floor Inf panicked in plots.hline"},
		{math.Inf(-1), "--floor must be a finite number > 0, got -Inf", "negative infinity"},
	}
	for _, tt := range tests {
		err := checkFloor(tt.v)
		got := ""
		if err != nil {
			got = err.Error()
			if _, ok := err.(*usageError); !ok {
				t.Errorf("%s: checkFloor(%v) is a %T, want a usage error (exit 2)", tt.reason, tt.v, err)
			}
		}
		if got != tt.want {
			t.Errorf("%s: checkFloor(%v) = %q, want %q", tt.reason, tt.v, got, tt.want)
		}
	}
}
