package main

import (
	"qoscal/present"
)

var spreadCmd = &command{
	name:    "spread",
	summary: "score distribution and per-benchmark spread",
	usage: `Usage:
    qoscal spread [flags] [PATH...]

Shows how much the score (the geomean of the candidate/baseline ratios over
the suite) moves across runs of unchanged code, and how much each benchmark
moves: the score of every run, the distribution of scores, and a table of the
benchmarks, noisiest first (by share of the score's variance).

` + analysisInputHelp + `
Output:
    --seed N                 seed of the change-point test, any whole
                             number from 0 to 2^64-1 (default 1)
    --format FORMAT          text (default), markdown or json

The score distribution: GSD is the geometric standard deviation, exp of the
SD of ln(score) (1.056: the scores spread by about 5.6% either way, one SD);
the 95% CI is that of the geomean of the scores; regimes are stretches of
runs between changes of level (E-Divisive change points).

Columns of the benchmark table: min, median, max of the ratio across runs;
range as % of the median; CV (SD/mean); CV in log space (SD of ln ratio);
IQR (type 7 quartiles) and scaled MAD, both in ratio units; share of the
variance of ln(score) (the shares add up to 100%; a negative share hedges
the others); LOO, the median score over runs with this benchmark left out;
shifts, the runs where this benchmark's ratio changed level (a regime of
its own, found as for the score).

Example: the twelve bundled healthy Linux runs, straight from their folders:

    $ qoscal spread --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
    score = geomean(mimalloc/glibc) over 10 benchmarks, 12 runs (higher is better: ops/sec)
    ...
    benchmark       min  median   max  range     CV  CV(log)    IQR    MAD ...
    mstress        1.11    1.16  1.89  67.1%  23.6%    21.3%  0.199  0.015 ...
    ...
`,
}

func init() {
	spreadCmd.run = runSpread
	register(spreadCmd)
}

func runSpread(u *ui, args []string) error {
	c := spreadCmd
	fs := newFlags(c)
	var af analysisFlags
	af.add(fs)
	var format string
	fs.Uint64Var(&af.seed, "seed", 1, "change-point test seed `N`")
	fs.StringVar(&format, "format", "text", "output `FORMAT`: text, markdown or json")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if err := u.outputFormat(c.name, format); err != nil {
		return err
	}
	fc := u.newFiles()
	af.inputs(u, fc, fs.Args())
	if err := fc.check(); err != nil {
		return err
	}
	in, err := af.analyze(u, c.name, fs.Args())
	if err != nil {
		return err
	}
	u.warnAll(in.analysis.Warnings)
	v := &present.Spread{A: in.analysis, Warnings: warningTexts(in.analysis.Warnings)}
	switch format {
	case "json":
		return writeJSON(u, v.JSON())
	case "markdown":
		v.Doc().WriteMarkdown(u.stdout)
	default:
		v.Doc().WriteText(u.stdout)
	}
	return nil
}
