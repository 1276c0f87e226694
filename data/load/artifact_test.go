package load

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/data"
)

// writeZip writes a zip of the entries (name, content) in order.
func writeZip(t *testing.T, path string, entries ...[2]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.Create(e[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	artBase = "larson: threads=2 ops=4000000 time=0.579 sec (6908188 ops/sec)\ncfrac: iterations=40000000 time=0.577 sec (69291066 ops/sec)\n"
	artCand = "larson: threads=2 ops=4000000 time=0.4 sec (9908188 ops/sec)\ncfrac: iterations=40000000 time=0.5 sec (79291066 ops/sec)\n"
)

func artOptions() Options {
	return Options{Baseline: VariantSpec{Name: "system", File: "baseline.txt"}, Candidate: VariantSpec{Name: "hoard", File: "hoard.txt"}}
}

// TestZipRefused: archives that would write outside their folder, hold a
// link, repeat an entry, or unpack to more than the limits are refused
// with a message naming the archive and the entry; nothing is left behind.
func TestZipRefused(t *testing.T) {
	oldBytes, oldEntries := ZipMaxBytes, ZipMaxEntries
	ZipMaxBytes, ZipMaxEntries = 1<<20, 5
	defer func() { ZipMaxBytes, ZipMaxEntries = oldBytes, oldEntries }()
	big := strings.Repeat("0", 1<<20+1)
	for _, c := range []struct {
		name    string
		entries [][2]string
		want    string
	}{
		{"dot-dot", [][2]string{{"../hoard.txt", artCand}}, `entry "../hoard.txt" would be written outside the artifact's folder`},
		{"deep dot-dot", [][2]string{{"a/../../hoard.txt", artCand}}, `would be written outside`},
		{"absolute", [][2]string{{"/etc/hoard.txt", artCand}}, `would be written outside`},
		{"backslash dot-dot", [][2]string{{`..\hoard.txt`, artCand}}, `would be written outside`},
		{"drive letter", [][2]string{{`C:/hoard.txt`, artCand}}, `would be written outside`},
		{"drive letter only", [][2]string{{`c:hoard.txt`, artCand}}, `would be written outside`},
		// A colon elsewhere is no way out of the folder: the message says
		// what is wrong with it.
		{"colon", [][2]string{{`bench:1/hoard.txt`, artCand}}, `entry "bench:1/hoard.txt" has a ":" in its name, which a Windows file name cannot hold (it would name a stream of another file); rename the file before uploading the artifact: refused`},
		{"stream", [][2]string{{`hoard.txt:evil`, artCand}}, `has a ":" in its name`},
		{"twice", [][2]string{{"hoard.txt", artCand}, {"./hoard.txt", artCand}}, `entry "./hoard.txt": is in the archive twice`},
		{"bomb", [][2]string{{"baseline.txt", big}}, `unpacks to more than the 1048576 bytes a result artifact may hold: refused (a zip bomb?)`},
		{"bomb over entries", [][2]string{{"a", big[:600000]}, {"b", big[:600000]}}, `entry "b": unpacks to more than`},
		{"too many entries", [][2]string{{"a", ""}, {"b", ""}, {"c", ""}, {"d", ""}, {"e", ""}, {"f", ""}}, `6 entries, more than the 5 a result artifact may hold: refused`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "run-1.zip")
			writeZip(t, p, c.entries...)
			before, _ := filepath.Glob(filepath.Join(os.TempDir(), "qoscal-artifact-*"))
			_, err := All([]string{p}, artOptions())
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("error %v, want one naming %s and saying %q", err, p, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "hoard.txt")); err == nil {
				t.Errorf("an entry was written outside the archive's folder")
			}
			after, _ := filepath.Glob(filepath.Join(os.TempDir(), "qoscal-artifact-*"))
			if len(after) > len(before) {
				t.Errorf("a temporary folder was left behind: %v", after)
			}
		})
	}
}

