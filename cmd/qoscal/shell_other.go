//go:build !windows

package main

import (
	"context"
	"os/exec"
)

// shellCommand runs command through the system's shell, as a CI step
// would: sh -c COMMAND, with qoscal's environment and working folder,
// killed when ctx is done.
func shellCommand(ctx context.Context, command string) *exec.Cmd {
	return exec.CommandContext(ctx, "sh", "-c", command)
}
