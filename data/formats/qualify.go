package formats

import (
	"fmt"

	"github.com/qoscal/qoscal/data"
)

// A benchmark is known by more than its name in some formats: Go
// benchmark output from `go test ./...` holds several packages, and two
// may have a BenchmarkParse; Google Benchmark names a benchmark's family
// and instance apart from its name; pytest-benchmark its module and
// group. Pooled under one name, two such benchmarks are one benchmark
// whose samples are both's, and a package 3x slower throughout can pass
// a gate on the other's.
//
// So a parser of such a format gives each record its qualified name
// (Record.Qualified: PKG.NAME, NAME [family F], MODULE::NAME), and the
// records of one result file whose name is shared by two benchmarks or
// more are named by their qualified names instead; a name that one
// benchmark of the file has is kept as it is, so that a file whose names
// are unique reads as it always has (its stored history and calibrations
// stay valid). The rule is per file, not per run: two files of one run
// may each hold one package's BenchmarkParse (two implementations
// measured apart), and those are compared under their short name.

// Qualifier finds the names that two benchmarks or more of one result
// file share, as its records are read, and renames those records at the
// end (apply). It keeps a little for each benchmark and for each change
// of benchmark from one record to the next, not for each record.
type Qualifier struct {
	idents []ident
	index  map[identKey]int32 // a benchmark's place in idents
	byName map[string]int32   // the first benchmark of each name
	shared bool               // some name is shared
	spans  []identSpan        // which benchmark each record is, in runs
	n      int                // records added
}

// identKey is what a benchmark is: its name and its qualified name.
type identKey struct{ name, qual string }

type ident struct {
	identKey
	line   int  // its first record's line, for errors
	shared bool // another benchmark of the file has its name
}

// identSpan says that the records from the from-th on are of benchmark
// id, until the next span.
type identSpan struct {
	from int
	id   int32
}

// NewQualifier returns a Qualifier for the records of one file.
func NewQualifier() *Qualifier {
	return &Qualifier{index: map[identKey]int32{}, byName: map[string]int32{}}
}

// Add notes the next record of the file: its (short) name, its qualified
// name (Record.Qualified) and its line.
func (q *Qualifier) Add(name, qual string, line int) {
	defer func() { q.n++ }()
	if k := len(q.spans); k > 0 {
		if last := &q.idents[q.spans[k-1].id]; last.name == name && last.qual == qual {
			return // a benchmark's records follow each other
		}
	}
	key := identKey{name, qual}
	id, ok := q.index[key]
	if !ok {
		id = int32(len(q.idents))
		q.idents = append(q.idents, ident{identKey: key, line: line})
		q.index[key] = id
		if first, seen := q.byName[name]; seen {
			q.idents[first].shared = true
			q.idents[id].shared = true
			q.shared = true
		} else {
			q.byName[name] = id
		}
	}
	q.spans = append(q.spans, identSpan{from: q.n, id: id})
}

// Apply renames, with rename(i, name), each record (in the order added)
// whose name another benchmark of the file shares, to its qualified
// name. A qualified name that is no valid name, or that is another
// benchmark's name too, is an error at the line of the benchmark's first
// record; the records are not renamed then.
func (q *Qualifier) Apply(file string, rename func(i int, name string)) []*SyntaxError {
	if !q.shared {
		return nil
	}
	final := make([]string, len(q.idents))
	owner := make(map[string]int32, len(q.idents))
	var errs []*SyntaxError
	for i, id := range q.idents {
		final[i] = id.name
		if id.shared && id.qual != "" {
			final[i] = id.qual
			if err := data.CheckName("benchmark name", id.qual); err != nil {
				errs = append(errs, &SyntaxError{File: file, Line: id.line, Msg: fmt.Sprintf("benchmark %s is named by what tells it from another of that name: %v", id.name, err)})
			}
		}
	}
	// Names kept first, so that a clash is said of a renamed benchmark.
	for i, id := range q.idents {
		if final[i] == id.name {
			owner[id.name] = int32(i)
		}
	}
	for i, id := range q.idents {
		if final[i] == id.name {
			continue
		}
		if o, dup := owner[final[i]]; dup {
			errs = append(errs, &SyntaxError{File: file, Line: id.line, Msg: fmt.Sprintf("benchmark %s, named %s to tell it from another %s, would have the name of another benchmark%s: name the benchmarks apart", id.name, final[i], id.name, lineNote(q.idents[o].line))})
			continue
		}
		owner[final[i]] = int32(i)
	}
	if len(errs) > 0 {
		return errs
	}
	for s, sp := range q.spans {
		if !q.idents[sp.id].shared {
			continue
		}
		end := q.n
		if s+1 < len(q.spans) {
			end = q.spans[s+1].from
		}
		for i := sp.from; i < end; i++ {
			rename(i, final[sp.id])
		}
	}
	return nil
}

// lineNote says where a record came from, for records that have a line.
func lineNote(line int) string {
	if line == 0 {
		return ""
	}
	return fmt.Sprintf(" (line %d)", line)
}
