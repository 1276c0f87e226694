package measure

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary plays the benchmark commands: with QOSCAL_MEASURE_HELPER
// set, it does what its arguments say instead of running the tests.
//
//	print NAME=NS...   prints each NAME's time per operation as Go's
//	                   benchmarks do (BenchmarkNAME 1 NS ns/op)
//	fail CODE          writes two lines on stderr and exits with CODE
//	nothing            prints nothing
//	hang PIDFILE       starts a child that sleeps, writes its pid into
//	                   PIDFILE, and sleeps itself
//	sleep              sleeps a minute
//	bench              prints the benchmark $QOSCAL_BENCHMARK, 100 ns/op
const helperVar = "QOSCAL_MEASURE_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperVar) == "1" {
		os.Exit(helper(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func helper(args []string) int {
	if len(args) == 0 {
		return 9
	}
	switch args[0] {
	case "print":
		fmt.Println("goos: linux")
		for _, a := range args[1:] {
			name, ns, _ := strings.Cut(a, "=")
			fmt.Printf("Benchmark%s \t 1\t %s ns/op\n", name, ns)
		}
	case "fail":
		fmt.Println("BenchmarkA 1 5 ns/op")
		fmt.Fprintln(os.Stderr, "setting up")
		fmt.Fprintln(os.Stderr, "panic: the allocator ran out of arenas")
		code, _ := strconv.Atoi(args[1])
		return code
	case "nothing":
	case "hang":
		child := exec.Command(os.Args[0], "sleep")
		child.Env = os.Environ()
		if err := child.Start(); err != nil {
			return 8
		}
		os.WriteFile(args[1], []byte(strconv.Itoa(child.Process.Pid)), 0o644)
		time.Sleep(time.Minute)
	case "sleep":
		time.Sleep(time.Minute)
	case "bench":
		fmt.Printf("Benchmark%s 1 100 ns/op\n", os.Getenv("QOSCAL_BENCHMARK"))
	default:
		return 9
	}
	return 0
}

// helperCmd is the command that runs the test binary as a helper with
// args (quoted for Split).
func helperCmd(t testing.TB, args ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := "'" + exe + "'"
	for _, a := range args {
		s += " '" + a + "'"
	}
	return s
}
