package prcomment

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/internal/github"
)

// TestComposeComment: the comment is the marker's line, then the text;
// a text over the limit keeps the whole lines that fit, closes a code
// block it cut, and says how many lines it left out, within the limit.
func TestComposeComment(t *testing.T) {
	const marker = "<!-- qoscal-gate -->"
	if got, cut := Compose(marker, "a\r\nb\n\n\n", false, "", 100); got != marker+"\na\nb\n" || cut != 0 {
		t.Errorf("a short text: %q, cut %d", got, cut)
	}
	if got, _ := Compose(marker, "a\n", false, "<sub>run</sub>", 100); got != marker+"\na\n\n<sub>run</sub>\n" {
		t.Errorf("with a footer: %q", got)
	}
	var md strings.Builder
	md.WriteString("### qoscal gate: FAIL\n\n```mermaid\n")
	for i := range 8000 {
		fmt.Fprintf(&md, "bar %d é\n", i)
	}
	md.WriteString("```\n\nthe end\n")
	got, cut := Compose(marker, md.String(), false, "<sub>run</sub>", github.MaxBody)
	if n := utf8.RuneCountInString(got); n > github.MaxBody || n < github.MaxBody-200 {
		t.Errorf("a long text is cut to %d characters, want at most %d and close to it", n, github.MaxBody)
	}
	if !strings.HasPrefix(got, marker+"\n### qoscal gate: FAIL\n") || !strings.HasSuffix(got, fmt.Sprintf("\n```\n\n*Cut to fit GitHub's limit of 65536 characters for a comment: %d more lines of the gate's summary left out.*\n\n<sub>run</sub>\n", cut)) {
		t.Errorf("the cut text's start or end is wrong:\n%s\n...\n%s", got[:80], got[len(got)-300:])
	}
	if lines := strings.Count(md.String(), "\n"); cut < 100 || cut > lines {
		t.Errorf("%d lines left out of %d", cut, lines)
	}
	// A file cut short of its end: its last (partial) line is left out.
	if got, cut := Compose(marker, "a\nb\npartial li", true, "", 1000); cut != 1 || !strings.Contains(got, "\nb\n\n*Cut to fit GitHub's limit of 1000 characters for a comment: 1 or more lines of the gate's summary left out.*\n") {
		t.Errorf("a body read in part: cut %d, %q", cut, got)
	}
}

// TestCommentFooter: under Actions the comment ends with the run that
// wrote it, linked; a variable that does not look as the runner sets it
// leaves the footer out rather than put it in the Markdown.
func TestCommentFooter(t *testing.T) {
	env := map[string]string{"GITHUB_REPOSITORY": "octo/hoard", "GITHUB_RUN_ID": "987654321", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_JOB": "bench"}
	get := func(k string) string { return env[k] }
	if got, want := RunFooter(get, "Windows"), "<sub>qoscal · [workflow run 987654321](https://github.com/octo/hoard/actions/runs/987654321), attempt 2, job bench, comment Windows</sub>"; got != want {
		t.Errorf("footer %q, want %q", got, want)
	}
	env["GITHUB_SERVER_URL"] = "https://x)[y](javascript:z"
	if got := RunFooter(get, ""); got != "" {
		t.Errorf("a server URL with Markdown in it gives the footer %q, want none", got)
	}
	delete(env, "GITHUB_SERVER_URL")
	env["GITHUB_RUN_ID"] = ""
	if got := RunFooter(get, ""); got != "" {
		t.Errorf("outside Actions the footer is %q, want none", got)
	}
}

// TestDecodeText: UTF-16 with either mark (PowerShell 5's "> FILE"), UTF-8
// with or without its mark, invalid bytes as U+FFFD.
func TestDecodeText(t *testing.T) {
	for in, want := range map[string]string{
		"\xFF\xFEa\x00\xe9\x00":     "aé",
		"\xFE\xFF\x00a\x00\xe9\x00": "aé",
		"\xEF\xBB\xBFa":             "a",
		"a\xffb":                    "a\uFFFDb",
	} {
		if got := DecodeText([]byte(in)); got != want {
			t.Errorf("DecodeText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRunLinks: a run's github_run label links its workflow run, only
// when the environment looks as the runner sets it.
func TestRunLinks(t *testing.T) {
	env := map[string]string{"GITHUB_REPOSITORY": "octo/hoard"}
	get := func(k string) string { return env[k] }
	runs := []data.Run{{ID: "a", Labels: map[string]string{"github_run": "42"}}, {ID: "b", Labels: map[string]string{"github_run": "4)2"}}}
	got := RunLinks(get, runs)
	if len(got) != 1 || got["a"] != "https://github.com/octo/hoard/actions/runs/42" {
		t.Errorf("RunLinks = %v", got)
	}
	env["GITHUB_REPOSITORY"] = "octo/hoard)[x](y"
	if got := RunLinks(get, runs); len(got) != 0 {
		t.Errorf("a repository with Markdown in it: RunLinks = %v, want none", got)
	}
}
