package spread

import (
	"errors"
	"fmt"
	"iter"
	"sort"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
)

// Collected is calibration runs reduced to what their analysis needs: each
// run's id, labels and ratios (ratioRow, 32 bytes a benchmark), not its
// measurements. Collect takes the runs one at a time, so that a command
// reading 100,000 stored runs never holds them all with their
// measurements, which were most of its memory; Analyze then analyses every
// run collected, or a window of them.
type Collected struct {
	opt        Options
	base, cand string
	names      []string         // benchmark names, by id
	ids        map[string]int32 // benchmark name -> id
	units      []string         // by id: each benchmark's unit, the same in every run
	runs       []collectedRun   // in the order taken
}

// collectedRun is one run as Collected keeps it.
type collectedRun struct {
	id     string
	labels map[string]string
	rows   []ratioRow // in name order
	// reps are the rows of each of the run's repetitions, when its
	// measurements carry them (data.Measurement.Repetition), for the
	// variance components; repErr says why they could not be read.
	reps   [][]ratioRow
	repErr error
}

// Collect takes the runs that runs yields and keeps their ratios, between
// the baseline and candidate that opt names or, when it names none, that
// every run records. An error runs yields is returned as it is. The
// errors of the runs themselves are those Analyze reports for a slice of
// them, and in the same precedence: runs that disagree on their roles
// (found over every run), then the first run whose ratios fail.
func Collect(runs iter.Seq2[data.Run, error], opt Options) (*Collected, error) {
	c := &Collected{opt: opt, ids: map[string]int32{}}
	baseRole := roleSeen{role: "baseline", given: opt.Baseline}
	candRole := roleSeen{role: "candidate", given: opt.Candidate}
	// The first error of a run's ratios: said once the roles prove
	// sound, as Analyze of a slice settled the roles before any ratio.
	var failed error
	var scratch calibrate.RatioScratch
	n := 0
	for run, err := range runs {
		if err != nil {
			return nil, err
		}
		n++
		baseRole.see(run.Baseline, run.ID)
		candRole.see(run.Candidate, run.ID)
		base, baseOK := baseRole.name()
		cand, candOK := candRole.name()
		if failed != nil || !baseOK || !candOK || base == cand {
			// The roles or an earlier run fail already: the rest of
			// the runs are read only for their roles.
			continue
		}
		list, err := scratch.Ratios(&run, base, cand, opt.Direction, opt.Metric)
		if err != nil {
			failed = err
			continue
		}
		rows := make([]ratioRow, len(list))
		for j := range list {
			br := &list[j]
			id, ok := c.ids[br.Name]
			if !ok {
				id = int32(len(c.names))
				c.ids[br.Name] = id
				c.names = append(c.names, br.Name)
				c.units = append(c.units, br.Unit)
			} else if u := c.units[id]; u != br.Unit {
				failed = fmt.Errorf("benchmark %s is in %q in some runs and %q in run %s", br.Name, u, br.Unit, run.ID)
				break
			}
			rows[j] = ratioRow{id: id, dir: int8(br.Direction), ratio: br.Ratio, base: br.Baseline, cand: br.Candidate}
		}
		if failed == nil {
			cr := collectedRun{id: run.ID, labels: run.Labels, rows: rows}
			cr.reps, cr.repErr = c.repetitionRows(&run, base, cand, &scratch)
			c.runs = append(c.runs, cr)
		}
	}
	if n == 0 {
		return nil, errors.New("no runs to analyse")
	}
	var err error
	if c.base, err = baseRole.settle(); err != nil {
		return nil, err
	}
	if c.cand, err = candRole.settle(); err != nil {
		return nil, err
	}
	if c.base == c.cand {
		return nil, fmt.Errorf("%s is both the baseline and the candidate", c.base)
	}
	if failed != nil {
		return nil, failed
	}
	return c, nil
}

// repetitionRows are the ratio rows of each repetition of run, nil for a
// run without repetitions. A repetition's benchmark the run as a whole
// lacks is left out (the suite is chosen from the runs' rows).
func (c *Collected) repetitionRows(run *data.Run, base, cand string, scratch *calibrate.RatioScratch) ([][]ratioRow, error) {
	reps, err := Repetitions(run, base, cand)
	if err != nil || len(reps) == 0 {
		return nil, err
	}
	out := make([][]ratioRow, 0, len(reps))
	for i, sub := range RepetitionRuns(run, reps) {
		list, err := scratch.Ratios(&sub, base, cand, c.opt.Direction, c.opt.Metric)
		if err != nil {
			return nil, fmt.Errorf("%s, repetition %d: %w", calibrate.RunName(run), reps[i], err)
		}
		rows := make([]ratioRow, 0, len(list))
		for j := range list {
			if id, ok := c.ids[list[j].Name]; ok {
				rows = append(rows, ratioRow{id: id, ratio: list[j].Ratio})
			}
		}
		out = append(out, rows)
	}
	return out, nil
}

// roleSeen settles one role (baseline or candidate) as runs come: the
// name the options give, else the one every run records.
type roleSeen struct {
	role, given string
	// seen holds the first run to name each variant for the role (a
	// list of every run's id per name was 17 MB at 100,000 runs, for the
	// first alone).
	seen  map[string]string
	first string // the first name seen
}

func (r *roleSeen) see(name, id string) {
	if r.given != "" {
		return
	}
	if r.seen == nil {
		r.seen, r.first = map[string]string{}, name
	}
	if _, ok := r.seen[name]; !ok {
		r.seen[name] = id
	}
}

// name returns the role's name so far, and whether it is still sound
// (named, by every run alike).
func (r *roleSeen) name() (string, bool) {
	if r.given != "" {
		return r.given, true
	}
	return r.first, len(r.seen) == 1 && r.first != ""
}

// settle returns the role's name once every run has been seen, or the
// error of runs that do not name it or disagree on it.
func (r *roleSeen) settle() (string, error) {
	if r.given != "" {
		return r.given, nil
	}
	if id, ok := r.seen[""]; ok {
		return "", &RoleError{Role: r.role, Unnamed: id}
	}
	if len(r.seen) > 1 {
		e := &RoleError{Role: r.role}
		for name, id := range r.seen {
			e.Names = append(e.Names, RoleName{Name: name, Run: id})
		}
		sort.Slice(e.Names, func(i, j int) bool { return e.Names[i].Name < e.Names[j].Name })
		return "", e
	}
	return r.first, nil
}

// each yields the runs of a slice, for Collect.
func each(runs []data.Run) iter.Seq2[data.Run, error] {
	return func(yield func(data.Run, error) bool) {
		for i := range runs {
			if !yield(runs[i], nil) {
				return
			}
		}
	}
}