// TestZipSameAsFolder: a zip artifact gives the run its folder gives, named
// after the zip, with qoscal.json's labels; the temporary folder is gone.
func TestZipSameAsFolder(t *testing.T) {
	dir := t.TempDir()
	meta := `{"version": 1, "run_id": "42", "runner_os": "macOS", "time": "2026-12-01T08:00:00Z"}`
	folder := filepath.Join(dir, "run-42")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"baseline.txt": artBase, "hoard.txt": artCand, MetaFile: meta} {
		if err := os.WriteFile(filepath.Join(folder, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zipped := filepath.Join(dir, "zips", "run-42.zip")
	if err := os.Mkdir(filepath.Dir(zipped), 0o755); err != nil {
		t.Fatal(err)
	}
	writeZip(t, zipped, [2]string{"baseline.txt", artBase}, [2]string{"hoard.txt", artCand}, [2]string{MetaFile, meta})
	want, err := All([]string{folder}, artOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{zipped, filepath.Dir(zipped)} {
		got, err := All([]string{p}, artOptions())
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(got) != 1 || got[0].Source != zipped {
			t.Fatalf("%s: got %d runs, source %q", p, len(got), got[0].Source)
		}
		got[0].Source = want[0].Source
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			t.Errorf("%s:\n got %s\nwant %s", p, g, w)
		}
	}
	if want[0].Labels["os"] != "macos" || want[0].Labels["github_run"] != "42" || want[0].Time.IsZero() {
		t.Errorf("labels %v, time %v: want os=macos, github_run=42 and the meta's time", want[0].Labels, want[0].Time)
	}
}

func TestParseMeta(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"version": 1, "runner_os": "Linux"}`, ""},
		{"\xef\xbb\xbf{\"version\": 1}", ""},
		{`{"version": 3}`, "version 3: this qoscal reads versions 1 and 2"},
		{`{"version": 2, "labels": {"cpu": "x"}, "environment": {"cpus": 2, "load_before": [0.5, 0.25, 0.1]}, "measure": {"order": []}}`, ""},
		{`{"version": 1, "labels": {"cpu": "x"}}`, "labels, environment and measure are fields of version 2, not 1"},
		{`{"version": 2, "labels": {"cpu": "a\nb"}}`, "labels: label cpu value"},
		{`{"version": 2, "environment": {"load_after": [1, 2, 3, 4]}}`, "environment: load_after holds 4 figures"},
		{`{"version": 2, "environment": {"load_after": [-1]}}`, "environment: load_after: -1 is no load average"},
		{`{"version": 2, "environment": {"gpu": "x"}}`, `unknown field "gpu"`},
		{`{"version": 2, "measure": [1]}`, "measure: expected a JSON object"},
		{`{"version": 1, "os": "x"}`, `unknown field "os"`},
		{`{"version": 1} {}`, "found more after it"},
		{`{"version": 1, "commit": "a\nb"}`, "commit \"a\\nb\" holds the control character U+000A"},
		{`{"version": 1, "time": "yesterday"}`, `time "yesterday": expected RFC 3339`},
		{`[1]`, "expected the JSON object"},
	} {
		_, err := ParseMeta("q.json", []byte(c.in))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "q.json: ")):
			t.Errorf("%q: error %v, want q.json: ...%s", c.in, err, c.want)
		}
	}
}

// FuzzParseMeta: any input gives a Meta or an error, never a panic; a Meta
// read gives labels that are valid names, and it writes back to itself.
func FuzzParseMeta(f *testing.F) {
	for _, b := range seedFiles(f, "testdata/meta/*.json") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseMeta("q.json", b)
		if err != nil {
			return
		}
		for k, v := range m.RunLabels() {
			if err := data.CheckName("label", v); err != nil {
				t.Fatalf("label %s: %v", k, err)
			}
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseMeta("q.json", out)
		if err != nil || !reflect.DeepEqual(m2, m) {
			t.Fatalf("round trip: %v, %+v != %+v", err, m2, m)
		}
	})
}

// FuzzZipEntryName: a name accepted is a local path inside the folder.
func FuzzZipEntryName(f *testing.F) {
	for _, s := range []string{"baseline.txt", "a/b.txt", "../x", "/abs", `..\x`, "C:/x", "a/./b", "a//b", "./"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		local, err := zipEntryName(name)
		if err != nil {
			return
		}
		if !filepath.IsLocal(local) {
			t.Fatalf("%q accepted as %q, which is not local", name, local)
		}
		root := filepath.Join(os.TempDir(), "root")
		if rel, err := filepath.Rel(root, filepath.Join(root, local)); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			t.Fatalf("%q accepted as %q, which leaves the folder", name, local)
		}
	})
}

// TestMetaEnvironmentLabels: the environment of a qoscal.json gives the
// run the labels cpu, cpus, kernel, arch and image (its OS and version,
// or either alone), and the file's own labels field wins over them.
func TestMetaEnvironmentLabels(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]string
	}{
		{`{"version": 2, "runner_os": "Linux", "environment": {"cpu_model": "AMD EPYC 7763 64-Core Processor", "cpus": 4, "os": "linux", "arch": "amd64", "kernel": "6.8.0-1017-azure", "image_os": "ubuntu24", "image_version": "20261124.1"}}`,
			map[string]string{"os": "linux", "cpu": "AMD EPYC 7763 64-Core Processor", "cpus": "4", "arch": "amd64", "kernel": "6.8.0-1017-azure", "image": "ubuntu24 20261124.1"}},
		{`{"version": 2, "environment": {"image_os": "ubuntu24"}}`, map[string]string{"image": "ubuntu24"}},
		{`{"version": 2, "environment": {"image_version": "20261124.1"}}`, map[string]string{"image": "20261124.1"}},
		{`{"version": 2, "environment": {"cpu_model": "A", "cpus": 0}, "labels": {"cpu": "given"}}`, map[string]string{"cpu": "given"}},
		{`{"version": 2, "environment": {}}`, map[string]string{}},
		{`{"version": 1, "commit": "abc"}`, map[string]string{"commit": "abc"}},
	} {
		m, err := ParseMeta("q.json", []byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := m.RunLabels(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: labels %v, want %v", c.in, got, c.want)
		}
	}
}
