package postgres

import (
	"testing"

	"github.com/qoscal/qoscal/data/store/sqlite"
)

// TestPostgresSchemaVersions: both backends number the schema alike, so
// that a version means the same tables on each.
func TestPostgresSchemaVersions(t *testing.T) {
	if len(pgMigrations) != sqlite.SchemaVersion {
		t.Errorf("PostgreSQL has %d schema versions, SQLite %d: add the step to both", len(pgMigrations), sqlite.SchemaVersion)
	}
}
