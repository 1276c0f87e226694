package formats

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data"
)

// The csv format is long-format CSV with a header row. Columns:
//
//	run        required  the run id
//	benchmark  required  the benchmark name
//	variant    required  the variant name (system, hoard, ...)
//	value      required  the measured value, > 0
//	unit       optional  the value's unit (ops/sec, ns/op, ...)
//	sample     optional  the sample index (default: order of appearance)
//	repetition optional  the repetition of the whole suite inside the job,
//	                     from 1 ('qoscal measure' writes it); sample
//	                     numbers stay the run's own, across repetitions
//	role       optional  baseline or candidate: the variant's role in the run
//	time       optional  when the run was measured, RFC 3339
//	label.KEY  optional  any number of them: the run's label KEY
//
// One file can hold many runs; rows of one run need not be adjacent, but
// a file whose runs' rows are is ingested a run at a time, in memory that
// does not grow with the file (see eachMultiRunFile).
// Column names are matched without regard to case. Any other column is an
// error (it may be what tells runs apart, a "set" say, and would be lost),
// unless ParseOptions.IgnoreColumns (--ignore-columns). Without a sample
// column, a run holds one row per benchmark, variant and unit: a second
// such row is an error, not a second sample, since repeated run ids (run-01
// of two sets) look just like it; with a repetition column, one row per
// benchmark, variant, unit and repetition, numbered as samples in order.
var csvFormat = &Format{
	Name:     "csv",
	Doc:      "long-format CSV with header run,benchmark,variant,value[,unit,sample,repetition,role,time,label.KEY...]",
	Detect:   detectCSV,
	New:      newCSVParser,
	MultiRun: true,
	Exts:     []string{".csv"},
}

func init() { Register(csvFormat) }

var csvRequired = []string{"run", "benchmark", "variant", "value"}

var comma = []byte(",")

// detectCSV looks at the first line that is not blank: a header naming
// every required column.
func detectCSV(head []byte) bool {
	found := false
	headLines(head, func(b []byte) bool {
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			return true
		}
		if bytes.Count(b, comma) < len(csvRequired)-1 {
			return false // too few columns to name the required ones
		}
		line := string(b)
		cols := map[string]bool{}
		for _, c := range strings.Split(line, ",") {
			cols[strings.ToLower(strings.Trim(strings.TrimSpace(c), `"`))] = true
		}
		found = true
		for _, c := range csvRequired {
			if !cols[c] {
				found = false
			}
		}
		return false
	})
	return found
}

type csvParser struct {
	r      *csv.Reader
	file   string
	header bool
	col    map[string]int
	// at holds the column of each known column the header names, -1 for
	// one it lacks: looked up once, not in col for every cell.
	at     csvAt
	labels map[string]int // label key -> column
	ncol   int
	// first holds, per run/variant/benchmark/unit, the line of its row
	// without a sample column; with one, the next sample index for an
	// empty cell.
	first map[csvKey]int
	// repFirst holds, without a sample column but with a repetition
	// column, the line of each run/variant/benchmark/unit's row in each
	// repetition.
	repFirst map[csvRepKey]int
	// repLine holds, per run, the line of its first row and whether that
	// row gave a repetition (negative line: it did not): a run's rows all
	// give one or none.
	repLine map[int32]int
	done    bool // a fatal syntax error was reported: the rest is unreadable
	opt     ParseOptions
	names   Names // the file's names and label values, each held once
	ids     NameIDs
	// labels of the last record, which the next one shares when its
	// labels are the same (a run's rows repeat them)
	lastLabels map[string]string
	// run is the run of the last record, when the file's runs are
	// grouped (ParseOptions.GroupedRuns): first and ids then hold that
	// run's names only, and are cleared when the next run begins.
	run string
}

// csvAt is the place of each column the csv format knows.
type csvAt struct{ run, benchmark, variant, value, unit, sample, repetition, role, time int }

