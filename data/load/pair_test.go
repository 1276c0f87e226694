package load

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/data"
)

func TestNamePair(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string) string {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := mk("x/a/run-01"), mk("x/b/run-01")
	csv := filepath.Join(dir, "x", "a", "runs.csv")
	if err := os.WriteFile(csv, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		pa, pb       string
		ida, idb     string
		wantA, wantB string
		err          string
	}{
		{a, b, "run-01", "run-01", "a/run-01", "b/run-01", ""},
		{a + ".zip", b + ".zip", "run-01", "run-01", "a/run-01", "b/run-01", ""},
		{csv, b, "run-01", "run-01", "runs.csv:run-01", "run-01", ""},
		{a, a, "run-01", "run-01", "", "", "are the same run folder (run-01)"},
	}
	for _, tc := range cases {
		ra, rb := &data.Run{ID: tc.ida}, &data.Run{ID: tc.idb}
		err := NamePair(ra, rb, tc.pa, tc.pb)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("NamePair(%s, %s): %v, want an error with %q", tc.pa, tc.pb, err, tc.err)
			}
		case err != nil:
			t.Errorf("NamePair(%s, %s): %v", tc.pa, tc.pb, err)
		case ra.ID != tc.wantA || rb.ID != tc.wantB:
			t.Errorf("NamePair(%s, %s) named %s and %s, want %s and %s", tc.pa, tc.pb, ra.ID, rb.ID, tc.wantA, tc.wantB)
		}
	}
}

func TestSameFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.txt", "1 ns/op\n")
	write("c.txt", "1 ns/op\n")
	write("d.txt", "2 ns/op\n")
	if same, identical, _, _ := SameFiles(dir, "b.txt", "b.txt"); !same || identical {
		t.Errorf("one file: same %v, identical %v", same, identical)
	}
	if same, identical, bf, cf := SameFiles(dir, "b.txt", "c.txt"); same || !identical || bf != filepath.Join(dir, "b.txt") || cf != filepath.Join(dir, "c.txt") {
		t.Errorf("two files of the same bytes: same %v, identical %v (%s, %s)", same, identical, bf, cf)
	}
	if same, identical, _, _ := SameFiles(dir, "b.txt", "d.txt"); same || identical {
		t.Errorf("two different files: same %v, identical %v", same, identical)
	}
	if same, identical, _, _ := SameFiles(filepath.Join(dir, "b.txt"), "b.txt", "b.txt"); same || identical {
		t.Errorf("a dir that is a file: same %v, identical %v", same, identical)
	}
}

func TestResultFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(p string) string {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	csv := write("runs.csv")
	b, c := write("run/b.txt"), write("run/c.txt")
	write("measured/" + MeasuredFile)
	write("measured/" + MetaFile)
	cases := []struct {
		name       string
		paths      []string
		base, cand string
		want       []string
	}{
		{"files", nil, "sys=" + b, "hoard=" + c, []string{b, c}},
		{"one file for both", nil, "sys=" + b, "hoard=" + b, []string{b}},
		{"a run folder", []string{filepath.Join(dir, "run")}, "sys=b.txt", "hoard=c.txt", []string{b, c}},
		{"a CSV file", []string{csv}, "sys", "hoard", []string{csv}},
		{"a measured folder", []string{filepath.Join(dir, "measured")}, "sys", "hoard", []string{filepath.Join(dir, "measured", MeasuredFile)}},
	}
	for _, tc := range cases {
		got := ResultFiles(tc.paths, tc.base, tc.cand)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestInputFiles(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"b.txt", "c.txt", MetaFile} {
		if err := os.WriteFile(filepath.Join(run, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := InputFiles([]string{run}, []string{"sys=b.txt", "hoard=c.txt", "bad spec ="})
	var s []string
	for _, f := range got {
		s = append(s, fmt.Sprintf("%s:%v", filepath.Base(f.Path), f.Meta))
	}
	if strings.Join(s, " ") != "b.txt:false c.txt:false "+MetaFile+":true" {
		t.Errorf("a run folder's files: %v", s)
	}
	got = InputFiles([]string{run}, []string{"sys=b.txt", "hoard=" + MetaFile})
	for _, f := range got {
		if f.Meta {
			t.Errorf("%s is a variant's result file, marked Meta", f.Path)
		}
	}
	got = InputFiles(nil, []string{"sys=x/b.txt", "", "other=y.txt"})
	if len(got) != 2 || got[0].Path != "x/b.txt" || got[1].Path != "y.txt" {
		t.Errorf("without paths: %v, want the two files named", got)
	}
}
