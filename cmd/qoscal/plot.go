package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/pflag"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/chartdata"
	"github.com/qoscal/qoscal/plots"
	"github.com/qoscal/qoscal/present"
	"github.com/qoscal/qoscal/render"
)

var plotCmd = &command{
	name:    "plot",
	summary: "variance charts",
	usage: `qoscal plot [flags] [PATH...] --out DIR
`,
	intro: `Draws the variance charts of runs of unchanged code into DIR, one file per
chart, and prints their paths:

    ratio-spread.svg        each benchmark's ratio across runs (log axis),
                            quartile box, median, parity and median score
    score-sequence.svg      each run's score in run order, with the floor,
                            the lowest observed score, parity and regimes
    score-distribution.svg  histogram of scores, fitted log-normal, floor,
                            lowest score and the lower prediction bound
    noise.svg               each benchmark's CV (log) and share of the
                            score's variance
    floor-tradeoff.svg      for candidate floors, the false-positive rate
                            per run and r50
    history.svg             each benchmark's ratio run by run, a panel per
                            benchmark, with its band
`,
	example: `Example:

    $ qoscal plot --out charts --baseline glibc=baseline.txt \
        --candidate mimalloc=mimalloc.txt data/samples/linux-glibc-vs-mimalloc/healthy
    charts/ratio-spread.svg
    ...
`,
	new: func() runner { return new(plotFlags) },
}

func init() {
	register(plotCmd)
}

// plotFlags are the plot command's flags.
type plotFlags struct {
	cf                 chartFlags
	out, format, image string
}

func (p *plotFlags) flags(fs *flagSet) {
	p.cf.add(fs)
	fs.group("Output:")
	fs.StringVar(&p.out, "out", "", "the folder `DIR` to write the charts into (folders made if missing)")
	fs.StringVar(&p.format, "format", "", "the charts' image `FORMAT`: svg (default), or png (at 2x, for HiDPI screens)")
	fs.StringVar(&p.image, "image", "", "the image `FORMAT`, the same as --format (its older name)")
}

// floorFlags choose the floor a chart or report shows.
type floorFlags struct {
	floor       float64
	calibration string
	fs          *pflag.FlagSet // to tell --floor 0 from no --floor
	// cal is the calibration file read by resolve; nil without
	// --calibration.
	cal *model.File
}

func (f *floorFlags) add(fs *flagSet) {
	fs.Float64Var(&f.floor, "floor", 0, fmt.Sprintf("show this `FLOOR` instead of the recommended one (what it costs and catches on the runs read), in [%g, %g]", MinFloor, MaxFloor))
	fs.StringVar(&f.calibration, "calibration", "", "show the floor of this calibration `FILE` (what it costs and catches on the runs read, instead of the recommended floor), its per-benchmark bands on the ratio spread, and the runs after its own marked on the score sequence")
	f.fs = fs.FlagSet
}

// check refuses a --floor that is no floor (see checkFloor); commands call
// it before reading any run.
func (f *floorFlags) check() error {
	if f.fs.Changed("floor") {
		return checkFloor(f.floor)
	}
	return nil
}

// resolve returns the floor to show: --floor (checked by check), the
// calibration file's, or the recommendation's.
func (f *floorFlags) resolve(rec *calfloor.Recommendation) (chartdata.Floor, error) {
	switch {
	case f.fs.Changed("floor"):
		return chartdata.Floor{Value: f.floor, Label: "--floor"}, nil
	case f.calibration != "":
		if f.cal == nil {
			cal, err := model.ReadFile(f.calibration)
			if err != nil {
				return chartdata.Floor{}, err
			}
			f.cal = cal
		}
		return chartdata.Floor{Value: f.cal.Floor, Label: "calibration"}, nil
	}
	return chartdata.Floor{Value: rec.Floor, Label: "recommended"}, nil
}

