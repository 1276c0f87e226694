package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docFiles are the documents whose commands, workflows and links the tests
// check, relative to the top of the repository: the README, CONTRIBUTING.md
// and docs/*.md.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	files := []string{"README.md", "CONTRIBUTING.md"}
	for _, d := range docs {
		files = append(files, "docs/"+filepath.Base(d))
	}
	return files
}

// docLine is one command of a document's sh block.
type docLine struct {
	line    int
	cmd     string
	exit    int      // the status a trailing "# exit N" states, else 0
	excerpt []string // the text block after the sh block, for its last command
}

// parseDocCommands finds the commands of the ```sh blocks of a document:
// each line that is not blank or a comment, continued by lines ending in
// " \", with a trailing comment cut off ("# exit N" states the command's
// exit status). A ```text block that follows a ```sh block (blank lines
// between) is an excerpt of the output of that block's last command.
func parseDocCommands(src string) []docLine {
	lines := strings.Split(src, "\n")
	var cmds []docLine
	exitRe := regexp.MustCompile(`^exit (\d+)\b`)
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```sh" {
			continue
		}
		first := len(cmds)
		j := i + 1
		for ; j < len(lines) && lines[j] != "```"; j++ {
			l := strings.TrimSpace(lines[j])
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			start := j
			for strings.HasSuffix(l, "\\") && j+1 < len(lines) {
				j++
				l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(lines[j])
			}
			d := docLine{line: start + 1, cmd: l}
			if k := strings.Index(l, " # "); k >= 0 {
				d.cmd = strings.TrimSpace(l[:k])
				if m := exitRe.FindStringSubmatch(strings.TrimSpace(l[k+3:])); m != nil {
					d.exit, _ = strconv.Atoi(m[1])
				}
			}
			cmds = append(cmds, d)
		}
		k := j + 1
		for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
			k++
		}
		if k < len(lines) && lines[k] == "```text" && len(cmds) > first {
			var ex []string
			for k++; k < len(lines) && lines[k] != "```"; k++ {
				ex = append(ex, lines[k])
			}
			cmds[len(cmds)-1].excerpt = ex
		}
		i = j
	}
	return cmds
}

// TestDocCommands runs the commands the documents show (docFiles), so that
// they cannot drift: in each document, in order, every sh-block line that
// runs qoscal ("qoscal ..." or "go run ./cmd/qoscal ...") is run in a
// temporary folder holding a copy of data/samples (as at the top of a
// clone; what one command writes, the next reads) and must exit 0, or the
// status its "# exit N" comment states; an output excerpt after it must be
// lines of its output (stdout, then stderr), a line ending in "..." the
// start of one. The other lines (go test, the scripts) are not run here:
// a script they start must exist.
func TestDocCommands(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]int{}
	for _, rel := range docFiles(t, root) {
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		cmds := parseDocCommands(string(src))
		if len(cmds) == 0 {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			sampleWorkdir(t, root)
			for _, c := range cmds {
				args := splitArgs(c.cmd)
				for len(args) > 0 && strings.Contains(args[0], "=") {
					args = args[1:] // VAR=value before the command
				}
				switch {
				case len(args) >= 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/qoscal":
					args = args[3:]
				case len(args) >= 1 && args[0] == "qoscal":
					args = args[1:]
				default:
					if len(args) > 0 && (strings.HasPrefix(args[0], "scripts/") || strings.HasPrefix(args[0], ".ci/")) {
						if _, err := os.Stat(filepath.Join(root, args[0])); err != nil {
							t.Errorf("%s:%d: %s: %v", rel, c.line, args[0], err)
						}
					}
					continue
				}
				ran[rel]++
				var stdout, stderr bytes.Buffer
				code := run(args, nil, &stdout, &stderr)
				out := stdout.String() + stderr.String()
				if code != c.exit {
					t.Errorf("%s:%d: %s\nexit %d, want %d; output:\n%s", rel, c.line, c.cmd, code, c.exit, out)
				}
				got := strings.Split(out, "\n")
				for _, want := range c.excerpt {
					if !hasLine(got, want) {
						t.Errorf("%s:%d: %s\nthe output has no line %q; output:\n%s", rel, c.line, c.cmd, want, out)
					}
				}
			}
		})
	}
	if ran["README.md"] < 4 {
		t.Errorf("README.md: %d qoscal commands run; want the set-up command and the quick start's", ran["README.md"])
	}
}

