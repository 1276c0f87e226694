package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// runnerLines splits output as the GitHub Actions runner reads it:
// StreamReader.ReadLine ends a line at LF, CR or CRLF.
func runnerLines(s string) []string {
	return regexp.MustCompile(`\r\n|\r|\n`).Split(s, -1)
}

// forgedCommands returns the lines of out that the runner would run as a
// workflow command (after trimming .NET white space), other than qoscal's
// own annotations.
func forgedCommands(out string) []string {
	var bad []string
	for _, line := range runnerLines(out) {
		t := strings.TrimLeftFunc(line, func(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) })
		if strings.HasPrefix(t, "::") && !qoscalCommand.MatchString(t) {
			bad = append(bad, line)
		}
	}
	return bad
}

// Issue 11 item 6 (sweep): the runner ends a line at a lone CR too, so a
// CR in a path that qoscal quotes (a run folder named "r3\r::error::x", a
// store path) started a line of its own: the error that refused the name
// ran it as ::error::. Every line qoscal writes, on stdout and stderr,
// counts CR as a line end.
func TestNoCommandBehindCR(t *testing.T) {
	dir := t.TempDir()
	base := "larson: t=1 (100 ops/sec)\ncfrac: t=1 (200 ops/sec)\n"
	cand := "larson: t=1 (110 ops/sec)\ncfrac: t=1 (210 ops/sec)\n"
	for _, r := range []string{"r1", "r2", "r3\r::error::forged", "r4\r  ::add-mask::x"} {
		if err := os.MkdirAll(filepath.Join(dir, "runs", r), 0o755); err != nil {
			t.Skipf("cannot make a folder with a CR in its name here: %v", err)
		}
		os.WriteFile(filepath.Join(dir, "runs", r, "system.txt"), []byte(base), 0o644)
		os.WriteFile(filepath.Join(dir, "runs", r, "hoard.txt"), []byte(cand), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "system.txt"), []byte(base), 0o644)
	os.WriteFile(filepath.Join(dir, "hoard.txt"), []byte(cand), 0o644)
	runs := filepath.Join(dir, "runs")
	db := filepath.Join(dir, "q\r::error::store.db")
	for _, args := range [][]string{
		{"spread", "--baseline", "system=system.txt", "--candidate", "hoard=hoard.txt", runs},
		{"spread", "--format", "json", "--baseline", "system=system.txt", "--candidate", "hoard=hoard.txt", runs},
		{"gate", "--floor", "1", "--baseline", "system=" + filepath.Join(runs, "r3\r::error::forged", "nope.txt"), "--candidate", "hoard=" + filepath.Join(dir, "hoard.txt")},
		{"ingest", "--db", db, "--run", "r1", "--baseline", "system=" + filepath.Join(dir, "system.txt"), "--candidate", "hoard=" + filepath.Join(dir, "hoard.txt")},
		{"runs", "--db", db},
		{"gate", "--floor", "1", "--db", db, "--run", "r1"},
	} {
		var stdout, stderr bytes.Buffer
		run(args, nil, &stdout, &stderr)
		for _, out := range []string{stdout.String(), stderr.String()} {
			if bad := forgedCommands(out); bad != nil {
				t.Errorf("qoscal %q: the runner would run %q", args, bad)
			}
		}
	}
}
