package storetest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// V1Runs are the runs the migration tests store as schema version 1 held
// them: two series sort before the series first inserted, units and
// samples vary, and values are not whole numbers.
func V1Runs() []data.Run {
	mk := func(id string, scale float64, labels map[string]string) data.Run {
		r := data.Run{ID: id, Source: "jobs/" + id, Labels: labels, Baseline: "system", Candidate: "hoard"}
		for _, b := range []string{"zeta", "alpha", "mid"} {
			for s := 1; s >= 0; s-- {
				r.Measurements = append(r.Measurements,
					data.Measurement{Benchmark: b, Variant: "system", Sample: s, Value: scale * (1000.1 + float64(s)), Unit: "ops/sec"},
					data.Measurement{Benchmark: b, Variant: "hoard", Sample: s, Value: scale * (0.1 + float64(len(b))), Unit: "ns/op"},
					data.Measurement{Benchmark: b, Variant: "hoard", Sample: s, Value: scale * (1500.7 - float64(s)), Unit: "ops/sec"})
			}
		}
		return r
	}
	return []data.Run{mk("run-b", 1, map[string]string{"os": "linux"}), mk("run-a", 1.25, map[string]string{"os": "linux", "runner": "x"})}
}

// V1Statements are SQL statements (valid in SQLite and PostgreSQL) that
// store runs in schema version 1's tables, measurements in the order given
// (not sorted), each run's digest as qoscal computes it.
func V1Statements(runs []data.Run) []string {
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	var out []string
	for i, r := range runs {
		seq := i + 1
		out = append(out, fmt.Sprintf(`INSERT INTO runs (seq, id, source, measured_at, baseline, candidate, digest, ingested_at) VALUES (%d, %s, %s, NULL, %s, %s, %s, '2026-12-01T08:00:00Z')`,
			seq, q(r.ID), q(r.Source), q(r.Baseline), q(r.Candidate), q(store.Digest(&r))))
		for k, v := range r.Labels {
			out = append(out, fmt.Sprintf(`INSERT INTO labels (run_seq, key, value) VALUES (%d, %s, %s)`, seq, q(k), q(v)))
		}
		for _, m := range r.Measurements {
			out = append(out, fmt.Sprintf(`INSERT INTO measurements (run_seq, variant, benchmark, sample, value, unit) VALUES (%d, %s, %s, %d, %s, %s)`,
				seq, q(m.Variant), q(m.Benchmark), m.Sample, fmt.Sprint(m.Value), q(m.Unit)))
		}
	}
	return out
}

// CheckUpgradeFromV1 checks a store that a backend's test made as schema
// version 1 held runs (V1Statements of runs, V1Runs), opened by open as
// that backend's Open opens it. The store is upgraded the first time it
// is opened for writing: it then reads back the same runs, each with its
// measurements in name order; ingesting the same runs again finds them
// unchanged (their digests agree; every measurement's repetition reads
// as 0, not said); the first run again, measured in repetitions (as a
// folder 'qoscal measure' wrote, which an older qoscal stored without
// them), is given its repetitions, not refused as other content; a run with a series new to the store, whose name sorts
// before every other, measured in repetitions, is stored and read back in
// order with its repetitions (schema version 5); and the ledger (schema version 3) takes verdicts and marks of the
// old runs. A read-only open of a version 1 store says to ingest once.
func CheckUpgradeFromV1(t *testing.T, runs []data.Run, open func(mode store.Mode) (store.Store, error)) {
	t.Helper()
	checkUpgrade(t, 1, runs, open)
}

// CheckUpgradeFromV4 checks a store of schema version 4 (V1Statements
// of runs, then versions 2 to 4's migrations, as an older qoscal left
// it, before measurements kept their repetitions) as CheckUpgradeFromV1
// checks a store of version 1: upgraded in place, its runs as they were
// (each measurement's repetition 0) and their digests unchanged, and a
// run with repetitions then kept with them.
func CheckUpgradeFromV4(t *testing.T, runs []data.Run, open func(mode store.Mode) (store.Store, error)) {
	t.Helper()
	checkUpgrade(t, 4, runs, open)
}

