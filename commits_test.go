package qoscal_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCommits runs scripts/check-commits.sh, which .ci/run runs, on
// a repository made for the test: a subject of 72 characters passes
// (counted as characters: an é is one), of 73 fails; a body must follow
// a blank line; a range given checks that range alone; and without the
// commit where the habit starts in HEAD's history, only the last 50
// commits are checked, so that an older bad one is exempt.
func TestCheckCommits(t *testing.T) {
	for _, tool := range []string{"git", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s: %v (the check is a bash script over git)", tool, err)
		}
	}
	repo := t.TempDir()
	script, err := os.ReadFile("scripts/check-commits.sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "scripts", "check-commits.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commit := func(msg string) string {
		t.Helper()
		git("commit", "-q", "--allow-empty", "--cleanup=verbatim", "-m", msg)
		return git("rev-parse", "--short", "HEAD")
	}
	check := func(args ...string) (string, bool) {
		t.Helper()
		cmd := exec.Command("bash", append([]string{"scripts/check-commits.sh"}, args...)...)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return string(out), err == nil
	}
	git("init", "-q")
	// A good commit, a bad one, then 50 good ones, in one git process.
	var stream strings.Builder
	for i := range 52 {
		msg := "A short subject\n\nAnd a body, after a blank line.\n"
		if i == 1 {
			msg = strings.Repeat("x", 73) + "\n\nA subject one character too long.\n"
		}
		fmt.Fprintf(&stream, "commit refs/heads/main\nmark :%d\ncommitter t <t@example.com> %d +0000\ndata %d\n%s", i+1, 1796112000+i, len(msg), msg)
		if i > 0 {
			fmt.Fprintf(&stream, "from :%d\n", i)
		}
		stream.WriteString("\n")
	}
	imp := exec.Command("git", "fast-import", "--quiet")
	imp.Dir, imp.Env, imp.Stdin = repo, env, strings.NewReader(stream.String())
	if out, err := imp.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	git("symbolic-ref", "HEAD", "refs/heads/main")
	bad := git("rev-parse", "--short", "HEAD~50")
	out, ok := check()
	if !ok || !strings.Contains(out, "50 commit(s) checked, the last 50 commits of HEAD (98608bb") {
		t.Errorf("a bad commit 51 back, without the habit's first commit in the history: ok %v\n%s\nwant a pass over the last 50 commits, saying so", ok, out)
	}
	if out, ok := check(bad + "^.."); ok || !strings.Contains(out, bad+": the subject is 73 characters, more than 72") {
		t.Errorf("a range holding a subject of 73 characters: ok %v\n%s\nwant a failure naming %s", ok, out, bad)
	}
	good := commit(strings.Repeat("é", 72) + "\n\nSeventy-two characters, 144 bytes.")
	if out, ok := check("HEAD~1.."); !ok || !strings.Contains(out, "1 commit(s) checked") {
		t.Errorf("a subject of 72 characters (%s): ok %v\n%s\nwant a pass", good, ok, out)
	}
	noBlank := commit("A subject\nand a body straight under it")
	if out, ok := check("HEAD~2.."); ok || !strings.Contains(out, noBlank+": the second line is not blank") || strings.Contains(out, good) {
		t.Errorf("a body without a blank line (%s): ok %v\n%s\nwant a failure naming it alone", noBlank, ok, out)
	}
	commit("Subject alone")
	if out, ok := check("HEAD~1.."); !ok {
		t.Errorf("a subject without a body: ok %v\n%s\nwant a pass", ok, out)
	}
	if out, ok := check(); ok || !strings.Contains(out, fmt.Sprintf("1 problem(s) in %d commit(s)", 50)) {
		t.Errorf("the last 50 commits, one without a blank line: ok %v\n%s\nwant one problem", ok, out)
	}
}
