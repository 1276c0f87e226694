package load

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

// FuzzCSVRuns: parsing a CSV and grouping its records into runs never
// panics, and every run it returns has a valid id, valid labels, and
// measurements with valid names and positive finite values.
func FuzzCSVRuns(f *testing.F) {
	for _, b := range seedFiles(f, filepath.Join(fixtures, "csv", "*.csv")) {
		f.Add(b, false)
		f.Add(b, true)
	}
	f.Fuzz(func(t *testing.T, b []byte, ignoreColumns bool) {
		tf, err := formats.OpenReader("fuzz.csv", bytes.NewReader(b), csvFormat)
		if err != nil {
			return
		}
		tf.Options.IgnoreColumns = ignoreColumns
		recs, _, err := formats.ReadAll(tf)
		if err != nil {
			return
		}
		runs, err := runsFromRecords("fuzz.csv", recs, &Options{})
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
			if err := data.CheckName("run id", r.ID); err != nil {
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
