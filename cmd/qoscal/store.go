package main

import (
	"fmt"

	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/present"
)

var storeCmd = &command{
	name:    "store",
	summary: "copy runs between stores (SQLite, PostgreSQL); upgrade a store",
	usage: `qoscal store copy --from STORE --to STORE
qoscal store upgrade [--db STORE]
`,
	intro: `Copies every run of one store into another. A STORE is a SQLite file or a
PostgreSQL URL (postgres://USER@HOST/DATABASE; the password comes from the
URL, PGPASSWORD or ~/.pgpass, and is never printed). Copy a file's history
into a team's shared PostgreSQL store to adopt it, or a PostgreSQL store into
a file to work offline.

Runs keep their ids, labels, measurements (with their repetitions) and ingest
times, and the order in which they were ingested; the ledger (the verdicts
'gate --record' kept and the marks of 'qoscal mark') goes with them, in the
order it was recorded. The copy is one transaction. A run the target holds
already with the same content is left alone, so copying again changes
nothing; a run it holds without its repetitions (stored by an older qoscal)
is given them; a run it holds with other content is an error (exit 2), and
nothing is copied. The source is only read; the target is made when it is
missing.

Upgrade brings a store written by an older qoscal to this qoscal's schema,
in place and in one transaction, keeping every run; a SQLite file is then
compacted (the old tables' space given back). Read-only commands
(spread, recommend, runs, gate --db) refuse an older store until then; ingest
and gate --record upgrade it as they write. A store already up to date is
left alone, once every page of a SQLite file has been read back: a store
that lacks a table or column of its schema, or holds a garbled page, is
reported damaged (exit 2).
`,
	example: `Example: take a store offline, then copy again:

    $ qoscal store copy --from calib.db --to offline.db
    calib.db -> offline.db: 12 runs copied, 0 already stored
    $ qoscal store copy --from calib.db --to offline.db
    calib.db -> offline.db: 0 runs copied, 12 already stored

Example: upgrade a store an older qoscal wrote, then again:

    $ qoscal store upgrade --db old.db
    old.db: upgraded from schema version 1 to 5
    old.db: compacted, ...
    $ qoscal store upgrade --db old.db
    old.db: schema version 5, up to date
`,
	subs: []*command{
		{name: "copy", new: func() runner { return new(storeCopyFlags) }},
		{name: "upgrade", new: func() runner { return new(storeUpgradeFlags) }},
	},
}

func init() {
	register(storeCmd)
}

// storeCopyFlags are the flags of store copy.
type storeCopyFlags struct{ from, to string }

func (f *storeCopyFlags) flags(fs *flagSet) {
	fs.group("store copy:")
	fs.StringVar(&f.from, "from", "", "the `STORE` to read")
	fs.StringVar(&f.to, "to", "", "the `STORE` to write into (made when missing)")
}

func (f *storeCopyFlags) run(u *ui, args []string) error {
	from, to := f.from, f.to
	if len(args) > 0 {
		return usagef("unexpected argument %q: name the stores with --from and --to", args[0])
	}
	if from == "" || to == "" {
		return usagef("name both stores: --from STORE --to STORE")
	}
	fc := u.newFiles()
	fc.store(from)
	fc.store(to)
	if err := fc.check(); err != nil {
		return err
	}
	now, err := u.now()
	if err != nil {
		return err
	}
	c, err := source.Copy(u.ctx, from, to, now)
	if err != nil {
		return err
	}
	res := c.Result
	fmt.Fprintf(u.stdout, "%s -> %s: %s copied, %d already stored\n", c.From, c.To, present.Plural(res.Added+res.Completed, "run"), res.Unchanged)
	if c.HasLedger {
		l := res.Ledger
		line := fmt.Sprintf("%s -> %s: ledger: %s and %s copied, %d already stored", c.From, c.To,
			present.Plural(l.VerdictsAdded+l.VerdictsReplaced, "verdict"), present.Plural(l.MarksAdded, "mark"), l.VerdictsUnchanged+l.MarksUnchanged)
		if l.VerdictsReplaced > 0 {
			line += fmt.Sprintf(" (%d of the verdicts replaced one the target held)", l.VerdictsReplaced)
		}
		fmt.Fprintln(u.stdout, line)
	}
	return nil
}

// storeUpgradeFlags are the flags of store upgrade.
type storeUpgradeFlags struct{ db string }

func (f *storeUpgradeFlags) flags(fs *flagSet) {
	fs.group("store upgrade:")
	fs.StringVar(&f.db, "db", "", "the `STORE` to upgrade (default $QOSCAL_DB, else qoscal.db)")
}

// run upgrades a store an older qoscal wrote (source.Upgrade: a store
// that is missing, or is not a qoscal store, is an error and is never
// made, and one up to date is not written).
func (f *storeUpgradeFlags) run(u *ui, args []string) error {
	db := f.db
	if len(args) > 0 {
		return usagef("unexpected argument %q: name the store with --db", args[0])
	}
	loc := storePath(u, db)
	fc := u.newFiles()
	fc.store(loc)
	if err := fc.check(); err != nil {
		return err
	}
	up, err := source.Upgrade(u.ctx, loc)
	if up != nil {
		if up.From == up.To {
			fmt.Fprintf(u.stdout, "%s: schema version %d, up to date\n", up.Location, up.To)
		} else {
			fmt.Fprintf(u.stdout, "%s: upgraded from schema version %d to %d\n", up.Location, up.From, up.To)
		}
		if up.Compacted {
			fmt.Fprintf(u.stdout, "%s: compacted, %s -> %s\n", up.Location, sizeText(up.Before), sizeText(up.After))
		}
	}
	return err
}

// sizeText says a size in bytes in kB (10³ bytes) below a megabyte, else
// in MB (10⁶ bytes) to one decimal.
func sizeText(n int64) string {
	if n < 1e6 {
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
