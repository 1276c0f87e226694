package main

import (
	"github.com/qoscal/qoscal/present"
)

var spreadCmd = &command{
	name:    "spread",
	summary: "score distribution and per-benchmark spread",
	format:  true,
	usage: `qoscal spread [flags] [PATH...]
`,
	intro: `Shows how much the score (the geomean of the candidate/baseline ratios over
the suite) moves across runs of unchanged code, and how much each benchmark
moves: the score of every run, the distribution of scores, and a table of the
benchmarks, noisiest first (by share of the score's variance).
`,
	notes: `The score distribution: GSD is the geometric standard deviation, exp of the
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
`,
	example: `Example: the twelve bundled healthy Linux runs, straight from their folders:

    $ qoscal spread --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
    score = geomean(mimalloc/glibc) over 10 benchmarks, 12 runs (higher is better: ops/sec)
    ...
    benchmark       min  median   max  range     CV  CV(log)    IQR    MAD ...
    mstress        1.11    1.16  1.89  67.1%  23.6%    21.3%  0.199  0.015 ...
    ...
`,
	new: func() runner { return new(spreadFlags) },
}

func init() {
	register(spreadCmd)
}

// spreadFlags are the spread command's flags.
type spreadFlags struct{ af analysisFlags }

func (s *spreadFlags) flags(fs *flagSet) {
	s.af.add(fs)
	fs.group("Output:")
	fs.Uint64Var(&s.af.seed, "seed", 1, "the seed `N` of the change-point test, any whole number from 0 to 2^64-1")
}

func (s *spreadFlags) run(u *ui, paths []string) error {
	fc := u.newFiles()
	s.af.inputs(u, fc, paths)
	if err := fc.check(); err != nil {
		return err
	}
	in, err := s.af.analyze(u, paths)
	if err != nil {
		return err
	}
	u.warnAll(in.analysis.Warnings)
	return show(u, &present.Spread{A: in.analysis, Warnings: warningTexts(in.analysis.Warnings)})
}
