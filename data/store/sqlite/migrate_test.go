package sqlite

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// TestMigrateFromV1: a store that schema version 1 wrote (measurements
// with their names in every row) is upgraded the first time it is opened
// for writing (storetest.CheckUpgradeFromV1 says what is checked).
func TestMigrateFromV1(t *testing.T) {
	runs := storetest.V1Runs()
	path := filepath.Join(t.TempDir(), "v1.db")
	stmts := append([]string{migrations[0], "PRAGMA journal_mode = WAL", "PRAGMA user_version = 1", fmt.Sprintf("PRAGMA application_id = %d", 0x716f7363)}, storetest.V1Statements(runs)...)
	sqlExec(t, path, stmts...)
	storetest.CheckUpgradeFromV1(t, runs, func(mode store.Mode) (store.Store, error) { return Open(path, mode) })
}

// TestMigrateFromV2: a store of schema version 2 (before the ledger) is
// upgraded in place the first time it is opened for writing
// (storetest.CheckUpgradeFromV2 says what is checked).
func TestMigrateFromV2(t *testing.T) {
	runs := storetest.V1Runs()
	path := filepath.Join(t.TempDir(), "v2.db")
	stmts := append([]string{migrations[0], "PRAGMA journal_mode = WAL"}, storetest.V1Statements(runs)...)
	stmts = append(stmts, migrations[1], "PRAGMA user_version = 2", fmt.Sprintf("PRAGMA application_id = %d", 0x716f7363))
	sqlExec(t, path, stmts...)
	storetest.CheckUpgradeFromV2(t, runs, func(mode store.Mode) (store.Store, error) { return Open(path, mode) })
}

// TestMigrateFromV3: a store of schema version 3 (a ledger without
// profiles) is upgraded in place the first time it is opened for
// writing (storetest.CheckUpgradeFromV3 says what is checked).
func TestMigrateFromV3(t *testing.T) {
	runs := storetest.V1Runs()
	path := filepath.Join(t.TempDir(), "v3.db")
	stmts := append([]string{migrations[0], "PRAGMA journal_mode = WAL"}, storetest.V1Statements(runs)...)
	stmts = append(stmts, migrations[1], migrations[2])
	stmts = append(stmts, storetest.V3Statements(storetest.V3Verdict())...)
	stmts = append(stmts, "PRAGMA user_version = 3", fmt.Sprintf("PRAGMA application_id = %d", 0x716f7363))
	sqlExec(t, path, stmts...)
	storetest.CheckUpgradeFromV3(t, runs, func(mode store.Mode) (store.Store, error) { return Open(path, mode) })
}

// TestMigrateFromV4: a store of schema version 4 (measurements without
// their repetitions) is upgraded in place the first time it is opened
// for writing (storetest.CheckUpgradeFromV4 says what is checked).
func TestMigrateFromV4(t *testing.T) {
	runs := storetest.V1Runs()
	path := filepath.Join(t.TempDir(), "v4.db")
	stmts := append([]string{migrations[0], "PRAGMA journal_mode = WAL"}, storetest.V1Statements(runs)...)
	stmts = append(stmts, migrations[1], migrations[2], migrations[3], "PRAGMA user_version = 4", fmt.Sprintf("PRAGMA application_id = %d", 0x716f7363))
	sqlExec(t, path, stmts...)
	storetest.CheckUpgradeFromV4(t, runs, func(mode store.Mode) (store.Store, error) { return Open(path, mode) })
}
