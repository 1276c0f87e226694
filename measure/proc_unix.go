//go:build unix

package measure

import (
	"errors"
	"os/exec"
	"strings"
	"syscall"
)

// shellArgv is how the system's shell runs command: /bin/sh -c.
func shellArgv(command string) []string { return []string{"/bin/sh", "-c", command} }

// shellLine sets what shellArgv cannot say (cmd.exe's command line).
func shellLine(cmd *exec.Cmd, command string) {}

// groupOf puts the command in a process group of its own, led by it, so
// that a timeout or an interrupt ends the command and everything it
// started (a script's benchmark binary, a server it launched): cmd.Cancel
// sends SIGKILL to the whole group, kill(-pgid). A process that leaves
// the group (setsid, a daemon) escapes it, but on Linux, where qoscal
// is the subreaper of what it starts (reaper_linux.go), reapGroup ends it
// once the commands have ended.
func groupOf(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
}

// killGroup kills the command's process group. A group already gone is
// no error.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// reapGroup kills what the command left running in its group once it has
// exited (a background job of a script), so that it cannot disturb the
// next invocation's measurement.
func reapGroup(cmd *exec.Cmd) {
	_ = killGroup(cmd)
	if cmd.Process != nil {
		endOrphans(cmd.Process.Pid)
	}
}

// signalOf is the signal that ended the command, "" if none.
func signalOf(state interface{ Sys() any }) string {
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}

// shellQuote quotes s as one word for /bin/sh: in single quotes, each '
// written as '\”.
func shellQuote(s string) (string, error) {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'", nil
}
