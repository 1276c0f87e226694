package plots_test

import (
	"log"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/cmpimg"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/chartdata"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/plots"
)

// sample analyses the twelve bundled healthy Linux runs (glibc malloc
// against mimalloc) and recommends the default floor.
func sample() (*spread.Analysis, *calfloor.Recommendation) {
	b, _ := load.ParseVariantSpec("glibc=baseline.txt")
	c, _ := load.ParseVariantSpec("mimalloc=mimalloc.txt")
	runs, err := load.All([]string{filepath.Join("..", "data", "samples", "linux-glibc-vs-mimalloc", "healthy")}, load.Options{Baseline: b, Candidate: c})
	if err != nil {
		log.Fatal(err)
	}
	a, err := spread.Analyze(runs, spread.Options{})
	if err != nil {
		log.Fatal(err)
	}
	rec, err := calfloor.Recommend(a, model.DefaultRecommendOptions)
	if err != nil {
		log.Fatal(err)
	}
	return a, rec
}

// write creates testdata/NAME and hands it to draw.
func write(name string, draw func(f *os.File) error) {
	f, err := os.Create(filepath.Join("testdata", name))
	if err != nil {
		log.Fatal(err)
	}
	if err := draw(f); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func floorOf(rec *calfloor.Recommendation) chartdata.Floor {
	return chartdata.Floor{Value: rec.Floor, Label: "recommended"}
}

func ExampleRatioSpread() {
	a, _ := sample()
	write("ratio-spread.svg", func(f *os.File) error { return plots.RatioSpread(f, chartdata.NewRatioSpread(a), plots.SVG) })
	// Output:
}

func ExampleScoreSequence() {
	a, rec := sample()
	write("score-sequence.svg", func(f *os.File) error {
		return plots.ScoreSequence(f, chartdata.NewScoreSequence(a, floorOf(rec)), plots.SVG)
	})
	// Output:
}

func ExampleScoreDistribution() {
	a, rec := sample()
	write("score-distribution.svg", func(f *os.File) error {
		c := chartdata.NewScoreDistribution(a, floorOf(rec), rec.PredictionBound, rec.Options.Alpha)
		return plots.ScoreDistribution(f, c, plots.SVG)
	})
	// Output:
}

func ExampleNoise() {
	a, _ := sample()
	write("noise.svg", func(f *os.File) error { return plots.Noise(f, chartdata.NewNoise(a), plots.SVG) })
	// Output:
}

func ExampleFloorTradeoff() {
	a, rec := sample()
	write("floor-tradeoff.svg", func(f *os.File) error { return plots.FloorTradeoff(f, chartdata.NewFloorTradeoff(a, rec), plots.SVG) })
	// Output:
}

func ExampleHistory() {
	a, rec := sample()
	write("history.svg", func(f *os.File) error {
		return plots.History(f, chartdata.NewHistory(a, rec.Bands, "these runs"), plots.SVG)
	})
	// Output:
}

// DrawPhone draws a chart for a phone's width: the score sequence, as
// the HTML report shows it on a narrow screen.
func ExampleDrawPhone() {
	a, rec := sample()
	write("score-sequence-phone.svg", func(f *os.File) error {
		return plots.DrawPhone(f, chartdata.NewScoreSequence(a, floorOf(rec)), plots.SVG)
	})
	// Output:
}

// The charts are their examples' golden files (as gonum/plot tests its own charts): -regen
// rewrites testdata/*_golden.svg.
func TestRatioSpread(t *testing.T)   { cmpimg.CheckPlot(ExampleRatioSpread, t, "ratio-spread.svg") }
func TestScoreSequence(t *testing.T) { cmpimg.CheckPlot(ExampleScoreSequence, t, "score-sequence.svg") }
func TestScoreDistribution(t *testing.T) {
	cmpimg.CheckPlot(ExampleScoreDistribution, t, "score-distribution.svg")
}
func TestNoise(t *testing.T)         { cmpimg.CheckPlot(ExampleNoise, t, "noise.svg") }
func TestFloorTradeoff(t *testing.T) { cmpimg.CheckPlot(ExampleFloorTradeoff, t, "floor-tradeoff.svg") }
func TestHistory(t *testing.T)       { cmpimg.CheckPlot(ExampleHistory, t, "history.svg") }
func TestDrawPhone(t *testing.T)     { cmpimg.CheckPlot(ExampleDrawPhone, t, "score-sequence-phone.svg") }
