package calibrate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// validFile is the calibration file of the worked example (five runs,
// margin 13%, step 0.05: floor 1.25), as recommend --write makes it.
func validFile(t testing.TB) []byte {
	t.Helper()
	a, r := workedRecommendation(t)
	var buf bytes.Buffer
	if err := NewFile(a, r, map[string]string{"os": "windows"}, time.Unix(1796112000, 0), "qoscal test").Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// edit decodes a calibration file, changes it, and encodes it again.
func edit(t testing.TB, b []byte, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func obj(m map[string]any, k string) map[string]any { return m[k].(map[string]any) }

// TestParseFileRefuses pins issue 11 item 2: every field of a calibration
// file is checked on read, and a file whose fields disagree or lie is
// refused with the field named — never judged against a floor that is not
// the one it prints.
func TestParseFileRefuses(t *testing.T) {
	good := validFile(t)
	if _, err := ParseFile("c.json", good); err != nil {
		t.Fatalf("the valid file is refused: %v", err)
	}
	for _, c := range []struct {
		reason string
		change func(m map[string]any)
		want   string
	}{
		{"floor and floor_text disagree: the gate would compare with 0.5 and print 1.20",
			func(m map[string]any) { m["floor"] = 0.5; m["floor_text"] = "1.20" },
			`field floor_text "1.20" disagrees with field floor 0.5 (expected "0.50")`},
		{"floor_text missing: the verdict printed \">= x floor\"",
			func(m map[string]any) { delete(m, "floor_text") },
			"field floor_text is missing"},
		{"a floor of 1e-300 passes everything",
			func(m map[string]any) { m["floor"] = 1e-300; m["floor_text"] = "1.11" },
			"field floor 1e-300: below one step (0.05) of its grid: expected a floor >= 0.05"},
		{"a floor off the step grid was not written by recommend",
			func(m map[string]any) { m["floor"] = 1.23; m["floor_text"] = "1.23" },
			"field floor 1.23 is not on the grid of params.step 0.05"},
		{"a floor above every healthy run fails them all",
			func(m map[string]any) { m["floor"] = 2.5; m["floor_text"] = "2.50" },
			"field floor 2.5 is above every calibration score (observed.max 1.65): every healthy run would fail"},
		{"a negative floor",
			func(m map[string]any) { m["floor"] = -1 },
			"field floor -1: expected a number > 0"},
		{"the floor as a string",
			func(m map[string]any) { m["floor"] = "1.25" },
			"field floor: expected a number, got string"},
		{"the method is copied into the step summary: only the three names",
			func(m map[string]any) { m["method"] = "<img src=x>\n::error::forged" },
			`field method "<img src=x>\n::error::forged": expected target-fpr, margin, prediction or tolerance`},
		{"a created time that is not one",
			func(m map[string]any) { m["created"] = "yesterday" },
			`field created "yesterday": expected an RFC 3339 time like 2026-12-01T08:00:00Z`},
		{"margin out of range",
			func(m map[string]any) { obj(m, "params")["margin"] = 1.5 },
			"field params.margin 1.5: expected a fraction in [0, 1)"},
		{"step zero",
			func(m map[string]any) { obj(m, "params")["step"] = 0 },
			"field params.step 0: expected a step in (0, 1]"},
		{"step missing",
			func(m map[string]any) { delete(obj(m, "params"), "step") },
			"field params.step is missing"},
		{"prediction method without alpha",
			func(m map[string]any) { m["method"] = "prediction" },
			"field params.alpha 0: the prediction method needs alpha in (0, 0.5)"},
		{"a variant name with a newline forges output lines",
			func(m map[string]any) { m["candidate"] = "hoard\n::add-mask::x" },
			`field candidate "hoard\n::add-mask::x" holds the control character U+000A at byte 5: names must be printable text on one line`},
		{"baseline and candidate the same",
			func(m map[string]any) { m["candidate"] = m["baseline"] },
			`fields baseline and candidate are both "system": expected two variants`},
		{"an empty suite",
			func(m map[string]any) { m["suite"] = []any{} },
			"field suite is empty: expected the benchmark names the floor was calibrated on"},
		{"a suite benchmark named twice",
			func(m map[string]any) { m["suite"] = append(m["suite"].([]any), "larson") },
			"field suite names larson twice"},
		{"a suite benchmark without its unit",
			func(m map[string]any) { delete(obj(m, "units"), "larson") },
			"field units has no entry for suite benchmark larson"},
		{"a unit for a benchmark outside the suite",
			func(m map[string]any) {
				obj(m, "units")["zzz"] = map[string]any{"unit": "ops/sec", "direction": "higher"}
			},
			"field units names zzz, which is not in the suite"},
		{"a direction that is neither",
			func(m map[string]any) { obj(obj(m, "units"), "larson")["direction"] = "up" },
			`field units.larson.direction "up": expected higher or lower`},
		{"an empty unit",
			func(m map[string]any) { obj(obj(m, "units"), "larson")["unit"] = "" },
			"field units.larson.unit is empty: expected a name"},
		{"no runs",
			func(m map[string]any) { m["runs"] = 0 },
			"field runs 0: expected the number of calibration runs, >= 1"},
		{"runs as a fraction",
			func(m map[string]any) { m["runs"] = 2.5 },
			"field runs: expected a whole number, got number 2.5"},
		{"observed scores out of order",
			func(m map[string]any) { obj(m, "observed")["min"] = 1.6 },
			"fields observed.min 1.6, median 1.5500000000000003 and max 1.65: expected min <= median <= max"},
		{"an observed score of zero",
			func(m map[string]any) { obj(m, "observed")["median"] = 0 },
			"field observed.median 0: expected a score > 0"},
		{"a negative sd_log",
			func(m map[string]any) { obj(m, "observed")["sd_log"] = -0.1 },
			"fields observed.mean_log 0.43983795301784634 and sd_log -0.1: expected finite numbers, sd_log >= 0"},
		{"a mean_log whose geomean is outside min..max",
			func(m map[string]any) { obj(m, "observed")["mean_log"] = 3 },
			"field observed.mean_log 3: its geometric mean 20.085536923187668 lies outside observed.min 1.44 .. max 1.65"},
		{"a false-positive rate above 1",
			func(m map[string]any) { obj(m, "false_positive_rate")["predictive"] = 7 },
			"field false_positive_rate.predictive 7: expected a rate in [0, 1] or null"},
		{"a negative detection factor",
			func(m map[string]any) { obj(m, "detection")["r50"] = -1 },
			"field detection.r50 -1: expected a regression factor > 0 or null"},
		{"a negative MAD in the runner-health history",
			func(m map[string]any) { obj(obj(m, "baseline_health"), "larson")["mad_log"] = -1 },
			"field baseline_health.larson: expected a finite median_log and a finite mad_log >= 0"},
		{"a label with a carriage return",
			func(m map[string]any) { obj(m, "labels")["os"] = "windows\r::error::x" },
			`field labels.os "windows\r::error::x" holds the control character U+000D at byte 7: names must be printable text on one line`},
		{"labels missing",
			func(m map[string]any) { delete(m, "labels") },
			"field labels is missing"},
		{"the suite as a string",
			func(m map[string]any) { m["suite"] = "larson" },
			"field suite: expected an array, got string"},
	} {
		_, err := ParseFile("c.json", edit(t, good, c.change))
		want := "calibration file c.json: " + c.want
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", c.reason, err, want)
		}
	}
}

// TestParseFileModel: a version 2 file carries the matrix, and its
// figures must follow from it; a version 1 file is still read, without it.
func TestParseFileModel(t *testing.T) {
	good := validFile(t)
	f, err := ParseFile("c.json", good)
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != 2 || f.Matrix == nil || len(f.Matrix.Runs) != 5 || len(f.Matrix.Benchmarks) != 10 {
		t.Fatalf("version %d, matrix %+v", f.Version, f.Matrix)
	}
	// The matrix's scores are the calibration's, bit for bit.
	scores, err := f.Matrix.Scores(f.Suite)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Analyze(fiveRuns(t), Options{})
	for i, r := range a.Runs {
		if scores[i] != r.Score {
			t.Errorf("run %s: matrix score %v, analysis %v", r.ID, scores[i], r.Score)
		}
	}
	for _, c := range []struct {
		reason string
		change func(m map[string]any)
		want   string
	}{
		{"a hand-tightened floor that the method does not give",
			func(m map[string]any) { m["floor"] = 1.3; m["floor_text"] = "1.30" },
			"field floor 1.3 is not what the margin method gives on the matrix (1.25): write the file again with qoscal recommend --write, or give the floor to the gate with --floor"},
		{"a log ratio edited",
			func(m map[string]any) { obj(m, "matrix")["log_ratio"].([]any)[0].([]any)[0] = 5.0 },
			"field observed.median 1.5500000000000003 is not the matrix's (1.5899999999999999)"},
		{"a row too short",
			func(m map[string]any) {
				row := obj(m, "matrix")["log_ratio"].([]any)[1].([]any)
				obj(m, "matrix")["log_ratio"].([]any)[1] = row[:9]
			},
			"field matrix.log_ratio[1] has 9 values, expected 10"},
		{"benchmarks out of the suite's order",
			func(m map[string]any) {
				b := obj(m, "matrix")["benchmarks"].([]any)
				b[0], b[1] = b[1], b[0]
			},
			`field matrix.benchmarks[0] is "cache-scratch", but suite[0] is "alloc-test": expected the suite, in order`},
		{"a run missing from the matrix",
			func(m map[string]any) { obj(m, "matrix")["runs"] = obj(m, "matrix")["runs"].([]any)[:4] },
			"field matrix has 4 run ids and 5 rows, but runs is 5"},
		{"no family alpha",
			func(m map[string]any) { delete(obj(m, "params"), "family_alpha") },
			"field params.family_alpha 0: expected a rate in (0, 0.5)"},
		{"no matrix in version 2",
			func(m map[string]any) { delete(m, "matrix") },
			"field matrix is missing"},
		{"a matrix in version 1",
			func(m map[string]any) { m["version"] = 1 },
			"field matrix is in a version 1 file: expected version 2"},
	} {
		_, err := ParseFile("c.json", edit(t, good, c.change))
		if want := "calibration file c.json: " + c.want; err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", c.reason, err, want)
		}
	}
	v1, err := os.ReadFile(filepath.Join("testdata", "calibration", "v1-margin.json"))
	if err != nil {
		t.Fatal(err)
	}
	old, err := ParseFile("v1.json", v1)
	if err != nil {
		t.Fatalf("a version 1 file is refused: %v", err)
	}
	if old.Version != 1 || old.Matrix != nil || old.Floor != 1.25 {
		t.Errorf("version 1 file read as %+v", old)
	}
}

