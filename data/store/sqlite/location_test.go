package sqlite

import (
	"strings"
	"testing"
)

// TestCheckLocation: SQLite opens ":memory:" and in-memory URIs as a
// database that keeps nothing once the command ends (ingest said "1 run
// added" of it); they are refused, and so is any SQLite URI, which Open
// would take as a file of that name. A file name that merely contains
// "memory" is a file name.
func TestCheckLocation(t *testing.T) {
	cases := []struct {
		loc, want string // want: the start of the error, "" for none
	}{
		{":memory:", "store :memory: is SQLite's in-memory database"},
		{"file::memory:", "store file::memory: is a SQLite URI of an in-memory database"},
		{"file::memory:?cache=shared", "store file::memory:?cache=shared is a SQLite URI of an in-memory database"},
		{"file:x.db?mode=memory", "store file:x.db?mode=memory is a SQLite URI of an in-memory database"},
		{"file:x.db?cache=shared&mode=memory", "store file:x.db?cache=shared&mode=memory is a SQLite URI of an in-memory database"},
		{"file:x.db", "store file:x.db is a SQLite URI: name the store by its file name (x.db)"},
		{"./:memory:", ""},
		{"memory.db", ""},
		{"qoscal.db", ""},
		{"dir/file:x.db", ""},
	}
	for _, c := range cases {
		err := CheckLocation(c.loc)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckLocation(%q) = %v, want nil", c.loc, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("CheckLocation(%q) = %v, want an error beginning %q", c.loc, err, c.want)
		}
	}
}
