package store

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestRedactLocationWhatPgxReads: whatever pgx reads as a password (or the
// client key's password, sslpassword) appears nowhere in the redacted
// location. Go's url.Parse and pgx read some URLs differently: pgx takes
// "1234#5678" as the password of postgres://u:1234#5678@host/db, where
// url.Parse sees user u at port 1234 and a fragment, and RedactURL showed
// the URL whole (found by the hostile-input sweep).
func TestRedactLocationWhatPgxReads(t *testing.T) {
	for _, loc := range []string{
		"postgres://u:1234#5678@127.0.0.1:1/db",
		"postgres://u:12?34@127.0.0.1:1/db",
		"postgres://u@db.example/q?sslpassword=TOPSECRET1",
		"postgres://ci:s3cret@db.example:5432/qoscal",
	} {
		cfg, err := pgconn.ParseConfig(loc)
		if err != nil {
			continue // pgx refuses it: nothing connects with it
		}
		got := RedactLocation(loc)
		secrets := []string{cfg.Password}
		if _, q, ok := strings.Cut(loc, "sslpassword="); ok {
			secrets = append(secrets, q) // the client key's password, which pgx takes from the URL too
		}
		for _, s := range secrets {
			if s != "" && strings.Contains(got, s) {
				t.Errorf("RedactLocation(%q) = %q, which shows the password pgx reads, %q", loc, got, s)
			}
		}
	}
}

// TestRedactRawAt: a raw '@' in a password (pgx splits the user
// information at the first '@', url.Parse at the last) shows neither part
// of the password, and the host after the last '@' stays readable.
func TestRedactRawAt(t *testing.T) {
	got := RedactLocation("postgresql://u:p@ss@127.0.0.1/db?sslpassword=a#b&sslmode=require")
	if want := "postgresql://u:xxxxx@127.0.0.1/db?sslpassword=xxxxx&sslmode=require"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestIsPostgresURL(t *testing.T) {
	for in, want := range map[string]bool{
		"postgres://db/q": true, "postgresql://db/q": true, "PostgreSQL://db/q": true,
		"qoscal.db": false, "postgres.db": false, "./postgres://x": false, "": false,
	} {
		if got := IsPostgresURL(in); got != want {
			t.Errorf("IsPostgresURL(%q) = %v, want %v", in, got, want)
		}
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
