package measure

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

// runStep runs the calls of one step (at the same time, when there are
// several), then reads what each printed, in the step's order. The first
// failure cancels the others.
func (m *measurement) runStep(ctx context.Context, step []call) error {
	m.step++
	invs := make([]Invocation, len(step))
	for i, c := range step {
		m.n++
		invs[i] = m.invocation(c, m.n)
	}
	errs := make([]error, len(step))
	if len(step) == 1 {
		errs[0] = m.execute(ctx, step[0], &invs[0])
	} else {
		sctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		for i := range step {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if errs[i] = m.execute(sctx, step[i], &invs[i]); errs[i] != nil {
					cancel()
				}
			}()
		}
		wg.Wait()
		cancel()
	}
	// The error of the call that failed first, not of those cancelled
	// because of it.
	for _, err := range errs {
		var ce *Error
		if errors.As(err, &ce) && !ce.cancelled {
			return err
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for i, c := range step {
		if err := m.read(c, &invs[i]); err != nil {
			return err
		}
		if err := m.logInvocation(&invs[i]); err != nil {
			return err
		}
		if m.cfg.Progress != nil {
			m.cfg.Progress(invs[i])
		}
	}
	return nil
}

// invocation describes call c, the n-th, before it runs.
func (m *measurement) invocation(c call, n int) Invocation {
	v := &m.vs[c.variant]
	inv := Invocation{N: n, Step: m.step, Repetition: c.repetition, Warmup: c.warm, Variant: v.Name}
	base := fmt.Sprintf("%04d-%s", n, v.file)
	if c.bench >= 0 {
		inv.Benchmark = m.cfg.Benchmarks[c.bench]
		base += "-" + fileName(inv.Benchmark)
	}
	inv.Stdout = RawDir + "/" + base + ".out"
	inv.Stderr = RawDir + "/" + base + ".err"
	return inv
}

// where names an invocation in messages: "variant hoard, repetition 3,
// benchmark larson" (or "warm-up 1").
func (inv *Invocation) where() string {
	s := "variant " + inv.Variant
	if inv.Warmup > 0 {
		s += fmt.Sprintf(", warm-up %d", inv.Warmup)
	} else {
		s += fmt.Sprintf(", repetition %d", inv.Repetition)
	}
	if inv.Benchmark != "" {
		s += ", benchmark " + inv.Benchmark
	}
	return s
}

// execute runs the command of c, its stdout and stderr into their files,
// and waits for it to end (cmd.Wait: no polling). A command that exits
// non-zero, is killed by a signal, or outlives the timeout is an *Error
// with the tail of its stderr.
func (m *measurement) execute(ctx context.Context, c call, inv *Invocation) error {
	v := &m.vs[c.variant]
	var argv []string
	var line string
	if m.cfg.Shell {
		line = v.Command
		if inv.Benchmark != "" {
			q, err := shellQuote(inv.Benchmark)
			if err != nil {
				return err
			}
			line = strings.ReplaceAll(line, Placeholder, q)
		}
		argv = shellArgv(line)
	} else {
		argv = make([]string, len(v.argv))
		for i, a := range v.argv {
			argv[i] = strings.ReplaceAll(a, Placeholder, inv.Benchmark)
		}
	}
	outF, err := os.Create(filepath.Join(m.dir, filepath.FromSlash(inv.Stdout)))
	if err != nil {
		return err
	}
	defer outF.Close()
	errF := &lazyFile{path: filepath.Join(m.dir, filepath.FromSlash(inv.Stderr))}
	defer errF.Close()
	ictx, cancel := ctx, context.CancelFunc(func() {})
	if m.cfg.Timeout > 0 {
		ictx, cancel = context.WithTimeout(ctx, m.cfg.Timeout)
	}
	defer cancel()
	cmd := exec.CommandContext(ictx, argv[0], argv[1:]...)
	if m.cfg.Shell {
		shellLine(cmd, line)
	}
	cmd.Dir = m.cfg.Dir
	env := m.cfg.Environ
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(slices.Clip(env), "QOSCAL_VARIANT="+v.Name, "QOSCAL_REPETITION="+strconv.Itoa(inv.Repetition), "QOSCAL_BENCHMARK="+inv.Benchmark)
	cmd.Stdout, cmd.Stderr = outF, errF
	groupOf(cmd)
	// Once the command has exited (or been killed), Wait waits at most
	// this for what it left running to close its stderr.
	cmd.WaitDelay = 200 * time.Millisecond

	m.mu.Lock()
	start := time.Now()
	if m.t0.IsZero() {
		m.t0 = start
	}
	inv.Start = micro(start.Sub(m.t0).Seconds())
	m.mu.Unlock()
	err = startGroup(cmd)
	if err != nil {
		return &Error{Where: inv.where(), What: fmt.Sprintf("could not start %s: %v", argv[0], startErr(err))}
	}
	err = cmd.Wait()
	end := time.Now()
	if errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success() {
		err = nil // a process the command left running held stderr: it is reaped below
	}
	if !errF.used() {
		inv.Stderr = ""
	}
	inv.Wall = micro(end.Sub(start).Seconds())
	reapGroup(cmd)
	m.mu.Lock()
	if end.After(m.last) {
		m.last = end
	}
	m.mu.Unlock()
	fail := func(what string, cancelled bool) error {
		return &Error{Where: inv.where(), What: what, Stderr: errF.tail(), cancelled: cancelled}
	}
	switch {
	case ctx.Err() != nil:
		return fail("stopped: the measurement was interrupted (its process group killed)", true)
	case ictx.Err() == context.DeadlineExceeded:
		return fail(fmt.Sprintf("timed out after %s (killed with its process group; --timeout sets the limit)", m.cfg.Timeout), false)
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if sig := signalOf(ee.ProcessState); sig != "" {
				return fail("killed by signal "+sig, false)
			}
			return fail(fmt.Sprintf("exit status %d", ee.ExitCode()), false)
		}
		return fail(err.Error(), false)
	}
	return nil
}

