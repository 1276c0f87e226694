// Package measure runs the benchmark commands of a job's variants, the
// baseline's and the candidate's, interleaved and repeated on one machine,
// and writes what they printed as one run folder that the rest of qoscal
// reads as it is: results.csv (qoscal's CSV, one row per benchmark,
// variant, repetition and sample), raw/ (every invocation's stdout and
// stderr) and qoscal.json (the run's labels, the machine's fingerprint,
// the order run and each invocation's wall time).
//
// Why interleave: a machine's speed drifts while a job runs (turbo and
// thermal limits, a noisy neighbour, caches warming). Measured as all of
// the baseline and then all of the candidate, the drift lands in the
// ratio; measured in a fresh random order in each repetition, it falls on
// both alike and averages out (Abedi and Brecht, "Conducting Repeatable
// Experiments in Highly Variable Cloud Computing Environments", ICPE 2017).
//
// The package runs commands and parses their output with package data;
// it computes no statistics (a caller that decides after each repetition
// does so in Config.Decide) and prints nothing.
package measure

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/data/load"
)

// Variant is one configuration measured: its name and the command that
// prints its benchmark results.
type Variant struct {
	Name    string
	Command string
}

// The orders in which a repetition's invocations run.
const (
	// Random runs every variant once in each repetition, in a fresh
	// random order (seeded); with benchmarks, the benchmarks in a random
	// order and the variants of each in a random order, back to back.
	Random = "random"
	// Alternate runs the variants in the order given, every repetition
	// (ABAB...), for comparison.
	Alternate = "alternate"
	// Duet runs the variants of a repetition (of a benchmark) at the
	// same time, so that both see the same machine at the same moment
	// (Bulej et al., "Duet Benchmarking", ICPE 2020). They share the
	// cores, caches and memory bandwidth: a benchmark that needs the
	// whole machine measures the sharing, not the variant.
	Duet = "duet"
	// Blocks runs every repetition of one variant, then every
	// repetition of the next: what a job that does not interleave
	// measures, for comparison.
	Blocks = "blocks"
)

// Orders are the orders Config.Order takes.
var Orders = []string{Random, Alternate, Duet, Blocks}

// Placeholder in a command stands for the benchmark an invocation
// measures (Config.Benchmarks).
const Placeholder = "{benchmark}"

// Config says what to measure and how.
type Config struct {
	// Variants are the variants to measure, each with its command: two
	// or more, the baseline and the candidate among them.
	Variants            []Variant
	Baseline, Candidate string
	// Repetitions is how many times each variant's command runs (per
	// benchmark); with Decide, the most it runs. Warmup rounds come
	// before and are discarded: in each, every variant's command runs
	// once, on the benchmark that comes first in the round's order.
	Repetitions, Warmup int
	// Order is one of Orders; Seed seeds the random orders.
	Order string
	Seed  uint64
	// Benchmarks, when given, are measured one at a time: each command
	// holds Placeholder, which becomes the benchmark's name, and the
	// benchmarks come in a random order (Random, Duet) or as given.
	Benchmarks []string
	// Shell runs each command through the system's shell (/bin/sh -c,
	// or cmd /c on Windows); otherwise it is split into words by Split
	// and run directly.
	Shell bool
	// Timeout bounds each invocation (0: no bound): a command still
	// running then is killed with its process group.
	Timeout time.Duration
	// Format is the format of the commands' output; nil finds it for
	// each output.
	Format *formats.Format
	// RunID is the run's id in results.csv; Labels its labels, written
	// into results.csv and qoscal.json.
	RunID  string
	Labels map[string]string
	// Meta holds what qoscal.json says of the job (the Actions run,
	// commit, runner); Run fills in its version, labels, environment and
	// measure.
	Meta load.Meta
	// Environ is the commands' environment (nil: qoscal's own), to
	// which QOSCAL_VARIANT, QOSCAL_REPETITION (0 in a warm-up) and
	// QOSCAL_BENCHMARK are added; Getenv reads qoscal's, for the
	// fingerprint.
	Environ []string
	Getenv  func(string) string
	// Dir is the folder the commands run in ("": qoscal's).
	Dir string
	// Decide, when set, is called after each repetition has run with
	// that repetition's measurements (all variants'); stop ends the
	// measurement there, and an error ends it with that error. It is
	// not used with Blocks, whose repetitions end together.
	Decide func(repetition int, ms []data.Measurement) (stop bool, err error)
	// Observe, when set, is called after each repetition has run with
	// its measurements, before Decide (a summary's score per
	// repetition).
	Observe func(repetition int, ms []data.Measurement)
	// Progress, when set, is called after each invocation.
	Progress func(Invocation)
	// Tool names the program in qoscal.json ("qoscal 0.1.0").
	Tool string
}

