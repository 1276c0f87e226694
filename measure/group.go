package measure

import "os/exec"

// Group puts cmd, not yet started, in a process group of its own (on
// Windows, a process tree) and makes its cancellation (the context of
// exec.CommandContext, a timeout or an interrupt) kill the whole group,
// as an invocation's is: a command that starts a server or a background
// job cannot outlive it. Commands qoscal runs besides the invocations (the
// gate's rerun command) use it so that they are stopped the same way.
func Group(cmd *exec.Cmd) { groupOf(cmd) }

// StartGroup starts cmd, put in its group by Group. On Linux qoscal is
// then the subreaper of what cmd starts: a process that leaves the group
// (setsid(), a daemon) is adopted by qoscal when orphaned, and ReapGroup
// ends it too.
func StartGroup(cmd *exec.Cmd) error { return startGroup(cmd) }

// ReapGroup kills what cmd, started with StartGroup, left running in its
// group once it has exited (a script's background job), and on Linux,
// once no other command started so is running, every process qoscal has
// adopted (what left the group); on Windows, where the tree is gone once
// its root has exited, it does nothing.
func ReapGroup(cmd *exec.Cmd) { reapGroup(cmd) }

func startGroup(cmd *exec.Cmd) error {
	becomeSubreaper()
	if err := cmd.Start(); err != nil {
		return err
	}
	trackStarted(cmd.Process.Pid)
	return nil
}