// TestParseFileDuplicateKey: a JSON object with a key twice is read
// differently by different readers (Go takes the last); refuse it.
func TestParseFileDuplicateKey(t *testing.T) {
	good := string(validFile(t))
	for _, c := range []struct{ in, want string }{
		{strings.Replace(good, `"floor": 1.25,`, `"floor": 1.25, "floor": 0.5,`, 1), "field floor appears twice"},
		{strings.Replace(good, `"margin": 0.13,`, `"margin": 0.13, "margin": 0.5,`, 1), "field params.margin appears twice"},
	} {
		if c.in == good {
			t.Fatalf("the edit for %q changed nothing", c.want)
		}
		_, err := ParseFile("c.json", []byte(c.in))
		if want := "calibration file c.json: " + c.want; err == nil || err.Error() != want {
			t.Errorf("got %v, want %s", err, want)
		}
	}
}

// FuzzParseFile: no input makes ParseFile panic, and every file it
// accepts has the invariants the gate relies on; a file it accepts
// writes back to one it accepts again, equal to it.
func FuzzParseFile(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "calibration", "*.json"))
	if len(seeds) == 0 {
		f.Fatal("no seeds in testdata/calibration/*.json")
	}
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseFile("c.json", b)
		if err != nil {
			return
		}
		if !(c.Floor > 0) || c.Floor > c.Observed.Max || len(c.Suite) == 0 || c.FloorText == "" {
			t.Fatalf("accepted a file the gate cannot trust: %+v", c)
		}
		for _, s := range c.Suite {
			if d := c.DirectionOf(s); d != HigherIsBetter && d != LowerIsBetter {
				t.Fatalf("suite benchmark %q has no direction", s)
			}
		}
		var buf bytes.Buffer
		if err := c.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseFile("again.json", buf.Bytes()); err != nil {
			t.Fatalf("a file ParseFile accepted does not read back: %v", err)
		}
	})
}
