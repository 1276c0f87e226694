package measure

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux qoscal makes itself the subreaper of what it starts
// (PR_SET_CHILD_SUBREAPER): a process that leaves its command's process
// group (setsid(), a daemon's double fork) and is orphaned is adopted by
// qoscal rather than by init, so that once the commands have ended (or
// been killed at a timeout) it can be found among qoscal's children and
// ended too. Killing the group alone missed it: it outlived measure and
// gate --rerun-command (issue 35).

var (
	subreaperOnce sync.Once
	subreaper     bool
	// live are the commands started (startGroup) and not yet reaped
	// (reapGroup): qoscal's own children, never taken for orphans.
	liveMu sync.Mutex
	live   = map[int]bool{}
)

func becomeSubreaper() {
	subreaperOnce.Do(func() {
		subreaper = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
	})
}

func trackStarted(pid int) {
	liveMu.Lock()
	live[pid] = true
	liveMu.Unlock()
}

// endOrphans ends the processes qoscal adopted, once no command it
// started is running (with duet, once the last of a step has ended, so
// that one command's end does not kill what another still uses): each is
// killed and reaped, and the killing repeated for what they in turn leave
// orphaned, until none is left.
func endOrphans(pid int) {
	if subreaper {
		drainGroup(pid)
	}
	liveMu.Lock()
	delete(live, pid)
	busy := len(live) > 0
	liveMu.Unlock()
	if !subreaper || busy {
		return
	}
	for range 100 {
		var killed []int
		for _, c := range children() {
			liveMu.Lock()
			ours := live[c]
			liveMu.Unlock()
			if ours || !leftSession(c) {
				continue
			}
			if unix.Kill(c, unix.SIGKILL) == nil || isZombie(c) {
				killed = append(killed, c)
			}
		}
		if len(killed) == 0 {
			return
		}
		for _, c := range killed {
			var ws unix.WaitStatus
			for {
				if _, err := unix.Wait4(c, &ws, 0, nil); err != unix.EINTR {
					break
				}
			}
		}
	}
}

// drainGroup waits, up to drainLimit, until no process of the group
// pgid (killed just before) is left, reaping those qoscal has adopted
// (wait4(-pgid): any child in that group). A process that called
// setsid() is handed to qoscal only when its parent in the group dies,
// an instant after the group's SIGKILL: looking for orphans before then
// missed it, and it outlived a timed-out --rerun-command on a busy CI
// machine. The command itself (the group's leader) has been reaped by
// exec.Cmd.Wait before this is called.
func drainGroup(pgid int) {
	deadline := time.Now().Add(drainLimit)
	for {
		for {
			var ws unix.WaitStatus
			p, err := unix.Wait4(-pgid, &ws, unix.WNOHANG, nil)
			if err == unix.EINTR {
				continue
			}
			if err != nil || p <= 0 {
				break
			}
		}
		if unix.Kill(-pgid, 0) != nil || time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// drainLimit bounds drainGroup: a process stuck in the kernel
// (uninterruptible sleep) does not hold qoscal for longer.
const drainLimit = 5 * time.Second

// children lists qoscal's children: from /proc/self/task/*/children, an
// adopted process being the child of one of qoscal's threads, else (a
// kernel without that file) by the parent of each process in /proc.
func children() []int {
	var pids []int
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	if len(tasks) > 0 {
		for _, t := range tasks {
			b, err := os.ReadFile(t)
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				if p, err := strconv.Atoi(f); err == nil {
					pids = append(pids, p)
				}
			}
		}
		return pids
	}
	self := os.Getpid()
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(p); ok && ppid == self {
			pids = append(pids, p)
		}
	}
	return pids
}

// stat returns the fields of /proc/PID/stat after the command name.
func stat(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	return strings.Fields(s)
}

func parentOf(pid int) (int, bool) {
	f := stat(pid)
	if len(f) < 2 {
		return 0, false
	}
	p, err := strconv.Atoi(f[1])
	return p, err == nil
}

// leftSession reports whether pid is in a session other than qoscal's:
// what called setsid() to leave its command's process group, the case
// the group's kill misses. qoscal's own children (its commands, started
// with Setpgid in qoscal's session, and any other program it runs) stay
// in its session and are never taken for orphans: between a command's
// start and trackStarted, or in a test binary whose other tests run
// programs of their own, killing and reaping them stole their exit
// status from exec.Cmd.Wait ("waitid: no child processes").
func leftSession(pid int) bool {
	own, err := unix.Getsid(0)
	if err != nil {
		return false
	}
	f := stat(pid)
	if len(f) < 4 {
		return false
	}
	sid, err := strconv.Atoi(f[3])
	return err == nil && sid != own
}

func isZombie(pid int) bool {
	f := stat(pid)
	return len(f) > 0 && f[0] == "Z"
}