// Invocation is one run of a variant's command, as qoscal.json records it.
type Invocation struct {
	// N numbers the invocations in the order started, from 1; those of
	// one Step ran at the same time (Duet).
	N    int `json:"n"`
	Step int `json:"step"`
	// Repetition is the measured repetition, from 1, or 0 for a warm-up
	// run, which Warmup numbers from 1.
	Repetition int    `json:"repetition"`
	Warmup     int    `json:"warmup,omitempty"`
	Benchmark  string `json:"benchmark,omitempty"`
	Variant    string `json:"variant"`
	// Start is when it started, in seconds after the first did; Wall
	// how long it ran.
	Start float64 `json:"start_seconds"`
	Wall  float64 `json:"wall_seconds"`
	// Stdout and Stderr are its output files, under the run folder;
	// Stderr is "" when it wrote nothing there (and no file is made).
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr,omitempty"`
}

// Result is what a measurement did.
type Result struct {
	// Repetitions is how many repetitions ran; Invocations how many
	// commands, warm-ups included.
	Repetitions, Invocations int
	// Stopped is "decided" when Decide stopped the measurement, "limit"
	// when it ran Config.Repetitions without stopping, "" without Decide.
	Stopped string
	// Seconds is the wall time from the first invocation's start to the
	// last one's end.
	Seconds float64
}

// ResultsFile and RawDir are the run folder's results and raw outputs
// (MetaFile is its qoscal.json).
const (
	ResultsFile = load.MeasuredFile
	RawDir      = "raw"
)

// Error is a command that failed: which invocation, what happened, and
// the last lines it wrote on stderr. Lines gives them a line each.
type Error struct {
	Where  string // "variant hoard, repetition 3"
	What   string // "exit status 2"
	Stderr []string
	// cancelled is set for a command stopped because another of its step
	// failed, or the measurement was interrupted.
	cancelled bool
}

func (e *Error) Error() string { return strings.Join(e.Lines(), "\n") }

// Lines are the error's lines: what happened, then its stderr's tail.
func (e *Error) Lines() []string {
	lines := []string{e.Where + ": " + e.What}
	if len(e.Stderr) > 0 {
		lines = append(lines, "its stderr ended:")
		for _, l := range e.Stderr {
			lines = append(lines, "  "+l)
		}
	}
	return lines
}

// ErrInterrupted is the error of a measurement whose context was
// cancelled (Ctrl-C): the command running was killed with its process
// group, and no run folder was written.
var ErrInterrupted = errors.New("interrupted: the command running was killed, and no run folder was written")

// stderrTail is how much of a failed command's stderr its error shows.
const (
	stderrTailBytes = 2048
	stderrTailLines = 8
)

// Check validates the configuration: names, orders, counts, and every
// command (split, or with the placeholder where benchmarks are named). It
// runs nothing.
func (cfg *Config) Check() error {
	_, err := cfg.prepare()
	return err
}

// variantCmd is a variant's command, ready to run.
type variantCmd struct {
	Variant
	argv []string // without Shell
	role string
	file string // the variant's name as part of a file name
}

