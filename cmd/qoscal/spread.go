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
    --format FORMAT          text (default), markdown or json

Columns of the benchmark table: min, median, max of the ratio across runs;
range as % of the median; CV (SD/mean); CV in log space (SD of ln ratio);
IQR (type 7 quartiles); scaled MAD; share of the variance of ln(score)
(the shares add up to 100%; a negative share hedges the others); LOO, the
median score over runs with this benchmark left out.

Example: the twelve bundled healthy Linux runs, straight from their folders:

    $ qoscal spread --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
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
	fs.StringVar(&format, "format", "text", "output `FORMAT`: text, markdown or json")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if err := u.outputFormat(c.name, format); err != nil {
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
