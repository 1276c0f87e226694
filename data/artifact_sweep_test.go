package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A line the mimalloc-bench parser skips with a note (no ops/sec figure).
const artNoted = "xmalloc-test: producers=1 consumers=1 produced=1000000 consumed=1000000 time=0.857 sec\n"

// tempArtifact is the start of a temporary folder a zip is unpacked into:
// no message may name one (it is gone when the message is read).
var tempArtifact = filepath.Join(os.TempDir(), "qoscal-artifact-")

// TestZipMessagesNameTheZip: errors and warnings about what is inside a
// zip artifact name the zip (run-1.zip/baseline.txt), never the temporary
// folder it was unpacked into, whether the zip is a PATH, one of a folder
// of run folders, or holds run folders itself.
func TestZipMessagesNameTheZip(t *testing.T) {
	t.Run("an entry under a file", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "run-1.zip")
		writeZip(t, p, [2]string{"a", "x"}, [2]string{"a/b", "y"})
		_, err := Load([]string{p}, artOptions())
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), `entry "a/b"`) || strings.Contains(err.Error(), tempArtifact) {
			t.Fatalf("error %v: want one naming %s and the entry a/b, not the temporary folder", err, p)
		}
	})
	warned := func(t *testing.T, opt LoadOptions, path, want string) {
		t.Helper()
		var warnings []string
		opt.Warn = func(s string) { warnings = append(warnings, s) }
		if _, err := Load([]string{path}, opt); err != nil {
			t.Fatal(err)
		}
		all := strings.Join(warnings, "\n")
		if strings.Contains(all, tempArtifact) || !strings.Contains(all, want) {
			t.Fatalf("warnings:\n%s\nwant one naming %s, none the temporary folder", all, want)
		}
	}
	t.Run("a parser's note, the zip a PATH", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "run-1.zip")
		writeZip(t, p, [2]string{"baseline.txt", artBase + artNoted}, [2]string{"hoard.txt", artCand})
		warned(t, artOptions(), p, p+"/baseline.txt: skipped 1 benchmark-like line")
	})
	t.Run("a parser's note, the zip among run folders", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "run-1.zip")
		writeZip(t, p, [2]string{"baseline.txt", artBase + artNoted}, [2]string{"hoard.txt", artCand})
		warned(t, artOptions(), dir, p+"/baseline.txt: skipped 1 benchmark-like line")
	})
	t.Run("an incomplete run folder in a zip", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "runs.zip")
		writeZip(t, p, [2]string{"run-1/baseline.txt", artBase}, [2]string{"run-1/hoard.txt", artCand}, [2]string{"run-2/baseline.txt", artBase})
		opt := artOptions()
		opt.SkipIncomplete = true
		warned(t, opt, p, "skipped incomplete run folder "+p+"/run-2")
	})
}
