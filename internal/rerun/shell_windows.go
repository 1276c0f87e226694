//go:build windows

package rerun

import (
	"context"
	"os"
	"os/exec"
	"syscall"
)

// Shell runs command through the system's shell, as a CI step
// would: cmd /d /s /c "COMMAND" (%ComSpec%), with qoscal's environment
// and working folder. The command line is given whole: Go's quoting of
// arguments is the C runtime's, which cmd does not follow, and /s makes
// cmd take everything between the outer quotes as the command, quotes
// inside it included. It is killed when ctx is done.
func Shell(ctx context.Context, command string) *exec.Cmd {
	shell := os.Getenv("ComSpec")
	if shell == "" {
		shell = "cmd.exe"
	}
	c := exec.CommandContext(ctx, shell)
	c.SysProcAttr = &syscall.SysProcAttr{CmdLine: `"` + shell + `" /d /s /c "` + command + `"`}
	return c
}
