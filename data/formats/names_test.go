package formats

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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
