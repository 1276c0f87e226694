package data

// The first schema version's steps, for the migration tests (package
// data_test) to make a store as an older qoscal wrote it.
var (
	SQLiteSchemaV1   = migrations[0]
	PostgresSchemaV1 = pgMigrations[0]
)

// SQLExec runs SQL scripts on a SQLite file (sqlExec), for the tests of
// package data_test to make a store as an older qoscal wrote it.
var SQLExec = sqlExec
