package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// fakebench is a benchmark command for the measure tests, run as a
// program by testscript (and by measure's Go tests through the test
// binary, FAKEBENCH=1): it prints results as Go's benchmarks do, or fails
// as a real one may.
//
//	fakebench print NAME=NS...  BenchmarkNAME 1 NS ns/op for each
//	fakebench fail CODE         a line of results, two lines on stderr, exit CODE
//	fakebench nothing           prints nothing
//	fakebench echo TEXT...      prints TEXT
//	fakebench hang              sleeps a minute
//	fakebench drift NAME=NS...  as print, each time multiplied by
//	                            exp(slope·k + noise): k counts the calls
//	                            made with the state file $FAKEBENCH_STATE
//	                            (one per job), slope is $FAKEBENCH_SLOPE,
//	                            noise normal with SD $FAKEBENCH_NOISE,
//	                            seeded by $FAKEBENCH_SEED and k
func fakebench(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "fakebench: no mode")
		return 9
	}
	switch args[0] {
	case "print":
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
	case "echo":
		fmt.Println(strings.Join(args[1:], " "))
	case "hang":
		time.Sleep(time.Minute)
	case "drift":
		k := nextCall(os.Getenv("FAKEBENCH_STATE"))
		slope, _ := strconv.ParseFloat(os.Getenv("FAKEBENCH_SLOPE"), 64)
		sd, _ := strconv.ParseFloat(os.Getenv("FAKEBENCH_NOISE"), 64)
		seed, _ := strconv.ParseUint(os.Getenv("FAKEBENCH_SEED"), 10, 64)
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		for _, a := range args[1:] {
			name, ns, _ := strings.Cut(a, "=")
			v, _ := strconv.ParseFloat(ns, 64)
			v *= math.Exp(slope*float64(k) + sd*rng.NormFloat64())
			fmt.Printf("Benchmark%s \t 1\t %.4f ns/op\n", name, v)
		}
	default:
		fmt.Fprintln(os.Stderr, "fakebench: unknown mode", args[0])
		return 9
	}
	return 0
}

// nextCall returns the number of calls made with the state file before
// this one, and counts this one.
func nextCall(state string) int {
	b, _ := os.ReadFile(state)
	k, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	os.WriteFile(state, []byte(strconv.Itoa(k+1)), 0o644)
	return k
}

// cmdOnlyFiles checks that a folder holds exactly the names given (a
// measurement that fails must leave neither its folder nor a temporary
// one):
//
//	onlyfiles DIR [NAME...]
func cmdOnlyFiles(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: onlyfiles DIR [NAME...]")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	want := map[string]bool{".tmp": true} // testscript's $TMPDIR
	if args[0] != "." && args[0] != "$WORK" {
		delete(want, ".tmp")
	}
	for _, n := range args[1:] {
		want[n] = true
	}
	var extra []string
	for _, e := range entries {
		if !want[e.Name()] && !(e.Name() == ".tmp" && (args[0] == "." || args[0] == "$WORK")) {
			extra = append(extra, e.Name())
		}
		delete(want, e.Name())
	}
	if len(extra) > 0 || len(want) > 0 {
		ts.Fatalf("%s holds %v besides, and lacks %v", args[0], extra, want)
	}
}