// csvKey names a run, variant, benchmark and unit by their ids: a key of
// four strings for each of a file's rows took 72 bytes of map a row.
type csvKey struct{ run, variant, bench, unit int32 }

// csvRepKey is a csvKey in one repetition.
type csvRepKey struct {
	csvKey
	repetition int
}

// NameIDs numbers strings, from 0, in order of first appearance: keys of
// a few small numbers where several strings took far more (the CSV
// parser's keys of a row, the loader's of a run's measurements).
type NameIDs map[string]int32

// ID returns the number of s, numbering it when it is new.
func (ids NameIDs) ID(s string) int32 {
	if id, ok := ids[s]; ok {
		return id
	}
	id := int32(len(ids))
	ids[s] = id
	return id
}

// csvColumns are the columns the csv format knows, besides label.KEY.
var csvColumns = map[string]bool{"run": true, "benchmark": true, "variant": true, "value": true, "unit": true, "sample": true, "repetition": true, "role": true, "time": true}

func newCSVParser(r io.Reader, file string, opt ParseOptions) Parser {
	// encoding/csv holds a record whole, however long its line: the
	// line limit bounds it.
	cr := csv.NewReader(newLineLimit(r, file))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return &csvParser{r: cr, file: file, first: map[csvKey]int{}, repFirst: map[csvRepKey]int{}, repLine: map[int32]int{}, opt: opt, names: Names{}, ids: NameIDs{}}
}

func (p *csvParser) Next() (Record, error) {
	if p.done {
		return Record{}, io.EOF
	}
	for {
		row, err := p.r.Read()
		if err == io.EOF {
			if !p.header {
				p.done = true
				return Record{}, &SyntaxError{File: p.file, Msg: "no header row: expected run,benchmark,variant,value"}
			}
			return Record{}, io.EOF
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			if errors.Is(pe.Err, csv.ErrQuote) || errors.Is(pe.Err, csv.ErrBareQuote) {
				// The reader cannot resynchronise after a broken quote.
				p.done = true
				return Record{}, &SyntaxError{File: p.file, Line: pe.Line, Msg: pe.Err.Error()}
			}
			return Record{}, &SyntaxError{File: p.file, Line: pe.Line, Msg: pe.Err.Error()}
		}
		if err != nil {
			// Errors of the text below the CSV (a cut UTF-16 file, I/O)
			// end the stream.
			p.done = true
			return Record{}, err
		}
		line, _ := p.r.FieldPos(0)
		if len(row) == 1 && strings.TrimSpace(row[0]) == "" {
			continue
		}
		if !p.header {
			if err := p.readHeader(row, line); err != nil {
				p.done = true
				return Record{}, err
			}
			continue
		}
		return p.record(row, line)
	}
}

func (p *csvParser) readHeader(row []string, line int) error {
	p.header = true
	p.ncol = len(row)
	p.col = map[string]int{}
	p.labels = map[string]int{}
	for i, name := range row {
		name = strings.TrimSpace(name)
		lower := strings.ToLower(name)
		if strings.HasPrefix(lower, "label.") {
			key := name[len("label."):]
			if key == "" {
				return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("column %d: label column with an empty key: expected label.KEY", i+1)}
			}
			if err := data.CheckName("label key", key); err != nil {
				return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("column %d: %v", i+1, err)}
			}
			if _, dup := p.labels[key]; dup {
				// As a second value column is: which of the two is the
				// label's value is not for the reader to guess.
				return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("column %q appears twice", name)}
			}
			p.labels[key] = i
			continue
		}
		if !csvColumns[lower] {
			if p.opt.IgnoreColumns {
				continue
			}
			return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("column %d: unknown column %q: expected run, benchmark, variant, value, unit, sample, repetition, role, time or label.KEY; name it label.%s to keep it as a label of the run, or pass --ignore-columns to ignore it", i+1, name, name)}
		}
		if _, dup := p.col[lower]; dup {
			return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("column %q appears twice", name)}
		}
		p.col[lower] = i
	}
	var missing []string
	for _, c := range csvRequired {
		if _, ok := p.col[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf("header lacks required column(s) %s: expected run,benchmark,variant,value", strings.Join(missing, ", "))}
	}
	at := func(c string) int {
		if i, ok := p.col[c]; ok {
			return i
		}
		return -1
	}
	p.at = csvAt{run: at("run"), benchmark: at("benchmark"), variant: at("variant"), value: at("value"), unit: at("unit"), sample: at("sample"), repetition: at("repetition"), role: at("role"), time: at("time")}
	return nil
}

