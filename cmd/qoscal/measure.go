package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	calgate "github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/measure"
	"github.com/qoscal/qoscal/present"
)

// stopSignals end a measurement: the command running is killed with its
// process group and no run folder is left, half written or temporary.
// SIGHUP (the terminal or the SSH session closed) and SIGQUIT (Ctrl-\)
// are among them: left to Go's defaults they ended qoscal at once, with
// its children still running and the temporary folder left behind.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

var measureCmd = &command{
	name:      "measure",
	summary:   "measure baseline and candidate interleaved; gate sequentially",
	format:    true,
	annotates: "the verdict, every warning and an error",
	usage: `qoscal measure [flags] --variant NAME=CMD... --out DIR
qoscal measure [flags] --variant NAME=CMD... --calibration FILE --out DIR
`,
	intro: `Runs each variant's benchmark command --repetitions times on this machine,
after --warmup runs that are discarded, in the order --order says: random
(default) runs every variant once in each repetition, in a fresh random order
(--seed), so that the machine's drift during the job falls on both alike;
alternate runs them in the order given; duet runs the variants of a
repetition at the same time; blocks runs all of one variant, then all of the
next (what a job without interleaving measures, for comparison). With
--benchmark NAME, each command is run once per benchmark, {benchmark} in it
replaced by the name: the variants of one benchmark back to back, the
benchmarks in a random order.

A job costs (W + R × B) × V invocations: V variants, B benchmarks (1 without
--benchmark), R repetitions and W warm-up rounds, a warm-up running each
variant once; the defaults with two variants and no --benchmark make 22.
measure says the count as it starts, and the time the rest will take once
the first repetition has run.

Each command's output is read as a result file (the format found, or
--input-format), and the run is written to the folder --out, which must not
exist: results.csv (one row per benchmark, variant, repetition and sample,
in qoscal's CSV), raw/ (every invocation's stdout and stderr) and
qoscal.json (the labels, the machine's CPU, cores, system, kernel, runner
image and load averages, the order run and each invocation's wall time).
gate, ingest, spread and recommend read the folder as it is. The folder is
written aside and renamed when complete: a measurement that fails leaves
nothing.

A command that exits non-zero, is killed, outlives --timeout, prints no
results, or prints another suite than the first invocation printed stops the
measurement with an error naming the variant, the repetition, what happened
and the end of its stderr (exit 2). Ctrl-C stops it too.

With --calibration (a file 'qoscal recommend --write' made from runs measured
with repetitions), measure is also the gate, and a sequential one: after each
repetition it judges the mean of the repetitions' log scores against a fail
and a pass boundary, and stops as soon as one is crossed; a run still between
them after --max-repetitions is verdict rerun (exit 3). The boundaries spend
the calibration's claimed false-alarm rate over the repetitions (docs/STATS.md
2.16): a clearly healthy or clearly regressed run stops after one or two
repetitions, a close one runs longer. It writes what gate writes: the
verdict, the table, the step summary and outputs, the annotations, and JSON
with repetitions and stopped (decided or limit). --bisect makes it a 'git
bisect run' script.
`,
	notes: `Commands run without a shell, split into words: blanks separate words; 'single
quotes' keep what is inside; "double quotes" too, but for \" and \\; outside
quotes a backslash before a blank, a quote or a backslash escapes it, and is
itself elsewhere (C:\bench\run.exe). What only a shell understands (| & ; < >
( ) $ backquote * ? a leading ~, NAME=VALUE before the program) is refused:
quote it, or give --shell to run each command with /bin/sh -c (cmd /c on
Windows), {benchmark} then put in quotes. Each command gets QOSCAL_VARIANT,
QOSCAL_REPETITION (0 in a warm-up) and QOSCAL_BENCHMARK in its environment.

A command runs in a process group of its own: a timeout or Ctrl-C kills the
group, and what a command leaves running when it exits is killed before the
next starts. On Linux qoscal is also the subreaper of what it starts
(PR_SET_CHILD_SUBREAPER): a process that leaves the group (setsid(), a
daemon) is ended too once the command ends or times out. Elsewhere such a
process outlives the command. On Windows, taskkill /T ends the command's
process tree. qoscal waits for each command without polling.

duet shares the machine between the variants: cores, caches and memory
bandwidth. It suits benchmarks that use a core or two of a larger machine;
one that needs the whole machine measures the sharing, not the variant.
`,
	example: `Example: three repetitions of two saved outputs, as a test of the wiring:

    $ qoscal measure --variant system='cat baseline.txt' --variant hoard='cat hoard.txt' \
        --repetitions 3 --warmup 0 --out run-1
    measured hoard (candidate) vs system (baseline): run run-1, 3 repetitions ...
    ...
    score: hoard is 1.55x system (geomean of the 3 repetitions' scores)

In a workflow, measure then gate the folder, or let measure gate as it goes:

    - run: qoscal measure --variant system='./bench system' --variant hoard='./bench hoard' --repetitions 5 --out run
    - run: qoscal gate --calibration gate.json run
    - run: qoscal measure --variant system='./bench system' --variant hoard='./bench hoard' --calibration gate.json --max-repetitions 10 --out run

To find the commit that slowed the candidate down (each step measures into a
new folder; a commit whose benchmark does not build or run is skipped):

    git bisect run sh -c 'make bench || exit 125; qoscal measure --variant system="./bench system" --variant hoard="./bench hoard" --calibration gate.json --bisect --out "$(mktemp -d)/run"'
`,
	new: func() runner { return new(measureFlags) },
}

