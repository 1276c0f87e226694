package postgres

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// TestMigrateFromV1: a store that schema version 1 wrote (measurements
// with their names in every row) is upgraded the first time it is opened
// for writing (storetest.CheckUpgradeFromV1 says what is checked).
func TestMigrateFromV1(t *testing.T) {
	ctx := context.Background()
	runs := storetest.V1Runs()
	url := storetest.PostgresURL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	stmts := append([]string{pgMigrations[0],
		`CREATE TABLE qoscal_meta (key text PRIMARY KEY, value text NOT NULL)`,
		`INSERT INTO qoscal_meta (key, value) VALUES ('schema_version', '1')`,
		// Version 1 numbered runs with bigserial; the rows above
		// give seq by hand, so the sequence is moved past them.
		`SELECT setval(pg_get_serial_sequence('runs', 'seq'), 100)`,
	}, storetest.V1Statements(runs)...)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	storetest.CheckUpgradeFromV1(t, runs, func(mode store.Mode) (store.Store, error) { return Open(ctx, url, mode) })
}

// TestMigrateFromV2: a store of schema version 2 (before the ledger) is
// upgraded in place the first time it is opened for writing
// (storetest.CheckUpgradeFromV2 says what is checked).
func TestMigrateFromV2(t *testing.T) {
	ctx := context.Background()
	runs := storetest.V1Runs()
	url := storetest.PostgresURL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	stmts := append([]string{pgMigrations[0],
		`CREATE TABLE qoscal_meta (key text PRIMARY KEY, value text NOT NULL)`,
		`SELECT setval(pg_get_serial_sequence('runs', 'seq'), 100)`,
	}, storetest.V1Statements(runs)...)
	stmts = append(stmts, pgMigrations[1], `INSERT INTO qoscal_meta (key, value) VALUES ('schema_version', '2')`)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	storetest.CheckUpgradeFromV2(t, runs, func(mode store.Mode) (store.Store, error) { return Open(ctx, url, mode) })
}

// TestMigrateFromV3: a store of schema version 3 (a ledger without
// profiles) is upgraded in place the first time it is opened for
// writing (storetest.CheckUpgradeFromV3 says what is checked).
func TestMigrateFromV3(t *testing.T) {
	ctx := context.Background()
	runs := storetest.V1Runs()
	url := storetest.PostgresURL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	stmts := append([]string{pgMigrations[0],
		`CREATE TABLE qoscal_meta (key text PRIMARY KEY, value text NOT NULL)`,
		`SELECT setval(pg_get_serial_sequence('runs', 'seq'), 100)`,
	}, storetest.V1Statements(runs)...)
	stmts = append(stmts, pgMigrations[1], pgMigrations[2])
	stmts = append(stmts, storetest.V3Statements(storetest.V3Verdict())...)
	stmts = append(stmts, `INSERT INTO qoscal_meta (key, value) VALUES ('schema_version', '3')`)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	storetest.CheckUpgradeFromV3(t, runs, func(mode store.Mode) (store.Store, error) { return Open(ctx, url, mode) })
}

// TestMigrateFromV4: a store of schema version 4 (measurements without
// their repetitions) is upgraded in place the first time it is opened
// for writing (storetest.CheckUpgradeFromV4 says what is checked).
func TestMigrateFromV4(t *testing.T) {
	ctx := context.Background()
	runs := storetest.V1Runs()
	url := storetest.PostgresURL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	stmts := append([]string{pgMigrations[0],
		`CREATE TABLE qoscal_meta (key text PRIMARY KEY, value text NOT NULL)`,
		`SELECT setval(pg_get_serial_sequence('runs', 'seq'), 100)`,
	}, storetest.V1Statements(runs)...)
	stmts = append(stmts, pgMigrations[1], pgMigrations[2], pgMigrations[3], `INSERT INTO qoscal_meta (key, value) VALUES ('schema_version', '4')`)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	storetest.CheckUpgradeFromV4(t, runs, func(mode store.Mode) (store.Store, error) { return Open(ctx, url, mode) })
}
