package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestVarianceComponentsCommand: spread and recommend report the
// variance components of runs measured with repetitions (JSON
// variance_components), equal to numpy's from the same CSV
// (stats/testdata/make_varcomp.py, vector runs_csv); recommend --detect
// plans the repetitions; runs without repetitions give null.
func TestVarianceComponentsCommand(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	b, err := os.ReadFile(filepath.Join(root, "stats", "testdata", "varcomp_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		RunsCSV struct {
			Between, Within float64
			N, A            int
		} `json:"runs_csv"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(root, "stats", "testdata", "varcomp_runs.csv")
	type vc struct {
		Between, Within   float64
		Runs, Repetitions int
	}
	for _, cmd := range []string{"spread", "recommend"} {
		var stdout, stderr bytes.Buffer
		args := []string{cmd, "--format", "json", csv}
		if cmd == "recommend" {
			args = append(args, "--detect", "0.1", "--repetition-seconds", "12", "--job-seconds", "60")
		}
		if code := run(args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d\n%s", cmd, code, stderr.String())
		}
		var doc struct {
			VC     *vc `json:"variance_components"`
			Detect *struct {
				Slide  float64
				OneJob *struct{ Jobs, Repetitions int } `json:"one_job"`
			}
		}
		if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		got := doc.VC
		if got == nil {
			t.Fatalf("%s: variance_components is null", cmd)
		}
		if math.Abs(got.Between-v.RunsCSV.Between) > 1e-12 || math.Abs(got.Within-v.RunsCSV.Within) > 1e-12 || got.Runs != v.RunsCSV.A || got.Repetitions != v.RunsCSV.N {
			t.Errorf("%s: variance_components %+v, numpy between %v within %v over %d runs, %d repetitions", cmd, *got, v.RunsCSV.Between, v.RunsCSV.Within, v.RunsCSV.A, v.RunsCSV.N)
		}
		if cmd == "recommend" && (doc.Detect == nil || doc.Detect.Slide != 0.1 || doc.Detect.OneJob == nil || doc.Detect.OneJob.Repetitions < 1) {
			t.Errorf("recommend --detect 0.1: detect %+v", doc.Detect)
		}
	}
	var stdout, stderr bytes.Buffer
	run([]string{"spread", "--format", "json", filepath.Join(root, "data", "samples", "windows-hoard-worked-example", "five-runs.csv")}, nil, &stdout, &stderr)
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if string(doc["variance_components"]) != "null" {
		t.Errorf("runs without repetitions: variance_components %s, want null", doc["variance_components"])
	}
}
