package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
