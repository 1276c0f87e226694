//go:build unix

package formats

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenFIFO: a named pipe given as a result file is refused at once;
// reading it blocked for ever when nothing wrote to it.
func TestOpenFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "base.txt")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := OpenFile(path, nil)
		done <- err
	}()
	select {
	case err := <-done:
		want := path + ": not a regular file but a named pipe (FIFO): expected a result file (save the output to a file first)"
		if err == nil || err.Error() != want {
			t.Errorf("error %v\nwant  %s", err, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("OpenFile blocks on a FIFO")
	}
	if _, err := OpenFile("/dev/null", nil); err == nil || err.Error() != "/dev/null: not a regular file but a character device: expected a result file (save the output to a file first)" {
		t.Errorf("/dev/null: %v", err)
	}
}