// CheckUpgradeFromV2 checks a store of schema version 2 (V1Statements
// of runs, then version 2's migration, as an older qoscal left it) as
// CheckUpgradeFromV1 checks a store of version 1: upgraded in place, its
// runs as they were, its ledger empty and then writable.
func CheckUpgradeFromV2(t *testing.T, runs []data.Run, open func(mode store.Mode) (store.Store, error)) {
	t.Helper()
	checkUpgrade(t, 2, runs, open)
}

func checkUpgrade(t *testing.T, version int, runs []data.Run, open func(mode store.Mode) (store.Store, error)) {
	t.Helper()
	ctx := context.Background()
	older := fmt.Sprintf("schema version %d, older", version)
	if s, err := open(store.ReadOnly); err == nil {
		s.Close()
		t.Errorf("read-only open of a version %d store succeeded", version)
	} else if !strings.Contains(err.Error(), older) || !strings.Contains(err.Error(), "qoscal store upgrade --db") {
		t.Errorf("read-only open of a version %d store: %v, want %s … qoscal store upgrade --db", version, err, older)
	}
	s, err := open(store.ReadWrite)
	if err != nil {
		t.Fatalf("opening a version %d store for writing: %v", version, err)
	}
	defer s.Close()
	want := append([]data.Run{}, runs...)
	check := func(stage string, want []data.Run) {
		t.Helper()
		got, err := s.Runs(ctx, store.Query{})
		if err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d runs read, want %d", stage, len(got), len(want))
		}
		for i := range want {
			w := want[i]
			w.Measurements = append([]data.Measurement(nil), w.Measurements...)
			w.Sort()
			if !reflect.DeepEqual(got[i].Run, w) {
				t.Errorf("%s: run %d read back as\n%+v\nwant\n%+v", stage, i, got[i].Run, w)
			}
		}
	}
	check("after the upgrade", want)
	res, err := s.Ingest(ctx, runs, store.IngestOptions{})
	if err != nil || res.Unchanged != len(runs) || res.Added != 0 {
		t.Errorf("ingesting the stored runs again: %+v, %v; want all unchanged", res, err)
	}
	measured := runs[0]
	measured.Measurements = append([]data.Measurement(nil), measured.Measurements...)
	for i := range measured.Measurements {
		measured.Measurements[i].Repetition = measured.Measurements[i].Sample + 1
	}
	res, err = s.Ingest(ctx, []data.Run{measured}, store.IngestOptions{})
	if err != nil || res.Completed != 1 || res.Replaced != 0 || res.Measurements != len(measured.Measurements) {
		t.Errorf("ingesting a stored run with its repetitions: %+v, %v; want it completed", res, err)
	}
	want[0] = measured
	check("after a stored run was given its repetitions", want)
	extra := data.Run{ID: "run-c", Source: "jobs/run-c", Labels: map[string]string{"os": "linux"}, Baseline: "system", Candidate: "hoard",
		Measurements: []data.Measurement{
			{Benchmark: "zeta", Variant: "system", Value: 7, Unit: "ops/sec", Repetition: 1},
			{Benchmark: "aaa", Variant: "hoard", Value: 3, Unit: "ops/sec", Repetition: 1},
			{Benchmark: "aaa", Variant: "hoard", Sample: 1, Value: 2.5, Unit: "ops/sec", Repetition: 2},
			{Benchmark: "aaa", Variant: "system", Value: 4, Unit: "ops/sec", Repetition: 1},
			{Benchmark: "zeta", Variant: "hoard", Value: 9, Unit: "ops/sec", Repetition: 1},
		}}
	if res, err := s.Ingest(ctx, []data.Run{extra}, store.IngestOptions{}); err != nil || res.Added != 1 || res.Measurements != 5 {
		t.Fatalf("ingesting a run with a new series: %+v, %v", res, err)
	}
	check("after a run with a new series and repetitions", append(want, extra))
	if l, err := s.Ledger(ctx, store.LedgerQuery{}); err != nil || !l.Empty() {
		t.Errorf("the ledger of an upgraded store: %+v, %v; want it empty", l, err)
	}
	l := store.Ledger{Verdicts: []store.Verdict{NewVerdict(runs[0].ID, "aaaa", 0)},
		Marks: []store.Mark{{Run: runs[1].ID, Truth: store.TruthHealthy, Note: "upgraded", Marked: now}}}
	if res, err := s.IngestEach(ctx, allStored(nil), store.IngestOptions{Ledger: &l}); err != nil || res.Ledger.VerdictsAdded != 1 || res.Ledger.MarksAdded != 1 {
		t.Fatalf("recording a verdict and a mark of the upgraded store's runs: %+v, %v", res.Ledger, err)
	}
	got, err := s.Ledger(ctx, store.LedgerQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(l, got, sameLedger); diff != "" {
		t.Errorf("the upgraded store's ledger (-recorded +read):\n%s", diff)
	}
}

