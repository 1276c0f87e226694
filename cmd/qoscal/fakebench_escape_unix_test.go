//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// escape starts "fakebench hangpid pidFile" in a session of its own
// (setsid), as a daemon or a benchmark's server does, and returns once it
// has written its pid: a child that has left its parent's process group.
func escape(pidFile string) error {
	cmd := exec.Command(os.Args[0], "hangpid", pidFile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
			return cmd.Process.Release()
		}
	}
	return errors.New("the escaped child wrote no pid")
}