func (p *csvParser) record(row []string, line int) (Record, error) {
	bad := func(format string, args ...any) (Record, error) {
		return Record{}, &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if len(row) != p.ncol {
		return bad("row has %d fields, the header has %d", len(row), p.ncol)
	}
	get := func(i int) string {
		if i >= 0 {
			return strings.TrimSpace(row[i])
		}
		return ""
	}
	at := &p.at
	r := Record{Line: line, Role: strings.ToLower(get(at.role))}
	run, bench, variant := get(at.run), get(at.benchmark), get(at.variant)
	if p.opt.GroupedRuns {
		// The run's id is held while its rows last, not interned for the
		// whole file (which held up to maxInterned of them).
		if run != p.run {
			clear(p.first)
			clear(p.repFirst)
			clear(p.repLine)
			clear(p.ids)
			p.run = strings.Clone(run)
		}
		r.Run = p.run
	} else {
		r.Run = p.names.Intern(run)
	}
	r.Benchmark, r.Variant, r.Unit = p.names.Intern(bench), p.names.Intern(variant), p.names.Intern(get(at.unit))
	for _, c := range []struct{ name, value string }{{"run", run}, {"benchmark", bench}, {"variant", variant}} {
		if c.value == "" {
			return bad("empty %s", c.name)
		}
	}
	if err := checkRecordNames(&r); err != nil {
		return bad("%v", err)
	}
	// The value is the whole cell, not trimmed as names are: " 1e9" is
	// not a number a harness prints (see plainDecimal).
	v, err := parseValue(row[at.value])
	if err != nil {
		return bad("%v", err)
	}
	r.Value = v
	if r.Role != "" && r.Role != data.RoleBaseline && r.Role != data.RoleCandidate {
		return bad("role %q: expected baseline, candidate or empty", get(at.role))
	}
	key := csvKey{p.ids.ID(r.Run), p.ids.ID(r.Variant), p.ids.ID(r.Benchmark), p.ids.ID(r.Unit)}
	if s := get(at.repetition); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || strings.TrimLeft(s, "0123456789") != "" {
			return bad("repetition %q: expected a whole number >= 1", s)
		}
		r.Repetition = n
	}
	if at.repetition >= 0 && at.sample < 0 {
		// Without a sample column a run's rows all give a repetition or
		// none: the samples of a run that mixed them were numbered by
		// the rows' order, one row's by its line number.
		signed := line
		if r.Repetition == 0 {
			signed = -line
		}
		if prev, ok := p.repLine[key.run]; !ok {
			p.repLine[key.run] = signed
		} else if (prev < 0) != (signed < 0) {
			with, without := abs(prev), line
			if prev < 0 {
				with, without = line, -prev
			}
			return bad("run %s gives a repetition on line %d and none on line %d: give every row of a run its repetition, or none", r.Run, with, without)
		}
	}
	if s := get(at.sample); s != "" {
		// Digits alone, as a value is a plain decimal: Atoi also takes
		// a sign ("+3").
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || strings.TrimLeft(s, "0123456789") != "" {
			return bad("sample %q: expected a whole number >= 0", s)
		}
		r.Sample = n
	} else if at.sample >= 0 {
		// An empty cell of a sample column: the next sample in order.
		r.Sample = p.first[key]
		p.first[key]++
	} else if r.Repetition > 0 {
		// Without a sample column, a repetition holds one row per
		// benchmark and variant, numbered as the run's samples in order.
		rk := csvRepKey{key, r.Repetition}
		if prev, dup := p.repFirst[rk]; dup {
			return bad("run %s: benchmark %s of variant %s%s in repetition %d was given on line %d already: without a sample column a repetition holds one value per benchmark and variant; add a sample column", r.Run, r.Benchmark, r.Variant, unitNote(r.Unit), r.Repetition, prev)
		}
		p.repFirst[rk] = line
		r.Sample = p.first[key]
		p.first[key]++
	} else {
		if prev, dup := p.first[key]; dup {
			return bad("run %s: benchmark %s of variant %s%s was given on line %d already: without a sample column a run holds one value per benchmark and variant; add a sample column, or make the run ids distinct", r.Run, r.Benchmark, r.Variant, unitNote(r.Unit), prev)
		}
		p.first[key] = line
	}
	if s := get(at.time); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return bad("time %q: expected RFC 3339, like 2026-12-01T07:33:21Z", s)
		}
		r.Time = t
	}
	if len(p.labels) > 0 {
		if p.sameLabels(row) {
			r.Labels = p.lastLabels
			return r, nil
		}
		r.Labels = make(map[string]string, len(p.labels))
		for k, i := range p.labels {
			if v := strings.TrimSpace(row[i]); v != "" {
				if err := data.CheckName("label "+k+" value", v); err != nil {
					return bad("%v", err)
				}
				r.Labels[k] = p.names.Intern(v)
			}
		}
		p.lastLabels = r.Labels
	}
	return r, nil
}

