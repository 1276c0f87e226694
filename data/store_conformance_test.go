package data_test

import (
	"context"
	"path/filepath"
	"testing"

	"qoscal/data"
	"qoscal/data/storetest"
)

// TestConformance runs the store conformance suite (one table of cases)
// against each backend: the embedded SQLite store and PostgreSQL (on the
// server of $QOSCAL_TEST_PG; skipped without one, see storetest.Server).
func TestConformance(t *testing.T) {
	for _, b := range []struct {
		name string
		open storetest.Opener
	}{
		{"SQLite", func(t *testing.T) data.Store {
			s, err := data.OpenSQLite(filepath.Join(t.TempDir(), "q.db"), data.ReadWrite)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
		{"PostgreSQL", func(t *testing.T) data.Store {
			s, err := data.OpenPostgres(context.Background(), storetest.PostgresURL(t), data.ReadWrite)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
	} {
		t.Run(b.name, func(t *testing.T) { storetest.Run(t, b.open) })
	}
}
