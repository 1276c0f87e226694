package load

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/qoscal/qoscal/data"
)

// TestNamesFromFlagsAndFolders: variant names, labels and run ids given on
// the command line or taken from folder names are checked too.
func TestNamesFromFlagsAndFolders(t *testing.T) {
	const tail = ": names must be printable text on one line"
	check := func(what string, err error, want string) {
		t.Helper()
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v\nwant %s", what, err, want)
		}
	}
	_, err := ParseVariantSpec("sys\ntem=base.txt")
	check("NAME=FILE", err, `variant name "sys\ntem" holds the control character U+000A at byte 3`+tail)
	_, err = ParseVariantSpec("results/ho\u2028ard.txt")
	check("stem", err, `variant name "ho\u2028ard" holds the line separator U+2028 at byte 2`+tail+" (the stem of results/ho\u2028ard.txt): name the variant with NAME=FILE")
	_, _, err = data.ParseLabel("os=lin\rux")
	check("label", err, `label os value "lin\rux" holds the control character U+000D at byte 3`+tail)
	_, err = Files(Options{RunID: "r\x1b", Baseline: VariantSpec{"a", "a.txt"}, Candidate: VariantSpec{"b", "b.txt"}})
	check("--run", err, `run id "r\x1b" holds the control character U+001B at byte 1`+tail)

	dir := t.TempDir()
	run := dir + "/run\u20281"
	writeFile(t, run+"/a.txt", "x: t=1 (1 ops/sec)\n")
	writeFile(t, run+"/b.txt", "x: t=1 (2 ops/sec)\n")
	_, err = All([]string{dir}, Options{Baseline: VariantSpec{"a", "a.txt"}, Candidate: VariantSpec{"b", "b.txt"}})
	check("folder name", err, run+`: run id "run\u20281" holds the line separator U+2028 at byte 3`+tail)
	_, err = All([]string{run}, Options{IDPrefix: "\x1b", RunID: "ok", Baseline: VariantSpec{"a", "a.txt"}, Candidate: VariantSpec{"b", "b.txt"}})
	check("--id-prefix", err, run+`: run id "\x1bok" holds the control character U+001B at byte 0`+tail)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
