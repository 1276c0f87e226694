package measure

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRecordedArgs: the measure arguments come back from qoscal.json,
// quoted for a shell; a folder without a measurement gives none.
func TestRecordedArgs(t *testing.T) {
	dir := t.TempDir()
	meta := `{"version": 2, "measure": {"baseline": "sys", "candidate": "hoard",
		"variants": [{"name": "hoard", "command": "./bench --alloc hoard"}, {"name": "sys", "command": "./bench"}],
		"shell": true, "order": "alternate", "repetitions": 20, "warmup": 1, "benchmarks": ["it's"]}}`
	if err := os.WriteFile(filepath.Join(dir, "qoscal.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	want := `--variant 'hoard=./bench --alloc hoard' --variant sys=./bench --baseline sys --candidate hoard --shell --benchmark 'it'\''s' --order alternate --max-repetitions 20 --warmup 1`
	if got := RecordedArgs(dir); got != want {
		t.Errorf("RecordedArgs:\n got %s\nwant %s", got, want)
	}
	for _, src := range []string{"", t.TempDir(), filepath.Join(dir, "qoscal.json")} {
		if got := RecordedArgs(src); got != "" {
			t.Errorf("RecordedArgs(%q) = %q, want none", src, got)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"a=b/c": "a=b/c", "": "''", "a b": "'a b'", "it's": `'it'\''s'`, "$x": "'$x'"} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