func init() {
	register(measureCmd)
}

// measureFlags are the measure command's flags.
type measureFlags struct {
	dirFlags
	variants            []string
	baseline, candidate string
	benchmarks          []string
	shell               bool
	timeout             time.Duration
	inputFormat         string
	repetitions, warmup int
	order               string
	seed                uint64
	out, runID          string
	labels              []string
	// The sequential gate's (measure_gate.go).
	calibration, summary     string
	maxRepetitions           int
	bisect, reportOnly       bool
	onDegraded, perBenchmark string
	fs                       *pflag.FlagSet // to tell --seed 0 from no --seed
}

// maxRepetitions bounds --repetitions and --max-repetitions, and
// maxWarmup --warmup: more is a typo, not a plan.
const (
	maxRepetitions = 100000
	maxWarmup      = 1000
)

func (m *measureFlags) flags(fs *flagSet) {
	fs.group("The variants:")
	fs.StringArrayVar(&m.variants, "variant", nil, "a variant's `NAME=COMMAND`: the command that prints its benchmark results (two or more)")
	fs.StringVar(&m.baseline, "baseline", "", "the baseline's `NAME` (default: the first --variant)")
	fs.StringVar(&m.candidate, "candidate", "", "the candidate's `NAME` (default: the second --variant)")
	fs.StringArrayVar(&m.benchmarks, "benchmark", nil, "a benchmark `NAME` to measure on its own: each command runs once per benchmark, {benchmark} in it replaced by NAME")
	fs.BoolVar(&m.shell, "shell", false, "run each command with the system's shell (/bin/sh -c, or cmd /c on Windows) instead of splitting it into words")
	fs.DurationVar(&m.timeout, "timeout", 30*time.Minute, "the longest an invocation may run, a `DURATION` (90s, 10m; 0: no limit): then it is killed with its process group, and the measurement fails")
	fs.StringVar(&m.inputFormat, "input-format", "auto", "the commands' output `FORMAT`: auto (found for each output), "+strings.Join(formats.FormatNames(), ", "))
	m.dirFlags.add(fs)
	fs.group("The repetitions:")
	fs.IntVar(&m.repetitions, "repetitions", 10, fmt.Sprintf("how many times `N` each command runs (per benchmark), in [1, %d]; with --calibration, the most, when given (else the sequential design's: see --max-repetitions)", maxRepetitions))
	fs.IntVar(&m.warmup, "warmup", 1, fmt.Sprintf("warm-up rounds `N` before the repetitions, discarded, in [0, %d]: each runs every variant's command once (on one benchmark)", maxWarmup))
	fs.StringVar(&m.order, "order", measure.Random, "the `ORDER`: random (a fresh random order each repetition), alternate (the order given), duet (the variants at the same time) or blocks (all of one variant, then the next)")
	fs.Uint64Var(&m.seed, "seed", 0, "the random order's seed `N`, any whole number from 0 to 2^64-1 (default: drawn for each job, so that jobs run in different orders; printed and recorded in qoscal.json, where --seed takes it to run a job's order again)")
	fs.group("The run folder:")
	fs.StringVar(&m.out, "out", "", "the run `FOLDER` to write; it must not exist (its parent folders made if missing)")
	fs.StringVar(&m.runID, "run", "", "the run's `ID` (default: GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT under Actions, else the folder's name)")
	fs.StringArrayVar(&m.labels, "label", nil, "a `KEY=VALUE` label of the run")
	m.gateFlags(fs)
	m.fs = fs.FlagSet
}