// chartFlags are the inputs of plot and report: the runs, the
// recommendation's parameters and the floor to show.
type chartFlags struct {
	af analysisFlags
	rf recFlags
	ff floorFlags
	// run is the run whose ratios the ratio spread marks (--run).
	run string
	// recommended is the recommendation for the runs read, set by read
	// when the floor shown is another (--floor, --calibration): read then
	// returns that floor's figures (calfloor.Recommendation.At).
	recommended *calfloor.Recommendation
}

// add registers the inputs of plot and report: the runs, then the floor
// shown and the flags of the recommendation, in a group of their own.
func (c *chartFlags) add(fs *flagSet) {
	c.af.add(fs)
	fs.group("The floor (default: the recommended one, with the flags of recommend):")
	c.ff.add(fs)
	fs.StringVar(&c.run, "run", "", "mark the ratios of the run `ID` on the ratio spread (with the bands of the runs read, without --calibration)")
	c.rf.add(fs)
}

// charts computes the data of every chart, with what the flags add: the
// calibration's bands on the ratio spread and its later runs marked as
// gated on the score sequence (--calibration), the marked run with the
// bands of these runs when there is no calibration (--run).
func (c *chartFlags) charts(in *input, rec *calfloor.Recommendation, floor chartdata.Floor) ([]chartdata.Chart, error) {
	cs := chartdata.All(in.analysis, in.all, rec, floor)
	for _, ch := range cs {
		switch ch := ch.(type) {
		case *chartdata.RatioSpread:
			switch {
			case c.ff.cal != nil && c.ff.cal.Matrix != nil:
				ch.AddBands(c.ff.cal.Matrix.Bands(c.ff.cal.RecommendOptions().FamilyAlpha), "calibration file")
			case c.run != "":
				ch.AddBands(rec.Bands, "these runs")
			}
			if c.run != "" {
				all := in.analysis
				if in.all != nil {
					all = in.all
				}
				if err := ch.MarkRun(all, c.run); err != nil {
					return nil, usagef("--run: %v", err)
				}
			}
		case *chartdata.ScoreSequence:
			if c.ff.cal != nil && c.ff.cal.Matrix != nil {
				ch.MarkGated(c.ff.cal.Matrix.Runs)
			}
		case *chartdata.History:
			if c.ff.cal != nil && c.ff.cal.Matrix != nil {
				all := in.analysis
				if in.all != nil {
					all = in.all
				}
				*ch = *chartdata.NewHistory(all, c.ff.cal.Matrix.Bands(c.ff.cal.RecommendOptions().FamilyAlpha), "calibration file")
			}
		}
	}
	return cs, nil
}

// files starts the check of the files of plot or report: those the runs
// are read from, and the calibration file.
func (c *chartFlags) files(u *ui, paths []string) *files {
	fc := u.newFiles()
	c.af.inputs(u, fc, paths)
	fc.in("the calibration file", c.ff.calibration)
	return fc
}

// chartNames are the names of the charts, in the order drawn: their files
// are PREFIX+NAME+"."+FORMAT.
var chartNames = []string{"ratio-spread", "score-sequence", "score-distribution", "noise", "floor-tradeoff", "history"}

// chartFiles adds the chart files written into dir to fc.
func chartFiles(fc *files, flag, dir, prefix string, format plots.Format) {
	for _, n := range chartNames {
		fc.out(flag, filepath.Join(dir, prefix+n+"."+string(format)))
	}
}

