package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckName(t *testing.T) {
	const tail = ": names must be printable text on one line"
	long := strings.Repeat("x", 201)
	tests := []struct {
		name, input, want, reason string
	}{
		{"plain", "BenchmarkJoin/parts=16-8", "", ""},
		{"unicode letters", "BM_ünïcode/64", "", ""},
		{"a literal U+FFFD is a character", "a\ufffdb", "", ""},
		{"starts with ::", "::warning::x", "", "the output side neutralises these; the data layer takes them"},
		{"200 bytes", strings.Repeat("x", 200), "", "the limit itself"},
		{"201 bytes", long, `benchmark name "` + long[:80] + `..." is 201 bytes long: names are limited to 200 bytes`, ""},
		{"LF", "a\nb", `benchmark name "a\nb" holds the control character U+000A at byte 1` + tail, ""},
		{"CR", "a\r::error::x", `benchmark name "a\r::error::x" holds the control character U+000D at byte 1` + tail, "a CR then :: would start a workflow command"},
		{"tab", "\tx", `benchmark name "\tx" holds the control character U+0009 at byte 0` + tail, ""},
		{"ESC", "a\x1b[31m", `benchmark name "a\x1b[31m" holds the control character U+001B at byte 1` + tail, ""},
		{"DEL", "a\x7f", `benchmark name "a\x7f" holds the control character U+007F at byte 1` + tail, ""},
		{"C1 NEL", "a\u0085b", `benchmark name "a\u0085b" holds the control character U+0085 at byte 1` + tail, ""},
		{"line separator", "a\u2028b", `benchmark name "a\u2028b" holds the line separator U+2028 at byte 1` + tail, ""},
		{"paragraph separator", "a\u2029b", `benchmark name "a\u2029b" holds the paragraph separator U+2029 at byte 1` + tail, ""},
		{"not UTF-8", "a\xffb", `benchmark name "a\xffb" holds a byte that is not UTF-8 at byte 1` + tail, ""},
		{"right-to-left override", "a\u202eb", `benchmark name "a\u202eb" holds the bidirectional control U+202E at byte 1` + tail, "reverses the rest of a log line"},
		{"isolate", "a\u2067b", `benchmark name "a\u2067b" holds the bidirectional control U+2067 at byte 1` + tail, ""},
		{"zero-width space", "a\u200bb", `benchmark name "a\u200bb" holds the invisible character U+200B at byte 1` + tail, "prints like ab"},
		{"BOM inside", "a\ufeffb", `benchmark name "a\ufeffb" holds the invisible character U+FEFF at byte 1` + tail, ""},
	}
	for _, tt := range tests {
		err := CheckName("benchmark name", tt.input)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s (%s): CheckName(%q)\n got %q\nwant %q", tt.name, tt.reason, tt.input, got, tt.want)
		}
	}
}

