package measure

import "os/exec"

// Group puts cmd, not yet started, in a process group of its own (on
// Windows, a process tree) and makes its cancellation (the context of
// exec.CommandContext, a timeout or an interrupt) kill the whole group,
// as an invocation's is: a command that starts a server or a background
// job cannot outlive it. Commands qoscal runs besides the invocations (the
// gate's rerun command) use it so that they are stopped the same way.
func Group(cmd *exec.Cmd) { groupOf(cmd) }

// ReapGroup kills what cmd, started with Group, left running in its group
// once it has exited (a script's background job); on Windows, where the
// tree is gone once its root has exited, it does nothing.
func ReapGroup(cmd *exec.Cmd) { reapGroup(cmd) }
