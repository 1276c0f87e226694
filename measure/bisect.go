package measure

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// commitHash is what a commit label must look like to go into a git
// command line: a hexadecimal object name.
var commitHash = regexp.MustCompile(`^[0-9a-fA-F]{4,64}$`)

// BisectCommand is the shell command that bisects a fall between the
// commits good and bad (qoscal watch's): git bisect, each step measured
// by 'qoscal measure --bisect' into a fresh folder with args (the job's
// own measure arguments, quoted for a shell) against the calibration file
// cal, named by its base name. A commit that is no hexadecimal object
// name is written as the placeholder GOOD or BAD.
func BisectCommand(good, bad, cal, args string) string {
	ref := func(c, placeholder string) string {
		if commitHash.MatchString(c) {
			return c
		}
		return placeholder
	}
	return fmt.Sprintf("git bisect start %s %s && git bisect run sh -c 'exec qoscal measure \"$@\" --out \"$(mktemp -d)/run\"' sh --bisect --calibration %s %s",
		ref(bad, "BAD"), ref(good, "GOOD"), ShellQuote(filepath.Base(cal)), args)
}

// OneCommit asks git, in the clone dir, how many commits lead from good
// to bad: true when one does (that commit is the cause), false when more,
// or when either is no hexadecimal object name or git cannot tell within
// ten seconds.
func OneCommit(ctx context.Context, dir, good, bad string) bool {
	if !commitHash.MatchString(good) || !commitHash.MatchString(bad) {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-list", "--count", good+".."+bad).Output()
	if err != nil {
		return false
	}
	return strings.TrimSpace(string(out)) == "1"
}