func (m *measureFlags) run(u *ui, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q: name the commands with --variant NAME=COMMAND", args[0])
	}
	cfg, err := m.config(u)
	if err != nil {
		if m.bisect {
			return bisectCode(err)
		}
		return err
	}
	if m.calibration != "" {
		return m.runGate(u, cfg)
	}
	if m.maxRepetitions != 0 || m.bisect || m.summary != "" || m.reportOnly {
		err := usagef("--max-repetitions, --bisect, --summary and --report-only are the sequential gate's: give --calibration FILE")
		if m.bisect {
			return bisectCode(err)
		}
		return err
	}
	fc := u.newFiles()
	fc.in("the run folder", m.out)
	if err := fc.check(); err != nil {
		return err
	}
	view := &present.Measure{Folder: m.out, Run: cfg.RunID, Baseline: cfg.Baseline, Candidate: cfg.Candidate, Order: cfg.Order, Seed: cfg.Seed}
	sc := &calgate.Scorer{Run: cfg.RunID, Baseline: cfg.Baseline, Candidate: cfg.Candidate, Direction: m.direction}
	cfg.Observe = sc.Observe
	cfg.Progress = func(inv measure.Invocation) {
		name := inv.Variant
		if inv.Benchmark != "" {
			name = inv.Benchmark + ":" + inv.Variant
		}
		sc.Progress(inv.Repetition, name, inv.Wall)
	}
	costNotes(u, &cfg, "")
	ctx, stop := signal.NotifyContext(u.ctx, stopSignals...)
	defer stop()
	res, err := measure.Run(ctx, cfg, m.out)
	if err != nil {
		return measureErr(err)
	}
	view.Invocations, view.Seconds = res.Invocations, res.Seconds
	if cfg.Order == measure.Blocks {
		if err := scoreBlocks(sc, m.out); err != nil {
			u.warnf("no score per repetition: %v", err)
		}
	}
	view.Repetitions, view.Score = sc.Repetitions, sc.Score()
	for _, w := range sc.Warnings {
		u.warnf("%s", w)
	}
	return show(u, view)
}

// config checks the flags and turns them into a measure.Config: every
// check before anything runs.
func (m *measureFlags) config(u *ui) (measure.Config, error) {
	var cfg measure.Config
	if len(m.variants) < 2 {
		return cfg, usagef("give two variants or more with --variant NAME=COMMAND: the baseline and the candidate")
	}
	for _, v := range m.variants {
		name, command, ok := strings.Cut(v, "=")
		if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(command) == "" {
			return cfg, usagef("--variant %s: expected NAME=COMMAND", shownValue(v))
		}
		if strings.ContainsAny(name, " \t") {
			return cfg, usagef("--variant %s: the name %q holds a blank: expected NAME=COMMAND", shownValue(v), name)
		}
		if err := data.CheckName("variant name", name); err != nil {
			return cfg, usagef("--variant: %v", err)
		}
		cfg.Variants = append(cfg.Variants, measure.Variant{Name: name, Command: command})
	}
	var missing string
	cfg.Baseline, cfg.Candidate, missing = measure.Roles(cfg.Variants, m.baseline, m.candidate)
	if name := map[string]string{"baseline": cfg.Baseline, "candidate": cfg.Candidate}[missing]; missing != "" {
		return cfg, usagef("--%s %s is none of the variants (%s)", missing, shownValue(name), measure.VariantNames(cfg.Variants))
	}
	if m.repetitions < 1 || m.repetitions > maxRepetitions {
		return cfg, usagef("--repetitions must be in [1, %d], got %d", maxRepetitions, m.repetitions)
	}
	if m.warmup < 0 || m.warmup > maxWarmup {
		return cfg, usagef("--warmup must be in [0, %d], got %d", maxWarmup, m.warmup)
	}
	if m.timeout < 0 {
		return cfg, usagef("--timeout must be 0 (no limit) or more, got %s", m.timeout)
	}
	known := false
	for _, o := range measure.Orders {
		known = known || o == m.order
	}
	if !known {
		return cfg, usagef("--order must be %s, got %q", strings.Join(measure.Orders, ", "), m.order)
	}
	if m.out == "" {
		return cfg, usagef("--out is required: the run folder to write")
	}
	if _, err := os.Lstat(m.out); err == nil {
		return cfg, withHint(usagef("--out %s exists: measure writes a new run folder, whole, and replaces none", m.out), "name a new folder, or remove this one")
	}
	if err := inFolder("--out", m.out, filepath.Dir(m.out)); err != nil {
		return cfg, usagef("%v", err)
	}
	format, err := formats.LookupFormat(m.inputFormat)
	if err != nil {
		return cfg, usagef("--input-format: %v", err)
	}
	if _, err := m.direction(); err != nil {
		return cfg, err
	}
	labels, err := data.ParseLabels(m.labels)
	if err != nil {
		return cfg, usagef("--label: %v", err)
	}
	cfg.Labels = labels
	cfg.Benchmarks, cfg.Shell, cfg.Timeout, cfg.Format = m.benchmarks, m.shell, m.timeout, format
	if m.fs != nil && !m.fs.Changed("seed") {
		// A seed of its own for each job: with one fixed default, every
		// job ran the same order, and the order was random within a job
		// only. Kept to 32 bits, to be typed back as --seed.
		m.seed = uint64(rand.Uint32())
	}
	cfg.Repetitions, cfg.Warmup, cfg.Order, cfg.Seed = m.repetitions, m.warmup, m.order, m.seed
	cfg.RunID = m.runID
	if cfg.RunID == "" {
		cfg.RunID = load.DefaultRunID(u.getenv, filepath.Base(filepath.Clean(m.out)))
	}
	if err := data.CheckName("run id", cfg.RunID); err != nil {
		return cfg, usagef("--run: %v", err)
	}
	now, err := u.now()
	if err != nil {
		return cfg, err
	}
	if cfg.Meta, err = load.ActionsMeta(u.getenv, now, version); err != nil {
		return cfg, err
	}
	cfg.Getenv = u.getenv
	cfg.Tool = "qoscal " + version
	if err := cfg.Check(); err != nil {
		return cfg, usagef("%v", err)
	}
	return cfg, nil
}

