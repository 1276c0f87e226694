package data

import "testing"

// TestPostgresSchemaVersions: both backends number the schema alike, so
// that a version means the same tables on each.
func TestPostgresSchemaVersions(t *testing.T) {
	if len(pgMigrations) != len(migrations) {
		t.Errorf("PostgreSQL has %d schema versions, SQLite %d: add the step to both", len(pgMigrations), len(migrations))
	}
}

func TestRedactLocation(t *testing.T) {
	for _, c := range []struct{ in, want, reason string }{
		{"postgres://ci:s3cret@db.example:5432/qoscal", "postgres://ci:xxxxx@db.example:5432/qoscal", "password in the user part"},
		{"postgresql://ci@db/q?password=s3cret&sslmode=require", "postgresql://ci@db/q?password=xxxxx&sslmode=require", "password as a parameter"},
		{"POSTGRES://db/q", "postgres://db/q", "no password: shown whole"},
		{"calib.db", "calib.db", "a file name: as it is"},
		{"postgres://ci:s3cret@db:bad-port/q\x7f", "(a database URL that does not parse)", "a URL that does not parse shows nothing of itself"},
	} {
		if got := RedactLocation(c.in); got != c.want {
			t.Errorf("%s: RedactLocation(%q) = %q, want %q", c.reason, c.in, got, c.want)
		}
	}
}
