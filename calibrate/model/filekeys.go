package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/data"
)

// checkKeys walks the objects of a document that is valid JSON (ParseFile
// has decoded it once) and checks their keys. It refuses a key given
// twice in one object: JSON readers disagree on which one wins, so a file
// with two floors is refused rather than read either way. Go's decoder
// matches a key to a field without regard to case (Unicode simple
// folding: "Floor", "ſtep"), so in the objects decoded into structs two
// keys equal under folding are the same key; the maps keyed by benchmark
// name or label (units, baseline_health, labels) compare keys exactly. It
// refuses a key that is no field of the object it is in (the fields of
// File and the types it holds, spelt exactly), which the decoder would
// ignore or match to a field without regard to case. It returns the
// fields written with a value other than null, by path ("floor",
// "params.step", "matrix.log_ratio"), in the struct objects.
//
// It scans the bytes itself and steps over arrays whole, rather than
// reading every token with json.Decoder: a matrix of 100,000 runs holds
// millions of numbers, and the decoder's Token builds an error string for
// each number it ends.
func checkKeys(b []byte) (map[string]bool, error) {
	w := keyWalker{b: b, present: map[string]bool{}}
	w.space()
	if w.i >= len(b) || b[w.i] != '{' {
		return nil, errors.New("expected a JSON object")
	}
	if err := w.object("", ""); err != nil {
		return nil, err
	}
	return w.present, nil
}

// keyWalker walks a valid JSON document from b[i].
type keyWalker struct {
	b       []byte
	i       int
	present map[string]bool
}

// object walks the object at b[i], whose path is path ("", ".params",
// ".units.larson") and whose path with map keys as "*" is schema.
func (w *keyWalker) object(path, schema string) error {
	known := fileKeys[schema] // nil: keys not checked
	fold := !mapFields[schema]
	keys := map[string]string{} // key as compared -> key as written
	w.i++                       // {
	for {
		w.space()
		switch w.b[w.i] {
		case '}':
			w.i++
			return nil
		case ',':
			w.i++
			w.space()
		}
		start := w.i
		w.skipString()
		var k string
		if err := json.Unmarshal(w.b[start:w.i], &k); err != nil {
			return err
		}
		field := strings.TrimPrefix(path+"."+k, ".")
		ck := k
		if fold {
			ck = foldKey(k)
		}
		if first, dup := keys[ck]; dup {
			if first != k {
				return fmt.Errorf("field %s appears twice (as %s and %s: JSON readers disagree on whether case matters)", fieldText(field), fieldText(first), fieldText(k))
			}
			return fmt.Errorf("field %s appears twice", fieldText(field))
		}
		keys[ck] = k
		if known != nil && !known[k] {
			return &UnknownFieldError{Field: fieldText(field)}
		}
		w.space()
		w.i++ // :
		w.space()
		if known != nil {
			w.present[field] = !bytes.HasPrefix(w.b[w.i:], []byte("null"))
		}
		if w.b[w.i] == '[' && fileKeys[schema+"."+k+"[]"] != nil {
			if err := w.array(path+"."+k, schema+"."+k+"[]"); err != nil {
				return err
			}
			continue
		}
		if w.b[w.i] != '{' {
			w.skipValue()
			continue
		}
		child := schema + "." + k
		if mapFields[schema] {
			child = schema + ".*"
		}
		if err := w.object(path+"."+k, child); err != nil {
			return err
		}
	}
}

// array walks the array at b[i] whose elements are objects of schema
// (".environments[]"), each as object walks one, its path with its index
// ("environments[0]"); an element that is not an object is left to the
// decoder to refuse.
func (w *keyWalker) array(path, schema string) error {
	w.i++ // [
	for n := 0; ; n++ {
		w.space()
		switch w.b[w.i] {
		case ']':
			w.i++
			return nil
		case ',':
			w.i++
			w.space()
		}
		if w.b[w.i] != '{' {
			w.skipValue()
			continue
		}
		if err := w.object(fmt.Sprintf("%s[%d]", path, n), schema); err != nil {
			return err
		}
	}
}

