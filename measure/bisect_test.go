package measure

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

func TestBisectCommand(t *testing.T) {
	got := BisectCommand("abc1234", "def5678", "cals/gate cal.json", "--variant 'a=./a'")
	want := `git bisect start def5678 abc1234 && git bisect run sh -c 'exec qoscal measure "$@" --out "$(mktemp -d)/run"' sh --bisect --calibration 'gate cal.json' --variant 'a=./a'`
	if got != want {
		t.Errorf("BisectCommand:\n%s\nwant\n%s", got, want)
	}
	// A commit label that is no object name never reaches the command.
	got = BisectCommand("", "main; rm -rf /", "cal.json", "")
	if !strings.HasPrefix(got, "git bisect start BAD GOOD && ") {
		t.Errorf("BisectCommand without commits: %s, want the placeholders", got)
	}
}

func TestOneCommit(t *testing.T) {
	if OneCommit(context.Background(), ".", "HEAD~1", "HEAD") {
		t.Error("OneCommit ran git on names that are no object names")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	var c []string
	for range 3 {
		git("commit", "-q", "--allow-empty", "-m", "c")
		c = append(c, git("rev-parse", "HEAD"))
	}
	if !OneCommit(context.Background(), dir, c[0], c[1]) {
		t.Error("one commit apart: false")
	}
	if OneCommit(context.Background(), dir, c[0], c[2]) {
		t.Error("two commits apart: true")
	}
}
