package data

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// allSeeds are the fixtures of every format under testdata/; each glob
// must match (seedFiles fails the test otherwise).
func allSeeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, glob := range []string{"ops/*.txt", "csv/*.csv", "gobench/*.txt", "gbench/*.json", "hyperfine/*.json", "pytest-benchmark/*.json"} {
		out = append(out, seedFiles(f, glob)...)
	}
	return out
}

// checkMeasurement fails t unless m has valid names and a positive,
// finite value within [MinValue, MaxValue].
func checkMeasurement(t *testing.T, where string, m Measurement) {
	t.Helper()
	for _, n := range []struct{ kind, s string }{{"benchmark", m.Benchmark}, {"variant", m.Variant}, {"unit", m.Unit}} {
		if err := CheckName(n.kind, n.s); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
	}
	if m.Benchmark == "" || !(m.Value >= MinValue && m.Value <= MaxValue) || math.IsInf(m.Value, 0) {
		t.Fatalf("%s: bad measurement %+v", where, m)
	}
}

// FuzzDetect: format detection over any bytes never panics, and neither
// does parsing the file in the format detected; every record that
// reading lets through has valid names and a value in range.
func FuzzDetect(f *testing.F) {
	for _, b := range allSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, n := range FormatNames() {
			registry[n].Detect(b)
		}
		detect(b)
		fuzzParse(t, "auto", b)
		tf, err := openReader("fuzz", bytes.NewReader(b), nil)
		if err != nil {
			return
		}
		eachRecord(tf, func(r Record) {
			checkMeasurement(t, "record", r.Measurement)
			if err := CheckName("run id", r.Run); err != nil {
				t.Fatal(err)
			}
			if err := checkLabels(r.Labels); err != nil {
				t.Fatal(err)
			}
		})
	})
}

// FuzzCSVRuns: parsing a CSV and grouping its records into runs never
// panics, and every run it returns has a valid id, valid labels, and
// measurements with valid names and positive finite values.
func FuzzCSVRuns(f *testing.F) {
	for _, b := range seedFiles(f, "csv/*.csv") {
		f.Add(b, false)
		f.Add(b, true)
	}
	f.Fuzz(func(t *testing.T, b []byte, ignoreColumns bool) {
		tf, err := openReader("fuzz.csv", bytes.NewReader(b), csvFormat)
		if err != nil {
			return
		}
		tf.Options.IgnoreColumns = ignoreColumns
		recs, _, err := ReadAll(tf)
		if err != nil {
			return
		}
		runs, err := runsFromRecords("fuzz.csv", recs, &LoadOptions{})
		if err != nil {
			return
		}
		if len(runs) == 0 {
			t.Fatal("records but no runs")
		}
		for _, r := range runs {
			if r.ID == "" {
				t.Fatal("run without an id")
			}
			if err := CheckName("run id", r.ID); err != nil {
				t.Fatal(err)
			}
			if err := checkLabels(r.Labels); err != nil {
				t.Fatal(err)
			}
			if len(r.Measurements) == 0 {
				t.Fatalf("run %q without measurements", r.ID)
			}
			for _, m := range r.Measurements {
				checkMeasurement(t, "run "+r.ID, m)
				if m.Variant == "" {
					t.Fatalf("run %q: measurement without a variant", r.ID)
				}
			}
		}
	})
}

// FuzzSizedBuffers: a file read with buffers sized to it (as OpenFile
// sizes them) gives the same format, records, notes and errors as one read
// with the full-size buffers of an input of unknown size.
func FuzzSizedBuffers(f *testing.F) {
	for _, b := range allSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		read := func(size int64) string {
			tf, err := openReaderSize("fuzz", bytes.NewReader(b), size, nil)
			if err != nil {
				return "open: " + err.Error()
			}
			var out strings.Builder
			fmt.Fprintf(&out, "%s %s\n", tf.Format.Name, tf.Text.Encoding)
			notes, err := eachRecord(tf, func(r Record) { fmt.Fprintf(&out, "%+v\n", r) })
			fmt.Fprintf(&out, "%q %v", notes, err)
			return out.String()
		}
		if full, sized := read(-1), read(int64(len(b))); full != sized {
			t.Errorf("buffers sized to the file:\n%s\nfull-size buffers:\n%s", sized, full)
		}
	})
}

// FuzzDecoder: the decoder reads, from any bytes, the same text and the
// same error as golang.org/x/text's transform.Reader with the same UTF-16
// decoder, whatever the input's chunks and the buffer's size.
func FuzzDecoder(f *testing.F) {
	for _, b := range allSeeds(f) {
		f.Add(b, uint8(0))
	}
	f.Add([]byte{0xFF, 0xFE, 'a', 0, 0x3D, 0xD8, 0x00, 0xDE, 'b'}, uint8(3))
	f.Fuzz(func(t *testing.T, b []byte, shape uint8) {
		decoders := []func() transform.Transformer{
			func() transform.Transformer {
				return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
			},
			func() transform.Transformer {
				return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
			},
			func() transform.Transformer {
				return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()
			},
			func() transform.Transformer {
				return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder()
			},
		}
		for _, dec := range decoders {
			want, wantErr := io.ReadAll(transform.NewReader(bytes.NewReader(b), dec()))
			var in io.Reader = bytes.NewReader(b)
			if shape&1 != 0 {
				in = iotest.OneByteReader(in)
			}
			size := 16 + int(shape>>1)
			got, gotErr := io.ReadAll(newDecoder(bufio.NewReaderSize(in, size), dec()))
			if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("input %x, buffer %d: decoder gave %q, %v; transform.Reader %q, %v", b, size, got, gotErr, want, wantErr)
			}
		}
	})
}
