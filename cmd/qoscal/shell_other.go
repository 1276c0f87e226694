//go:build !windows

package main

import "os/exec"

// shellCommand runs command through the system's shell, as a CI step
// would: sh -c COMMAND, with qoscal's environment and working folder.
func shellCommand(u *ui, command string) *exec.Cmd {
	return exec.CommandContext(u.ctx, "sh", "-c", command)
}
