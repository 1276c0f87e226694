package formats

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readString reads input as a result file of the given format with
// ReadAll, which names benchmarks as the loader does.
func readString(t *testing.T, format, input string) ([]Record, error) {
	t.Helper()
	f, err := LookupFormat(format)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := OpenReader("f", strings.NewReader(input), f)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := ReadAll(tf)
	return recs, err
}

// TestQualifiedNames: a benchmark is its name and what else tells it
// apart in its file (Go package; Google Benchmark family and instance;
// pytest-benchmark module and group). Benchmarks that share a name in one
// file are named by their qualified names; the others keep their names.
// Pooled, a package 3x slower throughout passed a gate on the others.
func TestQualifiedNames(t *testing.T) {
	tests := []struct {
		name, format, input string
		want                map[string]int // samples per benchmark and unit
		err                 string
	}{{
		name:   "gobench: two packages with a BenchmarkParse; a name of one package keeps its name",
		format: "gobench",
		input:  "pkg: example.com/a\nBenchmarkParse-2 10 5 ns/op\nBenchmarkParse-2 10 5 ns/op\nBenchmarkOnly-2 10 5 ns/op\npkg: example.com/b\nBenchmarkParse-2 10 15 ns/op\n",
		want:   map[string]int{"example.com/a.BenchmarkParse-2 sec/op": 2, "example.com/b.BenchmarkParse-2 sec/op": 1, "BenchmarkOnly-2 sec/op": 1},
	}, {
		name:   "gobench: one package throughout, or none: names as printed",
		format: "gobench",
		input:  "pkg: example.com/a\nBenchmarkParse-2 10 5 ns/op\nBenchmarkParse-2 10 5 ns/op\n",
		want:   map[string]int{"BenchmarkParse-2 sec/op": 2},
	}, {
		name:   "gobench: a result before any pkg: line and one after it are two benchmarks",
		format: "gobench",
		input:  "BenchmarkParse-2 10 5 ns/op\npkg: example.com/b\nBenchmarkParse-2 10 15 ns/op\n",
		want:   map[string]int{"BenchmarkParse-2 sec/op": 1, "example.com/b.BenchmarkParse-2 sec/op": 1},
	}, {
		name:   "gobench: a qualified name longer than a name may be is an error at the benchmark's first line",
		format: "gobench",
		input:  "pkg: example.com/" + strings.Repeat("a", 180) + "\nBenchmarkParse-2 10 5 ns/op\npkg: example.com/b\nBenchmarkParse-2 10 15 ns/op\n",
		err:    "f:2: benchmark BenchmarkParse-2 is named by what tells it from another of that name: benchmark name \"example.com/" + strings.Repeat("a", 68) + "...\" is 209 bytes long: names are limited to 200 bytes",
	}, {
		name:   "gbench: two families named alike (->Name), repetitions of each are its samples",
		format: "gbench",
		input: gbenchJSON(`{"name": "parse", "family_index": 0, "per_family_instance_index": 0, "run_name": "parse", "run_type": "iteration", "real_time": 5, "time_unit": "ns"}`,
			`{"name": "parse", "family_index": 0, "per_family_instance_index": 0, "run_name": "parse", "run_type": "iteration", "real_time": 6, "time_unit": "ns"}`,
			`{"name": "parse", "family_index": 1, "per_family_instance_index": 0, "run_name": "parse", "run_type": "iteration", "real_time": 15, "time_unit": "ns"}`,
			`{"name": "BM_Other", "family_index": 2, "per_family_instance_index": 0, "run_name": "BM_Other", "run_type": "iteration", "real_time": 15, "time_unit": "ns"}`),
		want: map[string]int{"parse [family 0] sec/op": 2, "parse [family 1] sec/op": 1, "BM_Other sec/op": 1},
	}, {
		name:   "gbench: two instances of one family named alike (the same arguments twice)",
		format: "gbench",
		input: gbenchJSON(`{"name": "BM_Dup/1", "family_index": 3, "per_family_instance_index": 0, "run_name": "BM_Dup/1", "run_type": "iteration", "real_time": 5, "time_unit": "ns"}`,
			`{"name": "BM_Dup/1", "family_index": 3, "per_family_instance_index": 1, "run_name": "BM_Dup/1", "run_type": "iteration", "real_time": 6, "time_unit": "ns"}`),
		want: map[string]int{"BM_Dup/1 [family 3 instance 0] sec/op": 1, "BM_Dup/1 [family 3 instance 1] sec/op": 1},
	}, {
		name:   "gbench: without family_index (Google Benchmark before 1.6) a name is one benchmark",
		format: "gbench",
		input: gbenchJSON(`{"name": "parse", "run_name": "parse", "run_type": "iteration", "real_time": 5, "time_unit": "ns"}`,
			`{"name": "parse", "run_name": "parse", "run_type": "iteration", "real_time": 6, "time_unit": "ns"}`),
		want: map[string]int{"parse sec/op": 2},
	}, {
		name:   "gbench: aggregates only: each family's median",
		format: "gbench",
		input: gbenchJSON(`{"name": "parse_mean", "family_index": 0, "per_family_instance_index": 0, "run_name": "parse", "run_type": "aggregate", "aggregate_name": "mean", "real_time": 5, "time_unit": "ns"}`,
			`{"name": "parse_median", "family_index": 0, "per_family_instance_index": 0, "run_name": "parse", "run_type": "aggregate", "aggregate_name": "median", "real_time": 5, "time_unit": "ns"}`,
			`{"name": "parse_median", "family_index": 1, "per_family_instance_index": 0, "run_name": "parse", "run_type": "aggregate", "aggregate_name": "median", "real_time": 15, "time_unit": "ns"}`),
		want: map[string]int{"parse [family 0] sec/op": 1, "parse [family 1] sec/op": 1},
	}, {
		name:   "pytest-benchmark: one test name in two modules: each by its full name (the first kept its short name)",
		format: "pytest-benchmark",
		input: pytestJSON(`{"name": "test_parse", "fullname": "tests/test_json.py::test_parse", "group": null, "stats": {"data": [1, 2]}}`,
			`{"name": "test_parse", "fullname": "tests/test_yaml.py::test_parse", "group": null, "stats": {"data": [3]}}`,
			`{"name": "test_only", "fullname": "tests/test_yaml.py::test_only", "group": null, "stats": {"data": [3]}}`),
		want: map[string]int{"tests/test_json.py::test_parse sec": 2, "tests/test_yaml.py::test_parse sec": 1, "test_only sec": 1},
	}, {
		name:   "pytest-benchmark: one full name in two groups (files merged from two sessions)",
		format: "pytest-benchmark",
		input: pytestJSON(`{"name": "test_parse", "fullname": "t.py::test_parse", "group": "small", "stats": {"data": [1]}}`,
			`{"name": "test_parse", "fullname": "t.py::test_parse", "group": "large", "stats": {"data": [3]}}`),
		want: map[string]int{"t.py::test_parse [group small] sec": 1, "t.py::test_parse [group large] sec": 1},
	}, {
		name:   "pytest-benchmark: the same test twice is an error",
		format: "pytest-benchmark",
		input: pytestJSON(`{"name": "test_parse", "fullname": "t.py::test_parse", "group": "g", "stats": {"data": [1]}}`,
			`{"name": "test_parse", "fullname": "t.py::test_parse", "group": "g", "stats": {"data": [3]}}`),
		err: `f: benchmarks[1]: test_parse (t.py::test_parse, group g) appears twice`,
	}, {
		name:   "pytest-benchmark: a full name that is another benchmark's name is an error, not one benchmark",
		format: "pytest-benchmark",
		input: pytestJSON(`{"name": "x", "fullname": "y", "stats": {"data": [1]}}`,
			`{"name": "x", "fullname": "z", "stats": {"data": [1]}}`,
			`{"name": "y", "fullname": "m::y", "stats": {"data": [3]}}`),
		err: `f: benchmark x, named y to tell it from another x, would have the name of another benchmark: name the benchmarks apart`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := readString(t, tt.format, tt.input)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v\nwant  %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, summary(recs)); diff != "" {
				t.Errorf("samples (-want +got):\n%s", diff)
			}
		})
	}
}

