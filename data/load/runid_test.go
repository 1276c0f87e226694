package load

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultRunID(t *testing.T) {
	env := func(m map[string]string) func(string) string {
		return func(k string) string { return m[k] }
	}
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "folder"},
		{map[string]string{"GITHUB_RUN_ID": "123"}, "123"},
		{map[string]string{"GITHUB_RUN_ID": "123", "GITHUB_RUN_ATTEMPT": "2"}, "123-2"},
		{map[string]string{"GITHUB_RUN_ATTEMPT": "2"}, "folder"},
	} {
		if got := DefaultRunID(env(c.env), "folder"); got != c.want {
			t.Errorf("DefaultRunID(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestSpecFolder(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]string{
		"runs/job-7/cand.txt":                   "job-7",
		"new=runs/job-7/cand.txt":               "job-7",
		"cand.txt":                              filepath.Base(wd),
		string(filepath.Separator) + "cand.txt": "run",
		"":                                      "run",
	} {
		if got := SpecFolder(spec); got != want {
			t.Errorf("SpecFolder(%q) = %q, want %q", spec, got, want)
		}
	}
}
