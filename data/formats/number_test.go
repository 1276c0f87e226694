package formats

import (
	"strings"
	"testing"
)

// notPlain is the end of the message for a value that is not a plain
// decimal number.
const notPlain = " is not a plain decimal number: expected digits with an optional point and exponent, as benchmarks print them (5514093, 0.072, 1.5e-9)"

// nano is a variable, so that 100 * nano is computed as benchfmt
// computes it (in float64), not as an exact constant.
var nano = 1e-9

// TestPlainDecimals: every format reads a value the same way: a plain
// decimal number (digits, an optional point, an optional exponent), as
// benchmark harnesses print them. Go's strconv.ParseFloat also takes hex
// (0x1p40), underscores (1_000_000_000) and a plus sign (+9e15), which
// the ops, csv and gobench formats let through as numbers; a CSV cell
// with a space before the number (" 1e9") was trimmed and read too. Each
// is now an error at its file and line. A value with many decimals is a
// plain decimal, and reads as the nearest float64, as strconv rounds it.
func TestPlainDecimals(t *testing.T) {
	const d38 = "0.12345678901234567890123456789012345678" // 38 decimals
	tests := []struct {
		name, format, input string
		want                []float64 // the values read, in order
		errors              []string
	}{{
		name:   "ops: hex, plus sign and underscores",
		format: "ops",
		input:  "a: x=1 (0x1p40 ops/sec)\nb: x=1 (+9e15 ops/sec)\nc: x=1 (1_000_000_000 ops/sec)\nd: x=1 (0x10 ops/sec)\ne: x=1 (5 ops/sec)\n",
		want:   []float64{5},
		errors: []string{
			`f:1: benchmark a: value "0x1p40"` + notPlain,
			`f:2: benchmark b: value "+9e15"` + notPlain,
			`f:3: benchmark c: value "1_000_000_000"` + notPlain,
			`f:4: benchmark d: value "0x10"` + notPlain,
		},
	}, {
		name:   "ops: the forms harnesses print, and 38 decimals",
		format: "ops",
		input:  "a: x=1 (5514093 ops/sec)\nb: x=1 (0.072 ops/sec)\nc: x=1 (1.5e-9 ops/sec)\nd: x=1 (1E5 ops/sec)\ne: x=1 (1.5e+06 ops/sec)\nf: x=1 (.5 ops/sec)\ng: x=1 (5. ops/sec)\nh: x=1 (007 ops/sec)\ni: x=1 (" + d38 + " ops/sec)\n",
		want:   []float64{5514093, 0.072, 1.5e-9, 1e5, 1.5e6, 0.5, 5, 7, 0.12345678901234568},
	}, {
		name:   "csv: hex, plus sign, underscores, a space in the cell; a quoted number is a CSV cell like any other",
		format: "csv",
		input:  "run,benchmark,variant,value\nr,a,x,0x1p40\nr,b,x,+9e15\nr,c,x,1_000_000_000\nr,d,x, 1e9\nr,e,x,1e9 \nr,f,x,\"1e12\"\nr,g,x," + d38 + "\n",
		want:   []float64{1e12, 0.12345678901234568},
		errors: []string{
			`f:2: value "0x1p40"` + notPlain,
			`f:3: value "+9e15"` + notPlain,
			`f:4: value "1_000_000_000"` + notPlain,
			`f:5: value " 1e9"` + notPlain,
			`f:6: value "1e9 "` + notPlain,
		},
	}, {
		name:   "gobench: hex, plus sign and underscores in any metric",
		format: "gobench",
		input:  "BenchmarkA-2 1000 0x1p40 ns/op\nBenchmarkB-2 1000 +9e15 ns/op\nBenchmarkC-2 1000 100 ns/op 1_000 B/op\nBenchmarkD-2 1000 100 ns/op\nBenchmarkE-2 1000 " + d38 + " ns/op\n",
		want:   []float64{100 * nano, 0.12345678901234568 * nano}, // ns/op read as sec/op
		errors: []string{
			`f:1: benchmark BenchmarkA-2: ns/op: value "0x1p40"` + notPlain,
			`f:2: benchmark BenchmarkB-2: ns/op: value "+9e15"` + notPlain,
			`f:3: benchmark BenchmarkC-2: B/op: value "1_000"` + notPlain,
		},
	}, {
		name:   "hyperfine: a string where a number is expected",
		format: "hyperfine",
		input:  "{\"results\": [{\"command\": \"a\",\n \"times\": [0.5, \"1e12\"]}]}",
		errors: []string{`f:2: results[0].times[1]: expected a number, got string`},
	}, {
		name:   "hyperfine: 38 decimals",
		format: "hyperfine",
		input:  `{"results": [{"command": "a", "times": [` + d38 + `]}]}`,
		want:   []float64{0.12345678901234568},
	}, {
		name:   "gbench: a string where a number is expected",
		format: "gbench",
		input:  "{\"context\": {\"num_cpus\": 2}, \"benchmarks\": [\n{\"name\": \"BM_A\", \"run_name\": \"BM_A\", \"run_type\": \"iteration\", \"real_time\": \"1e12\", \"time_unit\": \"ns\"}]}",
		errors: []string{`f:2: benchmarks[0].real_time: expected a number, got string`},
	}, {
		name:   "pytest-benchmark: a string where a number is expected",
		format: "pytest-benchmark",
		input:  "{\"machine_info\": {}, \"benchmarks\": [{\"name\": \"test_a\",\n \"stats\": {\"data\": [\"1e12\"]}}]}",
		errors: []string{`f:2: benchmarks[0].stats.data[0]: expected a number, got string`},
	}, {
		name:   "hyperfine: a number too large for a float64 is out of range, not 'a number expected, got number'",
		format: "hyperfine",
		input:  `{"results": [{"command": "a", "times": [1e999]}]}`,
		errors: []string{`f:1: results[0].times[0]: value 1e999 is outside the accepted range [1e-150, 1e150]: a ratio of two values must stay a finite, normal number`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, errs, err := parseAll(t, tt.format, "f", []byte(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			var got []float64
			for _, r := range recs {
				got = append(got, r.Value)
			}
			if strings.Join(errs, "\n") != strings.Join(tt.errors, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(tt.errors, "\n"))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("values %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("value %d: %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}
