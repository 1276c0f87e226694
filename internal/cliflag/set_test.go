package cliflag

import (
	"errors"
	"strings"
	"testing"
)

// TestWriteHelp: flags listed by group in the order registered, the
// arguments among them, placeholders, "(repeatable)" and non-zero
// defaults added, long names on a line of their own, text wrapped at 79
// columns without parting a range or a default, hidden flags left out.
func TestWriteHelp(t *testing.T) {
	s := NewSet("x")
	var str string
	var n int
	var labels []string
	var on bool
	s.BoolVar(&on, "quiet", false, "say less")
	s.Group("Input:")
	s.Arg("PATH...", "run folders")
	s.StringVar(&str, "db", "q.db", "the `STORE` to read")
	s.StringArrayVar(&labels, "label", nil, "a `KEY=VALUE` label")
	s.Group("The floor:")
	s.IntVar(&n, "a-rather-long-flag-name", 0, "the `N` of things, in [0, 100], which is a range the help must keep on one line when it wraps the text")
	s.StringVar(&str, "old", "", "hidden")
	s.MarkHidden("old")
	var b strings.Builder
	s.WriteHelp(&b)
	want := `
Flags:
    --quiet                  say less

Input:
    PATH...                  run folders
    --db STORE               the STORE to read (default q.db)
    --label KEY=VALUE        a KEY=VALUE label (repeatable)

The floor:
    --a-rather-long-flag-name N
                             the N of things, in [0, 100], which is a range the
                             help must keep on one line when it wraps the text
`
	if b.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestNearest(t *testing.T) {
	s := NewSet("x")
	var v string
	for _, name := range []string{"baseline", "candidate", "repetitions", "db", "hidden-one"} {
		s.StringVar(&v, name, "", "a `V`")
	}
	s.MarkHidden("hidden-one")
	for name, want := range map[string]string{
		"basline": "baseline", "cnadidate": "candidate", "repetition": "repetitions", "candidate=x": "candidate",
		"dbx": "db", "floor": "", "hidden-on": "",
	} {
		if got := s.Nearest(name); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", name, got, want)
		}
	}
	if d := editDistance("ab", "ba"); d != 1 {
		t.Errorf("a swap: distance %d, want 1", d)
	}
}

func TestOnce(t *testing.T) {
	s := NewSet("x")
	var v string
	var labels []string
	s.StringVar(&v, "db", "", "a `V`")
	s.StringArrayVar(&labels, "label", nil, "a `L`")
	s.Once()
	err := s.Parse([]string{"--label", "a=1", "--label", "b=2", "--db", " ", "--db", "y"})
	var twice *TwiceError
	if !errors.As(err, &twice) || twice.First != " " {
		t.Fatalf("a flag given twice: %v, want a *TwiceError naming the first value", err)
	}
	if given, ok := Given(s.Lookup("db")); !ok || given != " " {
		t.Errorf("Given(--db) = %q, %v", given, ok)
	}
	if _, ok := Given(s.Lookup("label")); ok || len(labels) != 2 {
		t.Errorf("--label is watched (%v) or kept %v, want every value", ok, labels)
	}
}