func (cfg *Config) prepare() ([]variantCmd, error) {
	if len(cfg.Variants) < 2 {
		return nil, errors.New("measure needs two variants or more: the baseline and the candidate")
	}
	if !slices.Contains(Orders, cfg.Order) {
		return nil, fmt.Errorf("order %q: expected %s", cfg.Order, strings.Join(Orders, ", "))
	}
	if cfg.Repetitions < 1 {
		return nil, fmt.Errorf("repetitions %d: expected 1 or more", cfg.Repetitions)
	}
	if cfg.Warmup < 0 {
		return nil, fmt.Errorf("warm-up runs %d: expected 0 or more", cfg.Warmup)
	}
	if cfg.Decide != nil && cfg.Order == Blocks {
		return nil, errors.New("a decision after each repetition needs the repetitions interleaved: not --order blocks")
	}
	seen := map[string]bool{}
	vs := make([]variantCmd, len(cfg.Variants))
	files := map[string]string{}
	for i, v := range cfg.Variants {
		if err := data.CheckName("variant name", v.Name); err != nil {
			return nil, err
		}
		if v.Name == "" {
			return nil, errors.New("a variant without a name")
		}
		if seen[v.Name] {
			return nil, fmt.Errorf("variant %s is given twice", v.Name)
		}
		seen[v.Name] = true
		vc := variantCmd{Variant: v, file: fileName(v.Name)}
		if other, clash := files[vc.file]; clash {
			vc.file = fmt.Sprintf("%s-%d", vc.file, i+1)
			_ = other
		}
		files[vc.file] = v.Name
		switch v.Name {
		case cfg.Baseline:
			vc.role = data.RoleBaseline
		case cfg.Candidate:
			vc.role = data.RoleCandidate
		}
		if strings.TrimSpace(v.Command) == "" {
			return nil, fmt.Errorf("variant %s: the command is empty", v.Name)
		}
		if len(cfg.Benchmarks) > 0 && !strings.Contains(v.Command, Placeholder) {
			return nil, fmt.Errorf("variant %s: the command lacks %s, which each --benchmark NAME becomes: without it every benchmark would run the same command", v.Name, Placeholder)
		}
		if len(cfg.Benchmarks) == 0 && strings.Contains(v.Command, Placeholder) {
			return nil, fmt.Errorf("variant %s: the command holds %s but no benchmark is named (--benchmark NAME)", v.Name, Placeholder)
		}
		if !cfg.Shell {
			argv, err := Split(v.Command)
			if err != nil {
				return nil, fmt.Errorf("variant %s: %w", v.Name, err)
			}
			vc.argv = argv
		}
		vs[i] = vc
	}
	for _, r := range []struct{ role, name string }{{"baseline", cfg.Baseline}, {"candidate", cfg.Candidate}} {
		if !seen[r.name] {
			return nil, fmt.Errorf("the %s %q is none of the variants", r.role, r.name)
		}
	}
	if cfg.Baseline == cfg.Candidate {
		return nil, fmt.Errorf("%s is both the baseline and the candidate", cfg.Baseline)
	}
	bseen := map[string]bool{}
	for _, b := range cfg.Benchmarks {
		if err := data.CheckName("benchmark name", b); err != nil {
			return nil, err
		}
		if strings.TrimSpace(b) == "" {
			return nil, errors.New("an empty benchmark name")
		}
		if bseen[b] {
			return nil, fmt.Errorf("benchmark %s is given twice", b)
		}
		bseen[b] = true
		if cfg.Shell {
			if _, err := shellQuote(b); err != nil {
				return nil, fmt.Errorf("benchmark %s", err)
			}
		}
	}
	if err := data.CheckName("run id", cfg.RunID); err != nil {
		return nil, err
	}
	if cfg.RunID == "" {
		return nil, errors.New("the run has no id")
	}
	if cfg.Timeout < 0 {
		return nil, errors.New("a negative timeout")
	}
	return vs, nil
}

// fileName is a name made safe as part of a file name: letters, digits,
// '.', '_' and '-' kept, anything else '_'.
func fileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}

// call is one invocation to make: the variant (its index), the benchmark
// (its index, -1 with none), and the repetition or warm-up round.
type call struct {
	variant, bench   int
	repetition, warm int
}

// plan says which invocations run in what order: each step is a set of
// calls run at the same time (one, but with Duet).
type plan struct {
	cfg    *Config
	nv, nb int // variants; benchmarks (1 with none named)
	rng    *rand.Rand
}

