package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestNotebooks keeps ../../notebooks.md true: every fenced block whose
// first line is "$ qoscal ..." is run (in a temporary folder holding a copy
// of data/samples, with SOURCE_DATE_EPOCH fixed), and its output (stdout,
// then stderr, then "[exit status N]" when not 0) must be the rest of the
// block. Charts the blocks write under notebooks/ must be the committed
// ones. -update rewrites the outputs in notebooks.md and the charts.
func TestNotebooks(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mdPath := filepath.Join(root, "notebooks.md")
	src, err := os.ReadFile(mdPath)
	if err != nil {
		t.Fatal(err)
	}
	work := sampleWorkdir(t, root)
	blocks := parseNotebook(string(src))
	if len(blocks) < 10 {
		t.Fatalf("notebooks.md has %d command blocks; the test would check little", len(blocks))
	}
	var out strings.Builder
	last := 0
	for _, b := range blocks {
		got := runNotebookCommand(t, b.args)
		if got != b.output {
			if !*update {
				t.Errorf("notebooks.md line %d: $ %s\n--- want (notebook)\n%s--- got\n%s", b.line, b.cmd, b.output, got)
			}
		}
		out.WriteString(string(src[last:b.outStart]))
		out.WriteString(got)
		last = b.outEnd
	}
	out.WriteString(string(src[last:]))
	if *update {
		if err := os.WriteFile(mdPath, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The charts the notebook wrote, against the committed ones.
	produced := filepath.Join(work, "notebooks")
	committed := filepath.Join(root, "notebooks")
	n := 0
	err = filepath.WalkDir(produced, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(produced, p)
		got, _ := os.ReadFile(p)
		n++
		if *update {
			dst := filepath.Join(committed, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, got, 0o644)
		}
		want, err := os.ReadFile(filepath.Join(committed, rel))
		if err != nil {
			t.Errorf("notebooks/%s is written by notebooks.md but not committed (run go test ./cmd/qoscal -run TestNotebooks -update)", rel)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("notebooks/%s differs from what notebooks.md makes now (-update rewrites it)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Error("notebooks.md writes no charts under notebooks/")
	}
}

type notebookBlock struct {
	line             int
	cmd              string
	args             []string
	outStart, outEnd int // byte offsets of the output in the notebook
}

// output returns the block's expected output text.
func (b notebookBlock) text(src string) string { return src[b.outStart:b.outEnd] }

// parseNotebook finds the command blocks: a fence line "```", then a line
// "$ qoscal ..." (continued by lines ending in " \"), then the output up to
// the closing fence.
func parseNotebook(src string) []struct {
	notebookBlock
	output string
} {
	var blocks []struct {
		notebookBlock
		output string
	}
	lines := strings.SplitAfter(src, "\n")
	off := 0
	lineOff := make([]int, len(lines)+1)
	for i, l := range lines {
		lineOff[i] = off
		off += len(l)
	}
	lineOff[len(lines)] = off
	for i := 0; i < len(lines); i++ {
		if strings.TrimRight(lines[i], "\n") != "```" || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "$ qoscal ") {
			continue
		}
		j := i + 1
		cmd := strings.TrimSuffix(strings.TrimPrefix(lines[j], "$ "), "\n")
		for strings.HasSuffix(cmd, "\\") && j+1 < len(lines) {
			j++
			cmd = strings.TrimSuffix(cmd, "\\") + strings.TrimSpace(strings.TrimSuffix(lines[j], "\n"))
		}
		k := j + 1
		for k < len(lines) && strings.TrimRight(lines[k], "\n") != "```" {
			k++
		}
		b := notebookBlock{line: j + 1, cmd: cmd, args: splitArgs(cmd)[1:], outStart: lineOff[j+1], outEnd: lineOff[k]}
		blocks = append(blocks, struct {
			notebookBlock
			output string
		}{b, b.text(src)})
		i = k
	}
	return blocks
}

// splitArgs splits a command line at spaces, keeping quoted parts whole.
func splitArgs(s string) []string {
	var args []string
	var cur strings.Builder
	in := rune(0)
	has := false
	for _, r := range s {
		switch {
		case in != 0 && r == in:
			in = 0
		case in == 0 && (r == '\'' || r == '"'):
			in, has = r, true
		case in == 0 && r == ' ':
			if has || cur.Len() > 0 {
				args = append(args, cur.String())
			}
			cur.Reset()
			has = false
		default:
			cur.WriteRune(r)
		}
	}
	if has || cur.Len() > 0 {
		args = append(args, cur.String())
	}
	return args
}

func runNotebookCommand(t *testing.T, args []string) string {
	var stdout, stderr bytes.Buffer
	code := run(args, nil, &stdout, &stderr)
	out := stdout.String() + stderr.String()
	if code != 0 {
		out += fmt.Sprintf("[exit status %d]\n", code)
	}
	return out
}

// sampleWorkdir makes a temporary folder holding a copy of data/samples,
// moves the test into it, and fixes the environment the commands read
// (SOURCE_DATE_EPOCH set; no store, no GitHub Actions), as a user's shell
// at the top of a clone would be, minus their files.
func sampleWorkdir(t *testing.T, root string) string {
	t.Helper()
	work := t.TempDir()
	if err := os.CopyFS(filepath.Join(work, "data", "samples"), os.DirFS(filepath.Join(root, "data", "samples"))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	t.Setenv("SOURCE_DATE_EPOCH", "1796112000")
	for _, k := range []string{"QOSCAL_DB", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"} {
		t.Setenv(k, "")
	}
	return work
}

// proseFigure is a figure prose may quote from an output: a ratio
// ("1.16x", "0.52x"), a share ("75.5%", "8.6e-05%"), a rate ("1 in
// 1,051"), or any number with two decimals or more ("1.16", "0.905"). A
// section number after "STATS.md" or "section" is not a figure.
var proseFigure = regexp.MustCompile(`\b\d[\d,]*(?:\.\d+)?(?:e-\d+)?(?:x|%)|\b1 in \d[\d,]*\b|(?:^|[^\d.])\d+\.\d{2,}\b`)

// TestNotebookProse keeps the prose of notebooks.md as true as its
// outputs: every figure a paragraph quotes (a ratio like 1.16x, a
// percentage, a rate like "1 in 1,051", a number with two decimals or
// more) appears in the output of a command of the same section (the text between two "## " headings outside code
// blocks). A figure that the prose computes rather than quotes is written
// as code (`(1/3)^(1/10) = 0.896`) and not checked. A figure quoted from
// another section's output is code too, with the section named. And a
// floor the prose names must be one an output of the section states.
func TestNotebookProse(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "notebooks.md"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, sec := range notebookSections(string(src)) {
		for _, p := range sec.prose {
			text := stripCodeSpans(p.text)
			for _, loc := range proseFigure.FindAllStringIndex(text, -1) {
				fig := text[loc[0]:loc[1]]
				if c := fig[0]; c < '0' || c > '9' {
					_, size := utf8.DecodeRuneInString(fig)
					fig = fig[size:] // the character before a bare number
				}
				before := strings.ToLower(text[:loc[1]-len(fig)])
				if strings.HasSuffix(before, "stats.md ") || strings.HasSuffix(before, "section ") {
					continue
				}
				checked++
				// The figure as a whole: "74%" is not in "13.74%".
				whole := regexp.MustCompile(`(^|[^\d.,])` + regexp.QuoteMeta(fig) + `($|[^\d])`)
				if !whole.MatchString(sec.output) {
					t.Errorf("notebooks.md line %d (section %q): the prose quotes %s, which no output of the section shows", p.line, sec.title, fig)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d figures checked: the rule sees too little of the prose", checked)
	}
	// A floor the prose names is a floor an output of the section states:
	// "the 1.11x floor" under an output that judges against 1.03x is
	// stale even when 1.11x is elsewhere in the section's tables.
	floors := 0
	for _, sec := range notebookSections(string(src)) {
		stated := map[string]bool{}
		for _, m := range outputFloor.FindAllStringSubmatch(sec.output, -1) {
			for _, g := range m[1:] {
				if g != "" {
					stated[g] = true
				}
			}
		}
		for _, p := range sec.prose {
			for _, m := range proseFloor.FindAllStringSubmatch(stripCodeSpans(p.text), -1) {
				f := m[1] + m[2]
				floors++
				if !stated[f] {
					t.Errorf("notebooks.md line %d (section %q): the prose names a floor of %s, which no output of the section states", p.line, sec.title, f)
				}
			}
		}
	}
	if floors < 3 {
		t.Errorf("only %d floors named in the prose were checked", floors)
	}
}

// proseFloor is a floor named in prose ("the 1.11x floor", "a floor of
// 1.17"); outputFloor a floor an output states (">= 1.03x floor",
// "floor: 1.16x", "(floor 1.14)", "Floor is 1.17x").
var (
	proseFloor  = regexp.MustCompile(`(\d+\.\d+)x? floor\b|\bfloor (?:of |at |is |to |was )?(\d+\.\d+)`)
	outputFloor = regexp.MustCompile(`(\d+\.\d+)x floor|[Ff]loor:? (?:is )?(\d+\.\d+)`)
)

type notebookSection struct {
	title  string
	output string // every fenced block's text, joined
	prose  []struct {
		line int
		text string
	}
}

// notebookSections splits a notebook into its "## " sections, each with
// its fenced blocks' text and its prose lines.
func notebookSections(src string) []notebookSection {
	var secs []notebookSection
	cur := &notebookSection{title: "(top)"}
	var out strings.Builder
	inFence := false
	for i, line := range strings.Split(src, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inFence = !inFence
		case inFence:
			out.WriteString(line + "\n")
		case strings.HasPrefix(line, "## "):
			cur.output = out.String()
			secs = append(secs, *cur)
			cur = &notebookSection{title: strings.TrimPrefix(line, "## ")}
			out.Reset()
		default:
			cur.prose = append(cur.prose, struct {
				line int
				text string
			}{i + 1, line})
		}
	}
	cur.output = out.String()
	return append(secs, *cur)
}

// stripCodeSpans removes `code spans` from a line of prose.
func stripCodeSpans(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		if r == '`' {
			in = !in
			continue
		}
		if !in {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// gateRow is a row of the gate's table: a benchmark's ratio and its ratio
// to its calibrated usual.
var gateRow = regexp.MustCompile(`(?m)^(\S+)\s+[\d,.]+\s+[\d,.]+\s+(\d+\.\d+)x\s+(\d+\.\d+)x usual`)

// fallVerb marks a sentence that says benchmarks fell.
var fallVerb = regexp.MustCompile(`\b(fell|dropped|slid|slowed)\b`)

// TestNotebookFallenBenchmarks extends TestNotebookProse from figures to
// the sentences about a gate's table (issue 35: the prose said cfrac
// "fell below parity", where it is always below parity and at 1.11x its
// usual, and skipped cache-scratch at 0.52x usual). A sentence that says
// benchmarks fell, after an output with the gate's table, names only
// benchmarks below their usual, and every benchmark at least as far below
// as the least fallen it names; and a figure in parentheses after a
// benchmark's name ("cache-thrash (0.58x)") is in that benchmark's row.
func TestNotebookFallenBenchmarks(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "notebooks.md"))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		ratio, usual string
		u            float64
	}
	var rows map[string]row
	var fence strings.Builder
	inFence := false
	var para []string
	paraLine, checked := 0, 0
	checkPara := func() {
		defer func() { para = nil }()
		if len(rows) == 0 || len(para) == 0 {
			return
		}
		text := stripCodeSpans(strings.Join(para, " "))
		for _, s := range regexp.MustCompile(`[.;]\s+`).Split(text, -1) {
			named := map[string]bool{}
			for name, r := range rows {
				re := regexp.MustCompile(`(^|[^\w-])` + regexp.QuoteMeta(name) + `($|[^\w-])(?:\((\d+\.\d+x)\))?`)
				m := re.FindStringSubmatch(s)
				if m == nil {
					continue
				}
				named[name] = true
				if fig := m[3]; fig != "" {
					checked++
					if fig != r.ratio+"x" && fig != r.usual+"x" {
						t.Errorf("notebooks.md paragraph at line %d: %s (%s), but its row shows %sx, %sx usual", paraLine, name, fig, r.ratio, r.usual)
					}
				}
			}
			if !fallVerb.MatchString(s) || len(named) == 0 {
				continue
			}
			checked++
			most := 0.0
			for name := range named {
				r := rows[name]
				if r.u >= 1 {
					t.Errorf("notebooks.md paragraph at line %d: says %s fell, but it is at %sx its usual: %q", paraLine, name, r.usual, s)
				}
				most = max(most, r.u)
			}
			for name, r := range rows {
				if r.u <= most && !named[name] {
					t.Errorf("notebooks.md paragraph at line %d: names benchmarks that fell down to %.2fx their usual but not %s at %sx: %q", paraLine, most, name, r.usual, s)
				}
			}
		}
	}
	for i, line := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			if inFence {
				if ms := gateRow.FindAllStringSubmatch(fence.String(), -1); len(ms) > 0 {
					rows = map[string]row{}
					for _, m := range ms {
						u, _ := strconv.ParseFloat(m[3], 64)
						rows[m[1]] = row{ratio: m[2], usual: m[3], u: u}
					}
				}
				fence.Reset()
			} else {
				checkPara()
			}
			inFence = !inFence
		case inFence:
			fence.WriteString(line + "\n")
		case strings.HasPrefix(line, "## "):
			checkPara()
			rows = nil
		case strings.TrimSpace(line) == "":
			checkPara()
		default:
			if len(para) == 0 {
				paraLine = i + 1
			}
			para = append(para, line)
		}
	}
	checkPara()
	if checked < 2 {
		t.Errorf("only %d sentences about a gate's table checked: the rule sees too little of the prose", checked)
	}
}
