package storetest

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// The ledger's cases of the conformance suite (see Run).

// NewVerdict makes a verdict of run against the calibration of sha (a
// file cal.json): a pass at score 1.25 over a 1.16 floor, its runner
// healthy (z −0.4), three benchmarks judged within their bands, recorded
// at the suite's time plus minute minutes.
func NewVerdict(run, sha string, minute int) store.Verdict {
	return store.Verdict{
		Run: run, Calibration: store.CalibrationRef{SHA256: sha, Name: "cal.json"},
		Verdict: "pass", Detail: "pass", Score: 1.25, Floor: 1.16, FloorSource: "calibration",
		Kind: store.KindRun, RunnerHealth: "ok", RunnerZ: -0.4,
		Bands:    []store.BandOutcome{{Benchmark: "alloc-test", Band: "within"}, {Benchmark: "larson", Band: "within"}, {Benchmark: "sh8bench", Band: "within"}},
		Recorded: now.Add(time.Duration(minute) * time.Minute),
	}
}

// ledgerOf reads the ledger that q selects.
func ledgerOf(t *testing.T, s store.Store, q store.LedgerQuery) store.Ledger {
	t.Helper()
	l, err := s.Ledger(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// sameLedger compares ledgers: a NaN runner z equals a NaN, times are
// instants, and an empty list equals none.
var sameLedger = cmp.Options{cmpopts.EquateNaNs(), cmpopts.EquateEmpty(), cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })}

// testLedgerRoundTrip: the verdicts and marks an ingest stores with its
// runs come back as they went in, in order, values bit for bit (a score
// of a third, a runner z that was not computed), with every kind, and
// counted.
func testLedgerRoundTrip(t *testing.T, s store.Store) {
	a := NewVerdict("r1", "aaaa", 0)
	a.Score = 1.0 / 3
	b := NewVerdict("r2", "aaaa", 1)
	b.Verdict, b.Detail, b.Score, b.Kind, b.RunnerHealth, b.RunnerZ = "fail", "fail on a degraded runner", math.Nextafter(1.16, 0), store.KindRerun, "degraded", math.NaN()
	b.Bands = []store.BandOutcome{{Benchmark: "alloc-test", Band: "below"}, {Benchmark: "larson", Band: "above"}}
	c := NewVerdict("r3", "aaaa", 2)
	c.Kind, c.Other, c.Partial, c.Bands = store.KindPair, "r2", true, nil
	d := NewVerdict("r1", "", 3)
	d.Calibration.Name, d.Verdict, d.Detail, d.Floor, d.FloorSource, d.RunnerHealth, d.RunnerZ, d.Bands = "", "ungated", "ungated", 0, "", "", math.NaN(), nil
	want := store.Ledger{
		Verdicts: []store.Verdict{a, b, c, d},
		Marks: []store.Mark{
			{Run: "r2", Truth: store.TruthHealthy, Note: "the runner was swapped; PR #12 was fine", Marked: now.Add(time.Hour)},
			{Run: "r1", Truth: store.TruthRegressed, Marked: now.Add(2*time.Hour + 123456789)},
		},
	}
	res, err := s.Ingest(ctx, []data.Run{NewRun("r1", 1, map[string]string{"os": "linux"}), NewRun("r2", 1, nil), NewRun("r3", 1, nil)},
		store.IngestOptions{Now: now, Ledger: &want})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.LedgerResult{VerdictsAdded: 4, MarksAdded: 2}, res.Ledger); diff != "" {
		t.Errorf("ledger counts (-want +got):\n%s", diff)
	}
	got := ledgerOf(t, s, store.LedgerQuery{})
	if diff := cmp.Diff(want, got, sameLedger); diff != "" {
		t.Errorf("the ledger read back (-stored +read):\n%s", diff)
	}
	if math.Float64bits(got.Verdicts[0].Score) != math.Float64bits(1.0/3) || math.Float64bits(got.Verdicts[1].Score) != math.Float64bits(math.Nextafter(1.16, 0)) {
		t.Errorf("scores read back as %v and %v, not bit for bit", got.Verdicts[0].Score, got.Verdicts[1].Score)
	}
}