func newPlan(cfg *Config) *plan {
	p := &plan{cfg: cfg, nv: len(cfg.Variants), nb: max(1, len(cfg.Benchmarks))}
	p.rng = rand.New(rand.NewPCG(cfg.Seed, 0x716f7363616c)) // "qoscal"
	return p
}

// round returns the steps of one repetition (rep ≥ 1) or warm-up round
// (warm ≥ 1), in the order to run, with random orders drawn fresh.
func (p *plan) round(rep, warm int) [][]call {
	bench := func(i int) int {
		if len(p.cfg.Benchmarks) == 0 {
			return -1
		}
		return i
	}
	units := identity(p.nb)
	if p.cfg.Order == Random || p.cfg.Order == Duet {
		p.rng.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	}
	var steps [][]call
	for _, u := range units {
		vs := identity(p.nv)
		switch p.cfg.Order {
		case Random:
			p.rng.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
		case Duet:
			step := make([]call, len(vs))
			for i, v := range vs {
				step[i] = call{variant: v, bench: bench(u), repetition: rep, warm: warm}
			}
			steps = append(steps, step)
			continue
		}
		for _, v := range vs {
			steps = append(steps, []call{{variant: v, bench: bench(u), repetition: rep, warm: warm}})
		}
	}
	return steps
}

// warmSteps keeps of a warm-up round the first call of each variant: a
// warm-up runs each variant's command once (on the benchmark that comes
// first in the round's order), not every benchmark again, which made
// the default job's warm-up a whole extra round (issue 35).
func warmSteps(steps [][]call) [][]call {
	warmed := map[int]bool{}
	var kept [][]call
	for _, step := range steps {
		var k []call
		for _, c := range step {
			if !warmed[c.variant] {
				warmed[c.variant] = true
				k = append(k, c)
			}
		}
		if len(k) > 0 {
			kept = append(kept, k)
		}
	}
	return kept
}

// Invocations is the number of invocations a measurement of cfg makes
// when it runs every repetition: each variant's warm-ups, and each
// variant's command per benchmark and repetition.
func (cfg *Config) Invocations() int {
	nv, nb := len(cfg.Variants), max(1, len(cfg.Benchmarks))
	return nv*cfg.Warmup + nv*nb*cfg.Repetitions
}

