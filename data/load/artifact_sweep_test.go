package load

import (
	"archive/zip"
	"bytes"
	"fmt"
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
		_, err := All([]string{p}, artOptions())
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), `entry "a/b"`) || strings.Contains(err.Error(), tempArtifact) {
			t.Fatalf("error %v: want one naming %s and the entry a/b, not the temporary folder", err, p)
		}
	})
	warned := func(t *testing.T, opt Options, path, want string) {
		t.Helper()
		var warnings []string
		opt.Warn = func(s string) { warnings = append(warnings, s) }
		if _, err := All([]string{path}, opt); err != nil {
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

// TestParseMetaKeys: a qoscal.json that gives a field twice, or under
// another case, is refused: Go's decoder took the last of two and read
// "Commit" as "commit", so a file could carry two commits and be read as
// the one another JSON reader would not pick.
func TestParseMetaKeys(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"version": 1, "commit": "aaa", "commit": "bbb"}`, `field "commit" appears twice`},
		{`{"version": 1, "commit": "aaa", "Commit": "bbb"}`, `unknown field "Commit"`},
		{`{"VERSION": 1}`, `unknown field "VERSION"`},
		{`{"version": 1, "version": 1}`, `field "version" appears twice`},
		{`{"version": 1, "runner_os": {"commit": 1, "commit": 2}}`, `runner_os`},
		{`{"version": 1, "attempt": 2}`, `attempt`},
		{`{"version": 1, "commit": "aaa", "runner_os": "Linux"}`, ""},
	} {
		_, err := ParseMeta("q.json", []byte(c.in))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "q.json: ")):
			t.Errorf("%s: error %v, want q.json: ...%s", c.in, err, c.want)
		}
	}
}

// TestMetaNotAFile: a qoscal.json beside the result files that is not a
// regular file (a folder, which a zip entry "qoscal.json/x" makes, or a
// named pipe) is an error naming it, not a run read without its labels.
func TestMetaNotAFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run-1.zip")
	writeZip(t, p, [2]string{"baseline.txt", artBase}, [2]string{"hoard.txt", artCand}, [2]string{MetaFile + "/x", "{}"})
	_, err := All([]string{p}, artOptions())
	if err == nil || !strings.Contains(err.Error(), p+"/"+MetaFile) || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("error %v: want one naming %s/%s, not a regular file", err, p, MetaFile)
	}
}

// TestNestedZipShareLimits: zips inside a zip artifact (a zip of
// downloaded artifact zips) unpack under the outer zip's limits, not each
// under limits of its own: otherwise a small zip of many small zip bombs
// writes the byte limit once per inner zip.
func TestNestedZipShareLimits(t *testing.T) {
	oldBytes, oldEntries := ZipMaxBytes, ZipMaxEntries
	ZipMaxBytes, ZipMaxEntries = 1<<20, 20
	defer func() { ZipMaxBytes, ZipMaxEntries = oldBytes, oldEntries }()
	dir := t.TempDir()
	pad := strings.Repeat("\n", 400<<10) // 400 KiB of blank lines, each inner zip under the limit
	inner := func(name string, entries ...[2]string) [2]string {
		p := filepath.Join(dir, name)
		writeZip(t, p, entries...)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return [2]string{name, string(b)}
	}
	var runs [][2]string
	for _, n := range []string{"run-1.zip", "run-2.zip", "run-3.zip"} {
		runs = append(runs, inner(n, [2]string{"baseline.txt", artBase + pad}, [2]string{"hoard.txt", artCand}))
	}
	outer := filepath.Join(dir, "runs.zip")
	writeZip(t, outer, runs...)
	_, err := All([]string{outer}, artOptions())
	if err == nil || !strings.Contains(err.Error(), "unpacks to more than the 1048576 bytes") || !strings.HasPrefix(err.Error(), outer+"/run-") || strings.Contains(err.Error(), tempArtifact) {
		t.Fatalf("error %v: want the outer zip's byte limit, shared by the zips inside it", err)
	}

	var many [][2]string
	for i := range 8 {
		many = append(many, [2]string{fmt.Sprintf("f%d", i), ""})
	}
	runs = runs[:0]
	for _, n := range []string{"run-1.zip", "run-2.zip", "run-3.zip"} {
		runs = append(runs, inner(n, append([][2]string{{"baseline.txt", artBase}, {"hoard.txt", artCand}}, many...)...))
	}
	writeZip(t, outer, runs...)
	_, err = All([]string{outer}, artOptions())
	if err == nil || !strings.Contains(err.Error(), "more than the 20") {
		t.Fatalf("error %v: want the outer zip's entry limit, shared by the zips inside it", err)
	}
}

// TestZipOfAFolderAmongRuns: a zip made of its run folder (zip -r run-2.zip
// run-2, the result files one folder down) among other run folders is read
// as the run it holds, as the same zip given as a PATH is; it was skipped
// without a word, and the runs read were one fewer than given. A zip that
// holds a result file deeper still is skipped with a warning saying where.
func TestZipOfAFolderAmongRuns(t *testing.T) {
	dir := t.TempDir()
	writeZip(t, filepath.Join(dir, "run-1.zip"), [2]string{"baseline.txt", artBase}, [2]string{"hoard.txt", artCand})
	writeZip(t, filepath.Join(dir, "run-2.zip"), [2]string{"run-2/", ""}, [2]string{"run-2/baseline.txt", artBase}, [2]string{"run-2/hoard.txt", artCand})
	writeZip(t, filepath.Join(dir, "run-3.zip"), [2]string{"out/bench/baseline.txt", artBase}, [2]string{"out/bench/hoard.txt", artCand})
	writeZip(t, filepath.Join(dir, "logs.zip"), [2]string{"build.log", "ok\n"})
	opt := artOptions()
	var warnings []string
	opt.Warn = func(s string) { warnings = append(warnings, s) }
	runs, err := All([]string{dir}, opt)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.ID)
	}
	if strings.Join(ids, " ") != "run-1 run-2" {
		t.Errorf("runs %v, want run-1 run-2", ids)
	}
	all := strings.Join(warnings, "\n")
	want := "skipped artifact " + filepath.Join(dir, "run-3.zip") + ": it holds " + filepath.Join(dir, "run-3.zip") + "/out/bench/baseline.txt"
	if !strings.Contains(all, want) || strings.Contains(all, "logs.zip") || strings.Contains(all, tempArtifact) {
		t.Errorf("warnings:\n%s\nwant one saying %q, none of logs.zip or the temporary folder", all, want)
	}
}

// TestZipEncrypted: an entry of a password-protected zip is refused as
// such; it was read as damaged ("flate: corrupt input"), or, with its
// content stored, read as it is.
func TestZipEncrypted(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run-1.zip")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range [][2]string{{"baseline.txt", artBase}, {"hoard.txt", artCand}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e[0], Method: zip.Store, Flags: 0x1})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := All([]string{p}, artOptions())
	if err == nil || !strings.Contains(err.Error(), p+`: entry "baseline.txt" is encrypted`) {
		t.Fatalf("error %v: want the entry named as encrypted", err)
	}
}
