package outfile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	out := filepath.Join(dir, "out.txt")
	meta := filepath.Join(dir, "qoscal.json")
	for _, p := range []string{in, out, meta} {
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link.txt")
	if runtime.GOOS != "windows" {
		if err := os.Symlink(out, link); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name string
		c    Checks
		want string // "" for no error
	}{
		{"new output", Checks{Ins: []In{{What: "a result file", Path: in}}, Outs: []Out{{Flag: "--out", Path: filepath.Join(dir, "new.txt")}}}, ""},
		{"its own input", Checks{Ins: []In{{What: "a result file", Path: in}}, Outs: []Out{{Flag: "--out", Path: in}}}, "--out " + in + " is a result file that this command reads: refused rather than replace its own input"},
		{"appended input", Checks{Ins: []In{{What: "the store", Path: in}}, Outs: []Out{{Flag: "--summary", Path: in, Append: true}}}, "refused rather than append to its own input"},
		{"two outputs", Checks{Outs: []Out{{Flag: "--out", Path: out}, {Flag: "--report", Path: out}}}, "--out and --report name the same file"},
		{"two appends", Checks{Outs: []Out{{Flag: "$GITHUB_STEP_SUMMARY", Path: out, Append: true}, {Flag: "--summary", Path: out, Append: true}}}, ""},
		{"dash", Checks{Outs: []Out{{Flag: "--out", Path: "-"}}}, `--out -: "-" is not a file name here`},
		{"folder", Checks{Outs: []Out{{Flag: "--out", Path: dir}}}, "is a folder: expected a file name"},
		{"through a file", Checks{Outs: []Out{{Flag: "--out", Path: filepath.Join(in, "x.json")}}}, "is a file, not a folder"},
		{"dir is a file", Checks{Dirs: []Out{{Flag: "--dir", Path: in}}}, "is a file, not a folder: expected the folder to write into"},
		{"meta replaces the run's own", Checks{Ins: []In{{What: "a run's qoscal.json", Path: meta, Meta: true}}, Outs: []Out{{Flag: "--emit-meta", Path: meta, Meta: true}}}, ""},
		{"meta over another input", Checks{Ins: []In{{What: "the calibration file", Path: meta}}, Outs: []Out{{Flag: "--emit-meta", Path: meta, Meta: true}}}, "is the calibration file that this command reads"},
	}
	if runtime.GOOS != "windows" {
		cases = append(cases, struct {
			name string
			c    Checks
			want string
		}{"link", Checks{Outs: []Out{{Flag: "--out", Path: link}}}, "is a symbolic link (to " + out + ")"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.Check()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Check: %v, want no error", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Check: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestCheckLater: inputs listed later are listed only when an output
// exists, and a refused output that errors are written to is cleared.
func TestCheckLater(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "results.csv")
	listed := 0
	c := Checks{Outs: []Out{{Flag: "--out", Path: p}}}
	c.Later = append(c.Later, func() { listed++; c.Ins = append(c.Ins, In{What: "a PATH", Path: p}) })
	if err := c.Check(); err != nil || listed != 0 {
		t.Fatalf("no output exists: Check %v, listed %d times, want nil and 0", err, listed)
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cleared := false
	c.Outs[0].Clear = func() { cleared = true }
	if err := c.Check(); err == nil || listed != 1 || !cleared {
		t.Fatalf("the output is the input: Check %v, listed %d, cleared %v; want an error, 1, true", err, listed, cleared)
	}
}
