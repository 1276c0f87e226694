package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode"

	"github.com/qoscal/qoscal/data/formats"
)

// forged is outside text that would forge workflow commands and markup if
// it reached an output with its line breaks: a PostgreSQL server's error
// text, a file name, an artifact's name.
const forged = "x\n::error::forged\r::set-output name=verdict::pass\r\n  ::warning::<script>alert(1)</script>`$\\Huge$\x1b[31m"

// checkOutputs fails when a line of out, read as the Actions runner reads
// lines (LF, CR or CRLF), would run as a workflow command other than
// qoscal's own annotations, or holds a control character.
func checkOutputs(t *testing.T, name, out string) {
	t.Helper()
	for i, line := range runnerLines(out) {
		trimmed := strings.TrimLeftFunc(line, func(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) })
		if strings.HasPrefix(trimmed, "::") && !qoscalCommand.MatchString(trimmed) {
			t.Errorf("%s line %d would run as a workflow command: %q", name, i+1, line)
		}
		if strings.ContainsRune(line, 0x1b) {
			t.Errorf("%s line %d holds ESC: %q", name, i+1, line)
		}
	}
}

// TestOutsideTextNeutralised: a PostgreSQL server's error text and a zip
// artifact's file name reached the step summary's error entry with their
// line breaks, so that a line of it started with "::error::". Every piece
// of outside text, in every output (stdout, stderr, the step summary,
// $GITHUB_OUTPUT), is on one line with its control characters escaped,
// and quoted as code in the Markdown of the summary.
func TestOutsideTextNeutralised(t *testing.T) {
	for _, github := range []string{"true", ""} {
		t.Run("GITHUB_ACTIONS="+github, func(t *testing.T) {
			dir := t.TempDir()
			summary := filepath.Join(dir, "summary.md")
			outputs := filepath.Join(dir, "outputs.txt")
			env := map[string]string{"GITHUB_ACTIONS": github, "GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": outputs}
			for _, err := range []error{
				// As pgx reports a server's error, wrapped with the store.
				fmt.Errorf("store postgres://ci@db/qoscal: %w", errors.New("ERROR: "+forged+" (SQLSTATE 42P01)")),
				// A syntax error in a file whose name holds the text.
				&formats.InputError{Errs: []*formats.SyntaxError{{File: forged + ".txt", Line: 3, Msg: "expected a number"}, {File: "b.txt", Line: 1, Msg: forged}}},
				fmt.Errorf("--backtest: %w", &formats.InputError{Errs: []*formats.SyntaxError{{File: "a.txt", Line: 1, Msg: "m"}, {File: forged, Line: 2, Msg: "m"}}}),
			} {
				var stdout, stderr bytes.Buffer
				u := newUI(&stdout, &stderr, func(k string) string { return env[k] })
				u.cmd = "gate"
				if code := u.exitCode(err); code != exitInput {
					t.Fatalf("exit %d", code)
				}
				u.flush()
				sum, _ := os.ReadFile(summary)
				outs, _ := os.ReadFile(outputs)
				for name, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String(), "summary": string(sum), "$GITHUB_OUTPUT": string(outs)} {
					checkOutputs(t, name, out)
				}
				// The error's own lines are kept: one per syntax error.
				var ie *formats.InputError
				if errors.As(err, &ie) && github == "" {
					if n := strings.Count(stderr.String(), "\n"); n != len(ie.Errs) {
						t.Errorf("stderr has %d lines for %d syntax errors:\n%s", n, len(ie.Errs), stderr.String())
					}
				}
				// In the summary, each line is code, the text escaped.
				if !strings.Contains(string(sum), "x\\n::error::forged\\r::set-output") {
					t.Errorf("summary does not hold the text escaped:\n%s", sum)
				}
				for _, l := range strings.Split(string(sum), "\n") {
					if strings.Contains(l, "forged") && !strings.HasPrefix(l, "`") {
						t.Errorf("summary line not quoted as code: %q", l)
					}
				}
				os.Remove(summary)
				os.Remove(outputs)
			}
		})
	}
}

// TestOutsideFileNames: a zip artifact, a run folder and a result file
// whose names hold line breaks, "::" and HTML, read by the commands: no
// output line is a workflow command, the step summary quotes them as
// code.
func TestOutsideFileNames(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows file names cannot hold these characters")
	}
	dir := t.TempDir()
	set := filepath.Join(dir, "set")
	if err := os.MkdirAll(set, 0o755); err != nil {
		t.Fatal(err)
	}
	name := "run\n::error::zip\r::warning::<b>x<b>.zip"
	if err := os.WriteFile(filepath.Join(set, name), []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "cand\n::error::file.txt")
	if err := os.WriteFile(bad, []byte("BenchmarkA 1 abc ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "base.txt")
	if err := os.WriteFile(base, []byte("BenchmarkA 1 10 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(dir, "summary.md")
	outputs := filepath.Join(dir, "outputs.txt")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	t.Setenv("GITHUB_OUTPUT", outputs)
	t.Setenv("QOSCAL_DB", "")
	for _, github := range []string{"true", ""} {
		t.Setenv("GITHUB_ACTIONS", github)
		for _, args := range [][]string{
			{"spread", "--baseline", "base.txt", "--candidate", "cand.txt", set},
			{"gate", "--floor", "1", "--baseline", base, "--candidate", "cand=" + bad},
			{"gate", "--floor", "1", "--baseline", base, "--candidate", "cand=" + bad + "-missing"},
			{"gate", "--floor", "1", "--run", forged, "--baseline", base, "--candidate", "cand=" + base},
		} {
			var stdout, stderr bytes.Buffer
			code := run(args, nil, &stdout, &stderr)
			if code != exitInput {
				t.Errorf("%s: exit %d, want 2; stderr %s", args[0], code, stderr.String())
			}
			sum, _ := os.ReadFile(summary)
			outs, _ := os.ReadFile(outputs)
			for what, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String(), "summary": string(sum), "$GITHUB_OUTPUT": string(outs)} {
				checkOutputs(t, args[0]+" "+what, out)
			}
			if !strings.Contains(string(sum), "\n`") {
				t.Errorf("%s: the summary's error is not quoted as code:\n%s", args[0], sum)
			}
			os.Remove(summary)
			os.Remove(outputs)
		}
	}
}
