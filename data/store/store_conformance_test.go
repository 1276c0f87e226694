package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"

	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/postgres"
	qsqlite "github.com/qoscal/qoscal/data/store/sqlite"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// TestConformance runs the store conformance suite (one table of cases)
// against each backend: the embedded SQLite store and PostgreSQL (on the
// server of $QOSCAL_TEST_PG; skipped without one, see storetest.Server).
func TestConformance(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) { storetest.Run(t, b.open) })
	}
}

// TestDamagedLedger runs storetest.RunDamagedLedger against each backend,
// its rows damaged through a connection of the database's own driver.
func TestDamagedLedger(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) { storetest.RunDamagedLedger(t, b.open, b.set) })
	}
}

type backendCase struct {
	name string
	open storetest.Opener
	set  storetest.Setter
}

func backends() []backendCase {
	// The URL each PostgreSQL store was opened by (its Location leaves
	// out the password).
	pgURL := map[store.Store]string{}
	return []backendCase{
		{"SQLite", func(t *testing.T) store.Store {
			s, err := qsqlite.Open(filepath.Join(t.TempDir(), "q.db"), store.ReadWrite)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}, func(t *testing.T, s store.Store, table, column string, value any) {
			c, err := sqlite.OpenConn(s.Location(), sqlite.OpenReadWrite)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := sqlitex.Execute(c, "UPDATE "+table+" SET "+column+" = ?", &sqlitex.ExecOptions{Args: []any{value}}); err != nil {
				t.Fatal(err)
			}
		}},
		{"PostgreSQL", func(t *testing.T) store.Store {
			url := storetest.PostgresURL(t)
			s, err := postgres.Open(context.Background(), url, store.ReadWrite)
			if err != nil {
				t.Fatal(err)
			}
			pgURL[s] = url
			return s
		}, func(t *testing.T, s store.Store, table, column string, value any) {
			ctx := context.Background()
			c, err := pgx.Connect(ctx, pgURL[s])
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(ctx)
			if _, err := c.Exec(ctx, "UPDATE "+table+" SET "+column+" = $1", value); err != nil {
				t.Fatal(err)
			}
		}},
	}
}
