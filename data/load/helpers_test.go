package load

import (
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

// The test helpers of package formats that the loader's tests use too.

// fixtures holds the parser fixtures (real output of the real tools; see
// its README.md).
var fixtures = filepath.Join("..", "formats", "testdata")

// csvFormat is the csv format.
var csvFormat, _ = formats.LookupFormat("csv")

// seedFiles returns the files that pattern (a glob relative to this
// package's folder) matches; it fails the test when there are none, so a
// fuzz test is never left without seeds.
func seedFiles(t testing.TB, pattern string) [][]byte {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no seed files match %s", pattern)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// checkLabels checks the keys and values of labels as the parsers do.
func checkLabels(labels map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if err := data.CheckName("label key", k); err != nil {
			return err
		}
		if err := data.CheckName("label "+k+" value", labels[k]); err != nil {
			return err
		}
	}
	return nil
}

// checkMeasurement fails t unless m has valid names and a positive,
// finite value within [MinValue, MaxValue].
func checkMeasurement(t *testing.T, where string, m data.Measurement) {
	t.Helper()
	for _, n := range []struct{ kind, s string }{{"benchmark", m.Benchmark}, {"variant", m.Variant}, {"unit", m.Unit}} {
		if err := data.CheckName(n.kind, n.s); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
	}
	if m.Benchmark == "" || !(m.Value >= formats.MinValue && m.Value <= formats.MaxValue) || math.IsInf(m.Value, 0) {
		t.Fatalf("%s: bad measurement %+v", where, m)
	}
}

// loadEach reads the runs at paths with Runs and passes each to fn: an
// error from fn stops the reading (the consumer stops taking runs) and is
// returned, as is the sequence's error.
func loadEach(paths []string, opt Options, fn func(data.Run) error) error {
	for r, err := range Runs(paths, opt) {
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}
