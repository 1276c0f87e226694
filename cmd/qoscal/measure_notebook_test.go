package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/internal/testenv"
)

// The section of notebooks.md between these markers measures real
// programs, so its outputs are real timings: its ```console blocks are not
// TestNotebooks' (which compares outputs exactly) but this test's.
const (
	measureNotebookStart = "<!-- measure-notebook: TestMeasureNotebook runs this section -->"
	measureNotebookEnd   = "<!-- /measure-notebook -->"
	// varies marks a block whose outcome varies from run to run (a close
	// case): only that it ran, with an exit status of 0, 1 or 3, is checked.
	measureNotebookVaries = "<!-- varies -->"
)

// consoleBlock is one ```console block: its command (after "$ ", with
// "\" continuations) and its output.
type consoleBlock struct {
	line             int
	cmd              string
	varies           bool
	outStart, outEnd int
}

func parseConsoleBlocks(src string, from, to int) []consoleBlock {
	lines := strings.SplitAfter(src, "\n")
	off := 0
	var blocks []consoleBlock
	lineOff := make([]int, len(lines)+1)
	for i, l := range lines {
		lineOff[i] = off
		off += len(l)
	}
	lineOff[len(lines)] = off
	for i := 0; i < len(lines); i++ {
		if lineOff[i] < from || lineOff[i] >= to || strings.TrimRight(lines[i], "\n") != "```console" {
			continue
		}
		varies := i >= 1 && strings.TrimSpace(lines[i-1]) == measureNotebookVaries
		j := i + 1
		cmd := strings.TrimSuffix(strings.TrimPrefix(lines[j], "$ "), "\n")
		for strings.HasSuffix(cmd, "\\") && j+1 < len(lines) {
			j++
			cmd = strings.TrimSuffix(cmd, "\\") + " " + strings.TrimSpace(strings.TrimSuffix(lines[j], "\n"))
		}
		k := j + 1
		for k < len(lines) && strings.TrimRight(lines[k], "\n") != "```" {
			k++
		}
		blocks = append(blocks, consoleBlock{line: j + 1, cmd: cmd, varies: varies, outStart: lineOff[j+1], outEnd: lineOff[k]})
		i = k
	}
	return blocks
}

// numbers are what changes from one real measurement to the next.
var numbers = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)

// orders are the orders a repetition ran its two variants in: a job
// draws its own seed (issue 35 item 4), so the order changes from one
// measurement to the next, as the numbers do.
var orders = regexp.MustCompile(`\b(alt, std|std, alt)\b`)

// masked is output with its numbers and orders masked and its runs of
// blanks made one (a table's columns move with its numbers' widths).
func masked(s string) string {
	s = numbers.ReplaceAllString(s, "#")
	s = orders.ReplaceAllString(s, "ORDER")
	return regexp.MustCompile(`[ \t]+`).ReplaceAllString(s, " ")
}

// TestMeasureNotebook runs the section of notebooks.md that measures two
// real programs with qoscal measure (built here: qoscal, and
// notebooks/measure/hashsort), in a temporary folder, each block's command
// with sh: its output, numbers masked, must be the notebook's, but for
// blocks marked as varying, which must only run (exit 0, 1 or 3). Real
// timings and orders differ from run to run; what the section shows (the
// variance components, the advice, where the sequential gate stops on
// a clear case) does not. -update rewrites the outputs. It builds and runs
// programs for a minute: behind QOSCAL_SLOW_TESTS.
func TestMeasureNotebook(t *testing.T) {
	testenv.SkipUnlessSlow(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mdPath := filepath.Join(root, "notebooks.md")
	b, err := os.ReadFile(mdPath)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	from, to := strings.Index(src, measureNotebookStart), strings.Index(src, measureNotebookEnd)
	if from < 0 || to < from {
		t.Fatalf("notebooks.md has no section between %q and %q", measureNotebookStart, measureNotebookEnd)
	}
	blocks := parseConsoleBlocks(src, from, to)
	if len(blocks) < 6 {
		t.Fatalf("the measure section has %d console blocks", len(blocks))
	}
	work := t.TempDir()
	bin := filepath.Join(work, ".bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "qoscal"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building qoscal: %v\n%s", err, out)
	}
	if err := os.CopyFS(filepath.Join(work, "notebooks", "measure"), os.DirFS(filepath.Join(root, "notebooks", "measure"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte("module notebook\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "SOURCE_DATE_EPOCH=1796112000",
		"QOSCAL_DB=", "GITHUB_ACTIONS=", "GITHUB_STEP_SUMMARY=", "GITHUB_OUTPUT=", "GITHUB_RUN_ID=",
		"GIT_AUTHOR_NAME=qoscal", "GIT_AUTHOR_EMAIL=qoscal@example.com", "GIT_COMMITTER_NAME=qoscal", "GIT_COMMITTER_EMAIL=qoscal@example.com",
		"GIT_AUTHOR_DATE=2026-12-01T08:00:00Z", "GIT_COMMITTER_DATE=2026-12-01T08:00:00Z", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	var out strings.Builder
	last := 0
	for _, bl := range blocks {
		cmd := exec.Command("sh", "-c", bl.cmd)
		cmd.Dir, cmd.Env = work, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("notebooks.md line %d: %v", bl.line, err)
		}
		got := stdout.String() + stderr.String()
		if code != 0 {
			got += fmt.Sprintf("[exit status %d]\n", code)
		}
		want := src[bl.outStart:bl.outEnd]
		switch {
		case bl.varies:
			if code != 0 && code != 1 && code != 3 {
				t.Errorf("notebooks.md line %d: $ %s\nexit %d:\n%s", bl.line, bl.cmd, code, got)
			}
		case masked(got) != masked(want) && !*update:
			t.Errorf("notebooks.md line %d: $ %s\n--- want (numbers masked)\n%s--- got\n%s", bl.line, bl.cmd, masked(want), got)
		}
		out.WriteString(src[last:bl.outStart])
		out.WriteString(got)
		last = bl.outEnd
	}
	out.WriteString(src[last:])
	if *update {
		if err := os.WriteFile(mdPath, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
