package data

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Samples holds the real benchmark runs shipped with qoscal (see
// samples/*/README.md), so that every command can be tried without data of
// one's own.
//
//go:embed samples
var Samples embed.FS

// SampleSets lists the top-level sample sets.
func SampleSets() []string {
	entries, _ := fs.ReadDir(Samples, "samples")
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// ExtractSamples writes the shipped samples into dir (dir/NAME/...),
// refusing to overwrite files that exist. It returns the files written.
func ExtractSamples(dir string) ([]string, error) {
	var written []string
	err := fs.WalkDir(Samples, "samples", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("samples", filepath.FromSlash(p))
		out := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := Samples.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			if os.IsExist(err) {
				return fmt.Errorf("%s exists: extract into an empty folder", out)
			}
			return err
		}
		if _, err := f.Write(b); err != nil {
			f.Close()
			return err
		}
		written = append(written, out)
		return f.Close()
	})
	return written, err
}