// startErr says why a command could not start, without Go's "exec: "
// prefix.
func startErr(err error) string {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err.Error()
	}
	return err.Error()
}

// tail returns the last lines of a command's stderr, each on one line.
func tail(f *os.File) []string {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return nil
	}
	off := max(0, st.Size()-stderrTailBytes)
	b := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && err != io.EOF {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(b), "\r\n"), "\n")
	if off > 0 && len(lines) > 1 {
		lines = lines[1:] // cut in the middle
	}
	if len(lines) > stderrTailLines {
		lines = lines[len(lines)-stderrTailLines:]
	}
	for i, l := range lines {
		lines[i] = oneLine(strings.ToValidUTF8(strings.TrimRight(l, "\r"), "?"))
	}
	return lines
}

// read parses what an invocation printed with package data (the format
// found, or Config.Format), checks that it is the suite the first
// invocation printed, and writes its rows into results.csv (a warm-up's
// are discarded).
func (m *measurement) read(c call, inv *Invocation) error {
	path := filepath.Join(m.dir, filepath.FromSlash(inv.Stdout))
	fail := func(what string) error {
		e := &Error{Where: inv.where(), What: what}
		if inv.Stderr != "" {
			if f, err := os.Open(filepath.Join(m.dir, filepath.FromSlash(inv.Stderr))); err == nil {
				e.Stderr = tail(f)
				f.Close()
			}
		}
		return e
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Size() == 0 {
		return fail("printed nothing on stdout: expected its benchmark results")
	}
	f, err := formats.OpenFile(path, m.cfg.Format)
	if err != nil {
		return fail("printed no results qoscal reads: " + outputErr(err, path))
	}
	if f.Format.MultiRun {
		f.Close()
		return fail(fmt.Sprintf("printed whole runs (%s format): a variant's command prints its own results", f.Format.Name))
	}
	recs, _, err := formats.ReadAll(f)
	f.Close()
	if err != nil {
		return fail("its output does not read: " + outputErr(err, path))
	}
	if len(recs) == 0 {
		return fail("printed no results")
	}
	if inv.Benchmark != "" {
		if recs, err = pickBenchmark(recs, inv.Benchmark); err != nil {
			return fail(err.Error())
		}
	}
	if err := m.checkSuite(c, inv, recs); err != nil {
		return fail(err.Error())
	}
	if inv.Warmup > 0 {
		return nil
	}
	v := &m.vs[c.variant]
	for i := range recs {
		r := &recs[i]
		k := sampleKey{c.variant, r.Benchmark, r.Unit}
		sample := m.samples[k]
		m.samples[k] = sample + 1
		row := m.row[:0]
		row = append(row, m.cfg.RunID, r.Benchmark, v.Name, v.role, strconv.Itoa(inv.Repetition), strconv.Itoa(sample),
			value(r.Value), r.Unit)
		for _, k := range m.labels {
			row = append(row, m.cfg.Labels[k])
		}
		if err := m.csv.Write(row); err != nil {
			return err
		}
		if m.cfg.Decide != nil || m.cfg.Observe != nil {
			m.rep = append(m.rep, data.Measurement{Benchmark: r.Benchmark, Variant: v.Name, Sample: sample, Value: r.Value, Unit: r.Unit, Repetition: inv.Repetition})
		}
	}
	return nil
}

// outputErr is a parse error about an invocation's output, which names the
// output by its place in the run folder rather than the temporary path.
func outputErr(err error, path string) string {
	lines := []string{err.Error()}
	var multi interface{ Lines() []string }
	if errors.As(err, &multi) {
		lines = multi.Lines()
	}
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, path); ok {
			l = "stdout" + rest
		}
		lines[i] = l
	}
	return strings.Join(lines, "; ")
}