func gbenchJSON(rows ...string) string {
	return `{"context": {"num_cpus": 2, "library_build_type": "release"}, "benchmarks": [` + strings.Join(rows, ",\n") + "]}"
}

func pytestJSON(rows ...string) string {
	return `{"machine_info": {"node": "vm"}, "benchmarks": [` + strings.Join(rows, ",\n") + "]}"
}

// TestQualifiedFixtureNames: the hand-written fixtures of benchmarks that
// share a name read as the benchmarks they are; the real fixtures name
// each benchmark once, and keep their names.
func TestQualifiedFixtureNames(t *testing.T) {
	for path, want := range map[string]map[string]int{
		"gobench/stress-two-packages.txt": {
			"example.com/json.BenchmarkParse-2 sec/op": 2, "example.com/json.BenchmarkParse-2 B/op": 2, "example.com/json.BenchmarkParse-2 allocs/op": 2,
			"example.com/yaml.BenchmarkParse-2 sec/op": 2, "example.com/yaml.BenchmarkParse-2 B/op": 2, "example.com/yaml.BenchmarkParse-2 allocs/op": 2,
			"BenchmarkEncode-2 sec/op": 1,
		},
		"gbench/stress-families.json": {
			"parse [family 0] sec/op": 2, "parse [family 0] cpu-sec/op": 2, "parse [family 1] sec/op": 2, "parse [family 1] cpu-sec/op": 2,
			"BM_Dup/8 [family 2 instance 0] sec/op": 1, "BM_Dup/8 [family 2 instance 0] cpu-sec/op": 1,
			"BM_Dup/8 [family 2 instance 1] sec/op": 1, "BM_Dup/8 [family 2 instance 1] cpu-sec/op": 1,
		},
	} {
		recs, _, _ := readFixture(t, path)
		if diff := cmp.Diff(want, summary(recs)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
	for _, path := range []string{"gobench/base.txt", "gbench/base.json", "gbench/cand-aggregates-only.json", "pytest-benchmark/base.json"} {
		recs, _, _ := readFixture(t, path)
		for _, r := range recs {
			if strings.ContainsAny(r.Benchmark, "[") || bytes.Contains([]byte(r.Benchmark), []byte("::")) || strings.HasPrefix(r.Benchmark, "fixture.") {
				t.Errorf("%s: benchmark %q was qualified", path, r.Benchmark)
			}
		}
	}
}
