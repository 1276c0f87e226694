package formats

import (
	"fmt"
	"strings"
	"testing"

	"github.com/qoscal/qoscal/data"
)

// TestGobenchLines: what benchfmt cannot say about a line of Go benchmark
// output is said at the line, and the lines around it are read.
func TestGobenchLines(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	rec := func(line int, name string, sample int, ns float64) Record {
		return Record{Line: line, Measurement: data.Measurement{Benchmark: name, Sample: sample, Value: ns * nano, Unit: "sec/op"}}
	}
	const truncated = `: expected a whole result line, "BenchmarkNAME ITERATIONS VALUE UNIT...", ending with a newline as go test prints every line: the file was cut while it was written`
	tests := []struct {
		name   string
		input  string
		want   []Record
		errors []string
	}{{
		name:   "a file cut in the middle of its last result line (the value); the lines before it are read",
		input:  "BenchmarkA-2 1000 100 ns/op\nBenchmarkB-2 1000 12",
		want:   []Record{rec(1, "BenchmarkA-2", 0, 100)},
		errors: []string{`f:2: truncated last line "BenchmarkB-2 1000 12"` + truncated},
	}, {
		name:   "cut in the middle of the unit, where the line still reads as a result (ns/o)",
		input:  "BenchmarkA-2 1000 100 ns/op\nBenchmarkA-2 1000 100 ns/o",
		want:   []Record{rec(1, "BenchmarkA-2", 0, 100)},
		errors: []string{`f:2: truncated last line "BenchmarkA-2 1000 100 ns/o"` + truncated},
	}, {
		name:   "cut in the name",
		input:  "BenchmarkA-2 1000 100 ns/op\nBenchmarkJo",
		want:   []Record{rec(1, "BenchmarkA-2", 0, 100)},
		errors: []string{`f:2: truncated last line "BenchmarkJo"` + truncated},
	}, {
		name:  "a last line without a newline that is no result line is not a cut result",
		input: "BenchmarkA-2 1000 100 ns/op\nPASS\nok  \tfixture\t0.4",
		want:  []Record{rec(1, "BenchmarkA-2", 0, 100)},
	}, {
		name:   "a result line longer than benchfmt reads is an error at its line, and reading goes on (it was 'f:0: bufio.Scanner: token too long', and the end of the file)",
		input:  "BenchmarkA-2 1000 100 ns/op\nBenchmarkB-2 1000 1" + long(70000) + " ns/op\nBenchmarkA-2 1000 101 ns/op\n",
		want:   []Record{rec(1, "BenchmarkA-2", 0, 100), rec(3, "BenchmarkA-2", 1, 101)},
		errors: []string{fmt.Sprintf("f:2: line of %d bytes: a Go benchmark result or configuration line may be at most 65535 bytes (golang.org/x/perf/benchfmt's limit)", len("BenchmarkB-2 1000 1"+long(70000)+" ns/op"))},
	}, {
		name:   "so is a configuration line",
		input:  "pkg: " + long(70000) + "\nBenchmarkA-2 1000 100 ns/op\n",
		want:   []Record{rec(2, "BenchmarkA-2", 0, 100)},
		errors: []string{"f:1: line of 70005 bytes: a Go benchmark result or configuration line may be at most 65535 bytes (golang.org/x/perf/benchfmt's limit)"},
	}, {
		name:  "any other long line (a test's log output) is passed over, as benchfmt passes over such lines",
		input: "BenchmarkA-2 1000 100 ns/op\n    bench_test.go:12: " + long(70000) + "\nBenchmarkA-2 1000 101 ns/op\n",
		want:  []Record{rec(1, "BenchmarkA-2", 0, 100), rec(3, "BenchmarkA-2", 1, 101)},
	}, {
		name:   "a line longer than any text result file may have ends the reading there, naming the limit",
		input:  "BenchmarkA-2 1000 100 ns/op\nBenchmarkB-2 1000 1" + long(2<<20) + " ns/op\nBenchmarkA-2 1000 101 ns/op\n",
		want:   []Record{rec(1, "BenchmarkA-2", 0, 100)},
		errors: []string{"f:2: line longer than 1048576 bytes (1 MiB), the limit for a line of a text result file: expected the lines a benchmark suite prints"},
	}, {
		name:   "errors and records come in line order",
		input:  "BenchmarkA-2 1000 100 ns/op\nBenchmarkB-2 1000 1_0 ns/op\nBenchmarkC-2 1000\nBenchmarkA-2 1000 101 ns/op\nBenchmarkB-2 x 1 ns/op\n",
		want:   []Record{rec(1, "BenchmarkA-2", 0, 100), rec(4, "BenchmarkA-2", 1, 101)},
		errors: []string{`f:2: benchmark BenchmarkB-2: ns/op: value "1_0"` + notPlain, "f:3: missing measurements", "f:5: parsing iteration count: invalid syntax"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs, err := parseAll(t, "gobench", "f", []byte(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i].Labels = nil
			}
			if len(got) != len(tt.want) {
				t.Errorf("records %+v\nwant %+v", got, tt.want)
			} else {
				for i := range got {
					if fmt.Sprint(got[i]) != fmt.Sprint(tt.want[i]) {
						t.Errorf("record %d: %+v\nwant %+v", i, got[i], tt.want[i])
					}
				}
			}
			if strings.Join(errs, "\n") != strings.Join(tt.errors, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(tt.errors, "\n"))
			}
		})
	}
}
