package plots_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/chartdata"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/plots"
)

// TestNonFiniteLines: a floor or bound that gonum cannot draw
// (NaN, ±Inf) is an error, not a panic; plots.hline ignored the error of
// plotter.NewLine and dereferenced its nil line.
func TestNonFiniteLines(t *testing.T) {
	a, rec := sample()
	for _, v := range []float64{math.Inf(1)} {
		floor := chartdata.Floor{Value: v, Label: "--floor"}
		for name, draw := range map[string]func() error{
			"ScoreSequence": func() error {
				return plots.ScoreSequence(io.Discard, chartdata.NewScoreSequence(a, floor), plots.SVG)
			},
			"ScoreDistribution": func() error {
				c := chartdata.NewScoreDistribution(a, floor, rec.PredictionBound, rec.Options.Alpha)
				return plots.ScoreDistribution(io.Discard, c, plots.SVG)
			},
		} {
			err := noPanic(t, name, draw)
			if err == nil || !strings.Contains(err.Error(), "floor") {
				t.Errorf("%s with floor %v: got %v, want an error about the floor", name, v, err)
			}
		}
	}
	err := noPanic(t, "ScoreDistribution", func() error {
		c := chartdata.NewScoreDistribution(a, chartdata.Floor{}, math.Inf(1), rec.Options.Alpha)
		return plots.ScoreDistribution(io.Discard, c, plots.SVG)
	})
	if err == nil || !strings.Contains(err.Error(), "prediction bound") {
		t.Errorf("ScoreDistribution with an infinite prediction bound: got %v, want an error about it", err)
	}
}

func noPanic(t *testing.T, name string, f func() error) (err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panicked: %v", name, p)
			err = nil
		}
	}()
	return f()
}

// TestSameScores: when every run has the same score, the floor
// trade-off has nothing to show on its log axis; it says so with an
// UndrawableError (the command line leaves the chart out with a warning)
// and the other charts draw.
func TestSameScores(t *testing.T) {
	var runs []data.Run
	for _, id := range []string{"r1", "r2", "r3"} {
		r := data.Run{ID: id, Baseline: "system", Candidate: "hoard"}
		for i, b := range []string{"larson", "sh8bench"} {
			base := float64(1000 * (i + 1))
			r.Measurements = append(r.Measurements,
				data.Measurement{Benchmark: b, Variant: "system", Value: base, Unit: formats.OpsUnit},
				data.Measurement{Benchmark: b, Variant: "hoard", Value: 1.2 * base, Unit: formats.OpsUnit})
		}
		runs = append(runs, r)
	}
	a, err := spread.Analyze(runs, spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := calfloor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		t.Fatal(err)
	}
	floor := chartdata.Floor{Value: rec.Floor, Label: "recommended"}
	var dist bytes.Buffer
	distribution := chartdata.NewScoreDistribution(a, floor, rec.PredictionBound, rec.Options.Alpha)
	if err := plots.ScoreDistribution(&dist, distribution, plots.SVG); err != nil {
		t.Fatalf("ScoreDistribution: %v", err)
	}
	if strings.Contains(dist.String(), "fitted log-normal") {
		t.Error("ScoreDistribution draws a fitted log-normal of zero spread")
	}
	for name, draw := range map[string]func() error{
		"RatioSpread":       func() error { return plots.RatioSpread(io.Discard, chartdata.NewRatioSpread(a), plots.SVG) },
		"ScoreSequence":     func() error { return plots.ScoreSequence(io.Discard, chartdata.NewScoreSequence(a, floor), plots.SVG) },
		"ScoreDistribution": func() error { return plots.ScoreDistribution(io.Discard, distribution, plots.SVG) },
		"Noise":             func() error { return plots.Noise(io.Discard, chartdata.NewNoise(a), plots.SVG) },
	} {
		if err := noPanic(t, name, draw); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	tradeoff := chartdata.NewFloorTradeoff(a, rec)
	err = noPanic(t, "FloorTradeoff", func() error { return plots.FloorTradeoff(io.Discard, tradeoff, plots.SVG) })
	var ue *plots.UndrawableError
	if !errors.As(err, &ue) || ue.Chart != "floor-tradeoff" {
		t.Fatalf("FloorTradeoff: got %v (%T), want a *plots.UndrawableError for floor-tradeoff", err, err)
	}
	want := "no candidate floor has a positive false-positive rate to draw on its log axis (all 3 runs have the same score, 1.2: the fitted spread is zero)"
	if ue.Reason != want {
		t.Errorf("reason:\n got %s\nwant %s", ue.Reason, want)
	}
	if tradeoff.LeftOut != want {
		t.Errorf("chartdata.FloorTradeoff.LeftOut:\n got %s\nwant %s", tradeoff.LeftOut, want)
	}
}
