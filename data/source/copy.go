package source

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/sqlite"
)

// Copied is what Copy did: the stores' locations (a URL without its
// password), the runs and ledger entries copied, and whether the source
// had a ledger at all.
type Copied struct {
	From, To  string
	Result    store.IngestResult
	HasLedger bool
}

// Copy copies every run of the store at from, with its ledger, into the
// store at to (made when missing), keeping the runs' ingest times: the
// runs stream a page at a time into one transaction, the ledger with
// them; now is the time of the ingest. A store file Copy makes is
// removed if the copy fails (an empty store left at to would look like
// a copy); one that was there keeps what it held.
func Copy(ctx context.Context, from, to string, now time.Time) (*Copied, error) {
	src, err := OpenStore(ctx, from, store.ReadOnly)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	// The ledger is read first, before a store is made: every entry's run
	// was stored with or before it, so the runs read next hold them all.
	ledger, err := src.Ledger(ctx, store.LedgerQuery{})
	if err != nil {
		return nil, err
	}
	made := !store.IsPostgresURL(to) && !exists(to)
	dst, err := OpenStore(ctx, to, store.ReadWrite)
	if err != nil {
		if made {
			removeSQLite(to)
		}
		return nil, err
	}
	res, err := dst.IngestEach(ctx, src.EachRun(ctx, store.Query{Order: store.IngestOrder}), store.IngestOptions{Now: now, Ledger: &ledger})
	if err != nil {
		dst.Close()
		if made {
			removeSQLite(to)
		}
		return nil, err
	}
	if err := dst.Close(); err != nil {
		return nil, err
	}
	return &Copied{From: src.Location(), To: dst.Location(), Result: res, HasLedger: !ledger.Empty()}, nil
}

// exists reports whether a file (of any kind) is at path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// removeSQLite removes a SQLite store file and the files SQLite keeps
// beside it.
func removeSQLite(path string) {
	for _, s := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + s)
	}
}

// Upgraded is what Upgrade did to a store: its location, and the schema
// version it had (From) and has (To, this build's); Before and After
// are its file's sizes when it was compacted (a SQLite file), else 0.
type Upgraded struct {
	Location      string
	From, To      int
	Compacted     bool
	Before, After int64
}

// Upgrade upgrades a store an older qoscal wrote, in place. It first
// opens the store read-only, so that a store that is missing, or is not
// a qoscal store, is an error and is never made, and one up to date is
// read through (a garbled page found now, not by the next command) and
// not written (From == To). A SQLite file is compacted after, to give
// back the pages the upgrade freed.
func Upgrade(ctx context.Context, loc string) (*Upgraded, error) {
	st, err := OpenStore(ctx, loc, store.ReadOnly)
	if err == nil {
		defer st.Close()
		if c, ok := st.(interface{ Check(context.Context) error }); ok {
			if err := c.Check(ctx); err != nil {
				return nil, err
			}
		}
		return &Upgraded{Location: st.Location(), From: sqlite.SchemaVersion, To: sqlite.SchemaVersion}, st.Close()
	}
	var older *store.OlderSchemaError
	if !errors.As(err, &older) {
		return nil, err
	}
	st, err = OpenStore(ctx, loc, store.ReadWrite)
	if err != nil {
		return nil, err
	}
	up := &Upgraded{Location: st.Location(), From: older.Version, To: sqlite.SchemaVersion}
	if c, ok := st.(interface {
		Compact(context.Context) (int64, int64, error)
	}); ok {
		up.Before, up.After, err = c.Compact(ctx)
		if err != nil {
			st.Close()
			return up, err
		}
		up.Compacted = true
	}
	return up, st.Close()
}
