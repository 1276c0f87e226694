package formats

import (
	"errors"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestInputErrorBounded: a file of many bad lines keeps the first MaxKept
// errors and counts the rest (3.3 million bad lines used to keep every
// error, 668 MB).
func TestInputErrorBounded(t *testing.T) {
	input := strings.Repeat("a: x=1 (0 ops/sec)\n", 1000)
	f, err := OpenReader("f.txt", strings.NewReader(input), opsFormat)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = ReadAll(f)
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v, want an InputError", err)
	}
	if len(ie.Errs) != MaxKept || ie.More != 1000-MaxKept {
		t.Errorf("kept %d errors and counted %d more, want %d and %d", len(ie.Errs), ie.More, MaxKept, 1000-MaxKept)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxShown+1 || lines[maxShown] != "... and 990 more" || lines[9] != "f.txt:10: benchmark a: value 0 is not positive: measurements must be > 0" {
		t.Errorf("message ends %q", lines[len(lines)-2:])
	}
}

// peakHeap runs f and reports the largest heap (live and not yet swept
// objects, runtime/metrics /memory/classes/heap/objects:bytes) seen while
// it ran, sampled every millisecond, less the heap before it ran.
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	if v := read(); v > peak.Load() {
		peak.Store(v)
	}
	close(stop)
	<-done
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}
