package render

import (
	"encoding/json"
	"io"
	"math"
)

// Float is a float64 in JSON: NaN and infinities (a statistic undefined
// for the input, such as a variance share when the score did not vary)
// are null, never invalid JSON.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// JSON writes v as one indented JSON document and a newline.
func JSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
