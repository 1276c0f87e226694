package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"qoscal/data"
	"qoscal/present"
)

var runsCmd = &command{
	name:    "runs",
	summary: "list stored runs",
	usage: `Usage:
    qoscal runs [--db FILE] [--label KEY=VALUE]... [--format text|markdown|json]

Lists the runs in the store, in ingest order: id, labels, the baseline and
candidate variants, how many variants and benchmarks, when it was ingested.

Flags:
    --db FILE            the store (default $QOSCAL_DB, else qoscal.db)
    --label KEY=VALUE    list only runs carrying this label (repeatable)
    --format FORMAT      text (default), markdown or json

JSON is an array with one object per run:
    {"id": "run-01", "labels": {"os": "linux"}, "source": "...",
     "time": "2026-12-01T07:33:21Z" or null, "baseline": "glibc" or null,
     "candidate": "mimalloc" or null, "variants": {"glibc": 10, ...},
     "benchmarks": 10, "measurements": 20, "ingested": "2026-12-01T08:00:00Z"}
("variants" maps each variant to its number of benchmarks with a value.)

Example:

    $ qoscal runs --db calib.db --label os=linux
    id      labels    baseline  candidate  variants  benchmarks  ingested
    run-01  os=linux  glibc     mimalloc          2          10  2026-12-01T08:00:00Z
    ...
`,
}

func init() {
	runsCmd.run = runRuns
	register(runsCmd)
}

type runJSON struct {
	ID           string            `json:"id"`
	Labels       map[string]string `json:"labels"`
	Source       string            `json:"source"`
	Time         *string           `json:"time"`
	Baseline     *string           `json:"baseline"`
	Candidate    *string           `json:"candidate"`
	Variants     map[string]int    `json:"variants"`
	Benchmarks   int               `json:"benchmarks"`
	Measurements int               `json:"measurements"`
	Ingested     string            `json:"ingested"`
}

func runRuns(u *ui, args []string) error {
	c := runsCmd
	fs := newFlags(c)
	var labels []string
	var db, format string
	fs.StringVar(&db, "db", "", "the store `FILE`")
	fs.StringArrayVar(&labels, "label", nil, "only runs with this `KEY=VALUE` label")
	fs.StringVar(&format, "format", "text", "output `FORMAT`: text, markdown or json")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef(c.name, "unexpected argument %q: runs takes no PATH", fs.Arg(0))
	}
	if err := checkFormat(c.name, format); err != nil {
		return err
	}
	filter, err := data.ParseLabels(labels)
	if err != nil {
		return usagef(c.name, "--label: %v", err)
	}
	st, err := data.Open(u.ctx, storePath(u, db), data.ReadOnly)
	if err != nil {
		return err
	}
	defer st.Close()
	runs, err := st.Runs(u.ctx, data.Query{Labels: filter})
	if err != nil {
		return err
	}
	if format == "json" {
		out := make([]runJSON, 0, len(runs))
		for i := range runs {
			out = append(out, toRunJSON(&runs[i]))
		}
		return writeJSON(u, out)
	}
	if len(runs) == 0 {
		u.notef("no runs in %s%s", st.Location(), filterNote(filter))
		return nil
	}
	t := &table{
		head:  []string{"id", "labels", "baseline", "candidate", "variants", "benchmarks", "ingested"},
		right: []bool{false, false, false, false, true, true, false},
	}
	for i := range runs {
		r := &runs[i]
		t.add(r.ID, data.FormatLabels(r.Labels), present.Dash(r.Baseline), present.Dash(r.Candidate),
			strconv.Itoa(len(r.Variants())), strconv.Itoa(benchmarkCount(&r.Run)), r.Ingested.UTC().Format(time.RFC3339))
	}
	if format == "markdown" {
		t.markdown(u.stdout)
	} else {
		t.text(u.stdout)
	}
	return nil
}

func toRunJSON(r *data.StoredRun) runJSON {
	j := runJSON{
		ID: r.ID, Labels: r.Labels, Source: r.Source,
		Baseline: optional(r.Baseline), Candidate: optional(r.Candidate),
		Variants: r.BenchmarkCount(), Benchmarks: benchmarkCount(&r.Run),
		Measurements: len(r.Measurements), Ingested: r.Ingested.UTC().Format(time.RFC3339),
	}
	if j.Labels == nil {
		j.Labels = map[string]string{}
	}
	if !r.Time.IsZero() {
		s := r.Time.UTC().Format(time.RFC3339)
		j.Time = &s
	}
	return j
}

// benchmarkCount counts the distinct benchmarks of a run over all variants.
func benchmarkCount(r *data.Run) int {
	seen := map[string]bool{}
	for _, m := range r.Measurements {
		seen[m.Benchmark] = true
	}
	return len(seen)
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func filterNote(filter map[string]string) string {
	if len(filter) == 0 {
		return ""
	}
	return " with labels " + data.FormatLabels(filter)
}

// writeJSON writes v as indented JSON on stdout.
func writeJSON(u *ui, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding JSON: %v", err)
	}
	_, err = fmt.Fprintf(u.stdout, "%s\n", b)
	return err
}
