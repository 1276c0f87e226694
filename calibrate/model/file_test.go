package model_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// validFile is the calibration file of the worked example (five runs,
// margin 13%, step 0.05: floor 1.25), as recommend --write makes it.
func validFile(t testing.TB) []byte {
	t.Helper()
	a, r := calibtest.WorkedRecommendation(t)
	var buf bytes.Buffer
	if err := floor.NewFile(a, r, map[string]string{"os": "windows"}, time.Unix(1796112000, 0), "qoscal test").Write(&buf); err != nil {
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

// TestParseFileRefuses: every field of a calibration
// file is checked on read, and a file whose fields disagree or lie is
// refused with the field named — never judged against a floor that is not
// the one it prints.
func TestParseFileRefuses(t *testing.T) {
	good := validFile(t)
	if _, err := model.ParseFile("c.json", good); err != nil {
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
			"field runs 0: the margin method needs at least 2 calibration runs, as qoscal recommend does"},
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
		{"an expected skip with a line break forges output lines",
			func(m map[string]any) { m["expected_skips"] = []any{"x\n::error::y"} },
			`field expected_skips[0] "x\n::error::y" holds the control character U+000A at byte 1: names must be printable text on one line`},
		{"expected skips out of order, or twice: not as recommend writes them",
			func(m map[string]any) { m["expected_skips"] = []any{"xmalloc-test", "xmalloc-test"} },
			"field expected_skips: xmalloc-test after xmalloc-test: expected the names sorted, each once"},
	} {
		_, err := model.ParseFile("c.json", edit(t, good, c.change))
		want := "calibration file c.json: " + c.want
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", c.reason, err, want)
		}
	}
}

// TestExpectSkips: the expected skips are the names skipped in every run
// of the matrix, sorted; a name some runs printed is not expected, and a
// file without any writes no expected_skips field at all (so that a
// calibration of a suite without skips is what it was before the field).
func TestExpectSkips(t *testing.T) {
	good := validFile(t)
	f, err := model.ParseFile("c.json", good)
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[string][]string{}
	for i, id := range f.Matrix.Runs {
		skipped[id] = []string{"xmalloc-test", "z-crash"}
		if i == 0 {
			skipped[id] = []string{"a-sometimes", "xmalloc-test", "z-crash"}
		}
		if i == 1 {
			skipped[id] = []string{"xmalloc-test"}
		}
	}
	skipped["not-in-the-matrix"] = []string{"a-sometimes"}
	f.ExpectSkips(skipped)
	if want := []string{"xmalloc-test"}; fmt.Sprint(f.ExpectedSkips) != fmt.Sprint(want) {
		t.Errorf("ExpectedSkips = %q, want %q", f.ExpectedSkips, want)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := model.ParseFile("c.json", buf.Bytes())
	if err != nil {
		t.Fatalf("a file with expected skips is refused: %v", err)
	}
	if fmt.Sprint(back.ExpectedSkips) != "[xmalloc-test]" {
		t.Errorf("read back: %q", back.ExpectedSkips)
	}
	if bytes.Contains(good, []byte("expected_skips")) {
		t.Errorf("a file without skips writes the field:\n%s", good)
	}
}

// TestParseFileModel: a version 2 file carries the matrix, and its
// figures must follow from it.
func TestParseFileModel(t *testing.T) {
	good := validFile(t)
	f, err := model.ParseFile("c.json", good)
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
	a, _ := spread.Analyze(calibtest.FiveRuns(t), spread.Options{})
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
			"field floor 1.3 is not what the margin method gives on the matrix (1.25)"},
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
		{"no log ratios",
			func(m map[string]any) { delete(obj(m, "matrix"), "log_ratio") },
			"field matrix.log_ratio is missing"},
		{"log ratios null",
			func(m map[string]any) { obj(m, "matrix")["log_ratio"] = nil },
			"field matrix.log_ratio is missing"},
		{"no run ids",
			func(m map[string]any) { delete(obj(m, "matrix"), "runs") },
			"field matrix.runs is missing"},
	} {
		_, err := model.ParseFile("c.json", edit(t, good, c.change))
		if want := "calibration file c.json: " + c.want; err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", c.reason, err, want)
		}
	}
}