// hasLine reports whether lines holds want, or, when want ends in "...",
// a line that starts with the rest of it.
func hasLine(lines []string, want string) bool {
	prefix, isPrefix := strings.CutSuffix(want, "...")
	for _, l := range lines {
		if l == want || isPrefix && strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestDocLinks checks the relative links of the documents (docFiles,
// ARCHITECTURE.md and notebooks.md): the file or folder each names
// exists, and a #fragment into a Markdown file names one of its headings
// (as GitHub makes their anchors). It also holds the README to the front
// door's length: at most 200 lines.
func TestDocLinks(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(b))
		anchors[path] = a
		return a
	}
	files := append(docFiles(t, root), "ARCHITECTURE.md", "notebooks.md")
	checked := 0
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for n, l := range strings.Split(withoutCode(string(b), true), "\n") {
			for _, m := range link.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				path, frag, _ := strings.Cut(target, "#")
				full := filepath.Join(root, rel)
				if path != "" {
					full = filepath.Join(filepath.Dir(full), filepath.FromSlash(path))
				}
				if _, err := os.Stat(full); err != nil {
					t.Errorf("%s:%d: link %s: %v", rel, n+1, target, err)
					continue
				}
				if frag != "" && strings.HasSuffix(full, ".md") && !anchorsOf(full)[frag] {
					t.Errorf("%s:%d: link %s: no heading with the anchor #%s", rel, n+1, target, frag)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("%d relative links checked; the test would check little", checked)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > 200 {
		t.Errorf("README.md has %d lines; the front door holds at most 200 (move the rest to docs/)", n)
	}
}

// withoutCode blanks the code blocks (fenced or indented) of a Markdown
// text, and with spans its code spans too, keeping its lines, so that a
// link or a heading shown as code is not taken for one.
func withoutCode(s string, spans bool) string {
	lines := strings.Split(s, "\n")
	fenced := false
	span := regexp.MustCompile("`[^`]*`")
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			lines[i] = ""
			continue
		}
		if fenced || strings.HasPrefix(l, "    ") {
			lines[i] = ""
			continue
		}
		if spans {
			lines[i] = span.ReplaceAllString(l, "")
		}
	}
	return strings.Join(lines, "\n")
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text (lower case; letters, digits, spaces, '-' and '_' kept;
// spaces become '-'; a repeated anchor gets -1, -2, ...), and the ids of
// its <a id="..."> and <a name="..."> tags.
func headingAnchors(s string) map[string]bool {
	a := map[string]bool{}
	seen := map[string]int{}
	for _, l := range strings.Split(withoutCode(s, false), "\n") {
		for _, m := range regexp.MustCompile(`<a (?:id|name)="([^"]+)"`).FindAllStringSubmatch(l, -1) {
			a[m[1]] = true
		}
		h := strings.TrimLeft(l, "#")
		if len(h) == len(l) || len(l)-len(h) > 6 || !strings.HasPrefix(h, " ") {
			continue
		}
		var slug strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case r == ' ':
				slug.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
				slug.WriteRune(r)
			}
		}
		base := slug.String()
		id := base
		if k := seen[base]; k > 0 {
			id = base + "-" + strconv.Itoa(k)
		}
		seen[base]++
		a[id] = true
	}
	return a
}

// readmeMaxLines is the README's length goal: a first page, with the rest
// in docs/ (issue 35: it grew from 132 to 159 lines in eight commits).
const readmeMaxLines = 150

// TestReadmeLength holds the README at its length goal.
func TestReadmeLength(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than its goal of %d: move detail into docs/", n, readmeMaxLines)
	}
}

// TestStatsReferenceFiles: docs/STATS.md said its script and vectors "sit
// next to this one", which they do not (issue 35). Each file its opening
// names in backquotes (make_vectors.py, stats_vectors.json) is linked, and
// the link leads to it (TestDocLinks checks that links resolve; this, that
// the names are links).
func TestStatsReferenceFiles(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "STATS.md"))
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(strings.SplitN(string(b), "\n", 12)[:11], "\n")
	names := regexp.MustCompile("`([\\w.-]+\\.(?:py|json))`").FindAllStringSubmatch(head, -1)
	if len(names) < 2 {
		t.Fatalf("docs/STATS.md's opening names %d files, want make_vectors.py and stats_vectors.json", len(names))
	}
	for _, n := range names {
		link := regexp.MustCompile(`\[` + "`" + regexp.QuoteMeta(n[1]) + "`" + `\]\(([^)]+)\)`).FindStringSubmatch(head)
		if link == nil {
			t.Errorf("docs/STATS.md names %s without a link to where it is", n[1])
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", "docs", link[1])); err != nil || filepath.Base(link[1]) != n[1] {
			t.Errorf("docs/STATS.md links %s to %s, which is not it (%v)", n[1], link[1], err)
		}
	}
}