func identity(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// Run measures as cfg says and writes the run folder out, which must not
// exist: the folder is made beside it under a temporary name and renamed
// to out only once complete, so that out appears whole or not at all.
// Any failure (a command that fails, hangs past the timeout or prints no
// results, an output that does not read, another suite than the first
// invocation's, ctx cancelled) removes what was written and returns the
// error.
func Run(ctx context.Context, cfg Config, out string) (*Result, error) {
	vs, err := cfg.prepare()
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(out); err == nil {
		return nil, fmt.Errorf("%s exists: measure writes a new run folder", out)
	}
	parent := filepath.Dir(out)
	// The folders out is in are made as mkdir -p would.
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("making the folder of %s: %w", out, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("making the run folder beside %s: %w", out, err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	m, err := newMeasurement(&cfg, vs, tmp)
	if m != nil && m.log != nil {
		defer m.log.Close()
	}
	if err != nil {
		return nil, err
	}
	res, err := m.run(ctx)
	if cerr := m.close(); err == nil {
		err = cerr
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ErrInterrupted
		}
		return nil, err
	}
	if err := m.writeMeta(res); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, out); err != nil {
		return nil, fmt.Errorf("renaming the finished run folder to %s: %w", out, err)
	}
	done = true
	return res, nil
}

// measurement is one Run in progress.
type measurement struct {
	cfg  *Config
	vs   []variantCmd
	dir  string // the temporary run folder
	plan *plan

	results *os.File
	buf     *bufio.Writer
	csv     *csv.Writer
	labels  []string // label keys, sorted
	row     []string
	// log is the invocation log, a JSON object a line, read back into
	// qoscal.json at the end: held in a file, not in memory, which stays
	// flat in the number of repetitions.
	log    *os.File
	logBuf *bufio.Writer

	n, step int
	t0      time.Time
	last    time.Time
	// samples numbers each variant's samples of a benchmark and unit
	// across the repetitions.
	samples map[sampleKey]int
	// suites hold, per benchmark named (or the one command's), the
	// suite the first invocation printed, to which every other must
	// hold.
	suites map[int]*suite
	// rep holds the measurements of the repetition running, for Decide.
	rep []data.Measurement

	loadBefore []float64
	mu         sync.Mutex
}

type sampleKey struct {
	variant int
	bench   string
	unit    string
}

// suite is what an invocation printed: its benchmarks and their units,
// sorted, and where it came from.
type suite struct {
	names []string
	where string
}

func newMeasurement(cfg *Config, vs []variantCmd, dir string) (*measurement, error) {
	m := &measurement{cfg: cfg, vs: vs, dir: dir, plan: newPlan(cfg), samples: map[sampleKey]int{}, suites: map[int]*suite{}}
	if err := os.Mkdir(filepath.Join(dir, RawDir), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(filepath.Join(dir, ResultsFile))
	if err != nil {
		return nil, err
	}
	m.results = f
	m.buf = bufio.NewWriter(f)
	m.csv = csv.NewWriter(m.buf)
	for k := range cfg.Labels {
		m.labels = append(m.labels, k)
	}
	sort.Strings(m.labels)
	header := []string{"run", "benchmark", "variant", "role", "repetition", "sample", "value", "unit"}
	for _, k := range m.labels {
		header = append(header, "label."+k)
	}
	m.row = make([]string, len(header))
	if err := m.csv.Write(header); err != nil {
		f.Close()
		return nil, err
	}
	if m.log, err = os.Create(filepath.Join(dir, ".invocations")); err != nil {
		f.Close()
		return nil, err
	}
	m.logBuf = bufio.NewWriter(m.log)
	return m, nil
}

func (m *measurement) close() error {
	var first error
	m.csv.Flush()
	if err := m.csv.Error(); err != nil {
		first = err
	}
	if err := m.buf.Flush(); err != nil && first == nil {
		first = err
	}
	if err := m.results.Close(); err != nil && first == nil {
		first = err
	}
	if err := m.logBuf.Flush(); err != nil && first == nil {
		first = err
	}
	return first
}

func (m *measurement) run(ctx context.Context) (*Result, error) {
	cfg := m.cfg
	m.loadBefore = LoadAverage()
	res := &Result{}
	if cfg.Order == Blocks {
		// Every round of one variant, then the next variant's.
		for v := range m.vs {
			for w := 1; w <= cfg.Warmup+cfg.Repetitions; w++ {
				rep, warm := w-cfg.Warmup, w
				if rep > 0 {
					warm = 0
				} else {
					rep = 0
				}
				steps := m.plan.round(rep, warm)
				if warm > 0 {
					steps = warmSteps(steps)
				}
				for _, step := range steps {
					for _, c := range step {
						if c.variant != v {
							continue
						}
						if err := m.runStep(ctx, []call{c}); err != nil {
							return nil, err
						}
					}
				}
			}
		}
		res.Repetitions = cfg.Repetitions
	} else {
		for w := 1; w <= cfg.Warmup; w++ {
			for _, step := range warmSteps(m.plan.round(0, w)) {
				if err := m.runStep(ctx, step); err != nil {
					return nil, err
				}
			}
		}
		for r := 1; r <= cfg.Repetitions; r++ {
			m.rep = m.rep[:0]
			for _, step := range m.plan.round(r, 0) {
				if err := m.runStep(ctx, step); err != nil {
					return nil, err
				}
			}
			res.Repetitions = r
			if cfg.Observe != nil {
				cfg.Observe(r, m.rep)
			}
			if cfg.Decide != nil {
				stop, err := cfg.Decide(r, m.rep)
				if err != nil {
					return nil, err
				}
				if stop {
					res.Stopped = "decided"
					break
				}
				if r == cfg.Repetitions {
					res.Stopped = "limit"
				}
			}
		}
	}
	res.Invocations = m.n
	res.Seconds = m.last.Sub(m.t0).Seconds()
	return res, nil
}
