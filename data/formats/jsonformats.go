package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"github.com/qoscal/qoscal/data"
)

// DefaultMaxJSONBytes bounds a JSON result file when
// ParseOptions.MaxJSONBytes is 0. A JSON result file is decoded whole, into
// about as many bytes again; 64 MiB holds millions of samples (a
// hyperfine run of 1,000 commands with 10,000 times each is ~150 MB) while
// keeping a malformed or hostile file from taking gigabytes.
const DefaultMaxJSONBytes = 64 << 20

// decodeJSON reads a whole JSON result file of at most max bytes into v. A
// syntax error names the line; a type error names the line and the
// value's JSON path (results[0].times[3]), in JSON's words.
func decodeJSON(r io.Reader, file string, limit int64, v any) error {
	if limit <= 0 {
		limit = DefaultMaxJSONBytes
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return err
	}
	if int64(len(b)) > limit {
		return &SyntaxError{File: file, Msg: fmt.Sprintf("JSON result file larger than %s, the limit for JSON input", byteSize(limit))}
	}
	lineAt := func(off int64) int {
		off = min(max(off, 0), int64(len(b)))
		return 1 + bytes.Count(b[:off], []byte{'\n'})
	}
	if off := jsonNumberBeyond(b, maxJSONNumbers); off >= 0 {
		return &SyntaxError{File: file, Line: lineAt(int64(off)), Msg: fmt.Sprintf("more than %d numbers in one JSON result file, the limit (4 for each of the %d measurements one result file may hold)", maxJSONNumbers, MaxMeasurements)}
	}
	if err := json.Unmarshal(b, v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case strings.Contains(err.Error(), "unexpected end of JSON input"):
			end := len(bytes.TrimRight(b, " \t\r\n"))
			return &SyntaxError{File: file, Line: lineAt(int64(end)), Msg: "truncated JSON: unexpected end of input"}
		case errors.As(err, &se):
			return &SyntaxError{File: file, Line: lineAt(se.Offset), Msg: "invalid JSON: " + se.Error()}
		case errors.As(err, &te):
			got, _, _ := strings.Cut(te.Value, " ")
			off := min(max(te.Offset, 0), int64(len(b)))
			// For an array or object, the decoder stops just inside it:
			// its path is that of the bracket.
			if head := bytes.TrimRight(b[:off], " \t\r\n"); len(head) > 0 && (head[len(head)-1] == '[' || head[len(head)-1] == '{') {
				off = int64(len(head) - 1)
			}
			path := jsonPathAt(b, off)
			if num, ok := strings.CutPrefix(te.Value, "number "); ok && jsonKind(te.Type) == "a number" {
				// A number that a float64 cannot hold (1e999).
				return &SyntaxError{File: file, Line: lineAt(off), Msg: fmt.Sprintf("%s: %v", path, rangeError(data.Clip(num)))}
			}
			return &SyntaxError{File: file, Line: lineAt(off), Msg: fmt.Sprintf("%s: expected %s, got %s", path, jsonKind(te.Type), got)}
		}
		return &SyntaxError{File: file, Msg: "invalid JSON: " + err.Error()}
	}
	return nil
}

func byteSize(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// jsonKind says what a Go type holds in JSON's words: "a number", "an
// array of numbers", "an object".
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		elem := jsonKind(t.Elem())
		switch {
		case elem == "true or false":
			return "an array of true or false"
		case strings.HasPrefix(elem, "an "):
			return "an array of " + elem[len("an "):] + "s"
		case strings.HasPrefix(elem, "a "):
			return "an array of " + elem[len("a "):] + "s"
		}
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a JSON value"
}

