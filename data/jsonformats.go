package data

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// maxJSON bounds a JSON result file: JSON results are decoded whole.
const maxJSON = 256 << 20

// decodeJSON reads a whole JSON result file into v. A syntax error names
// the line; a type error names the line and the field's path.
func decodeJSON(r io.Reader, file string, v any) error {
	b, err := io.ReadAll(io.LimitReader(r, maxJSON+1))
	if err != nil {
		return err
	}
	if len(b) > maxJSON {
		return &SyntaxError{File: file, Msg: fmt.Sprintf("JSON result file larger than %d MiB", maxJSON>>20)}
	}
	lineAt := func(off int64) int {
		if off > int64(len(b)) {
			off = int64(len(b))
		}
		return 1 + strings.Count(string(b[:off]), "\n")
	}
	if err := json.Unmarshal(b, v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case strings.Contains(err.Error(), "unexpected end of JSON input"):
			end := len(strings.TrimRight(string(b), " \t\r\n"))
			return &SyntaxError{File: file, Line: lineAt(int64(end)), Msg: "truncated JSON: unexpected end of input"}
		case errors.As(err, &se):
			return &SyntaxError{File: file, Line: lineAt(se.Offset), Msg: "invalid JSON: " + se.Error()}
		case errors.As(err, &te):
			return &SyntaxError{File: file, Line: lineAt(te.Offset), Msg: fmt.Sprintf("%s: expected %v, got JSON %s", te.Field, te.Type, te.Value)}
		}
		return &SyntaxError{File: file, Msg: "invalid JSON: " + err.Error()}
	}
	return nil
}

// decodeList starts the parser of a JSON format: it decodes the file into
// v and returns a listParser that reports the decoding error, if any.
func decodeList(r io.Reader, file string, v any) *listParser {
	p := &listParser{file: file}
	p.err = decodeJSON(r, file, v)
	return p
}

// fail makes the parser report one syntax error for the whole file.
func (p *listParser) fail(format string, args ...any) Parser {
	p.err = &SyntaxError{File: p.file, Msg: fmt.Sprintf(format, args...)}
	return p
}

// listParser yields records decoded up front, then the notes (warnings)
// of the decoding through Notes.
type listParser struct {
	file  string
	recs  []Record
	err   error
	notes []string
}

func (p *listParser) Next() (Record, error) {
	if p.err != nil {
		err := p.err
		p.err = nil
		p.recs = nil
		return Record{}, err
	}
	if len(p.recs) == 0 {
		return Record{}, io.EOF
	}
	r := p.recs[0]
	p.recs = p.recs[1:]
	return r, nil
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

// checkSample validates a JSON-decoded value like parseValue does.
func checkSample(v float64) error {
	switch {
	case math.IsNaN(v):
		return fmt.Errorf("value is not a number (NaN)")
	case math.IsInf(v, 0):
		return fmt.Errorf("value %v is not finite", v)
	case v <= 0:
		return fmt.Errorf("value %v is not positive: measurements must be > 0", v)
	case v < MinValue || v > MaxValue:
		return rangeError(fmt.Sprint(v))
	}
	return nil
}
