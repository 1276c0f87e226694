package storetest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

// ServerEnv names the environment variable that gives the tests a
// PostgreSQL server: a postgres:// URL of a database in which they may
// make and drop schemas. scripts/pg-test-server.sh starts a throwaway
// server and sets it.
const ServerEnv = "QOSCAL_TEST_PG"

// RequireEnv names the environment variable that, set to 1, turns a test
// skipped for want of a PostgreSQL server into a failure (CI sets it, so
// that the PostgreSQL tests cannot silently not run).
const RequireEnv = "QOSCAL_REQUIRE_PG"

// SkipMessage says why a PostgreSQL test did not run and how to run it.
const SkipMessage = "no PostgreSQL server for the tests (" + ServerEnv + " is not set): run them with scripts/pg-test-server.sh go test ./..., which starts a throwaway server, or set " + ServerEnv + " to a postgres:// URL of a database the tests may make schemas in"

// Server returns the test server's URL, or skips the test (fails it when
// RequireEnv is 1) when there is none.
func Server(t testing.TB) string {
	t.Helper()
	u := os.Getenv(ServerEnv)
	if u == "" {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("%s=1, but %s", RequireEnv, SkipMessage)
		}
		t.Skip(SkipMessage)
	}
	return u
}

var schemas atomic.Int64

// PostgresURL returns the URL of a new, empty schema on the test server:
// a store of its own for one test, whatever ran there before. The schema
// is dropped when the test ends. Without a server the test is skipped (see
// Server).
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := Server(t)
	name := fmt.Sprintf("qoscal_test_%d_%d", os.Getpid(), schemas.Add(1))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connecting to the test server (%s): %v", ServerEnv, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE; CREATE SCHEMA "+name); err != nil {
		t.Fatalf("making schema %s on the test server: %v", name, err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("connecting to the test server to drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+name+" CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", ServerEnv, err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}
