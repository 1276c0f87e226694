package main

import (
	"fmt"

	"github.com/qoscal/qoscal/data/samples"
)

var samplesCmd = &command{
	name:    "samples",
	summary: "list or extract the bundled sample runs",
	usage: `qoscal samples [--out DIR]
`,
	intro: `Lists the real benchmark runs bundled with qoscal, or, with --out, writes
them into DIR (which must not already hold them), so that every command can
be tried without data of your own. Each set has a README.md saying how it was
measured.
`,
	example: `Example:

    $ qoscal samples --out samples
    samples: wrote ...
    $ qoscal ingest --db try.db --baseline glibc=baseline.txt \
        --candidate mimalloc=mimalloc.txt samples/linux-glibc-vs-mimalloc/healthy
    try.db: 12 runs added, 0 already stored, 0 replaced; 240 measurements written
`,
	new: func() runner { return new(samplesFlags) },
}

func init() {
	register(samplesCmd)
}

// samplesFlags are the samples command's flags.
type samplesFlags struct{ out string }

func (s *samplesFlags) flags(fs *flagSet) {
	fs.StringVar(&s.out, "out", "", "write the samples into `DIR` (made if missing), which must not already hold them")
}

func (s *samplesFlags) run(u *ui, args []string) error {
	out := s.out
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	if out == "" {
		for _, s := range samples.Sets() {
			fmt.Fprintln(u.stdout, s)
		}
		return nil
	}
	fc := u.newFiles()
	fc.dir("--out", out)
	if err := fc.check(); err != nil {
		return err
	}
	files, err := samples.Extract(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(u.stdout, "%s: wrote %d files\n", out, len(files))
	return nil
}
