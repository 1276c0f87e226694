package main

import (
	"encoding/json"
	"fmt"

	"qoscal/data"
	"qoscal/present"
	"qoscal/render"
)

var runsCmd = &command{
	name:    "runs",
	summary: "list stored runs",
	usage: `Usage:
    qoscal runs [--db STORE] [--label KEY=VALUE]... [--format text|markdown|json]

Lists the runs in the store, in ingest order: id, labels, the baseline and
candidate variants, how many variants and benchmarks, when it was ingested.

Flags:
    --db STORE           the store: a SQLite file or a postgres:// URL
                         (default $QOSCAL_DB, else qoscal.db)
    --label KEY=VALUE    list only runs carrying this label (repeatable)
    --format FORMAT      text (default), markdown or json

JSON is an array with one object per run:
    {"id": "run-01", "labels": {"os": "linux"}, "source": "...",
     "time": "2026-12-01T07:33:21Z" or null, "baseline": "glibc" or null,
     "candidate": "mimalloc" or null, "variants": {"glibc": 10, ...},
     "benchmarks": 10, "measurements": 20, "ingested": "2026-12-01T08:00:00Z"}
("variants" maps each variant to its number of benchmarks with a value.)

Example:

    $ qoscal runs --db calib.db --label os=linux
    id      labels    baseline  candidate  variants  benchmarks  ingested
    run-01  os=linux  glibc     mimalloc          2          10  2026-12-01T08:00:00Z
    ...
`,
}

func init() {
	runsCmd.run = runRuns
	register(runsCmd)
}

func runRuns(u *ui, args []string) error {
	c := runsCmd
	fs := newFlags(c)
	var labels []string
	var db, format string
	fs.StringVar(&db, "db", "", "the `STORE`: a SQLite file or a postgres:// URL")
	fs.StringArrayVar(&labels, "label", nil, "only runs with this `KEY=VALUE` label")
	fs.StringVar(&format, "format", "text", "output `FORMAT`: text, markdown or json")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef(c.name, "unexpected argument %q: runs takes no PATH", fs.Arg(0))
	}
	if err := u.outputFormat(c.name, format); err != nil {
		return err
	}
	filter, err := data.ParseLabels(labels)
	if err != nil {
		return usagef(c.name, "--label: %v", err)
	}
	fc := u.newFiles()
	fc.store(storePath(u, db))
	if err := fc.check(); err != nil {
		return err
	}
	st, err := data.Open(u.ctx, storePath(u, db), data.ReadOnly)
	if err != nil {
		return err
	}
	defer st.Close()
	runs, err := st.Runs(u.ctx, data.Query{Labels: filter})
	if err != nil {
		return err
	}
	v := &present.Runs{Runs: runs}
	if format == "json" {
		return writeJSON(u, v.JSON())
	}
	if len(runs) == 0 {
		u.notef("no runs in %s%s", st.Location(), filterNote(filter))
		return nil
	}
	if format == "markdown" {
		v.Doc().WriteMarkdown(u.stdout)
	} else {
		v.Doc().WriteText(u.stdout)
	}
	return nil
}

func filterNote(filter map[string]string) string {
	if len(filter) == 0 {
		return ""
	}
	return " with labels " + data.FormatLabels(filter)
}

// writeJSON writes v as indented JSON on stdout.
func writeJSON(u *ui, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding JSON: %v", err)
	}
	_, err = fmt.Fprintf(u.stdout, "%s\n", render.BreakLegacyJSON(b))
	return err
}
