package calibrate

import (
	"math"
	"testing"

	"github.com/qoscal/qoscal/data"
)

// TestRatiosOfRepetitions: issue 35 item 3. A run measured in repetitions
// (interleaved, each repetition pairing its baseline and candidate) has one
// score, the one the gate judges: each benchmark's ratio is the geometric
// mean of its repetitions' ratios, so that the run's score is the mean of
// its repetitions' log scores. Pooling each variant's samples across
// repetitions (the median of all) broke the pairing: spread and recommend
// scored the same folder 0.83 where measure and the gate said 0.93.
func TestRatiosOfRepetitions(t *testing.T) {
	m := func(bench, v string, rep int, val float64) data.Measurement {
		return data.Measurement{Benchmark: bench, Variant: v, Sample: rep - 1, Value: val, Unit: "ops/sec", Repetition: rep}
	}
	for _, c := range []struct {
		name   string
		ms     []data.Measurement
		want   map[string]float64
		reason string
	}{{
		name: "paired",
		ms: []data.Measurement{
			m("a", "b", 1, 100), m("a", "c", 1, 200), // 2
			m("a", "b", 2, 50), m("a", "c", 2, 75), // 1.5
			m("x", "b", 1, 10), m("x", "c", 1, 10), // 1
			m("x", "b", 2, 10), m("x", "c", 2, 40), // 4
		},
		// The pooled medians would give a 137.5/75 = 1.833 and x 25/10 = 2.5.
		want:   map[string]float64{"a": math.Sqrt(3), "x": 2},
		reason: "the geometric mean of the repetitions' ratios, not the ratio of the pooled medians",
	}, {
		name:   "one repetition",
		ms:     []data.Measurement{m("a", "b", 1, 100), m("a", "c", 1, 200), m("a", "b", 1, 120), m("a", "c", 1, 180)},
		want:   map[string]float64{"a": 190.0 / 110},
		reason: "a run of one repetition: the ratio of the medians of its samples",
	}, {
		name: "unrepeated",
		ms: []data.Measurement{
			{Benchmark: "a", Variant: "b", Value: 100, Unit: "ops/sec"}, {Benchmark: "a", Variant: "c", Value: 150, Unit: "ops/sec"},
		},
		want:   map[string]float64{"a": 1.5},
		reason: "no repetitions: the ratio of the medians",
	}} {
		t.Run(c.name, func(t *testing.T) {
			run := &data.Run{ID: "r", Measurements: c.ms}
			rr, err := Ratios(run, "b", "c", Auto, "")
			if err != nil {
				t.Fatal(err)
			}
			var sc RatioScratch
			list, err := sc.Ratios(run, "b", "c", Auto, "")
			if err != nil {
				t.Fatal(err)
			}
			for i, br := range list {
				if got := rr.Ratios[br.Name].Ratio; got != br.Ratio {
					t.Errorf("%s: Ratios %v, RatioScratch.Ratios %v (entry %d): the two must agree", br.Name, got, br.Ratio, i)
				}
			}
			for name, want := range c.want {
				if got := rr.Ratios[name].Ratio; math.Abs(got-want) > 1e-12*want {
					t.Errorf("%s: ratio %v, want %v: %s", name, got, want, c.reason)
				}
			}
		})
	}
}
