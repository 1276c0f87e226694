//go:build unix

package measure

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// checkKilled checks that the process whose pid the hung helper wrote is
// gone: killed with its parent's process group.
func checkKilled(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the hung command's child wrote no pid: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for range 600 { // 30 s: a busy machine's init may be slow to reap
		// A killed child of a dead parent is reaped by init; until then
		// it is a zombie, which signal 0 still finds: look at its state.
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if errors.Is(err, os.ErrNotExist) || (err == nil && strings.Contains(string(st), ") Z ")) {
			return
		}
		if err != nil && syscall.Kill(pid, 0) == syscall.ESRCH {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("the hung command's child %d is still running", pid)
	syscall.Kill(pid, syscall.SIGKILL)
}