// TestParseFileThin: a floor rests on at least MinCalibrationRuns runs, by
// every method, as recommend requires. A file cut to one run, its figures
// made to agree with that run, once passed a run at 1.00x against a floor
// 0.5 that no matrix could check; it is refused with the field and the
// count named. From two runs on, the floor is checked against the matrix.
func TestParseFileThin(t *testing.T) {
	good := validFile(t)
	one := func(method string) func(m map[string]any) {
		return func(m map[string]any) {
			mx := obj(m, "matrix")
			mx["runs"] = mx["runs"].([]any)[:1]
			row := mx["log_ratio"].([]any)[0].([]any)
			for j := range row {
				row[j] = 0.4
			}
			mx["log_ratio"] = []any{row}
			s := math.Exp(0.4)
			m["runs"] = 1
			m["observed"] = map[string]any{"min": s, "median": s, "max": s, "mean_log": 0.4, "sd_log": 0}
			m["floor"], m["floor_text"], m["method"] = 0.5, "0.50", method
			obj(m, "params")["alpha"], obj(m, "params")["coverage"], obj(m, "params")["confidence"] = 0.05, 0.9, 0.95
			obj(m, "params")["target_fpr"] = 0.001
		}
	}
	for _, method := range []model.Method{model.MethodMargin, model.MethodTargetFPR, model.MethodPrediction, model.MethodTolerance} {
		_, err := model.ParseFile("c.json", edit(t, good, one(string(method))))
		want := fmt.Sprintf("calibration file c.json: field runs 1: the %s method needs at least 2 calibration runs, as qoscal recommend does", method)
		if err == nil || err.Error() != want {
			t.Errorf("%s, one run:\n got %v\nwant %s", method, err, want)
		}
	}
	// Two runs: the file recommend writes is read, and its floor lowered
	// by hand is refused.
	a, err := spread.Analyze(calibtest.FiveRuns(t)[:2], spread.Options{NoRegimes: true})
	if err != nil {
		t.Fatal(err)
	}
	opt := model.DefaultRecommendOptions
	opt.Method, opt.Margin, opt.Step = model.MethodMargin, 0.13, 0.05
	r, err := floor.Recommend(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := floor.NewFile(a, r, nil, time.Unix(1796112000, 0), "qoscal test").Write(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := model.ParseFile("two.json", buf.Bytes()); err != nil {
		t.Fatalf("the file of two runs is refused: %v", err)
	}
	_, err = model.ParseFile("two.json", edit(t, buf.Bytes(), func(m map[string]any) { m["floor"], m["floor_text"] = 0.5, "0.50" }))
	if want := "calibration file two.json: field floor 0.5 is not what the margin method gives on the matrix"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("two runs, floor lowered to 0.5:\n got %v\nwant %s...", err, want)
	}
}

// TestParseFileVersion1: a version 1 file has no matrix, so its floor is
// a number nothing checks; it is refused, saying how to write it again.
func TestParseFileVersion1(t *testing.T) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "calibration", "v1-*.json"))
	if len(seeds) == 0 {
		t.Fatal("no version 1 files in testdata/calibration")
	}
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		_, err = model.ParseFile("v1.json", b)
		if !errors.Is(err, model.ErrVersion1) || err.Error() != "calibration file v1.json: "+model.ErrVersion1.Error() {
			t.Errorf("%s: got %v, want ErrVersion1", s, err)
		}
	}
	// A version 2 file relabelled 1, matrix and all, is refused alike.
	_, err := model.ParseFile("c.json", edit(t, validFile(t), func(m map[string]any) { m["version"] = 1 }))
	if !errors.Is(err, model.ErrVersion1) {
		t.Errorf("version 2 file relabelled 1: got %v, want ErrVersion1", err)
	}
	if !strings.Contains(model.ErrVersion1.Error(), "cannot be checked against the runs it came from") {
		t.Errorf("ErrVersion1 does not say why the file is refused: %v", model.ErrVersion1)
	}
}