// sameLabels reports whether the label cells of row hold the labels of
// the last record, which this record then shares: a map of labels for
// each row was most of what reading a CSV file allocated. (Records'
// labels are never modified, so sharing them is safe.)
func (p *csvParser) sameLabels(row []string) bool {
	if p.lastLabels == nil {
		return false
	}
	n := 0
	for k, i := range p.labels {
		v := strings.TrimSpace(row[i])
		if v == "" {
			continue
		}
		n++
		if old, ok := p.lastLabels[k]; !ok || old != v {
			return false
		}
	}
	return n == len(p.lastLabels)
}

func unitNote(unit string) string {
	if unit == "" {
		return ""
	}
	return " in " + unit
}

// maxInterned bounds the strings a Names holds.
const maxInterned = 1 << 16

// RunsGrouped reports whether the rows of each run of the CSV file p,
// read in format (nil: detected), are adjacent, reading only its run
// column; false when unsure (a file that does not read, or is not CSV:
// a loader then reads it whole and says what is wrong). It keeps a 64-bit hash of each run id seen; two ids
// of one hash make it answer false, which is safe.
func RunsGrouped(p string, format *Format) bool {
	f, err := OpenFile(p, format)
	if err != nil {
		return false
	}
	defer f.Close()
	if f.Format != csvFormat {
		return false
	}
	cr := csv.NewReader(newLineLimit(f.Text, p))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	col := -1
	seed := maphash.MakeSeed()
	done := map[uint64]struct{}{}
	var cur string
	started := false
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return col >= 0
		}
		if err != nil {
			return false
		}
		if len(row) == 1 && strings.TrimSpace(row[0]) == "" {
			continue
		}
		if col < 0 {
			for i, name := range row {
				if strings.ToLower(strings.TrimSpace(name)) == "run" {
					col = i
				}
			}
			if col < 0 {
				return false
			}
			continue
		}
		if col >= len(row) {
			return false
		}
		id := strings.TrimSpace(row[col])
		if started && id == cur {
			continue
		}
		if started {
			done[maphash.String(seed, cur)] = struct{}{}
		}
		h := maphash.String(seed, id)
		if _, seen := done[h]; seen {
			return false
		}
		cur, started = id, true
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
