// Package samples holds the real benchmark runs shipped with qoscal (see
// */README.md in this folder), so that every command can be tried without
// data of one's own.
package samples

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FS holds the sample sets, each a folder at its top. Every folder here
// is listed (TestEverySetEmbedded checks it): a set added to the folder
// and not to this list would be missing from the command.
//
//go:embed go-strings-builder linux-glibc-vs-mimalloc windows-hoard-first-measurement windows-hoard-worked-example
var FS embed.FS

// Sets lists the top-level sample sets.
func Sets() []string {
	entries, _ := fs.ReadDir(FS, ".")
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// Extract writes the shipped samples into dir (dir/NAME/...), refusing
// to overwrite files that exist. It returns the files written.
func Extract(dir string) ([]string, error) {
	var written []string
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := FS.ReadFile(p)
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
