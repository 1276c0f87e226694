package sqlite

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
)

// fuzzBaseStore makes a real store with a few runs, labels and times, and
// returns its file's bytes (WAL checkpointed into the file on close).
func fuzzBaseStore(f *testing.F) []byte {
	path := filepath.Join(f.TempDir(), "base.db")
	s, err := Open(path, store.ReadWrite)
	if err != nil {
		f.Fatal(err)
	}
	var runs []data.Run
	for i := 0; i < 6; i++ {
		r := storetest.NewRun(fmt.Sprintf("run-%02d", i), 1+0.01*float64(i), map[string]string{"os": []string{"linux", "windows"}[i%2], "runner": fmt.Sprint(i)})
		r.Time = time.Date(2026, 11, 30, i, 0, 0, 0, time.UTC)
		runs = append(runs, r)
	}
	if _, err := s.Ingest(context.Background(), runs, store.IngestOptions{}); err != nil {
		f.Fatal(err)
	}
	if err := s.Close(); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// FuzzStoreRead damages a real store (bytes overwritten at an offset, the
// tail cut off) and reads it as the read-only commands do: open, list
// runs, read each run by id, filter by label. Whatever the damage, the
// read must not panic, must fail with an error that names the store, and
// must leave the file as it was.
func FuzzStoreRead(f *testing.F) {
	base := fuzzBaseStore(f)
	if len(base) < 100 || string(base[:16]) != "SQLite format 3\x00" {
		f.Fatalf("base store: %d bytes, not a SQLite file", len(base))
	}
	pageSize := int(binary.BigEndian.Uint16(base[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := len(base) / pageSize
	if pages < 2 {
		f.Fatalf("base store has %d pages: the seeds would not reach its tables", pages)
	}
	seeds := 0
	add := func(off int, patch []byte, cut int) {
		f.Add(uint32(off), patch, uint16(cut))
		seeds++
	}
	add(0, nil, 0) // the store as it is
	// Header fields: page size, file format versions (2: WAL), page count,
	// schema cookie, schema format, text encoding, user_version,
	// application_id.
	for _, off := range []int{16, 18, 19, 28, 40, 44, 56, 60, 68} {
		add(off, []byte{0xff, 0xff, 0xff, 0xff}, 0)
		add(off, []byte{0, 0, 0, 0}, 0)
	}
	// Each page's header (page 1's comes after the file header) and a
	// byte in each page's cell area.
	for p := 0; p < pages; p++ {
		start := p * pageSize
		if p == 0 {
			start = 100
		}
		add(start, []byte{0x0d, 0xff, 0xff}, 0)
		add(start+3, []byte{0xff, 0xff}, 0)
		add(p*pageSize+pageSize-40, []byte("x"), 0)
	}
	add(0, nil, pageSize)
	add(0, nil, len(base)/2)
	add(0, nil, len(base)-50)
	if seeds == 0 {
		f.Fatal("no seeds")
	}
	f.Fuzz(func(t *testing.T, off uint32, patch []byte, cut uint16) {
		b := append([]byte(nil), base...)
		copy(b[int(off%uint32(len(b))):], patch)
		b = b[:len(b)-int(cut)%(len(b)+1)]
		path := filepath.Join(t.TempDir(), "q.db")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		readStore(t, path)
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(after, b) {
			t.Errorf("reading the store changed it")
		}
	})
}

// readStore reads the store at path as the read-only commands do, and
// fails t on an error that does not name the store.
func readStore(t *testing.T, path string) {
	check := func(what string, err error) bool {
		if err == nil {
			return true
		}
		if msg := err.Error(); !strings.Contains(msg, "store "+path) && !strings.HasPrefix(msg, "no store at "+path) {
			t.Errorf("%s: error does not name the store: %v", what, err)
		}
		return false
	}
	s, err := Open(path, store.ReadOnly)
	if !check("OpenSQLite", err) {
		return
	}
	defer s.Close()
	runs, err := s.Runs(context.Background(), store.Query{Labels: nil})
	if !check("Runs", err) {
		return
	}
	for _, r := range runs {
		if _, err := s.RunByID(context.Background(), r.ID); !check("RunByID "+r.ID, err) {
			continue
		}
		if len(r.Labels) > 0 {
			if _, err := s.Runs(context.Background(), store.Query{Labels: r.Labels}); !check("Runs with labels", err) {
				continue
			}
		}
	}
}
