package load

import (
	"fmt"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

// CSV files of many runs: records grouped into runs by their run column,
// a run's rows at a time.

// loadMultiRunFile reads a file that holds whole runs (CSV).
func (l *Loader) loadMultiRunFile(p string) ([]data.Run, error) {
	f, err := formats.OpenFile(p, l.opt.Format)
	if err != nil {
		return nil, pathError(p, err)
	}
	defer f.Close()
	f.Options.IgnoreColumns = l.opt.IgnoreColumns
	if !f.Format.MultiRun {
		return nil, fmt.Errorf("%s is a single %s result file, not a run: give run folders as PATHs, or name the files with --baseline and --candidate", p, f.Format.Name)
	}
	f.Options.MaxJSONBytes = l.opt.MaxJSONBytes
	g := newRunGrouper(p, &l.opt)
	notes, err := formats.EachRecord(f, func(r formats.Record) error { g.add(r); return nil })
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		l.note(p, n)
	}
	return g.runs()
}

// yieldRuns passes runs to yield in order, stopping at its first error.
func yieldRuns(runs []data.Run, yield func(data.Run) error) error {
	for _, r := range runs {
		if err := yield(r); err != nil {
			return err
		}
	}
	return nil
}

// eachMultiRunFile reads a file that holds whole runs (CSV), passing each
// run to yield. A run's rows may be anywhere in such a file, so in
// general no run is whole until the file is read to its end; but most
// files hold each run's rows together, and then a run is whole when the
// next begins. A first, light pass over the file (formats.RunsGrouped) tells
// which: a grouped file is read once more, passing each run on as soon as
// it is whole, holding one run at a time; any other file is held whole, as
// loadMultiRunFile does. Either way the runs, the checks and the errors
// are the same: after any error in the file no further run is passed on,
// and the errors of the whole file are returned together.
func (l *Loader) eachMultiRunFile(p string, yield func(data.Run) error) error {
	if !formats.RunsGrouped(p, l.opt.Format) {
		runs, err := l.loadMultiRunFile(p)
		if err != nil {
			return err
		}
		return yieldRuns(runs, yield)
	}
	f, err := formats.OpenFile(p, l.opt.Format)
	if err != nil {
		return pathError(p, err)
	}
	defer f.Close()
	f.Options.IgnoreColumns = l.opt.IgnoreColumns
	f.Options.MaxJSONBytes = l.opt.MaxJSONBytes
	f.Options.GroupedRuns = true
	g := newRunGrouper(p, &l.opt)
	// pass hands on the run gathered so far, unless an error was found
	// (the file's errors are then reported together at its end), and
	// starts afresh.
	pass := func() error {
		if g.bad.Err() != nil {
			g.reset()
			return nil
		}
		runs, err := g.runs()
		g.reset()
		if err != nil {
			return err
		}
		return yieldRuns(runs, yield)
	}
	notes, err := formats.EachRecord(f, func(rec formats.Record) error {
		if len(g.order) > 0 && g.order[0] != rec.Run {
			if err := pass(); err != nil {
				return err
			}
		}
		g.add(rec)
		return nil
	})
	if err != nil {
		return err
	}
	if err := g.bad.Err(); err != nil {
		return err
	}
	for _, n := range notes {
		l.note(p, n)
	}
	return pass()
}

// runsFromRecords groups a multi-run file's records into runs, in order of
// first appearance, checking that each run's labels and roles agree.
func runsFromRecords(file string, recs []formats.Record, opt *Options) ([]data.Run, error) {
	g := newRunGrouper(file, opt)
	for _, r := range recs {
		g.add(r)
	}
	return g.runs()
}

// runGrouper groups a multi-run file's records into runs as they are read.
type runGrouper struct {
	file      string
	opt       *Options
	byID      map[string]*data.Run
	labelLine map[string]int
	order     []string
	bad       formats.InputError
	seen      map[mkey]int
	ids       formats.NameIDs
}

// mkey names one measurement of a run by the ids of its names (see
// nameIDs): 24 bytes of key a measurement, where four strings took 72.
type mkey struct {
	run, variant, bench, unit int32
	sample                    int
}

func newRunGrouper(file string, opt *Options) *runGrouper {
	return &runGrouper{file: file, opt: opt, byID: map[string]*data.Run{}, labelLine: map[string]int{}, seen: map[mkey]int{}, ids: formats.NameIDs{}}
}

// reset forgets the runs gathered (not the errors found), for the next
// run of a grouped file.
func (g *runGrouper) reset() {
	clear(g.byID)
	clear(g.labelLine)
	clear(g.seen)
	clear(g.ids)
	g.order = g.order[:0]
}

func (g *runGrouper) badf(line int, format string, args ...any) {
	g.bad.Add(&formats.SyntaxError{File: g.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (g *runGrouper) add(rec formats.Record) {
	id := rec.Run
	r, ok := g.byID[id]
	if !ok {
		r = &data.Run{ID: id, Source: g.file, Labels: copyLabels(g.opt.Labels), Time: rec.Time}
		for k, v := range rec.Labels {
			if old, clash := r.Labels[k]; clash && old != v {
				g.badf(rec.Line, "run %s: label %s=%s clashes with --label %s=%s", id, k, v, k, old)
			}
			r.Labels[k] = v
		}
		g.byID[id] = r
		g.labelLine[id] = rec.Line
		g.order = append(g.order, id)
	} else {
		for k, v := range rec.Labels {
			if old := r.Labels[k]; old != v {
				g.badf(rec.Line, "run %s: label %s=%s differs from %s=%s on line %d", id, k, v, k, old, g.labelLine[id])
			}
		}
		r.Time = earliest(r.Time, rec.Time)
	}
	k := mkey{g.ids.ID(id), g.ids.ID(rec.Variant), g.ids.ID(rec.Benchmark), g.ids.ID(rec.Unit), rec.Sample}
	if prev, dup := g.seen[k]; dup {
		g.badf(rec.Line, "run %s: %s sample %d of %s already given on line %d", id, rec.Variant, rec.Sample, rec.Benchmark, prev)
		return
	}
	g.seen[k] = rec.Line
	switch rec.Role {
	case data.RoleBaseline:
		if r.Baseline != "" && r.Baseline != rec.Variant {
			g.badf(rec.Line, "run %s: baseline is %s here but %s elsewhere", id, rec.Variant, r.Baseline)
		}
		r.Baseline = rec.Variant
	case data.RoleCandidate:
		if r.Candidate != "" && r.Candidate != rec.Variant {
			g.badf(rec.Line, "run %s: candidate is %s here but %s elsewhere", id, rec.Variant, r.Candidate)
		}
		r.Candidate = rec.Variant
	}
	r.Measurements = append(r.Measurements, rec.Measurement)
}

func (g *runGrouper) runs() ([]data.Run, error) {
	if err := g.bad.Err(); err != nil {
		return nil, err
	}
	runs := make([]data.Run, 0, len(g.order))
	for _, id := range g.order {
		r := g.byID[id]
		// Roles named on the command line win over the file's, since they
		// name variants inside the file.
		if n := g.opt.Baseline.Name; n != "" {
			r.Baseline = n
		}
		if n := g.opt.Candidate.Name; n != "" {
			r.Candidate = n
		}
		if r.Baseline != "" && r.Baseline == r.Candidate {
			return nil, fmt.Errorf("%s: run %s: %s is both baseline and candidate", g.file, id, r.Baseline)
		}
		runs = append(runs, *r)
	}
	return runs, nil
}

func copyLabels(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
