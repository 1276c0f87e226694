//go:build windows

package measure

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// shellArgv is how cmd.exe runs command: cmd /c COMMAND, with the line
// given to cmd.exe as it is by shellLine (Go's quoting of arguments is
// not cmd's).
func shellArgv(command string) []string { return []string{"cmd.exe"} }

func shellLine(cmd *exec.Cmd, command string) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CmdLine = "cmd.exe /c " + command
}

// groupOf makes a timeout or an interrupt end the command and every
// process it started: cmd.Cancel runs taskkill /T /F on it, which ends
// the tree of processes below it (a process whose parent has exited is
// no longer in the tree), and kills the command itself should taskkill
// fail.
func groupOf(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP
	cmd.Cancel = func() error { return killGroup(cmd) }
}

func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run(); err != nil {
		return cmd.Process.Kill()
	}
	return nil
}

// reapGroup does nothing on Windows: once the command has exited, its
// children are no longer its tree.
func reapGroup(cmd *exec.Cmd) {}

func signalOf(state interface{ Sys() any }) string { return "" }

// shellQuote quotes s as one word for cmd.exe: in double quotes; a name
// holding what cmd.exe reads inside them (" % ! ^) is refused.
func shellQuote(s string) (string, error) {
	if strings.ContainsAny(s, "\"%!^") {
		return "", fmt.Errorf("%q holds a character that cmd.exe would read inside quotes (\" %% ! ^)", s)
	}
	return `"` + s + `"`, nil
}