// pickBenchmark keeps, of what a command printed for one benchmark, that
// benchmark's records: those named so, or, when it printed one benchmark
// under another name (hyperfine names it after the command), all of them,
// renamed.
func pickBenchmark(recs []formats.Record, name string) ([]formats.Record, error) {
	var kept []formats.Record
	names := map[string]bool{}
	for _, r := range recs {
		names[r.Benchmark] = true
		if r.Benchmark == name {
			kept = append(kept, r)
		}
	}
	if len(kept) > 0 {
		return kept, nil
	}
	if len(names) == 1 {
		for i := range recs {
			recs[i].Benchmark = name
		}
		return recs, nil
	}
	return nil, fmt.Errorf("printed benchmarks %s, not %s", listNames(names), name)
}

// checkSuite checks that an invocation printed the suite (the benchmarks
// and their units) that the first invocation of its benchmark printed:
// one variant printing another suite than the other would be compared
// over the benchmarks they share, without a word.
func (m *measurement) checkSuite(c call, inv *Invocation, recs []formats.Record) error {
	set := map[string]bool{}
	for _, r := range recs {
		set[suiteName(r)] = true
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	slices.Sort(names)
	ref, ok := m.suites[c.bench]
	if !ok {
		m.suites[c.bench] = &suite{names: names, where: inv.where()}
		return nil
	}
	if slices.Equal(ref.names, names) {
		return nil
	}
	var missing, extra []string
	for _, n := range ref.names {
		if !set[n] {
			missing = append(missing, n)
		}
	}
	refSet := map[string]bool{}
	for _, n := range ref.names {
		refSet[n] = true
	}
	for _, n := range names {
		if !refSet[n] {
			extra = append(extra, n)
		}
	}
	msg := "printed another suite than " + ref.where
	if len(missing) > 0 {
		msg += ": it lacks " + clipList(missing)
	}
	if len(extra) > 0 {
		if len(missing) > 0 {
			msg += " and has "
		} else {
			msg += ": it has "
		}
		msg += clipList(extra) + " besides"
	}
	return errors.New(msg)
}

// suiteName is a record's benchmark with its unit, as a suite lists it.
func suiteName(r formats.Record) string {
	if r.Unit == "" {
		return r.Benchmark
	}
	return r.Benchmark + " (" + r.Unit + ")"
}

func listNames(set map[string]bool) string {
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	slices.Sort(names)
	return clipList(names)
}

// clipList lists names, the first five and how many more.
func clipList(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
}

// logInvocation appends an invocation to the log (qoscal.json's, at the
// end).
func (m *measurement) logInvocation(inv *Invocation) error {
	b, err := json.Marshal(inv)
	if err != nil {
		return err
	}
	m.logBuf.Write(b)
	return m.logBuf.WriteByte('\n')
}

// value writes a measurement as a plain decimal where that is short
// (5514093, 0.000412), else with an exponent.
func value(v float64) string {
	if a := math.Abs(v); a >= 1e-6 && a < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// lazyFile is a command's stderr: a file made on the first write, so that
// a command that writes nothing there (most benchmarks) costs no file. On
// some file systems making a file costs a millisecond of CPU, most of
// qoscal's own cost per invocation.
type lazyFile struct {
	path string
	f    *os.File
	err  error
}

func (l *lazyFile) Write(p []byte) (int, error) {
	if l.f == nil && l.err == nil {
		l.f, l.err = os.Create(l.path)
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.f.Write(p)
}

// used reports whether anything was written.
func (l *lazyFile) used() bool { return l.f != nil }

// tail is the end of what was written (see tail).
func (l *lazyFile) tail() []string {
	if l.f == nil {
		return nil
	}
	return tail(l.f)
}

func (l *lazyFile) Close() error {
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}
