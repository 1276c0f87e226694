package formats

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readFixture opens a testdata file with format detection and reads it.
func readFixture(t *testing.T, path string) ([]Record, []string, *Format) {
	t.Helper()
	f, err := OpenFile(filepath.Join("testdata", path), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, notes, err := ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs, notes, f.Format
}

// summary counts samples per benchmark and unit.
func summary(recs []Record) map[string]int {
	out := map[string]int{}
	for _, r := range recs {
		out[r.Benchmark+" "+r.Unit]++
	}
	return out
}

func TestGobenchFixture(t *testing.T) {
	recs, _, f := readFixture(t, "gobench/base.txt")
	if f.Name != "gobench" {
		t.Fatalf("detected %s", f.Name)
	}
	want := map[string]int{
		"BenchmarkJoin/parts=16-2 sec/op": 5, "BenchmarkJoin/parts=16-2 B/op": 5, "BenchmarkJoin/parts=16-2 allocs/op": 5,
		"BenchmarkJoin/parts=256-2 sec/op": 5, "BenchmarkJoin/parts=256-2 B/op": 5, "BenchmarkJoin/parts=256-2 allocs/op": 5,
		"BenchmarkUpper-2 sec/op": 5, "BenchmarkUpper-2 B/s": 5,
	}
	if diff := cmp.Diff(want, summary(recs)); diff != "" {
		t.Errorf("samples (-want +got):\n%s", diff)
	}
	// The first line: 1128 ns/op is 1.128e-6 sec/op after benchfmt's unit
	// tidying; 195.65 MB/s is 195.65e6 B/s.
	first := recs[0]
	if first.Line != 5 || math.Abs(first.Value-1128e-9) > 1e-18 || first.Sample != 0 {
		t.Errorf("first record %+v", first)
	}
	for _, r := range recs {
		if r.Benchmark == "BenchmarkUpper-2" && r.Unit == "B/s" && r.Sample == 0 && math.Abs(r.Value-195.65e6) > 1 {
			t.Errorf("MB/s not tidied to B/s: %v", r.Value)
		}
	}
	wantLabels := map[string]string{"goos": "linux", "goarch": "amd64", "pkg": "fixture", "cpu": "AMD EPYC"}
	if diff := cmp.Diff(wantLabels, recs[0].Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
}

func TestGobenchStress(t *testing.T) {
	recs, _, _ := readFixture(t, "gobench/stress-unicode.txt")
	name := "BenchmarkÜberLongName/with/many/levels/size=1048576/mode=très-long-sub-benchmark-name-8"
	want := map[string]int{name + " sec/op": 2, name + " widgets/op": 2, "BenchmarkOther-8 sec/op": 1}
	if diff := cmp.Diff(want, summary(recs)); diff != "" {
		t.Errorf("samples (-want +got); 0 B/op and 0 allocs/op are left out:\n%s", diff)
	}
	if got := recs[len(recs)-1].Labels["pkg"]; got != "example.com/other" {
		t.Errorf("pkg label of the last result %q", got)
	}
}

func TestGbenchFixture(t *testing.T) {
	recs, notes, f := readFixture(t, "gbench/base.json")
	if f.Name != "gbench" || len(notes) != 0 {
		t.Fatalf("detected %s, notes %q", f.Name, notes)
	}
	want := map[string]int{
		"BM_Sort/256 sec/op": 3, "BM_Sort/256 cpu-sec/op": 3, "BM_Sort/256 items/s": 3,
		"BM_Sort/4096 sec/op": 3, "BM_Sort/4096 cpu-sec/op": 3, "BM_Sort/4096 items/s": 3,
		"BM_MapFind sec/op": 3, "BM_MapFind cpu-sec/op": 3,
	}
	if diff := cmp.Diff(want, summary(recs)); diff != "" {
		t.Errorf("samples, aggregates skipped (-want +got):\n%s", diff)
	}
	// real_time 62046.054128186035 ns is 6.2046e-5 s.
	if r := recs[0]; r.Unit != "sec/op" || math.Abs(r.Value-62046.054128186035e-9) > 1e-15 {
		t.Errorf("first record %+v", r)
	}
	if recs[0].Labels["library_build_type"] != "debug" || recs[0].Labels["num_cpus"] != "2" || recs[0].Labels["date"] != "" {
		t.Errorf("labels %v", recs[0].Labels)
	}
	recs, notes, _ = readFixture(t, "gbench/cand-aggregates-only.json")
	if len(notes) != 1 || !strings.Contains(notes[0], "holds only aggregates") {
		t.Errorf("notes %q", notes)
	}
	if got := summary(recs)["BM_Sort/256 sec/op"]; got != 1 {
		t.Errorf("aggregates only: %d samples of BM_Sort/256, want its median only", got)
	}
	recs, notes, _ = readFixture(t, "gbench/stress-errors.json")
	want = map[string]int{"BM_ünïcode/64 sec/op": 2, "BM_ünïcode/64 cpu-sec/op": 2, "BM_Seconds sec/op": 1, "BM_Seconds cpu-sec/op": 1}
	if diff := cmp.Diff(want, summary(recs)); diff != "" {
		t.Errorf("stress (-want +got):\n%s", diff)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "BM_Broken reported an error (setup failed): left out") {
		t.Errorf("notes %q", notes)
	}
	if recs[0].Value != 1.5e-3 {
		t.Errorf("ms not converted: %v", recs[0].Value)
	}
}

func TestHyperfineFixture(t *testing.T) {
	recs, _, f := readFixture(t, "hyperfine/ab.json")
	if f.Name != "hyperfine" {
		t.Fatalf("detected %s", f.Name)
	}
	if diff := cmp.Diff(map[string]int{"old sec": 10, "new sec": 10}, summary(recs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if recs[0].Value != 0.00786155968 {
		t.Errorf("first time %v", recs[0].Value)
	}
	recs, notes, _ := readFixture(t, "hyperfine/stress-no-times.json")
	if len(recs) != 2 || recs[0].Value != 1.2 || recs[1].Value != 0.101 || len(notes) != 2 {
		t.Errorf("no times: %+v, notes %q", recs, notes)
	}
}

func TestPytestFixture(t *testing.T) {
	recs, _, f := readFixture(t, "pytest-benchmark/base.json")
	if f.Name != "pytest-benchmark" {
		t.Fatalf("detected %s", f.Name)
	}
	s := summary(recs)
	if len(s) != 2 || s["test_total sec"] < 5 || s["test_join sec"] < 5 {
		t.Errorf("samples %v: want both tests with their raw timings", s)
	}
	l := recs[0].Labels
	if l["machine_info.node"] != "vm" || l["machine_info.python_version"] != "3.11.2" || l["commit_info.id"] != "unversioned" || l["machine_info.cpu.brand"] != "AMD EPYC" {
		t.Errorf("labels %v", l)
	}
	recs, notes, _ := readFixture(t, "pytest-benchmark/stress-no-data.json")
	want := map[string]int{"tests/test_x.py::test_a[param-ü] sec": 1, "tests/test_y.py::test_a[param-ü] sec": 3}
	if diff := cmp.Diff(want, summary(recs)); diff != "" || len(notes) != 1 {
		t.Errorf("(-want +got):\n%s\nnotes %q", diff, notes)
	}
}

// TestJSONFormatErrors: bad input in each JSON format names the file and
// the line or the JSON path, never panics.
func TestJSONFormatErrors(t *testing.T) {
	tests := []struct {
		format, input, want string
	}{
		{"gbench", "{\n\"context\": {},\n\"benchmarks\": [\n{\"name\": \"a\", \"real_time\": 1", "f.json:4: truncated JSON: unexpected end of input"},
		{"gbench", `{"context": {}, "benchmarks": []}`, `f.json: the "benchmarks" array is empty`},
		{"gbench", `{"context": {}}`, `f.json: no "benchmarks" array: not Google Benchmark JSON`},
		{"gbench", "{\"context\": {},\n\"benchmarks\": [{\"name\": \"a\", \"real_time\": \"fast\"}]}", "f.json:2: benchmarks[0].real_time: expected a number, got string"},
		{"gbench", `{"context": {}, "benchmarks": [{"name": "a", "real_time": -1, "time_unit": "ns"}]}`, "f.json: benchmarks[0].real_time: value -1 is not positive: measurements must be > 0"},
		{"gbench", `{"context": {}, "benchmarks": [{"name": "a", "real_time": 1e-145, "time_unit": "ns"}]}`, "f.json: benchmarks[0].real_time: value 1e-154 is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number"},
		{"hyperfine", `{"results": [{"command": "a", "times": [0.1, 1e308]}]}`, "f.json: results[0].times[1]: value 1e+308 is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number"},
		{"pytest-benchmark", `{"machine_info": {}, "benchmarks": [{"name": "t", "stats": {"data": [1e-320]}}]}`, "f.json: benchmarks[0].stats.data[0]: value 1e-320 is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number"},
		{"gobench", "BenchmarkX-8 100 1e160 ns/op\n", "f.json:1: benchmark BenchmarkX-8: sec/op: value 1e+151 is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number"},
		{"gbench", `{"context": {}, "benchmarks": [{"name": "a", "real_time": 1, "time_unit": "fortnights"}]}`, `f.json: benchmarks[0].time_unit: "fortnights", expected ns, us, ms or s`},
		{"hyperfine", `{"results": []}`, `f.json: the "results" array is empty`},
		{"hyperfine", `{"results": [{"command": "a", "times": [0.1, 0]}]}`, "f.json: results[0].times[1]: value 0 is not positive: measurements must be > 0"},
		{"hyperfine", "{\"results\": [\n{\"command\": 7}]}", "f.json:2: results[0].command: expected a string, got number"},
		{"hyperfine", `{"results": [{"command": "a", "times": [1]}, {"command": "a", "times": [1]}]}`, `f.json: results[1].command: "a" appears twice: name the commands apart with hyperfine -n`},
		{"pytest-benchmark", `{"machine_info": {}, "benchmarks": []}`, `f.json: the "benchmarks" array is empty`},
		{"pytest-benchmark", `{"machine_info": {}, "benchmarks": [{"name": "t", "stats": {}}]}`, "f.json: benchmarks[0]: t has no stats.data and no stats.median"},
		{"pytest-benchmark", `{"machine_info": {}, "benchmarks": [{"name": "t", "stats": {"data": [1, "x"]}}]}`, "f.json:1: benchmarks[0].stats.data[1]: expected a number, got string"},
		// Go type names used to leak into these ([]struct { Command string "json:\"command\""...}, []data.gbenchRow).
		{"hyperfine", "{\"results\": [\n  {\"command\": \"a\", \"times\": [1]},\n  {\"command\": \"b\", \"times\": \"0.1 0.2\"}]}", "f.json:3: results[1].times: expected an array of numbers, got string"},
		{"hyperfine", `{"results": "none"}`, "f.json:1: results: expected an array of objects, got string"},
		{"hyperfine", `{"results": [{"command": "a", "times": {"x": 1}}]}`, "f.json:1: results[0].times: expected an array of numbers, got object"},
		{"gbench", `{"context": {"num_cpus": 2}, "benchmarks": {"name": "a"}}`, "f.json:1: benchmarks: expected an array of objects, got object"},
		{"gbench", `{"context": {"num_cpus": 2}, "benchmarks": [{"name": "a", "real_time": 1}, {"name": ["x"], "real_time": 1}]}`, "f.json:1: benchmarks[1].name: expected a string, got array"},
		{"pytest-benchmark", `{"machine_info": {}, "benchmarks": [{"name": "t", "stats": {"data": [1], "median": "x, \"y\"]"}}]}`, "f.json:1: benchmarks[0].stats.median: expected a number, got string"},
		{"pytest-benchmark", `[1, 2]`, "f.json:1: the top level: expected an object, got array"},
		{"gobench", "BenchmarkX-8 100 12x4 ns/op\nBenchmarkY-8 100 5 ns/op\n", `f.json:1: benchmark BenchmarkX-8: ns/op: value "12x4" is not a plain decimal number: expected digits with an optional point and exponent, as benchmarks print them (5514093, 0.072, 1.5e-9)`},
	}
	for _, tt := range tests {
		_, errs, err := parseAll(t, tt.format, "f.json", []byte(tt.input))
		if err != nil {
			errs = append(errs, err.Error())
		}
		if len(errs) == 0 || errs[0] != tt.want {
			t.Errorf("%s %q:\n got %q\nwant %q", tt.format, tt.input, errs, tt.want)
		}
	}
}

func TestDetectFormats(t *testing.T) {
	for path, want := range map[string]string{
		"gobench/base.txt": "gobench", "gbench/base.json": "gbench", "hyperfine/base.json": "hyperfine",
		"pytest-benchmark/base.json": "pytest-benchmark", "ops/hoard.txt": "ops", "csv/two-runs.csv": "csv",
	} {
		b, err := os.ReadFile(filepath.Join("testdata", path))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range FormatNames() {
			if registry[n].Detect(b[:min(len(b), sniffLen)]) {
				got = append(got, n)
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s is detected as %v, want only %s", path, got, want)
		}
	}
}

func FuzzGobench(f *testing.F)   { fuzzFormat(f, "gobench", "gobench/*.txt") }
func FuzzGbench(f *testing.F)    { fuzzFormat(f, "gbench", "gbench/*.json") }
func FuzzHyperfine(f *testing.F) { fuzzFormat(f, "hyperfine", "hyperfine/*.json") }
func FuzzPytest(f *testing.F)    { fuzzFormat(f, "pytest-benchmark", "pytest-benchmark/*.json") }

func fuzzFormat(f *testing.F, format, glob string) {
	for _, b := range seedFiles(f, glob) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { fuzzParse(t, format, b) })
}