// testLedgerProfile: a verdict keeps the profile of the calibration
// that judged it (its "by" label's value, "" for the file's top level),
// read back as written; the profile is part of the verdict, so the same
// verdict recorded again under another profile replaces it, with its
// new profile, and the same one again is unchanged. A profile without a
// calibration, or with a line break, is refused.
func testLedgerProfile(t *testing.T, s store.Store) {
	a := NewVerdict("r1", "aaaa", 0)
	a.Profile = "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz"
	b := NewVerdict("r2", "aaaa", 1)
	c := NewVerdict("r3", "aaaa", 2)
	c.Profile = "AMD EPYC 7763 64-Core Processor"
	want := store.Ledger{Verdicts: []store.Verdict{a, b, c}}
	res, err := s.Ingest(ctx, []data.Run{NewRun("r1", 1, nil), NewRun("r2", 1, nil), NewRun("r3", 1, nil)}, store.IngestOptions{Now: now, Ledger: &want})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ledger.VerdictsAdded != 3 {
		t.Errorf("ledger counts %+v, want 3 verdicts added", res.Ledger)
	}
	if diff := cmp.Diff(want, ledgerOf(t, s, store.LedgerQuery{}), sameLedger); diff != "" {
		t.Errorf("the ledger read back (-stored +read):\n%s", diff)
	}
	moved := NewVerdict("r2", "aaaa", 5)
	moved.Profile = c.Profile
	again := c
	again.Recorded = again.Recorded.Add(time.Hour)
	res, err = s.IngestEach(ctx, allStored(nil), store.IngestOptions{Now: now, Ledger: &store.Ledger{Verdicts: []store.Verdict{moved, again}}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.LedgerResult{VerdictsReplaced: 1, VerdictsUnchanged: 1}, res.Ledger); diff != "" {
		t.Errorf("recording under another profile (-want +got):\n%s", diff)
	}
	want.Verdicts[1] = moved
	if diff := cmp.Diff(want, ledgerOf(t, s, store.LedgerQuery{}), sameLedger); diff != "" {
		t.Errorf("the ledger after r2 was recorded under a profile (-want +got):\n%s", diff)
	}
	noCal := NewVerdict("r1", "", 7)
	noCal.Calibration.Name, noCal.Profile = "", "x"
	broken := NewVerdict("r1", "bbbb", 8)
	broken.Profile = "a\nb"
	for _, v := range []store.Verdict{noCal, broken} {
		if _, err := s.IngestEach(ctx, allStored(nil), store.IngestOptions{Now: now, Ledger: &store.Ledger{Verdicts: []store.Verdict{v}}}); err == nil {
			t.Errorf("a verdict with profile %q against calibration %q was stored", v.Profile, v.Calibration.SHA256)
		}
	}
}

// testLedgerQuery: the ledger is selected by its runs' labels, and the
// verdicts by calibration (the marks of the selected runs whatever the
// calibration).
func testLedgerQuery(t *testing.T, s store.Store) {
	l := store.Ledger{
		Verdicts: []store.Verdict{NewVerdict("w1", "aaaa", 0), NewVerdict("l1", "aaaa", 1), NewVerdict("l1", "bbbb", 2), NewVerdict("l2", "bbbb", 3)},
		Marks:    []store.Mark{{Run: "l2", Truth: store.TruthHealthy, Marked: now}, {Run: "w1", Truth: store.TruthRegressed, Marked: now}},
	}
	if _, err := s.Ingest(ctx, []data.Run{
		NewRun("w1", 1, map[string]string{"os": "windows", "cpu": "x"}),
		NewRun("l1", 1, map[string]string{"os": "linux", "cpu": "x"}),
		NewRun("l2", 1, map[string]string{"os": "linux", "cpu": "y"}),
	}, store.IngestOptions{Now: now, Ledger: &l}); err != nil {
		t.Fatal(err)
	}
	key := func(l store.Ledger) []string {
		var out []string
		for _, v := range l.Verdicts {
			out = append(out, v.Run+"/"+v.Calibration.SHA256)
		}
		for _, m := range l.Marks {
			out = append(out, "mark "+m.Run)
		}
		return out
	}
	for _, c := range []struct {
		q    store.LedgerQuery
		want []string
	}{
		{store.LedgerQuery{}, []string{"w1/aaaa", "l1/aaaa", "l1/bbbb", "l2/bbbb", "mark l2", "mark w1"}},
		{store.LedgerQuery{Labels: map[string]string{"os": "linux"}}, []string{"l1/aaaa", "l1/bbbb", "l2/bbbb", "mark l2"}},
		{store.LedgerQuery{Labels: map[string]string{"cpu": "x"}, Calibration: "aaaa"}, []string{"w1/aaaa", "l1/aaaa", "mark w1"}},
		{store.LedgerQuery{Calibration: "cccc"}, []string{"mark l2", "mark w1"}},
		{store.LedgerQuery{Labels: map[string]string{"os": "bsd"}}, nil},
		{store.LedgerQuery{Run: "l1"}, []string{"l1/aaaa", "l1/bbbb"}},
		{store.LedgerQuery{Run: "w1", Labels: map[string]string{"cpu": "x"}, Calibration: "bbbb"}, []string{"mark w1"}},
	} {
		if got := key(ledgerOf(t, s, c.q)); !cmp.Equal(got, c.want, cmpopts.EquateEmpty()) {
			t.Errorf("%+v: %v, want %v", c.q, got, c.want)
		}
	}
}

// testLedgerAgain: a run keeps one verdict per calibration. The same
// verdict recorded again (at another time) is unchanged and keeps its
// first time; another verdict replaces it in its place, with its bands;
// a verdict against another calibration is added. The same mark again is
// unchanged; another mark of the run is kept after it (history, latest
// last). An ingest of no runs writes a ledger alone.
func testLedgerAgain(t *testing.T, s store.Store) {
	first := store.Ledger{Verdicts: []store.Verdict{NewVerdict("r1", "aaaa", 0), NewVerdict("r2", "aaaa", 1)},
		Marks: []store.Mark{{Run: "r1", Truth: store.TruthHealthy, Note: "fine", Marked: now}}}
	if _, err := s.Ingest(ctx, []data.Run{NewRun("r1", 1, nil), NewRun("r2", 1, nil)}, store.IngestOptions{Now: now, Ledger: &first}); err != nil {
		t.Fatal(err)
	}
	again := NewVerdict("r1", "aaaa", 30)
	changed := NewVerdict("r2", "aaaa", 31)
	changed.Verdict, changed.Score, changed.Bands = "fail", 1.1, []store.BandOutcome{{Benchmark: "larson", Band: "below"}}
	other := NewVerdict("r1", "bbbb", 32)
	next := store.Ledger{Verdicts: []store.Verdict{again, changed, other},
		Marks: []store.Mark{{Run: "r1", Truth: store.TruthHealthy, Note: "fine", Marked: now}, {Run: "r1", Truth: store.TruthRegressed, Note: "it was not", Marked: now.Add(time.Hour)}}}
	res, err := s.IngestEach(ctx, allStored(nil), store.IngestOptions{Now: now, Ledger: &next})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.LedgerResult{VerdictsAdded: 1, VerdictsReplaced: 1, VerdictsUnchanged: 1, MarksAdded: 1, MarksUnchanged: 1}, res.Ledger); diff != "" {
		t.Errorf("ledger counts (-want +got):\n%s", diff)
	}
	want := store.Ledger{Verdicts: []store.Verdict{first.Verdicts[0], changed, other},
		Marks: []store.Mark{first.Marks[0], next.Marks[1]}}
	if diff := cmp.Diff(want, ledgerOf(t, s, store.LedgerQuery{}), sameLedger); diff != "" {
		t.Errorf("the ledger after recording again (-want +got):\n%s", diff)
	}
	latest := want.LatestMarks()
	if m := latest["r1"]; m.Truth != store.TruthRegressed {
		t.Errorf("the latest mark of r1 is %+v, want the regressed one", m)
	}
	// Replacing the run keeps its ledger.
	if _, err := s.Ingest(ctx, []data.Run{NewRun("r1", 2, nil)}, store.IngestOptions{Now: now, Replace: true}); err != nil {
		t.Fatal(err)
	}
	if got := ledgerOf(t, s, store.LedgerQuery{}); len(got.Verdicts) != 3 || len(got.Marks) != 2 {
		t.Errorf("after the run was replaced the ledger holds %d verdicts and %d marks, want 3 and 2", len(got.Verdicts), len(got.Marks))
	}
}

