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
//	fakebench escape FILE [hang] [NAME=NS...]
//	                            starts "fakebench hangpid FILE" in a
//	                            session of its own (setsid: out of the
//	                            process group), waits for its pid in FILE,
//	                            prints as print does, then exits, or with
//	                            hang sleeps a minute
//	fakebench drift NAME=NS...  as print, each time multiplied by
//	                            exp(slope·k + noise): k counts the calls
//	                            made with the state file $FAKEBENCH_STATE
//	                            (one per job), slope is $FAKEBENCH_SLOPE,
//	                            noise normal with SD $FAKEBENCH_NOISE,
//	                            seeded by $FAKEBENCH_SEED and k
//	fakebench model NAME=NS...  as print, the times of the variant
//	                            $FAKEBENCH_NOISY times exp(σ_b·Z_job +
//	                            σ_w·Z_k)/(1 − $FAKEBENCH_SLIDE): Z_job
//	                            drawn once per $FAKEBENCH_SEED, Z_k per
//	                            call ($FAKEBENCH_STATE counts them),
//	                            σ_b $FAKEBENCH_JOB_SD, σ_w $FAKEBENCH_REP_SD;
//	                            with $FAKEBENCH_REP_RHO = ρ ≠ 0 the
//	                            repetitions' noise is instead AR(1) within
//	                            the job, e_r = ρ·e_(r−1) + √(1 − ρ²)·Z_r
//	                            (stationary, SD σ_w), r counting the noisy
//	                            variant's calls ($FAKEBENCH_STATE.rep)
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
	case "hangpid":
		// Writes its process id to the file args[1], then hangs.
		if err := os.WriteFile(args[1], []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 9
		}
		time.Sleep(time.Minute)
	case "escape":
		if err := escape(args[1]); err != nil {
			fmt.Fprintln(os.Stderr, "fakebench escape:", err)
			return 9
		}
		rest := args[2:]
		if len(rest) > 0 && rest[0] == "hang" {
			time.Sleep(time.Minute)
			return 0
		}
		for _, a := range rest {
			name, ns, _ := strings.Cut(a, "=")
			fmt.Printf("Benchmark%s \t 1\t %s ns/op\n", name, ns)
		}
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
	case "model":
		// A job effect and a repetition's noise on the variant
		// $FAKEBENCH_NOISY (the candidate), made slower by
		// $FAKEBENCH_SLIDE when it is set.
		k := nextCall(os.Getenv("FAKEBENCH_STATE"))
		seed, _ := strconv.ParseUint(os.Getenv("FAKEBENCH_SEED"), 10, 64)
		jobSD, _ := strconv.ParseFloat(os.Getenv("FAKEBENCH_JOB_SD"), 64)
		repSD, _ := strconv.ParseFloat(os.Getenv("FAKEBENCH_REP_SD"), 64)
		slide, _ := strconv.ParseFloat(os.Getenv("FAKEBENCH_SLIDE"), 64)
		f := 1.0
		if os.Getenv("QOSCAL_VARIANT") == os.Getenv("FAKEBENCH_NOISY") {
			job := rand.New(rand.NewPCG(seed, 0)).NormFloat64()
			rep := rand.New(rand.NewPCG(seed, uint64(k)+1)).NormFloat64()
			if rho, _ := strconv.ParseFloat(os.Getenv("FAKEBENCH_REP_RHO"), 64); rho != 0 {
				rep = ar1Noise(seed, nextCall(os.Getenv("FAKEBENCH_STATE")+".rep"), rho)
			}
			f = math.Exp(jobSD*job+repSD*rep) / (1 - slide)
		}
		for _, a := range args[1:] {
			name, ns, _ := strings.Cut(a, "=")
			v, _ := strconv.ParseFloat(ns, 64)
			fmt.Printf("Benchmark%s \t 1\t %.4f ns/op\n", name, v*f)
		}
	default:
		fmt.Fprintln(os.Stderr, "fakebench: unknown mode", args[0])
		return 9
	}
	return 0
}

// ar1Noise is the r-th value (from 0) of a stationary AR(1) series of SD 1
// and lag-1 correlation rho, its innovations drawn from seed: the same
// series at every call, so that a job's repetitions follow it.
func ar1Noise(seed uint64, r int, rho float64) float64 {
	e := rand.New(rand.NewPCG(seed, 1<<32)).NormFloat64()
	for i := 1; i <= r; i++ {
		e = rho*e + math.Sqrt(1-rho*rho)*rand.New(rand.NewPCG(seed, 1<<32+uint64(i))).NormFloat64()
	}
	return e
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
