//go:build !linux

package measure

// Elsewhere than on Linux qoscal cannot adopt what its commands leave
// orphaned: a process that leaves the command's process group (setsid(),
// a daemon) outlives the command (on Windows, taskkill /T ends the tree
// as long as its processes keep their parent).

func becomeSubreaper() {}
func trackStarted(int) {}
func endOrphans(int)   {}
