package samples

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestEverySetEmbedded: every folder beside this file is a sample set in
// FS (the go:embed line lists them by name), and FS holds nothing else.
func TestEverySetEmbedded(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if got := Sets(); !slices.Equal(got, dirs) || len(dirs) == 0 {
		t.Errorf("Sets() = %v, want the folders %v", got, dirs)
	}
}

// TestExtract: Extract writes every file of every set under dir, as it
// is in this folder, and refuses to write over a file that exists.
func TestExtract(t *testing.T) {
	dir := t.TempDir()
	files, err := Extract(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, set := range Sets() {
		err := filepath.WalkDir(set, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				want = append(want, filepath.Join(dir, p))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(files, want) {
		t.Fatalf("Extract wrote %v, want %v", files, want)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		orig, err := os.ReadFile(rel)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(orig) {
			t.Errorf("%s differs from %s", f, rel)
		}
	}
	if _, err := Extract(dir); err == nil {
		t.Errorf("a second Extract into %s succeeded, want an error: its files exist", dir)
	}
}
