package main

import (
	"errors"
	"os"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
)

// analysisFlags are the input flags shared by every analysis command
// (spread, recommend, plot, report): runs come from PATHs or from the
// store, and the options of the analysis itself.
type analysisFlags struct {
	runFlags
	dirFlags
	db           string
	labels       []string
	allowPartial bool
	metric       string
	// seed seeds the change-point test (0: its default, 1): spread's
	// --seed, or recommend's (which also seeds the bootstrap).
	seed uint64
	// ignore are the benchmarks left out on purpose (--ignore).
	ignore []string
	// expected are the skips a calibration file read expects
	// (expected_skips): quiet, as --ignore's are, but still analysed.
	expected []string
	// skipped are, by run id, the benchmark-like lines each run's result
	// files printed without a figure (load.Options.Skipped), for the
	// calibration file's expected_skips.
	skipped map[string][]string
}

// dirFlags override the direction the units give.
type dirFlags struct{ higher, lower bool }

func (d *dirFlags) add(fs *flagSet) {
	fs.BoolVar(&d.higher, "higher-is-better", false, "every metric improves upward (overrides the direction its unit gives)")
	fs.BoolVar(&d.lower, "lower-is-better", false, "every metric improves downward (likewise)")
}

// direction returns the overriding direction, Auto when none is given.
func (d *dirFlags) direction() (calibrate.Direction, error) {
	switch {
	case d.higher && d.lower:
		return calibrate.Auto, usagef("--higher-is-better and --lower-is-better exclude each other")
	case d.higher:
		return calibrate.HigherIsBetter, nil
	case d.lower:
		return calibrate.LowerIsBetter, nil
	}
	return calibrate.Auto, nil
}

// add registers the input flags of an analysis command, in a group of
// their own.
func (f *analysisFlags) add(fs *flagSet) {
	fs.group("Input (runs of unchanged code, from PATHs or from the store):")
	fs.arg("PATH...", "run folders, folders of run folders, CSV files")
	f.addLoadFlags(fs, loadHelp{
		baseline:  "the baseline's result `[NAME=]FILE` in each run folder; with the store or a CSV, just its NAME (default: the role recorded at ingest)",
		candidate: "the candidate's `[NAME=]FILE`, likewise",
		variant:   "a further variant's result `[NAME=]FILE` in each run folder, read with the others, not compared",
	}, "input-format")
	fs.StringVar(&f.db, "db", "", "without PATHs, the `STORE`: a SQLite file or a postgres:// URL (default $QOSCAL_DB, else qoscal.db)")
	fs.StringArrayVar(&f.labels, "label", nil, "with the store, only runs with this `KEY=VALUE` label")
	f.dirFlags.add(fs)
	fs.BoolVar(&f.allowPartial, "allow-partial", false, "the suite is the benchmarks common to all runs, instead of leaving out runs that lack one")
	fs.StringVar(&f.metric, "metric", "", "with several metrics per benchmark (Go's sec/op, B/op, allocs/op; Google Benchmark's real_time, cpu_time), the `METRIC` to compare (default sec/op)")
	fs.StringArrayVar(&f.ignore, "ignore", nil, "leave the benchmark `NAME` out on purpose, said once, never warned of (a benchmark that prints no figure, or one known to be broken)")
}

// inputs adds the files the analysis reads to fc: the runs' files at
// PATHs, or the store.
func (f *analysisFlags) inputs(u *ui, fc *files, paths []string) {
	if len(paths) > 0 {
		fc.runs(&f.runFlags, paths)
	} else {
		fc.store(storePath(u, f.db))
	}
}

// input is what an analysis command read: the runs, where from, and the
// analysis of them.
type input struct {
	// collected are the runs' ratios, to analyse a window of them again.
	collected *spread.Collected
	// all is the analysis of every run read, when the analysis is of a
	// window of them (the latest regime); nil otherwise.
	all *spread.Analysis
	// runs are the runs analysed, without their measurements: the
	// analysis holds their ratios, and only those (see runInfo).
	runs     []runInfo
	source   string            // "paths" or the store file
	filter   map[string]string // label filter (store)
	analysis *spread.Analysis
}

