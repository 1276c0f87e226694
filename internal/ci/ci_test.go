package ci

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGuardCR(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\r::error::x\n", "a\r\\::error::x\n"},
		{"a\r\n::error::x\r\n", "a\r\n\\::error::x\r\n"},
		{"\r\u00a0::x", "\r\\\u00a0::x"},
		{"plain\rtext\n", "plain\rtext\n"},
	} {
		var b bytes.Buffer
		w := NewGuard(&b)
		w.Write([]byte(tc.in))
		w.Flush()
		if b.String() != tc.want {
			t.Errorf("Guard(%q) wrote %q, want %q", tc.in, b.String(), tc.want)
		}
		if w.Written() != int64(len(tc.in)) {
			t.Errorf("Guard(%q): Written %d, want %d", tc.in, w.Written(), len(tc.in))
		}
	}
}

// The raw writer writes what the guard holds first, then its own line
// unguarded.
func TestGuardRaw(t *testing.T) {
	var b bytes.Buffer
	g := NewGuard(&b)
	g.Write([]byte("held"))
	Command(g.Raw(), "warning", "qoscal x", "a\nb")
	if want := `held::warning title=qoscal x::a\nb` + "\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

func TestAnnotationEscapes(t *testing.T) {
	var b bytes.Buffer
	Annotation{Kind: "error", Title: "qoscal gate: a,b:c", File: "d:\n::e.txt", Line: 3, Msg: "50%\r\nx::y\n"}.Write(&b)
	want := `::error title=qoscal gate%3A a%2Cb%3Ac,file=d%3A\n%3A%3Ae.txt,line=3::50%25%0D%0Ax::y` + "\n"
	if b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

func TestOutputs(t *testing.T) {
	b, err := Outputs([]Output{{Name: "verdict", Value: "PASS"}, {Name: "exit-code", Value: "0"}})
	if err != nil || string(b) != "verdict=PASS\nexit-code=0\n" {
		t.Errorf("Outputs = %q, %v", b, err)
	}
	if _, err := Outputs([]Output{{Name: "verdict", Value: "PASS\nexit-code=0"}}); err == nil {
		t.Error("a value with a line break was written")
	}
}

// The ledger keeps a warning to one annotation a job, across commands
// (one file in $RUNNER_TEMP), and a step to MaxStepWarnings.
func TestLedger(t *testing.T) {
	env := map[string]string{"RUNNER_TEMP": t.TempDir(), "GITHUB_RUN_ID": "7", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_JOB": "gate\tjob/x", "GITHUB_ACTION": "step1"}
	getenv := func(k string) string { return env[k] }
	a := Annotation{Kind: "warning", Msg: "same"}
	if p := OpenLedger(getenv).Admit(a); p != Annotate {
		t.Fatalf("first warning: %v, want Annotate", p)
	}
	l := OpenLedger(getenv)
	if p := l.Admit(a); p != Earlier {
		t.Errorf("the same warning in a later command: %v, want Earlier", p)
	}
	for i := 1; i < MaxStepWarnings; i++ {
		if p := l.Admit(Annotation{Kind: "warning", Msg: strings.Repeat("w", i)}); p != Annotate {
			t.Fatalf("warning %d: %v, want Annotate", i+1, p)
		}
	}
	if p := l.Admit(Annotation{Kind: "warning", Msg: "one too many"}); p != StepFull {
		t.Errorf("warning past the step's share: %v, want StepFull", p)
	}
	env["GITHUB_ACTION"] = "step2"
	if p := OpenLedger(getenv).Admit(Annotation{Kind: "warning", Msg: "one too many"}); p != Annotate {
		t.Errorf("a new step: %v, want Annotate", p)
	}
	files, _ := filepath.Glob(filepath.Join(env["RUNNER_TEMP"], "qoscal-annotations-*"))
	if len(files) != 1 || filepath.Base(files[0]) != "qoscal-annotations-7-1-gate_job_x" {
		t.Errorf("ledger files %q, want one named for the job", files)
	}
	b, _ := os.ReadFile(files[0])
	if n := strings.Count(string(b), "\n"); n != MaxStepWarnings+1 {
		t.Errorf("ledger has %d lines, want %d", n, MaxStepWarnings+1)
	}
}

type multi struct{ lines []string }

func (m multi) Error() string   { return "--backtest: " + strings.Join(m.lines, "\n") + " (2 files)" }
func (m multi) Lines() []string { return m.lines }

func TestErrorLines(t *testing.T) {
	got := ErrorLines(multi{[]string{"a.txt:1: bad", "b.txt:2: bad"}})
	want := []string{"--backtest: a.txt:1: bad", "b.txt:2: bad (2 files)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ErrorLines = %q, want %q", got, want)
	}
	if got := ErrorLines(errors.New("one")); len(got) != 1 || got[0] != "one" {
		t.Errorf("ErrorLines(one) = %q", got)
	}
}

func TestNotes(t *testing.T) {
	n := string(ErrorNote("qoscal gate: error", 2, []string{"bad `x`"}, []string{"try y"}))
	if !strings.Contains(n, "### qoscal gate: error (exit 2)") || !strings.Contains(n, "- hint: try y") {
		t.Errorf("ErrorNote:\n%s", n)
	}
	n = string(UnannotatedNote("qoscal report", []string{"a", "b"}))
	if !strings.Contains(n, "2 more warnings, not annotated (a step shows 10 annotations") || !strings.Contains(n, "- warning: b") {
		t.Errorf("UnannotatedNote:\n%s", n)
	}
}
