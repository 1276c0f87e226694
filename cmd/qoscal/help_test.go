package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/qoscal/qoscal/internal/cliflag"
	"github.com/qoscal/qoscal/render"
)

// TestHelpExamples runs the worked example in every command's usage text,
// so that the help cannot drift from the binary (as benchstat's doc_test.go does). The examples
// run in command order in one temporary folder holding the samples, the
// worked example's runs as runs.csv, the Windows first measurement as
// baseline.txt and hoard.txt, and a store an older qoscal wrote as old.db. An example's output is matched line by line;
// a line "..." stands for any number of lines, and a line ending in "..."
// for any line that starts like it.
func TestHelpExamples(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	// old.db: a store an older qoscal wrote, for store upgrade's example.
	old, err := os.ReadFile(filepath.Join("testdata", "store-v1.db"))
	if err != nil {
		t.Fatal(err)
	}
	work := sampleWorkdir(t, root)
	samples := filepath.Join(work, "data", "samples")
	for dst, src := range map[string]string{
		"runs.csv":     "windows-hoard-worked-example/five-runs.csv",
		"baseline.txt": "windows-hoard-first-measurement/baseline.txt",
		"hoard.txt":    "windows-hoard-first-measurement/hoard.txt",
	} {
		b, err := os.ReadFile(filepath.Join(samples, filepath.FromSlash(src)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, dst), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "old.db"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	examples := 0
	for _, name := range commandNames() {
		for _, ex := range helpExamples(commands[name].help()) {
			examples++
			got := runNotebookCommand(t, splitArgs(ex.cmd)[1:])
			if !matchExample(ex.want, got) {
				t.Errorf("qoscal help %s: $ %s\n--- the help says\n%s\n--- the binary prints\n%s", name, ex.cmd, strings.Join(ex.want, "\n"), got)
			}
		}
	}
	if examples < len(commands) {
		t.Errorf("%d examples for %d commands: every command's help should have one", examples, len(commands))
	}
}

type helpExample struct {
	cmd  string
	want []string
}

// helpExamples finds the "    $ qoscal ..." lines of a usage text (with
// "\" continuations) and the output lines that follow, up to a blank line
// or the next command.
func helpExamples(usage string) []helpExample {
	lines := strings.Split(usage, "\n")
	var out []helpExample
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "$ qoscal ") {
			continue
		}
		cmd := strings.TrimPrefix(l, "$ ")
		for strings.HasSuffix(cmd, "\\") && i+1 < len(lines) {
			i++
			cmd = strings.TrimSuffix(cmd, "\\") + " " + strings.TrimSpace(lines[i])
		}
		cmd = strings.Join(strings.Fields(cmd), " ")
		var want []string
		for i+1 < len(lines) {
			next := lines[i+1]
			if strings.TrimSpace(next) == "" || strings.HasPrefix(strings.TrimSpace(next), "$ ") {
				break
			}
			want = append(want, strings.TrimPrefix(next, "    "))
			i++
		}
		out = append(out, helpExample{cmd: cmd, want: want})
	}
	return out
}

// matchExample matches output against the example's lines ("..." is any
// run of lines; a trailing "..." is a prefix match). An example with no
// output lines only has to run without error.
func matchExample(want []string, got string) bool {
	if strings.Contains(got, "[exit status") {
		return false
	}
	lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
	var match func(w, g []string) bool
	match = func(w, g []string) bool {
		if len(w) == 0 {
			return len(g) == 0
		}
		if w[0] == "..." {
			for k := 0; k <= len(g); k++ {
				if match(w[1:], g[k:]) {
					return true
				}
			}
			return false
		}
		if len(g) == 0 {
			return false
		}
		if strings.HasSuffix(w[0], "...") {
			if !strings.HasPrefix(g[0], strings.TrimSuffix(w[0], "...")) {
				return false
			}
		} else if w[0] != g[0] {
			return false
		}
		return match(w[1:], g[1:])
	}
	if len(want) == 0 {
		return true
	}
	return match(append(want, "..."), lines)
}

// TestCommandOrder: every command has its place in the help's order, so a
// new command cannot land in a random place.
func TestCommandOrder(t *testing.T) {
	placed := map[string]bool{}
	for _, n := range commandOrder {
		placed[n] = true
	}
	for n := range commands {
		if !placed[n] {
			t.Errorf("command %s is not in commandOrder", n)
		}
	}
	if got := commandNames(); len(got) != len(commands) || got[0] != "ingest" || got[len(got)-1] != "samples" {
		t.Errorf("commandNames() = %v", got)
	}
}

// commandFlags returns the flags of a command as its help lists them: its
// own, or each subcommand's.
func commandFlags(c *command) []*flagSet {
	if c.subs == nil {
		return []*flagSet{c.flagSet(c.new())}
	}
	var out []*flagSet
	for _, sub := range c.subs {
		out = append(out, sub.flagSet(sub.new()))
	}
	return out
}

