//go:build !unix && !windows

package measure

import (
	"os/exec"
	"strings"
)

func shellArgv(command string) []string { return []string{"/bin/sh", "-c", command} }

func shellLine(cmd *exec.Cmd, command string) {}

// groupOf: on systems without process groups, a timeout or an interrupt
// kills the command alone (Process.Kill), not what it started.
func groupOf(cmd *exec.Cmd) {}

func reapGroup(cmd *exec.Cmd) {}

func signalOf(state interface{ Sys() any }) string { return "" }

func shellQuote(s string) (string, error) {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'", nil
}