// costNotes says on stderr what the job will cost: before it starts, its
// invocations (at most, with the sequential gate, whose limit is said by
// seqLimit); and once the first repetition has run, the time the
// repetitions left will take at its pace (issue 35: a default job ran 110
// invocations without a word of it).
func costNotes(u *ui, cfg *measure.Config, seqLimit string) {
	nv, nb := len(cfg.Variants), len(cfg.Benchmarks)
	what := plural(nv, "variant")
	if nb > 0 {
		what += " × " + plural(nb, "benchmark")
	}
	what += " × " + plural(cfg.Repetitions, "repetition")
	if cfg.Warmup > 0 {
		what += ", and " + plural(nv*cfg.Warmup, "warm-up")
	}
	if seqLimit == "" {
		u.notef("this job: %s (%s)", plural(cfg.Invocations(), "invocation"), what)
	} else {
		u.notef("this job: at most %s (%s): the sequential gate stops once it decides, after %s", plural(cfg.Invocations(), "invocation"), what, seqLimit)
	}
	if cfg.Order == measure.Blocks || cfg.Repetitions < 2 {
		return
	}
	last := time.Now()
	progress, observe := cfg.Progress, cfg.Observe
	cfg.Progress = func(inv measure.Invocation) {
		if inv.Repetition == 0 {
			last = time.Now()
		}
		if progress != nil {
			progress(inv)
		}
	}
	cfg.Observe = func(rep int, ms []data.Measurement) {
		if observe != nil {
			observe(rep, ms)
		}
		if rep != 1 {
			return
		}
		took := time.Since(last).Seconds()
		left := cfg.Repetitions - 1
		upTo := "about"
		if seqLimit != "" {
			upTo = "at most"
		}
		u.notef("repetition 1 took %s s: %s %s s more for the %s left", secs(took), upTo, secs(took*float64(left)), plural(left, "repetition"))
	}
}

// plural is "1 repetition", "3 repetitions".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// secs writes seconds with two significant digits or more.
func secs(s float64) string {
	switch {
	case s >= 10:
		return strconv.FormatFloat(math.Round(s), 'f', 0, 64)
	case s >= 1:
		return strconv.FormatFloat(s, 'f', 1, 64)
	}
	return strconv.FormatFloat(s, 'f', 2, 64)
}

// measureErr is a measurement's error as the command reports it: a
// command that failed, and an interrupted measurement, are input errors
// (exit 2); the folder was not written.
func measureErr(err error) error {
	if errors.Is(err, measure.ErrInterrupted) {
		return err
	}
	var me *measure.Error
	if errors.As(err, &me) {
		return withHint(err, "no run folder was written; raw/ of a run that fails is not kept: run the command by hand to see all it prints")
	}
	return err
}

// scoreBlocks scores the repetitions of the folder dir, measured in
// blocks, whose repetitions end together.
func scoreBlocks(sc *calgate.Scorer, dir string) error {
	runs, err := load.All([]string{dir}, load.Options{})
	if err != nil {
		return err
	}
	return sc.FromRun(&runs[0])
}