// jsonPathAt returns the JSON path (results[0].times[3]) of the value at
// or just before byte offset off of the JSON text b, as far as b up to off
// tells. It is used for error messages only.
func jsonPathAt(b []byte, off int64) string {
	type frame struct {
		array bool
		index int
		key   string
	}
	var stack []frame
	end := min(int(off), len(b))
	for i := 0; i < end; i++ {
		switch b[i] {
		case '{':
			stack = append(stack, frame{})
		case '[':
			stack = append(stack, frame{array: true})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].array {
					stack[n-1].index++
				} else {
					stack[n-1].key = ""
				}
			}
		case '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].key == "" {
				// A string where a key is expected is the key.
				rest := bytes.TrimLeft(b[min(j+1, len(b)):], " \t\r\n")
				if len(rest) > 0 && rest[0] == ':' {
					var key string
					if json.Unmarshal(b[i:min(j+1, len(b))], &key) != nil {
						key = string(b[i+1 : min(j, len(b))])
					}
					stack[n-1].key = key
				}
			}
			i = j
		}
	}
	var path strings.Builder
	for _, f := range stack {
		switch {
		case f.array:
			fmt.Fprintf(&path, "[%d]", f.index)
		case f.key != "":
			if path.Len() > 0 {
				path.WriteByte('.')
			}
			path.WriteString(f.key)
		}
	}
	if path.Len() == 0 {
		return "the top level"
	}
	return path.String()
}

// decodeList starts the parser of a JSON format: it decodes the file into
// v and returns a listParser that reports the decoding error, if any.
func decodeList(r io.Reader, file string, opt ParseOptions, v any) *listParser {
	p := &listParser{file: file}
	p.err = decodeJSON(r, file, opt.MaxJSONBytes, v)
	return p
}

// fail makes the parser report one syntax error for the whole file.
func (p *listParser) fail(format string, args ...any) Parser {
	p.err = &SyntaxError{File: p.file, Msg: fmt.Sprintf(format, args...)}
	p.series = nil
	return p
}

// series is a run of samples of one benchmark and unit, as decoded: the
// records are made from it one at a time, as they are read, so that a
// large file is not held as records too.
type series struct {
	name, unit string
	qual       string    // the records' Qualified name
	values     []float64 // the decoded values, not copied
	scale      float64   // each value times scale is the measurement
	sample0    int       // the sample number of values[0]
	labels     map[string]string
}

// listParser yields the records of series decoded up front, then the
// notes (warnings) of the decoding through Notes.
type listParser struct {
	file   string
	series []series
	i, j   int // the next record is series[i].values[j]
	err    error
	notes  []string
}

func (p *listParser) add(s series) { p.series = append(p.series, s) }

func (p *listParser) Next() (Record, error) {
	if p.err != nil {
		err := p.err
		p.err = nil
		p.series = nil
		return Record{}, err
	}
	for p.i < len(p.series) && p.j >= len(p.series[p.i].values) {
		p.i, p.j = p.i+1, 0
	}
	if p.i >= len(p.series) {
		return Record{}, io.EOF
	}
	s := &p.series[p.i]
	r := Record{Measurement: data.Measurement{Benchmark: s.name, Sample: s.sample0 + p.j, Value: s.values[p.j] * s.scale, Unit: s.unit}, Labels: s.labels, Qualified: s.qual}
	p.j++
	return r, nil
}

// remaining returns how many records are left to read.
func (p *listParser) remaining() int {
	n := 0
	for i := p.i; i < len(p.series); i++ {
		n += len(p.series[i].values)
	}
	return n - p.j
}

// Notes implements Noter.
func (p *listParser) Notes() []string { return p.notes }

// Noter is implemented by parsers with something to say about the input
// that is not an error (aggregates used in place of samples, say).
type Noter interface {
	Notes() []string
}

// scalarLabels flattens the scalar fields of a JSON object into labels
// "prefix.key", one level of nested objects deep; arrays are skipped.
func scalarLabels(prefix string, obj map[string]any, skip map[string]bool, into map[string]string) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if skip[k] {
			continue
		}
		name := k
		if prefix != "" {
			name = prefix + "." + k
		}
		switch v := obj[k].(type) {
		case string:
			if v != "" {
				into[name] = v
			}
		case bool:
			into[name] = fmt.Sprint(v)
		case float64:
			into[name] = fmt.Sprint(v)
		case map[string]any:
			if !strings.Contains(prefix, ".") {
				scalarLabels(name, v, skip, into)
			}
		}
	}
}

// timeScale converts a time in the given unit to seconds.
func timeScale(unit string) (float64, bool) {
	switch unit {
	case "ns", "":
		return 1e-9, true
	case "us":
		return 1e-6, true
	case "ms":
		return 1e-3, true
	case "s":
		return 1, true
	}
	return 0, false
}
