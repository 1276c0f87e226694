package audit

import (
	"context"
	"errors"
	"maps"
	"math"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// ledgerStore is a store whose ledger is entries of runs with labels;
// its other methods are not used (calling one panics).
type ledgerStore struct {
	store.Store
	verdicts []store.Verdict
	marks    []store.Mark
	labels   map[string]map[string]string // by run
}

func (s *ledgerStore) Ledger(_ context.Context, q store.LedgerQuery) (store.Ledger, error) {
	var l store.Ledger
	carries := func(run string) bool {
		for k, v := range q.Labels {
			if s.labels[run][k] != v {
				return false
			}
		}
		return true
	}
	for _, v := range s.verdicts {
		if carries(v.Run) && (q.Calibration == "" || v.Calibration.SHA256 == q.Calibration) {
			l.Verdicts = append(l.Verdicts, v)
		}
	}
	for _, m := range s.marks {
		if carries(m.Run) {
			l.Marks = append(l.Marks, m)
		}
	}
	return l, nil
}

// TestAuditLedger: the ledger's verdicts against the calibration's bytes
// are audited with their marks and bands; a run counts as on the branch
// only with the calibration's labels; a verdict of another calibration is
// left out; one judged by a profile the file does not have is refused.
func TestAuditLedger(t *testing.T) {
	f, m, _ := auditFile(t)
	f.Labels, f.SHA256 = map[string]string{"branch": "main"}, "5e7a2c0ffee5e7a2c0ffee"
	ref := store.CalibrationRef{Name: "cal.json", SHA256: f.SHA256}
	verdict := func(run, v string, score float64) store.Verdict {
		return store.Verdict{Run: run, Calibration: ref, Verdict: v, Score: score, Floor: f.Floor, FloorSource: gate.FloorCalibration,
			Kind: KindRun, RunnerHealth: gate.RunnerHealthOK}
	}
	st := &ledgerStore{
		verdicts: []store.Verdict{
			verdict("a", gate.VerdictPass, math.Exp(m)),
			verdict("b", gate.VerdictFail, math.Exp(m-1)),
			verdict("pr", gate.VerdictPass, math.Exp(m)),
		},
		marks:  []store.Mark{{Run: "b", Truth: "healthy", Note: "noisy"}, {Run: "a", Truth: "regressed"}},
		labels: map[string]map[string]string{"a": {"branch": "main"}, "b": {"branch": "main"}, "pr": {"branch": "pr-1"}},
	}
	st.verdicts[1].Bands = []store.BandOutcome{{Benchmark: "x", Band: gate.BandBelow}, {Benchmark: "y", Band: "within"}}
	other := verdict("z", gate.VerdictFail, 0.1)
	other.Calibration.SHA256 = "0000"
	st.verdicts = append(st.verdicts, other)
	res, profiles, ledger, err := AuditLedger(context.Background(), st, nil, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(ledger.Verdicts) != 3 || profiles != nil {
		t.Fatalf("ledger %d verdicts, profiles %v; want 3 and none", len(ledger.Verdicts), profiles)
	}
	if res.Gated != 3 || res.Failed != 1 || res.Regressed != 1 || len(res.Missed) != 1 || res.Missed[0].ID != "a" {
		t.Errorf("audit %+v: want 3 gated, 1 failed, a missed regression (a)", res)
	}
	if res.Floor.FalseMarked != 1 || res.Floor.Marked != 1 {
		t.Errorf("the floor's audit %+v: want b, marked healthy, as a marked false alarm", res.Floor)
	}
	on, err := branchRuns(context.Background(), st, nil, f)
	if err != nil || !maps.Equal(on, map[string]bool{"a": true, "b": true}) {
		t.Errorf("branch runs %v, %v; want a and b", on, err)
	}
	if on, _ := branchRuns(context.Background(), st, map[string]string{"branch": "pr-1"}, f); on == nil || len(on) != 0 {
		t.Errorf("branch runs of a filter the calibration's labels exclude: %v, want none", on)
	}

	st.verdicts[0].Profile = "Model Z"
	_, _, _, err = AuditLedger(context.Background(), st, nil, f)
	var pe *ProfileError
	if !errors.As(err, &pe) || pe.Run != "a" || pe.Profile != "Model Z" || pe.CalName != "cal.json" || len(pe.Profiles) != 0 {
		t.Errorf("a verdict of an unknown profile: %v, want a *ProfileError naming run a and Model Z", err)
	}
}

// TestLedgerVerdict: the verdict of the last run judged, a pair's naming
// the first, a re-run CI job's a rerun, its bands in name order, and no
// calibration for a floor given alone.
func TestLedgerVerdict(t *testing.T) {
	bench := func(name, band string) gate.GateBenchmark {
		var b gate.GateBenchmark
		b.Name, b.Band = name, band
		return b
	}
	res := &gate.GateResult{Verdict: gate.VerdictFail, Score: 0.9, Floor: 0.95, FloorSource: gate.FloorCalibration,
		Benchmarks: []gate.GateBenchmark{bench("z", gate.BandBelow), bench("m", ""), bench("a", "within")}}
	now := time.Unix(1e9, 0)
	rec := Recorded{SHA256: "5e7a", Name: "cal.json", Profile: "Model A", Attempt: "1", Now: now}
	v := LedgerVerdict(res, []data.Run{{ID: "r1"}}, rec)
	if v.Run != "r1" || v.Kind != store.KindRun || v.Calibration.SHA256 != "5e7a" || v.Profile != "Model A" || !v.Recorded.Equal(now) {
		t.Errorf("one run: %+v", v)
	}
	if len(v.Bands) != 2 || v.Bands[0].Benchmark != "a" || v.Bands[1].Benchmark != "z" {
		t.Errorf("bands %+v, want a and z in that order", v.Bands)
	}
	rec.Attempt = "2"
	if v := LedgerVerdict(res, []data.Run{{ID: "r1"}}, rec); v.Kind != store.KindRerun {
		t.Errorf("a re-run job's verdict: kind %s, want %s", v.Kind, store.KindRerun)
	}
	if v := LedgerVerdict(res, []data.Run{{ID: "r1", Labels: map[string]string{"attempt": "1"}}}, rec); v.Kind != store.KindRun {
		t.Errorf("a run whose label says attempt 1: kind %s, want %s", v.Kind, store.KindRun)
	}
	if v := LedgerVerdict(res, []data.Run{{ID: "a/r1"}, {ID: "b/r1"}}, Recorded{Now: now}); v.Run != "b/r1" || v.Kind != store.KindPair || v.Other != "a/r1" || v.Calibration.SHA256 != "" || v.Profile != "" {
		t.Errorf("a pair against a floor given alone: %+v", v)
	}
}