// TestParseFileUnknownField: a field the reader does not know is refused
// with its path named, at the top and inside each struct object; keys of
// the maps (benchmark names, labels) are free.
func TestParseFileUnknownField(t *testing.T) {
	good := validFile(t)
	for _, c := range []struct {
		reason string
		change func(m map[string]any)
		want   string
	}{
		{"a note at the top",
			func(m map[string]any) { m["comment"] = "hand-tuned" },
			"field comment is unknown: expected only the fields of a calibration file (docs/json.md)"},
		{"a second floor inside params",
			func(m map[string]any) { obj(m, "params")["floor"] = 0.5 },
			"field params.floor is unknown: expected only the fields of a calibration file (docs/json.md)"},
		{"the floor spelt in capitals alone, which Go's decoder would read as floor",
			func(m map[string]any) { m["FLOOR"] = m["floor"]; delete(m, "floor") },
			"field FLOOR is unknown: expected only the fields of a calibration file (docs/json.md)"},
		{"inside a unit",
			func(m map[string]any) { obj(obj(m, "units"), "larson")["scale"] = 2 },
			"field units.larson.scale is unknown: expected only the fields of a calibration file (docs/json.md)"},
		{"inside the matrix",
			func(m map[string]any) { obj(m, "matrix")["weights"] = []any{1} },
			"field matrix.weights is unknown: expected only the fields of a calibration file (docs/json.md)"},
		{"a key with a line break is quoted",
			func(m map[string]any) { m["x\n::error::forged"] = 1 },
			`field "x\n::error::forged" is unknown: expected only the fields of a calibration file (docs/json.md)`},
	} {
		_, err := model.ParseFile("c.json", edit(t, good, c.change))
		if want := "calibration file c.json: " + c.want; err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", c.reason, err, want)
		}
	}
	// Labels are a map: any key is a label.
	if _, err := model.ParseFile("c.json", edit(t, good, func(m map[string]any) { obj(m, "labels")["comment"] = "x" })); err != nil {
		t.Errorf("a label named comment is refused: %v", err)
	}
}

// TestReadFileSize: a file above MaxFileBytes is refused before it is
// read (a sparse 200 MB file: reading it would take 200 MB), with the
// limit named.
func TestReadFileSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(p, validFile(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 200<<20); err != nil {
		t.Fatal(err)
	}
	_, err := model.ReadFile(p)
	want := fmt.Sprintf("calibration file %s: 209715200 bytes, more than the 128 MiB (134217728 bytes) a calibration file may hold", p)
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// At the limit exactly, the size is no reason to refuse; one byte past
	// it is, whether stat saw it or only the read (/proc files have size 0).
	small := validFile(t)
	if err := os.WriteFile(p, small, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := model.ReadFileLimit(p, int64(len(small))); err != nil {
		t.Errorf("a file of the limit exactly: %v", err)
	}
	_, err = model.ReadFileLimit(p, int64(len(small))-1)
	want = fmt.Sprintf("calibration file %s: %d bytes, more than the %d bytes a calibration file may hold", p, len(small), len(small)-1)
	if err == nil || err.Error() != want {
		t.Errorf("one byte past the limit:\n got %v\nwant %s", err, want)
	}
	// A file whose size stat does not know (Linux's /proc files say 0) is
	// stopped by the read.
	if st, err := os.Stat("/proc/self/maps"); err == nil && st.Size() == 0 {
		_, err := model.ReadFileLimit("/proc/self/maps", 10)
		if want := "calibration file /proc/self/maps: more than the 10 bytes a calibration file may hold"; err == nil || err.Error() != want {
			t.Errorf("/proc/self/maps:\n got %v\nwant %s", err, want)
		}
	}
}

// TestFileSize: the largest calibration this limit is meant for, 100,000
// runs of 20 benchmarks, fits in MaxFileBytes with room to spare, even with
// every value at its longest (a negative log ratio with an exponent, 23
// bytes) and 40-byte run ids. Typical values (about 19 bytes) make 42 MB.
func TestFileSize(t *testing.T) {
	const n, k = 100000, 20
	m := &model.Matrix{LogRatio: make([][]float64, n)}
	for j := range k {
		m.Benchmarks = append(m.Benchmarks, fmt.Sprintf("BenchmarkEncode/size=%02d-8", j))
	}
	row := make([]float64, k)
	for j := range row {
		row[j] = -1.2345678901234567e-05
	}
	for i := range n {
		m.Runs = append(m.Runs, fmt.Sprintf("github-run-%029d", i))
		m.LogRatio[i] = row
	}
	f := &model.File{Schema: model.FileSchema, Version: model.FileVersion, Suite: m.Benchmarks, Matrix: m}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > model.MaxFileBytes/2 {
		t.Errorf("a calibration of %d runs of %d benchmarks takes %d bytes, more than half of MaxFileBytes (%d)", n, k, buf.Len(), model.MaxFileBytes)
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
		_, err := model.ParseFile("c.json", []byte(c.in))
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
		c, err := model.ParseFile("c.json", b)
		if err != nil {
			return
		}
		if !(c.Floor > 0) || c.Floor > c.Observed.Max || len(c.Suite) == 0 || c.FloorText == "" {
			t.Fatalf("accepted a file the gate cannot trust: %+v", c)
		}
		for _, s := range c.Suite {
			if d := c.DirectionOf(s); d != calibrate.HigherIsBetter && d != calibrate.LowerIsBetter {
				t.Fatalf("suite benchmark %q has no direction", s)
			}
		}
		var buf bytes.Buffer
		if err := c.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := model.ParseFile("again.json", buf.Bytes()); err != nil {
			t.Fatalf("a file ParseFile accepted does not read back: %v", err)
		}
	})
}

