package main

import (
	"fmt"

	"qoscal/data"
	"qoscal/present"
)

var storeCmd = &command{
	name:    "store",
	summary: "copy runs between stores (SQLite files, PostgreSQL)",
	usage: `Usage:
    qoscal store copy --from STORE --to STORE

Copies every run of one store into another. A STORE is a SQLite file or a
PostgreSQL URL (postgres://USER@HOST/DATABASE; the password comes from the
URL, PGPASSWORD or ~/.pgpass, and is never printed). Copy a file's history
into a team's shared PostgreSQL store to adopt it, or a PostgreSQL store into
a file to work offline.

Runs keep their ids, labels, measurements and ingest times, and the order in
which they were ingested. The copy is one transaction. A run the target holds
already with the same content is left alone, so copying again changes
nothing; a run it holds with other content is an error (exit 2), and nothing
is copied. The source is only read; the target is made when it is missing.

Flags:
    --from STORE    the store to read
    --to STORE      the store to write into

Example: take a store offline, then copy again:

    $ qoscal store copy --from calib.db --to offline.db
    calib.db -> offline.db: 12 runs copied, 0 already stored
    $ qoscal store copy --from calib.db --to offline.db
    calib.db -> offline.db: 0 runs copied, 12 already stored
`,
}

func init() {
	storeCmd.run = runStore
	register(storeCmd)
}

func runStore(u *ui, args []string) error {
	c := storeCmd
	if len(args) == 0 {
		return usagef(c.name, "expected a subcommand: qoscal store copy --from STORE --to STORE")
	}
	switch args[0] {
	case "copy":
		return runStoreCopy(u, args[1:])
	case "-h", "--help":
		fmt.Fprint(u.stdout, c.usage)
		return nil
	}
	return usagef(c.name, "unknown subcommand %q: expected copy", args[0])
}

func runStoreCopy(u *ui, args []string) error {
	c := storeCmd
	fs := newFlags(c)
	var from, to string
	fs.StringVar(&from, "from", "", "the `STORE` to read")
	fs.StringVar(&to, "to", "", "the `STORE` to write into")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef(c.name, "unexpected argument %q: name the stores with --from and --to", fs.Arg(0))
	}
	if err := nonEmpty(c.name, fs, "from", "to"); err != nil {
		return err
	}
	if from == "" || to == "" {
		return usagef(c.name, "name both stores: --from STORE --to STORE")
	}
	src, err := data.Open(u.ctx, from, data.ReadOnly)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := data.Open(u.ctx, to, data.ReadWrite)
	if err != nil {
		return err
	}
	defer dst.Close()
	now, err := u.now()
	if err != nil {
		return err
	}
	// The runs stream from one store into the other, a page at a time,
	// keeping their ingest times.
	res, err := dst.IngestEach(u.ctx, src.EachRun(u.ctx, data.Query{Order: data.IngestOrder}), data.IngestOptions{Now: now})
	if err != nil {
		return err
	}
	fmt.Fprintf(u.stdout, "%s -> %s: %s copied, %d already stored\n", src.Location(), dst.Location(), present.Plural(res.Added, "run"), res.Unchanged)
	return nil
}
