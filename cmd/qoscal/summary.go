package main

import (
	"os"
	"path/filepath"
	"strings"
)

// stepSummary is the value of a bare --summary: $GITHUB_STEP_SUMMARY.
const stepSummary = "$GITHUB_STEP_SUMMARY"

// summaryArg lets "--summary FILE.md" name the file, as "--summary=FILE.md"
// does: --summary takes an optional value (bare, it is the step summary),
// and pflag gives an optional value only after "=". A next argument that
// ends in .md is the file; any other is a PATH.
func summaryArg(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			return append(out, args[i:]...)
		}
		if args[i] == "--summary" && i+1 < len(args) && strings.EqualFold(filepath.Ext(args[i+1]), ".md") {
			out = append(out, "--summary="+args[i+1])
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// samePath reports whether two paths name the same file (the same path,
// or the same existing file).
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
