package main

import (
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/present"
)

var runsCmd = &command{
	name:    "runs",
	summary: "list stored runs",
	format:  true,
	usage: `qoscal runs [--db STORE] [--label KEY=VALUE]... [--format FORMAT]
`,
	intro: `Lists the runs in the store, in ingest order: id, labels, the baseline and
candidate variants, how many variants and benchmarks, when it was ingested.
`,
	notes: `JSON is an array with one object per run:
    {"id": "run-01", "labels": {"os": "linux"}, "source": "...",
     "time": "2026-12-01T07:33:21Z" or null, "baseline": "glibc" or null,
     "candidate": "mimalloc" or null, "variants": {"glibc": 10, ...},
     "benchmarks": 10, "measurements": 20, "repetitions": 0,
     "ingested": "2026-12-01T08:00:00Z"}
("variants" maps each variant to its number of benchmarks with a value;
"repetitions" counts the repetitions of the suite its samples came from, 0
when the input did not say.)
`,
	example: `Example:

    $ qoscal runs --db calib.db --label os=linux
    id      labels    baseline  candidate  variants  benchmarks  ingested
    run-01  os=linux  glibc     mimalloc          2          10  2026-12-01T08:00:00Z
    ...
`,
	new: func() runner { return new(runsFlags) },
}

func init() {
	register(runsCmd)
}

// runsFlags are the runs command's flags.
type runsFlags struct {
	db     string
	labels []string
}

func (r *runsFlags) flags(fs *flagSet) {
	fs.StringVar(&r.db, "db", "", "the `STORE`: a SQLite file or a postgres:// URL (default $QOSCAL_DB, else qoscal.db)")
	fs.StringArrayVar(&r.labels, "label", nil, "list only runs carrying this `KEY=VALUE` label")
}

func (r *runsFlags) run(u *ui, args []string) error {
	db, labels := r.db, r.labels
	if len(args) > 0 {
		return usagef("unexpected argument %q: runs takes no PATH", args[0])
	}
	filter, err := data.ParseLabels(labels)
	if err != nil {
		return usagef("--label: %v", err)
	}
	fc := u.newFiles()
	fc.store(storePath(u, db))
	if err := fc.check(); err != nil {
		return err
	}
	st, err := source.OpenStore(u.ctx, storePath(u, db), store.ReadOnly)
	if err != nil {
		return err
	}
	defer st.Close()
	runs, err := st.Runs(u.ctx, store.Query{Labels: filter})
	if err != nil {
		return err
	}
	if len(runs) == 0 && !u.json {
		u.notef("no runs in %s%s", st.Location(), filterNote(filter))
		return nil
	}
	return show(u, &present.Runs{Runs: runs})
}

func filterNote(filter map[string]string) string {
	if len(filter) == 0 {
		return ""
	}
	return " with labels " + data.FormatLabels(filter)
}
