package main

import (
	"fmt"

	"qoscal/data"
)

var samplesCmd = &command{
	name:    "samples",
	summary: "list or extract the bundled sample runs",
	usage: `Usage:
    qoscal samples [--out DIR]

Lists the real benchmark runs bundled with qoscal, or, with --out, writes
them into DIR (which must not already hold them), so that every command can
be tried without data of your own. Each set has a README.md saying how it was
measured.

Example:

    $ qoscal samples --out samples
    samples: wrote ...
    $ qoscal ingest --db try.db --baseline glibc=baseline.txt \
        --candidate mimalloc=mimalloc.txt samples/linux-glibc-vs-mimalloc/healthy
    try.db: 12 runs added, 0 already stored, 0 replaced; 240 measurements written
`,
}

func init() {
	samplesCmd.run = runSamples
	register(samplesCmd)
}

func runSamples(u *ui, args []string) error {
	c := samplesCmd
	fs := newFlags(c)
	var out string
	fs.StringVar(&out, "out", "", "write the samples into `DIR`")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef(c.name, "unexpected argument %q", fs.Arg(0))
	}
	if out == "" {
		for _, s := range data.SampleSets() {
			fmt.Fprintln(u.stdout, s)
		}
		return nil
	}
	files, err := data.ExtractSamples(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(u.stdout, "%s: wrote %d files\n", out, len(files))
	return nil
}
