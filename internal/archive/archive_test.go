package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "qoscal")
	readme := filepath.Join(dir, "README.md")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho qoscal\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(readme, []byte("# qoscal\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	files := []File{{Name: "qoscal", Path: bin, Executable: true}, {Name: "README.md", Path: readme}}
	when := time.Date(2026, 12, 7, 19, 53, 29, 0, time.FixedZone("CET", 3600))
	for _, ext := range []string{".tar.gz", ".zip"} {
		a, b := filepath.Join(dir, "a"+ext), filepath.Join(dir, "b"+ext)
		if err := Write(a, files, when); err != nil {
			t.Fatal(err)
		}
		// The same again, other files' times and modes changed: the
		// same bytes.
		if err := os.Chtimes(bin, time.Now(), time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(readme, 0o666); err != nil {
			t.Fatal(err)
		}
		if err := Write(b, files, when.UTC()); err != nil {
			t.Fatal(err)
		}
		ab, _ := os.ReadFile(a)
		bb, _ := os.ReadFile(b)
		if !bytes.Equal(ab, bb) {
			t.Errorf("%s: two writes of the same files differ", ext)
		}
		type entry struct {
			name string
			mode os.FileMode
			time time.Time
			body string
		}
		var got []entry
		if ext == ".zip" {
			zr, err := zip.NewReader(bytes.NewReader(ab), int64(len(ab)))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range zr.File {
				rc, _ := f.Open()
				body, _ := io.ReadAll(rc)
				got = append(got, entry{f.Name, f.Mode().Perm(), f.Modified, string(body)})
			}
		} else {
			gz, err := gzip.NewReader(bytes.NewReader(ab))
			if err != nil {
				t.Fatal(err)
			}
			if gz.Name != "" || !gz.ModTime.IsZero() {
				t.Errorf("the gzip header names %q at %v, want neither", gz.Name, gz.ModTime)
			}
			tr := tar.NewReader(gz)
			for {
				h, err := tr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" {
					t.Errorf("%s: owner %d/%d %q/%q, want none", h.Name, h.Uid, h.Gid, h.Uname, h.Gname)
				}
				body, _ := io.ReadAll(tr)
				got = append(got, entry{h.Name, os.FileMode(h.Mode).Perm(), h.ModTime, string(body)})
			}
		}
		want := []entry{{"qoscal", 0o755, when, "#!/bin/sh\necho qoscal\n"}, {"README.md", 0o644, when, "# qoscal\n"}}
		if len(got) != len(want) {
			t.Fatalf("%s: entries %+v, want %+v", ext, got, want)
		}
		for i := range want {
			if got[i].name != want[i].name || got[i].mode != want[i].mode || !got[i].time.Equal(want[i].time) || got[i].body != want[i].body {
				t.Errorf("%s: entry %d is %+v, want %+v", ext, i, got[i], want[i])
			}
		}
	}
	for _, c := range []struct {
		out  string
		name string
	}{{filepath.Join(dir, "x.tar"), "qoscal"}, {filepath.Join(dir, "x.zip"), "../qoscal"}, {filepath.Join(dir, "x.zip"), ""}} {
		if err := Write(c.out, []File{{Name: c.name, Path: bin}}, when); err == nil {
			t.Errorf("Write(%s, %q): no error", c.out, c.name)
		}
	}
}
