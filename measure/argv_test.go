package measure

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		reason, in string
		want       []string
		err        string
	}{
		{"blanks separate words, runs of them once", "  ./bench.sh\t--hoard  -n 3 ", []string{"./bench.sh", "--hoard", "-n", "3"}, ""},
		{"single quotes keep what is inside", `./b 'a b' '' x'y'z`, []string{"./b", "a b", "", "xyz"}, ""},
		{`double quotes keep what is inside but \" and \\`, `./b "a \"q\" \\ \n $x"`, []string{"./b", `a "q" \ \n $x`}, ""},
		{"a backslash outside quotes escapes a blank, a quote or a backslash, and is itself elsewhere", `C:\bench\run.exe a\ b \"x \\y`, []string{`C:\bench\run.exe`, "a b", `"x`, `\y`}, ""},
		{"operators inside quotes are words", `./b '|' "a;b" '$HOME' "*"`, []string{"./b", "|", "a;b", "$HOME", "*"}, ""},
		{"braces and = after the program are plain", `./b {benchmark} --n=3 a~b`, []string{"./b", "{benchmark}", "--n=3", "a~b"}, ""},
		{"a pipe is for a shell", "./b | tee x", nil, `"|" at byte 5 is for a shell: quote it, or run the command with --shell`},
		{"a variable is for a shell", "./b $N", nil, `"$" at byte 5 is for a shell`},
		{"a redirection is for a shell", "./b >out", nil, `">" at byte 5 is for a shell`},
		{"a pattern is for a shell", "./b *.txt", nil, `"*" at byte 5 is for a shell`},
		{"a leading tilde is for a shell", "~/b", nil, `"~" at byte 1 is for a shell`},
		{"an environment setting is for a shell", "GOGC=off ./b", nil, `"GOGC=off" sets an environment variable, which a shell does`},
		{"an unclosed quote", `./b 'x`, nil, "a ' is not closed"},
		{"an unclosed double quote", `./b "x\"`, nil, `a " is not closed`},
		{"nothing", " \t", nil, "the command is empty"},
	} {
		got, err := Split(c.in)
		if c.err != "" {
			if err == nil || !contains(err.Error(), c.err) {
				t.Errorf("%s: Split(%q) error %v, want %s", c.reason, c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: Split(%q): %v", c.reason, c.in, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: Split(%q) (-want +got):\n%s", c.reason, c.in, diff)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