// TestNamesInParsers: every parser refuses a name with a control character
// or a line separator, naming the file and the line (or the JSON path).
func TestNamesInParsers(t *testing.T) {
	const tail = ": names must be printable text on one line"
	tests := []struct {
		format, input string
		want          []string
	}{
		{"ops", "a: x=1 (1 ops/sec)\nb\x1b[2K: x=1 (2 ops/sec)\nc\u2028d: x=1 (3 ops/sec)\n", []string{
			`f:2: benchmark name "b\x1b[2K" holds the control character U+001B at byte 1` + tail,
			`f:3: benchmark name "c\u2028d" holds the line separator U+2028 at byte 1` + tail}},
		{"ops", strings.Repeat("n", 201) + ": x=1 (1 ops/sec)\n", []string{
			`f:1: benchmark name "` + strings.Repeat("n", 80) + `..." is 201 bytes long: names are limited to 200 bytes`}},
		{"csv", "run,benchmark,variant,value,unit,label.os\nr\x1b,a,x,1,,\nr,a\u0085b,x,1,,\nr,a,x\u2029y,1,,\nr,a,x,1,s\x7f,\nr,a,x,1,,lin\x1bux\n", []string{
			`f:2: run id "r\x1b" holds the control character U+001B at byte 1` + tail,
			`f:3: benchmark name "a\u0085b" holds the control character U+0085 at byte 1` + tail,
			`f:4: variant name "x\u2029y" holds the paragraph separator U+2029 at byte 1` + tail,
			`f:5: unit "s\x7f" holds the control character U+007F at byte 1` + tail,
			`f:6: label os value "lin\x1bux" holds the control character U+001B at byte 3` + tail}},
		{"csv", "run,benchmark,variant,value,label.o\u2028s\nr,a,x,1,l\n", []string{
			`f:1: column 5: label key "o\u2028s" holds the line separator U+2028 at byte 1` + tail}},
		{"gobench", "BenchmarkA\x1b[31m-8 10 5 ns/op\nBenchmarkB-8 10 5 ns\x1bop\n", []string{
			`f:1: benchmark name "BenchmarkA\x1b[31m-8" holds the control character U+001B at byte 10` + tail,
			`f:2: benchmark BenchmarkB-8: unit "ns\x1bop" holds the control character U+001B at byte 2` + tail}},
		{"gobench", "cpu: AMD\x1b[31m\nBenchmarkA-8 10 5 ns/op\n", []string{
			`f:2: label cpu value "AMD\x1b[31m" holds the control character U+001B at byte 3` + tail}},
		{"gbench", `{"context": {"num_cpus": 2}, "benchmarks": [{"name": "BM_a\n::error::x", "real_time": 1, "time_unit": "ns"}]}`, []string{
			`f: benchmarks[0]: benchmark name "BM_a\n::error::x" holds the control character U+000A at byte 4` + tail}},
		{"gbench", `{"context": {"host_name": "h\u2028"}, "benchmarks": [{"name": "BM_a", "real_time": 1, "time_unit": "ns"}]}`, []string{
			`f: context: label host_name value "h\u2028" holds the line separator U+2028 at byte 1` + tail}},
		{"hyperfine", `{"results": [{"command": "sleep\r0.1", "times": [1]}]}`, []string{
			`f: results[0].command: benchmark name "sleep\r0.1" holds the control character U+000D at byte 5` + tail}},
		{"pytest-benchmark", `{"machine_info": {}, "benchmarks": [{"name": "t\u0000", "stats": {"data": [1]}}]}`, []string{
			`f: benchmarks[0].name: benchmark name "t\x00" holds the control character U+0000 at byte 1` + tail}},
		{"pytest-benchmark", `{"machine_info": {"node": "v\u0085m"}, "benchmarks": [{"name": "t", "stats": {"data": [1]}}]}`, []string{
			`f: label machine_info.node value "v\u0085m" holds the control character U+0085 at byte 1` + tail}},
	}
	for _, tt := range tests {
		_, errs, err := parseAll(t, tt.format, "f", []byte(tt.input))
		if err != nil {
			errs = append(errs, err.Error())
		}
		if diff := cmp.Diff(tt.want, errs); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tt.format, tt.input, diff)
		}
	}
}

// TestNamesFromFlagsAndFolders: variant names, labels and run ids given on
// the command line or taken from folder names are checked too.
func TestNamesFromFlagsAndFolders(t *testing.T) {
	const tail = ": names must be printable text on one line"
	check := func(what string, err error, want string) {
		t.Helper()
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v\nwant %s", what, err, want)
		}
	}
	_, err := ParseVariantSpec("sys\ntem=base.txt")
	check("NAME=FILE", err, `variant name "sys\ntem" holds the control character U+000A at byte 3`+tail)
	_, err = ParseVariantSpec("results/ho\u2028ard.txt")
	check("stem", err, `variant name "ho\u2028ard" holds the line separator U+2028 at byte 2`+tail+" (the stem of results/ho\u2028ard.txt): name the variant with NAME=FILE")
	_, _, err = ParseLabel("os=lin\rux")
	check("label", err, `label os value "lin\rux" holds the control character U+000D at byte 3`+tail)
	_, err = LoadFiles(LoadOptions{RunID: "r\x1b", Baseline: VariantSpec{"a", "a.txt"}, Candidate: VariantSpec{"b", "b.txt"}})
	check("--run", err, `run id "r\x1b" holds the control character U+001B at byte 1`+tail)

	dir := t.TempDir()
	run := dir + "/run\u20281"
	writeFile(t, run+"/a.txt", "x: t=1 (1 ops/sec)\n")
	writeFile(t, run+"/b.txt", "x: t=1 (2 ops/sec)\n")
	_, err = Load([]string{dir}, LoadOptions{Baseline: VariantSpec{"a", "a.txt"}, Candidate: VariantSpec{"b", "b.txt"}})
	check("folder name", err, run+`: run id "run\u20281" holds the line separator U+2028 at byte 3`+tail)
	_, err = Load([]string{run}, LoadOptions{IDPrefix: "\x1b", RunID: "ok", Baseline: VariantSpec{"a", "a.txt"}, Candidate: VariantSpec{"b", "b.txt"}})
	check("--id-prefix", err, run+`: run id "\x1bok" holds the control character U+001B at byte 0`+tail)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