// space steps over white space.
func (w *keyWalker) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// skipString steps over the string at b[i].
func (w *keyWalker) skipString() {
	for w.i++; w.i < len(w.b); w.i++ {
		switch w.b[w.i] {
		case '\\':
			w.i++
		case '"':
			w.i++
			return
		}
	}
}

// skipValue steps over the value at b[i]: a string, a literal, or an
// array or object whole (objects inside arrays are left to the decoder,
// which refuses them, but for the arrays of objects fileKeys names, which
// object walks with array).
func (w *keyWalker) skipValue() {
	depth := 0
	for w.i < len(w.b) {
		switch c := w.b[w.i]; c {
		case '"':
			w.skipString()
			if depth == 0 {
				return
			}
			continue
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return // the end of the enclosing object: a literal ended
			}
			depth--
			if depth == 0 {
				w.i++
				return
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return
			}
		}
		w.i++
	}
}

// fileKeys are the keys of each struct object of a calibration file, by
// its path with map keys as "*"; an object at another path (one where an
// array or a number belongs) is left to the decoder to refuse.
var fileKeys = map[string]map[string]bool{
	"":                                jsonKeys(File{}),
	".params":                         jsonKeys(FileParams{}),
	".observed":                       jsonKeys(FileObserved{}),
	".false_positive_rate":            jsonKeys(FileFPR{}),
	".detection":                      jsonKeys(FileDetection{}),
	".units.*":                        jsonKeys(calibrate.Unit{}),
	".baseline_health.*":              jsonKeys(Health{}),
	".matrix":                         jsonKeys(Matrix{}),
	".variance_components":            jsonKeys(FileVariance{}),
	".environments[]":                 jsonKeys(FileEnvironment{}),
	".profiles[]":                     jsonKeys(FileProfile{}),
	".profiles[].observed":            jsonKeys(FileObserved{}),
	".profiles[].false_positive_rate": jsonKeys(FileFPR{}),
	".profiles[].detection":           jsonKeys(FileDetection{}),
	".profiles[].baseline_health.*":   jsonKeys(Health{}),
	".profiles[].matrix":              jsonKeys(Matrix{}),
	".profiles[].variance_components": jsonKeys(FileVariance{}),
}

// mapFields are the objects of a calibration file that are maps, keyed by
// benchmark name or label key: any key, compared exactly.
var mapFields = map[string]bool{".units": true, ".baseline_health": true, ".labels": true, ".profiles[].baseline_health": true}

// jsonKeys returns the JSON names of a struct's fields.
func jsonKeys(v any) map[string]bool {
	t := reflect.TypeOf(v)
	keys := map[string]bool{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}

// fieldText is a field's path as an error names it: shortened, and quoted
// when it holds a character that could break or forge a line of output.
func fieldText(s string) string {
	if data.CheckName("field", s) != nil {
		return strconv.Quote(clipText(s))
	}
	return clipText(s)
}

// foldKey maps a key to one spelling per class of keys that are equal
// under Unicode simple case folding (bytes.EqualFold, as encoding/json
// matches keys to fields): each rune becomes the smallest of its orbit.
func foldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

// jsonErr adds the line of a JSON syntax error, and says what a field of
// the wrong type should have held in JSON's words.
func jsonErr(b []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1
		for _, c := range b[:min(int(se.Offset), len(b))] {
			if c == '\n' {
				line++
			}
		}
		return fmt.Errorf("line %d: %w", line, err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "the document"
		} else {
			field = "field " + field
		}
		return fmt.Errorf("%s: expected %s, got %s", field, jsonKind(te.Type), te.Value)
	}
	return err
}

// jsonKind names a Go type as the JSON value it decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another type"
}