// read analyses the runs, recommends a floor and settles the floor shown.
func (c *chartFlags) read(u *ui, paths []string) (*input, *calfloor.Recommendation, chartdata.Floor, error) {
	if err := c.ff.check(); err != nil {
		return nil, nil, chartdata.Floor{}, err
	}
	if c.ff.calibration != "" {
		// Read before the runs: the skips it expects are quiet, as in
		// gate (issue 35).
		cal, err := model.ReadFile(c.ff.calibration)
		if err != nil {
			return nil, nil, chartdata.Floor{}, err
		}
		c.ff.cal = cal
		c.af.expected = cal.ExpectedSkips
	}
	in, rec, err := recommendFor(u, &c.af, &c.rf, paths)
	if err != nil {
		return nil, nil, chartdata.Floor{}, err
	}
	floor, err := c.ff.resolve(rec)
	if err != nil {
		return nil, nil, chartdata.Floor{}, err
	}
	if floor.Label == "recommended" {
		u.warnAll(present.Unsaid(in.analysis.Warnings, rec.Warnings))
		return in, rec, floor, nil
	}
	// A floor not recommended is the one the charts and the report are
	// about: the recommendation's figures at it, and its warnings.
	c.recommended = rec
	text := strconv.FormatFloat(floor.Value, 'f', -1, 64)
	if c.ff.cal != nil {
		text = c.ff.cal.FloorText
	}
	shown := rec.AtText(in.analysis, in.all, floor.Value, text)
	u.warnAll(present.Unsaid(in.analysis.Warnings, shown.Warnings))
	return in, shown, floor, nil
}

// drawn is a chart drawn as an image, or left out, and why.
type drawn struct {
	name    string // the chart's name: its file is prefix+name+"."+format
	caption string // its short title in a report
	image   []byte
	leftOut string // why the chart is not drawn; "" when it is
}

// drawCharts draws every chart, from its data computed once by chartdata.
// A chart whose data hold nothing to show (every run has the same score,
// say) is left out with a warning naming it and why, and the others are
// still drawn; any other error fails.
func drawCharts(u *ui, cs []chartdata.Chart, format plots.Format) ([]drawn, error) {
	out := make([]drawn, 0, len(cs))
	for _, c := range cs {
		h := c.Header()
		d := drawn{name: h.Name, caption: h.Caption, leftOut: h.LeftOut}
		if d.leftOut != "" {
			u.warnf("chart %s left out: %s", d.name, d.leftOut)
			out = append(out, d)
			continue
		}
		var buf bytes.Buffer
		if err := plots.Draw(&buf, c, format); err != nil {
			return nil, fmt.Errorf("chart %s: %w", d.name, err)
		}
		d.image = buf.Bytes()
		out = append(out, d)
	}
	return out, nil
}

// writeCharts writes every drawn chart into dir as prefix+name+"."+format
// and returns the paths, "" for a chart left out.
func writeCharts(dir, prefix string, ds []drawn, format plots.Format) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	paths := make([]string, len(ds))
	for i, d := range ds {
		if d.leftOut != "" {
			continue
		}
		path := filepath.Join(dir, prefix+d.name+"."+string(format))
		if err := writeFile(path, d.image); err != nil {
			return nil, err
		}
		paths[i] = path
	}
	return paths, nil
}

func (p *plotFlags) run(u *ui, paths []string) error {
	cf, out, image := &p.cf, p.out, p.format
	flag := "--format"
	switch {
	case p.format != "" && p.image != "":
		return usagef("--format and --image name the same thing (the charts' image format): give one")
	case p.image != "":
		image, flag = p.image, "--image"
	case image == "":
		image = "svg"
	}
	if out == "" {
		return usagef("--out DIR is required: the folder to write the charts into")
	}
	if image != "svg" && image != "png" {
		return usagef("%s must be svg or png, got %q", flag, image)
	}
	fc := cf.files(u, paths)
	fc.dir("--out", out)
	chartFiles(fc, "--out", out, "", plots.Format(image))
	if err := fc.check(); err != nil {
		return err
	}
	in, rec, floor, err := cf.read(u, paths)
	if err != nil {
		return err
	}
	cs, err := cf.charts(in, rec, floor)
	if err != nil {
		return err
	}
	ds, err := drawCharts(u, cs, plots.Format(image))
	if err != nil {
		return err
	}
	written, err := writeCharts(out, "", ds, plots.Format(image))
	if err != nil {
		return err
	}
	for _, path := range written {
		if path != "" {
			fmt.Fprintln(u.stdout, render.OneLine(path))
		}
	}
	return nil
}
