package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"qoscal/data/store"
	"qoscal/data/store/postgres"
	"qoscal/data/store/sqlite"
	"qoscal/data/store/storetest"
)

// TestConformance runs the store conformance suite (one table of cases)
// against each backend: the embedded SQLite store and PostgreSQL (on the
// server of $QOSCAL_TEST_PG; skipped without one, see storetest.Server).
func TestConformance(t *testing.T) {
	for _, b := range []struct {
		name string
		open storetest.Opener
	}{
		{"SQLite", func(t *testing.T) store.Store {
			s, err := sqlite.Open(filepath.Join(t.TempDir(), "q.db"), store.ReadWrite)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
		{"PostgreSQL", func(t *testing.T) store.Store {
			s, err := postgres.Open(context.Background(), storetest.PostgresURL(t), store.ReadWrite)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
	} {
		t.Run(b.name, func(t *testing.T) { storetest.Run(t, b.open) })
	}
}