// testLedgerMissingRun: an entry for a run the store lacks fails the
// whole ingest, its runs too, with a *store.MissingRunError; an entry
// that is not fit to keep is refused before anything is written.
func testLedgerMissingRun(t *testing.T, s store.Store) {
	for _, l := range []store.Ledger{
		{Verdicts: []store.Verdict{NewVerdict("r1", "aaaa", 0), NewVerdict("nope", "aaaa", 1)}},
		{Marks: []store.Mark{{Run: "nope", Truth: store.TruthHealthy, Marked: now}}},
	} {
		_, err := s.Ingest(ctx, []data.Run{NewRun("r1", 1, nil)}, store.IngestOptions{Now: now, Ledger: &l})
		var me *store.MissingRunError
		if !errors.As(err, &me) || me.Run != "nope" {
			t.Errorf("a ledger entry for a run the store lacks: %v, want a *store.MissingRunError for nope", err)
		}
		if got := ids(runs(t, s, store.Query{})); len(got) != 0 {
			t.Errorf("a failed ingest left runs %v", got)
		}
	}
	bad := NewVerdict("r1", "aaaa", 0)
	bad.Bands = []store.BandOutcome{{Benchmark: "b", Band: "within"}, {Benchmark: "a", Band: "below"}}
	for _, l := range []store.Ledger{
		{Verdicts: []store.Verdict{bad}},
		{Marks: []store.Mark{{Run: "r1", Truth: "fine", Marked: now}}},
	} {
		if _, err := s.Ingest(ctx, []data.Run{NewRun("r1", 1, nil)}, store.IngestOptions{Now: now, Ledger: &l}); err == nil {
			t.Errorf("a ledger entry unfit to keep (%+v) was stored", l)
		}
	}
	if l := ledgerOf(t, s, store.LedgerQuery{}); !l.Empty() || len(ids(runs(t, s, store.Query{}))) != 0 {
		t.Errorf("refused ingests left %+v", l)
	}
}

