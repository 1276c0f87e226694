// Package testenv says how long a test run may take. The default run,
// `go test ./...`, checks every claim quickly; the long checks (the Monte
// Carlo runs behind the figures docs/STATS.md quotes, numeric sweeps
// against slow references, a real build of the command) run where
// QOSCAL_SLOW_TESTS=1 is set, as .ci/run sets it. The tests of every
// package ask this package, so that one variable means the same
// everywhere.
package testenv

import (
	"os"
	"testing"
)

// SlowVar is the environment variable that turns the long checks on
// when it is "1".
const SlowVar = "QOSCAL_SLOW_TESTS"

// Slow reports whether the long checks run: QOSCAL_SLOW_TESTS=1.
func Slow() bool { return os.Getenv(SlowVar) == "1" }

// FullSize reports whether the statistical checks run at full size: with
// QOSCAL_SLOW_TESTS=1, and not under the race detector, which makes
// them ten times slower and has nothing to find in them (they check
// statistics, not concurrency); there they run at their quick size.
func FullSize() bool { return Slow() && !Race }

// Size is full where the statistical checks run at full size (FullSize)
// and quick elsewhere: the number of Monte Carlo repetitions, or the
// cases of a sweep, of a check whose quick version still fails fast when
// the claim breaks.
func Size[T any](full, quick T) T {
	if FullSize() {
		return full
	}
	return quick
}

// SkipUnlessSlow skips a long check that has no quick version unless
// QOSCAL_SLOW_TESTS=1.
func SkipUnlessSlow(t testing.TB) {
	t.Helper()
	if !Slow() {
		t.Skipf("a long check: %s=1 runs it (.ci/run does)", SlowVar)
	}
}

// SkipUnlessFullSize skips a long statistical check that has no quick
// version unless it runs at full size (FullSize).
func SkipUnlessFullSize(t testing.TB) {
	t.Helper()
	switch {
	case !Slow():
		t.Skipf("a long statistical check: %s=1 runs it (.ci/run does)", SlowVar)
	case Race:
		t.Skip("a long statistical check: not under the race detector (it checks statistics, not concurrency)")
	}
}