// V3Verdict is the verdict the version 3 upgrade tests store, as schema
// version 3 held it (no profile): NewVerdict of the first of V1Runs,
// without bands.
func V3Verdict() store.Verdict {
	v := NewVerdict(V1Runs()[0].ID, "aaaa", 0)
	v.Bands = nil
	return v
}

// V3Statements are SQL statements (valid in SQLite and PostgreSQL) that
// store v, of the run stored first (seq 1), in schema version 3's ledger
// tables, with its digest as qoscal computes it (its bands are not
// stored: give none).
func V3Statements(v store.Verdict) []string {
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	return []string{fmt.Sprintf(`INSERT INTO verdicts (run_seq, calibration_sha256, calibration_name, verdict, detail, score, floor, floor_source, partial, kind, other_run, runner_health, runner_z, digest, recorded_at)
		VALUES (1, %s, %s, %s, %s, %v, %v, %s, FALSE, %s, %s, %s, %v, %s, %s)`,
		q(v.Calibration.SHA256), q(v.Calibration.Name), q(v.Verdict), q(v.Detail), v.Score, v.Floor, q(v.FloorSource),
		q(v.Kind), q(v.Other), q(v.RunnerHealth), v.RunnerZ, q(v.Digest()), q(store.LedgerTime(v.Recorded)))}
}

// CheckUpgradeFromV3 checks a store of schema version 3 (V1Statements of
// runs, versions 2 and 3's migrations, then V3Statements of V3Verdict),
// as an older qoscal left it, upgraded in place the first
// time it is opened for writing: its runs as they were; its verdict read
// back with no profile (judged on the calibration's top level, as every
// verdict before profiles were recorded was); the same verdict recorded
// again unchanged (its digest is the one version 3 stored); and a verdict
// of another run, judged by a profile, kept with its profile.
func CheckUpgradeFromV3(t *testing.T, runs []data.Run, open func(mode store.Mode) (store.Store, error)) {
	t.Helper()
	ctx := context.Background()
	if s, err := open(store.ReadOnly); err == nil {
		s.Close()
		t.Errorf("read-only open of a version 3 store succeeded")
	} else if !strings.Contains(err.Error(), "schema version 3, older") {
		t.Errorf("read-only open of a version 3 store: %v, want schema version 3, older …", err)
	}
	s, err := open(store.ReadWrite)
	if err != nil {
		t.Fatalf("opening a version 3 store for writing: %v", err)
	}
	defer s.Close()
	got, err := s.Runs(ctx, store.Query{})
	if err != nil || len(got) != len(runs) {
		t.Fatalf("the upgraded store's runs: %d, %v; want %d", len(got), err, len(runs))
	}
	old := V3Verdict()
	l, err := s.Ledger(ctx, store.LedgerQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.Ledger{Verdicts: []store.Verdict{old}}, l, sameLedger); diff != "" {
		t.Errorf("the upgraded store's ledger (-version 3 +read):\n%s", diff)
	}
	again := old
	again.Recorded = again.Recorded.Add(time.Hour)
	profiled := NewVerdict(runs[1].ID, "aaaa", 1)
	profiled.Profile = "AMD EPYC 7763 64-Core Processor"
	res, err := s.IngestEach(ctx, allStored(nil), store.IngestOptions{Ledger: &store.Ledger{Verdicts: []store.Verdict{again, profiled}}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.LedgerResult{VerdictsAdded: 1, VerdictsUnchanged: 1}, res.Ledger); diff != "" {
		t.Errorf("recording the old verdict again and a profiled one (-want +got):\n%s", diff)
	}
	l, err = s.Ledger(ctx, store.LedgerQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.Ledger{Verdicts: []store.Verdict{old, profiled}}, l, sameLedger); diff != "" {
		t.Errorf("the upgraded store's ledger after recording (-want +read):\n%s", diff)
	}
}
