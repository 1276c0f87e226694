package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/sqlite"
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

Runs keep their ids, labels, measurements and ingest times, and the order in
which they were ingested; the ledger (the verdicts 'gate --record' kept and
the marks of 'qoscal mark') goes with them, in the order it was recorded.
The copy is one transaction. A run the target holds
already with the same content is left alone, so copying again changes
nothing; a run it holds with other content is an error (exit 2), and nothing
is copied. The source is only read; the target is made when it is missing.

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
    old.db: upgraded from schema version 1 to 4
    old.db: compacted, ...
    $ qoscal store upgrade --db old.db
    old.db: schema version 4, up to date
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
	src, err := source.OpenStore(u.ctx, from, store.ReadOnly)
	if err != nil {
		return err
	}
	defer src.Close()
	// The ledger is read first, before a store is made: every entry's run
	// was stored with or before it, so the runs read next hold them all.
	ledger, err := src.Ledger(u.ctx, store.LedgerQuery{})
	if err != nil {
		return err
	}
	// A store file the copy makes is removed if the copy fails: an empty
	// store left at --to looks like a copy. One that was there keeps what
	// it held (the copy is one transaction).
	made := !store.IsPostgresURL(to) && !fileExists(to)
	dst, err := source.OpenStore(u.ctx, to, store.ReadWrite)
	if err != nil {
		if made {
			removeStore(to)
		}
		return err
	}
	// The runs stream from one store into the other, a page at a time,
	// keeping their ingest times; the ledger follows them.
	res, err := dst.IngestEach(u.ctx, src.EachRun(u.ctx, store.Query{Order: store.IngestOrder}), store.IngestOptions{Now: now, Ledger: &ledger})
	if err != nil {
		dst.Close()
		if made {
			removeStore(to)
		}
		return err
	}
	if err := dst.Close(); err != nil {
		return err
	}
	fmt.Fprintf(u.stdout, "%s -> %s: %s copied, %d already stored\n", src.Location(), dst.Location(), present.Plural(res.Added, "run"), res.Unchanged)
	if !ledger.Empty() {
		l := res.Ledger
		line := fmt.Sprintf("%s -> %s: ledger: %s and %s copied, %d already stored", src.Location(), dst.Location(),
			present.Plural(l.VerdictsAdded+l.VerdictsReplaced, "verdict"), present.Plural(l.MarksAdded, "mark"), l.VerdictsUnchanged+l.MarksUnchanged)
		if l.VerdictsReplaced > 0 {
			line += fmt.Sprintf(" (%d of the verdicts replaced one the target held)", l.VerdictsReplaced)
		}
		fmt.Fprintln(u.stdout, line)
	}
	return nil
}

// fileExists reports whether a file (of any kind) is at path.
func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// removeStore removes a SQLite store file and the files SQLite keeps
// beside it.
func removeStore(path string) {
	for _, s := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + s)
	}
}

// storeUpgradeFlags are the flags of store upgrade.
type storeUpgradeFlags struct{ db string }

func (f *storeUpgradeFlags) flags(fs *flagSet) {
	fs.group("store upgrade:")
	fs.StringVar(&f.db, "db", "", "the `STORE` to upgrade (default $QOSCAL_DB, else qoscal.db)")
}

// run upgrades a store an older qoscal wrote. It first opens the store
// read-only, so that a store that is missing, or is not a qoscal store, is
// an error and is never made, and one up to date is not written.
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
	st, err := source.OpenStore(u.ctx, loc, store.ReadOnly)
	if err == nil {
		defer st.Close()
		// A store up to date is read through before it is said to be: a
		// garbled page is found here, not by the next command.
		if c, ok := st.(interface{ Check(context.Context) error }); ok {
			if err := c.Check(u.ctx); err != nil {
				return err
			}
		}
		fmt.Fprintf(u.stdout, "%s: schema version %d, up to date\n", st.Location(), sqlite.SchemaVersion)
		return st.Close()
	}
	var older *store.OlderSchemaError
	if !errors.As(err, &older) {
		return err
	}
	st, err = source.OpenStore(u.ctx, loc, store.ReadWrite)
	if err != nil {
		return err
	}
	fmt.Fprintf(u.stdout, "%s: upgraded from schema version %d to %d\n", st.Location(), older.Version, sqlite.SchemaVersion)
	// A SQLite file keeps the pages the upgrade freed: give them back.
	if c, ok := st.(interface {
		Compact(context.Context) (int64, int64, error)
	}); ok {
		before, after, err := c.Compact(u.ctx)
		if err != nil {
			st.Close()
			return err
		}
		fmt.Fprintf(u.stdout, "%s: compacted, %s -> %s\n", st.Location(), sizeText(before), sizeText(after))
	}
	return st.Close()
}

// sizeText says a size in bytes in kB (10³ bytes) below a megabyte, else
// in MB (10⁶ bytes) to one decimal.
func sizeText(n int64) string {
	if n < 1e6 {
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