// Setter sets column of every row of table to value in the store s
// (opened by the same backend), behind the store's back, as another
// program or a damaged disk could: a damaged store to read.
type Setter func(t *testing.T, s store.Store, table, column string, value any)

// RunDamagedLedger checks that a store whose ledger holds a value qoscal
// never writes (a score of 0, a negative or infinite one, a mark that is
// neither healthy nor regressed, a time that is not one) is reported
// damaged on reading, naming the store, the table and the run of the row,
// rather than handed to a command that would count it (qoscal audit) or
// fail to print it (an infinite score in JSON). Every case is a new store
// of open: runs r1 and r2, a verdict of each and a mark of r2; set
// damages every row of one column.
func RunDamagedLedger(t *testing.T, open Opener, set Setter) {
	for _, c := range []struct {
		table, column string
		value         any
	}{
		{"verdicts", "score", math.Inf(-1)},
		{"verdicts", "score", math.Inf(1)},
		{"verdicts", "score", 0.0},
		{"verdicts", "score", -1.25},
		{"verdicts", "floor", math.Inf(1)},
		{"verdicts", "floor", -1.16},
		{"verdicts", "floor", 0.0}, // a floor from a calibration is above 0
		{"verdicts", "floor_source", "guessed"},
		{"verdicts", "verdict", "bogus"},
		{"verdicts", "kind", "bogus"},
		{"verdicts", "runner_health", "bogus"},
		{"verdicts", "runner_z", math.Inf(-1)},
		{"verdicts", "recorded_at", "garbage"},
		{"verdict_bands", "band", "bogus"},
		{"marks", "truth", "bogus"},
		{"marks", "marked_at", "not a time"},
	} {
		t.Run(fmt.Sprintf("%s.%s=%v", c.table, c.column, c.value), func(t *testing.T) {
			s := open(t)
			defer s.Close()
			l := store.Ledger{Verdicts: []store.Verdict{NewVerdict("r1", "aaaa", 0), NewVerdict("r2", "aaaa", 1)},
				Marks: []store.Mark{{Run: "r2", Truth: store.TruthHealthy, Marked: now}}}
			ingest(t, s, store.IngestOptions{Now: now, Ledger: &l}, NewRun("r1", 1, nil), NewRun("r2", 1, nil))
			set(t, s, c.table, c.column, c.value)
			for _, q := range []store.LedgerQuery{{}, {Run: "r2"}} {
				l, err := s.Ledger(ctx, q)
				want := "store " + s.Location() + " is damaged: in its table " + c.table + ", "
				switch {
				case err == nil:
					t.Errorf("%+v: read %+v from a damaged ledger without an error", q, l)
				case !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "run r1") && !strings.Contains(err.Error(), "run r2"):
					t.Errorf("%+v: %v\nwant %s… naming run r1 or r2", q, err, want)
				}
			}
		})
	}
}

