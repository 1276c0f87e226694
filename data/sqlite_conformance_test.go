package data_test

import (
	"path/filepath"
	"testing"

	"qoscal/data"
	"qoscal/data/storetest"
)

// TestSQLiteConformance runs the store conformance suite against the
// embedded SQLite store.
func TestSQLiteConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) data.Store {
		s, err := data.OpenSQLite(filepath.Join(t.TempDir(), "q.db"), data.ReadWrite)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