// TestCheckKeys: the key walker steps over strings holding quotes,
// braces and brackets, arrays of any depth and literals, and finds every
// key of the objects it checks, under any white space.
func TestCheckKeys(t *testing.T) {
	for _, c := range []struct {
		reason, in string
		present    []string
		want       string // the error, "" for none
	}{
		{"strings with quotes, braces and escapes are stepped over",
			`{"tool": "a \"}\" ] [ {", "labels": {"x\"y": "}{"}, "suite": ["]", "[", "\\"], "floor": 1.5e-3}`,
			[]string{"tool", "labels", "suite", "floor"}, ""},
		{"nested arrays and null",
			"{\"matrix\":{\"runs\":[],\"benchmarks\":null,\"log_ratio\":[[1,-2.5e+3],[[]],[]]}\r\n,\t\"floor\" : null }",
			[]string{"matrix", "matrix.runs", "matrix.log_ratio"}, ""},
		{"a key after a nested object is checked",
			`{"params": {"margin": 0.1}, "bogus": 1}`, nil, "field bogus is unknown: expected only the fields of a calibration file (docs/json.md)"},
		{"a duplicate after an array",
			`{"suite": [1, [2, {"a": 1}]], "suite": []}`, nil, "field suite appears twice"},
		{"an escaped key is compared as decoded",
			`{"floor": 1, "flo\u006fr": 2}`, nil, "field floor appears twice"},
		{"a unit's keys are checked, a label's are not",
			`{"labels": {"any": "x"}, "units": {"b": {"unit": "s", "direction": "lower", "scale": 1}}}`, nil,
			"field units.b.scale is unknown: expected only the fields of a calibration file (docs/json.md)"},
	} {
		present, err := model.CheckKeys([]byte(c.in))
		if c.want != "" {
			if err == nil || err.Error() != c.want {
				t.Errorf("%s: got %v, want %s", c.reason, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.reason, err)
			continue
		}
		for _, p := range c.present {
			if !present[p] {
				t.Errorf("%s: %s not found present in %v", c.reason, p, present)
			}
		}
		if present["floor"] && strings.Contains(c.in, `"floor" : null`) {
			t.Errorf("%s: a null floor counted as present", c.reason)
		}
		if present["matrix.benchmarks"] {
			t.Errorf("%s: null matrix.benchmarks counted as present", c.reason)
		}
	}
}
