package measure

import (
	"bufio"
	"bytes"
	"encoding/json"
	"github.com/qoscal/qoscal/data/load"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
)

// Log is qoscal.json's measure object: how the variants were run. Its
// invocations, in the order run, follow its other fields (see writeMeta).
type Log struct {
	Tool        string       `json:"tool,omitempty"`
	Baseline    string       `json:"baseline"`
	Candidate   string       `json:"candidate"`
	Variants    []LogVariant `json:"variants"`
	Shell       bool         `json:"shell"`
	Order       string       `json:"order"`
	Seed        uint64       `json:"seed"`
	Repetitions int          `json:"repetitions"`
	Warmup      int          `json:"warmup"`
	Benchmarks  []string     `json:"benchmarks,omitempty"`
	// Timeout is the limit of each invocation in seconds, 0 for none.
	Timeout float64 `json:"timeout_seconds"`
	// Stopped is "decided" or "limit" for a measurement decided after
	// each repetition (Result.Stopped).
	Stopped string `json:"stopped,omitempty"`
	// Seconds is the wall time of the whole measurement.
	Seconds     float64      `json:"seconds"`
	Invocations []Invocation `json:"invocations"`
}

// LogVariant is a variant's name and command, as given.
type LogVariant struct {
	Name    string `json:"name"`
	Command string `json:"command"`
}

// micro rounds seconds to the microsecond.
func micro(s float64) float64 { return math.Round(s*1e6) / 1e6 }

// writeMeta writes qoscal.json (version 2): the job's fields, the labels,
// the machine's fingerprint with the load averages before and after, and
// the measure object with every invocation, copied from the log a line at
// a time.
func (m *measurement) writeMeta(res *Result) error {
	cfg := m.cfg
	meta := cfg.Meta
	meta.Version = load.MeasuredMetaVersion
	if len(cfg.Labels) > 0 {
		meta.Labels = cfg.Labels
	}
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	env := Fingerprint(getenv)
	env.LoadBefore, env.LoadAfter = m.loadBefore, LoadAverage()
	meta.Environment = env
	meta.Measure = nil
	head, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	lg := Log{Tool: cfg.Tool, Baseline: cfg.Baseline, Candidate: cfg.Candidate, Shell: cfg.Shell, Order: cfg.Order,
		Seed: cfg.Seed, Repetitions: res.Repetitions, Warmup: cfg.Warmup, Benchmarks: cfg.Benchmarks,
		Timeout: cfg.Timeout.Seconds(), Stopped: res.Stopped, Seconds: micro(res.Seconds)}
	for _, v := range cfg.Variants {
		lg.Variants = append(lg.Variants, LogVariant(v))
	}
	body, err := json.MarshalIndent(lg, "  ", "  ")
	if err != nil {
		return err
	}
	// body ends in `"invocations": null` and the object's brace: the
	// invocations are put in their place from the log.
	cut := bytes.LastIndex(body, []byte(`"invocations": null`))
	f, err := os.Create(filepath.Join(m.dir, load.MetaFile))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.Write(head[:len(head)-2]) // without "\n}"
	w.WriteString(",\n  \"measure\": ")
	w.Write(body[:cut])
	w.WriteString("\"invocations\": [")
	if _, err := m.log.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	sc := bufio.NewScanner(m.log)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	first := true
	for sc.Scan() {
		if !first {
			w.WriteByte(',')
		}
		first = false
		w.WriteString("\n      ")
		w.Write(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		f.Close()
		return err
	}
	w.WriteString("\n    ]\n  }\n}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// Closed before it is removed and the folder renamed, as Windows
	// asks (the deferred Close in Run then does nothing).
	m.log.Close()
	return os.Remove(filepath.Join(m.dir, ".invocations"))
}

// RepetitionSeconds is the median wall time of a repetition in a
// measure log (qoscal.json's measure object): each repetition's
// invocations' wall times added up (with Duet, the longest of each step),
// warm-ups left out. ok is false when the log has no repetition.
func RepetitionSeconds(measure json.RawMessage) (seconds float64, ok bool) {
	var lg Log
	if err := json.Unmarshal(measure, &lg); err != nil {
		return 0, false
	}
	type stepKey struct{ rep, step int }
	steps := map[stepKey]float64{}
	for _, inv := range lg.Invocations {
		if inv.Repetition < 1 {
			continue
		}
		k := stepKey{inv.Repetition, inv.Step}
		steps[k] = max(steps[k], inv.Wall)
	}
	reps := map[int]float64{}
	for k, w := range steps {
		reps[k.rep] += w
	}
	if len(reps) == 0 {
		return 0, false
	}
	ws := make([]float64, 0, len(reps))
	for _, w := range reps {
		ws = append(ws, w)
	}
	return median(ws), true
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// FolderRepetitionSeconds are the times of a repetition of the run
// folders measure wrote at paths (a path such a folder, or a folder
// holding them): each folder's own median (RepetitionSeconds), in the
// order found; folders without one are left out.
func FolderRepetitionSeconds(paths []string) []float64 {
	var times []float64
	add := func(dir string) {
		b, err := os.ReadFile(filepath.Join(dir, load.MetaFile))
		if err != nil {
			return
		}
		m, err := load.ParseMeta(dir, b)
		if err != nil || m.Measure == nil {
			return
		}
		if s, ok := RepetitionSeconds(m.Measure); ok {
			times = append(times, s)
		}
	}
	for _, p := range paths {
		if load.IsMeasuredFolder(p) {
			add(p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if sub := filepath.Join(p, e.Name()); e.IsDir() && load.IsMeasuredFolder(sub) {
				add(sub)
			}
		}
	}
	return times
}