// analyze reads the runs and analyses them. Warnings of the analysis are
// printed on stderr.
func (f *analysisFlags) analyze(u *ui, paths []string) (*input, error) {
	tuneGC(os.Getenv("GOGC"))
	dir, err := f.direction()
	if err != nil {
		return nil, err
	}
	filter, err := data.ParseLabels(f.labels)
	if err != nil {
		return nil, usagef("--label: %v", err)
	}
	opt := spread.Options{AllowPartial: f.allowPartial, Metric: f.metric, Direction: dir, Seed: f.seed}
	in := &input{filter: filter}
	if len(paths) > 0 && len(filter) > 0 {
		return nil, usagef("--label selects runs in the store; with PATHs, pick the folders instead")
	}
	lopt, err := f.loadOptions(u, namesVariants(paths))
	if err != nil {
		return nil, err
	}
	f.skipped = map[string][]string{}
	lopt.Skipped = func(run string, names []string) { f.skipped[run] = names }
	// A benchmark ignored on purpose is no skip to note either.
	lopt.ExpectedSkips = append(append([]string(nil), f.ignore...), f.expected...)
	ignore := data.NameSet(f.ignore)
	seenIgnored := map[string]bool{}
	src := source.Source{Paths: paths, Load: lopt, Store: storePath(u, f.db), Labels: filter}
	if src.FromStore() {
		opt.Baseline, opt.Candidate = lopt.Baseline.Name, lopt.Candidate.Name
		in.source = store.RedactLocation(src.Store)
	} else {
		in.source = "paths"
	}
	// The runs are taken one at a time: the analysis keeps their ratios
	// and in.runs their ids, labels and sources, not their measurements
	// (at 100,000 runs, most of the memory of holding them all).
	runs := func(yield func(data.Run, error) bool) {
		// Equal labels share one map (source.ShareLabels).
		for r, err := range source.ShareLabels(src.Each(u.ctx)) {
			if err == nil {
				if len(ignore) > 0 {
					r.Measurements = data.WithoutBenchmarks(r.Measurements, ignore, seenIgnored)
				}
				in.runs = append(in.runs, runInfo{ID: r.ID, Source: r.Source, Labels: r.Labels})
			}
			if !yield(r, err) {
				return
			}
		}
	}
	c, err := spread.Collect(runs, opt)
	if err != nil {
		var oe *source.OpenError
		var ne *source.NoRunsError
		switch {
		case errors.As(err, &oe):
			return nil, withHint(oe.Err, "or give run folders as PATHs, with --baseline NAME=FILE and --candidate NAME=FILE")
		case errors.As(err, &ne):
			return nil, withHint(err, "ingest runs with 'qoscal ingest', or give run folders as PATHs")
		}
		return nil, err
	}
	a, err := c.Analyze(nil)
	if err != nil {
		return nil, err
	}
	in.analysis, in.collected = a, c
	// A name ignored that the result files printed without a figure
	// was left out too: its skip said nothing.
	for _, names := range f.skipped {
		for _, n := range names {
			if ignore[n] {
				seenIgnored[n] = true
			}
		}
	}
	sayIgnored(u, f.ignore, seenIgnored, "no run measured it")
	return in, nil
}

// sayIgnored says once what --ignore left out: a plain note, since it
// was asked for; a name that left nothing out is a warning (a typo?),
// with why (none of the runs, or neither the run nor the calibration,
// had it).
func sayIgnored(u *ui, names []string, seen map[string]bool, none string) {
	var out []string
	said := map[string]bool{}
	for _, n := range names {
		if said[n] {
			continue
		}
		said[n] = true
		if seen[n] {
			out = append(out, n)
		} else {
			u.warnf("--ignore %s: %s (a misspelt name?)", n, none)
		}
	}
	if len(out) > 0 {
		u.notef("left out on purpose (--ignore): %s", strings.Join(out, ", "))
	}
}

// runInfo is what the commands use of a run besides its ratios: its id,
// its labels (the calibration file's common labels) and its source (the
// report's table of inputs).
type runInfo struct {
	ID, Source string
	Labels     map[string]string
}