// testLedgerMany: a ledger of more runs than the write looks up at once
// (150 runs, backend's lookups take 64 ids) is stored whole, in order,
// each entry on its own run; written again it is unchanged, and with one
// verdict changed in the last lookup that verdict alone is replaced, in
// its place.
func testLedgerMany(t *testing.T, s store.Store) {
	const n = 150
	var runs []data.Run
	var want store.Ledger
	for i := range n {
		id := fmt.Sprintf("m%03d", i)
		runs = append(runs, NewRun(id, 1, nil))
		want.Verdicts = append(want.Verdicts, NewVerdict(id, "cccc", i))
		want.Marks = append(want.Marks, store.Mark{Run: id, Truth: store.TruthHealthy, Marked: now.Add(time.Duration(i) * time.Second)})
	}
	res := ingest(t, s, store.IngestOptions{Ledger: &want}, runs...)
	if diff := cmp.Diff(store.LedgerResult{VerdictsAdded: n, MarksAdded: n}, res.Ledger); diff != "" {
		t.Errorf("ledger counts (-want +got):\n%s", diff)
	}
	res = ingest(t, s, store.IngestOptions{Ledger: &want})
	if diff := cmp.Diff(store.LedgerResult{VerdictsUnchanged: n, MarksUnchanged: n}, res.Ledger); diff != "" {
		t.Errorf("ledger counts written again (-want +got):\n%s", diff)
	}
	changed := want.Verdicts[n-2]
	changed.Verdict, changed.Score = "fail", 1.01
	res = ingest(t, s, store.IngestOptions{Ledger: &store.Ledger{Verdicts: []store.Verdict{changed}}})
	if diff := cmp.Diff(store.LedgerResult{VerdictsReplaced: 1}, res.Ledger); diff != "" {
		t.Errorf("ledger counts with one verdict changed (-want +got):\n%s", diff)
	}
	want.Verdicts[n-2] = changed
	if diff := cmp.Diff(want, ledgerOf(t, s, store.LedgerQuery{}), sameLedger); diff != "" {
		t.Errorf("the ledger read back (-stored +read):\n%s", diff)
	}
}