// TestHelpRanges: the help of every command states the range of each of
// its numeric flags ("in [0, 100000]", "any whole number"), and a value
// outside it is refused naming the flag and the range.
func TestHelpRanges(t *testing.T) {
	rangeText := regexp.MustCompile(`in [\[(][^\])]*[\])]|any whole number`)
	numeric := 0
	for _, name := range commandNames() {
		c := commands[name]
		usage := c.help()
		for _, fs := range commandFlags(c) {
			fs.VisitAll(func(f *pflag.Flag) {
				switch f.Value.Type() {
				case "float64", "int", "uint64":
				default:
					return
				}
				numeric++
				block := flagHelp(usage, f.Name)
				if block == "" {
					t.Errorf("%s: the help does not document --%s", name, f.Name)
				} else if !rangeText.MatchString(block) {
					t.Errorf("%s: the help of --%s states no range:\n%s", name, f.Name, block)
				}
			})
		}
	}
	if numeric < 15 {
		t.Errorf("%d numeric flags, expected more: is the flag type check still right?", numeric)
	}
}

// TestHelpListsEveryFlag: every flag a command registers is in its help,
// as an entry of its own (a hidden flag, such as ingest's deprecated
// --format, named in another's text), and every flag the help names is
// one the command registers, or one of the command named before it
// ('qoscal gate --record', gate's --drift-window). Twelve registered flags
// were once in no help, and a help named flags that had changed.
func TestHelpListsEveryFlag(t *testing.T) {
	registered := map[string]map[string]bool{}
	for name, c := range commands {
		registered[name] = map[string]bool{}
		for _, fs := range commandFlags(c) {
			fs.VisitAll(func(f *pflag.Flag) { registered[name][f.Name] = true })
		}
	}
	mention := regexp.MustCompile(`--([a-z][a-z0-9-]*)`)
	placeholder := regexp.MustCompile(`^[A-Z][A-Z0-9_=.\[\]-]*$`)
	for _, name := range commandNames() {
		c := commands[name]
		help := c.help()
		for _, fs := range commandFlags(c) {
			fs.VisitAll(func(f *pflag.Flag) {
				switch {
				case f.Hidden && !strings.Contains(help, "--"+f.Name):
					t.Errorf("qoscal help %s: the hidden --%s is not named", name, f.Name)
				case !f.Hidden && flagHelp(help, f.Name) == "":
					t.Errorf("qoscal help %s: --%s is registered but not listed", name, f.Name)
				}
			})
		}
		words := strings.Fields(help)
		for i, w := range words {
			for _, m := range mention.FindAllStringSubmatch(w, -1) {
				flag := m[1]
				if registered[name][flag] {
					continue
				}
				// Another command's flag: that command is named before
				// it, past other flags, their values and placeholders.
				owner := ""
				for j := i - 1; j >= 0; j-- {
					prev := strings.TrimSuffix(strings.Trim(words[j], `'"(),;:`), "'s")
					if registered[prev] != nil {
						owner = prev
						break
					}
					value := j > 0 && strings.HasPrefix(words[j-1], "--")
					if !strings.HasPrefix(prev, "--") && !placeholder.MatchString(prev) && prev != `\` && !value {
						break
					}
				}
				if owner == "" || !registered[owner][flag] {
					t.Errorf("qoscal help %s names --%s, which %s does not register", name, flag, map[bool]string{true: name, false: owner}[owner == ""])
				}
			}
		}
	}
}

// TestHelpLayout: the list of commands, and every command's help up to
// its example (whose commands and outputs are the binary's), read at 80
// columns; a command's help has no line that the Actions runner would
// take for a workflow command, and describes each flag as the help
// generator expects: a value's placeholder in backquotes, and no default
// stated by hand where the generator states it.
func TestHelpLayout(t *testing.T) {
	for _, l := range strings.Split(mainUsage(), "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("qoscal help: a line of %d columns:\n%s", n, l)
		}
	}
	for _, name := range commandNames() {
		c := commands[name]
		help := c.help()
		before, _, _ := strings.Cut(help, "\n"+c.example)
		for _, l := range strings.Split(before, "\n") {
			if n := len([]rune(l)); n > 80 {
				t.Errorf("qoscal help %s: a line of %d columns:\n%s", name, n, l)
			}
		}
		for _, l := range strings.Split(help, "\n") {
			if render.IsCommandLine([]byte(l)) {
				t.Errorf("qoscal help %s: a line the Actions runner would run: %q", name, l)
			}
		}
		for _, fs := range commandFlags(c) {
			fs.VisitAll(func(f *pflag.Flag) {
				if f.Value.Type() != "bool" && !f.Hidden && strings.Count(f.Usage, "`") != 2 {
					t.Errorf("qoscal help %s: --%s has no `PLACEHOLDER` in its text %q", name, f.Name, f.Usage)
				}
				if cliflag.ShownDefault(f) != "" && strings.Contains(f.Usage, "(default") {
					t.Errorf("qoscal help %s: --%s states its default by hand: %q", name, f.Name, f.Usage)
				}
			})
		}
	}
}

// flagHelp is the paragraph of a usage text that documents --name: its
// line and the lines indented under it.
func flagHelp(usage, name string) string {
	lines := strings.Split(usage, "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) == 0 || f[0] != "--"+name || !strings.HasPrefix(l, strings.Repeat(" ", flagIndent)+"--") {
			continue
		}
		block := []string{strings.TrimSpace(l)}
		for _, next := range lines[i+1:] {
			if !strings.HasPrefix(next, strings.Repeat(" ", 20)) {
				break
			}
			block = append(block, strings.TrimSpace(next))
		}
		return strings.Join(block, " ")
	}
	return ""
}
