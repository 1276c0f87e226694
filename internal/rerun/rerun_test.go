//go:build unix

package rerun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results.txt")
	cases := []struct {
		name, command string
		timeout       time.Duration
		want          string // "" for no error
		echoed        string
	}{
		{"measures again", `echo measuring; echo 2 > "$RES"`, 0, "", "measuring"},
		{"leaves the file", `true`, 0, "left " + res + " as it was", ""},
		{"same bytes", `cp "$RES" "$RES.tmp" && sleep 0.01 && mv "$RES.tmp" "$RES" && touch "$RES"`, 0, "with the same bytes", ""},
		{"removes the file", `rm "$RES"`, 0, "the run's result file is gone", ""},
		{"fails", `echo one >&2; echo two >&2; exit 3`, 0, "failed (exit status 3; its stderr ended: one | two)", "two"},
		{"times out", `sleep 60`, 100 * time.Millisecond, "timed out after 100ms (killed with its process group; --limit sets the limit)", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(res, []byte("1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("RES", res)
			var echoed []string
			started := false
			err := Run(context.Background(), Options{
				Command: tc.command, Timeout: tc.timeout, Limit: "--limit", Files: []string{res},
				Started: func() { started = true },
				Echo:    func(l string) { echoed = append(echoed, l) },
			})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Run: %v, want no error", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Run: %v, want an error with %q", err, tc.want)
			}
			if !started {
				t.Error("Started was not called")
			}
			if tc.echoed != "" && !strings.Contains(strings.Join(echoed, "\n"), tc.echoed) {
				t.Errorf("echoed %q, want a line %q", echoed, tc.echoed)
			}
		})
	}
}

func TestRunMissingFile(t *testing.T) {
	ran := false
	err := Run(context.Background(), Options{Command: "true", Files: []string{filepath.Join(t.TempDir(), "none.txt")}, Started: func() { ran = true }})
	if err == nil || !strings.HasPrefix(err.Error(), "not run: ") || ran {
		t.Fatalf("Run: %v (started %v), want \"not run: ...\" and no start", err, ran)
	}
}

func TestRunInterrupted(t *testing.T) {
	res := filepath.Join(t.TempDir(), "results.txt")
	if err := os.WriteFile(res, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err := Run(ctx, Options{Command: "sleep 60", Files: []string{res}, Started: func() { time.AfterFunc(50*time.Millisecond, cancel) }})
	if err == nil || !strings.Contains(err.Error(), "was interrupted") {
		t.Fatalf("Run: %v, want \"was interrupted\"", err)
	}
}

// TestLinePrefixer: lines are handed on one at a time, blank ones
// dropped, a long one cut at max bytes on a whole character with the rest
// counted, and a last line without a newline flushed.
func TestLinePrefixer(t *testing.T) {
	var got []string
	w := &linePrefixer{echo: func(l string) { got = append(got, l) }, max: 8}
	w.Write([]byte("a\r\n\nbc"))
	w.Write([]byte("d\nabcdefgé12\nlast"))
	w.flush()
	want := []string{"a", "bcd", "abcdefg… (3 more bytes)", "last"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("echoed %q, want %q", got, want)
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 12}
	b.Write([]byte("first\nsecond\n"))
	b.Write([]byte("\tthird\n"))
	if got := b.lines(2); strings.Join(got, "|") != "cond|third" {
		t.Errorf("lines(2) = %q, want [cond third]", got)
	}
	b.Write([]byte(strings.Repeat("x", 20)))
	if got := b.lines(5); len(got) != 1 || got[0] != strings.Repeat("x", 12) {
		t.Errorf("after a long write, lines = %q, want the last 12 bytes", got)
	}
}
