//go:build !windows

package rerun

import (
	"context"
	"os/exec"
)

// Shell runs command through the system's shell, as a CI step
// would: sh -c COMMAND, with qoscal's environment and working folder,
// killed when ctx is done.
func Shell(ctx context.Context, command string) *exec.Cmd {
	return exec.CommandContext(ctx, "sh", "-c", command)
}
