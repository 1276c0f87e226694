package audit

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// Recorded is what a verdict is judged against, as the ledger keeps it:
// the calibration file (nil: a floor given alone) with the name it was
// given by, and the value of the profile that judged it ("" for the
// file's top level).
type Recorded struct {
	SHA256, Name, Profile string
	// Attempt is the CI job's attempt, when the run's own labels do not
	// say it ($GITHUB_RUN_ATTEMPT).
	Attempt string
	Now     time.Time
}

// LedgerVerdict is the verdict res as the ledger keeps it (store.Verdict),
// which AuditLedger reads back: of the last run judged (of a pair, the
// second, naming the first), a rerun when it re-ran a CI job (its attempt
// label, from qoscal.json, else r.Attempt, above 1), a pair when two runs
// were judged together (a pair, or a run and its automatic rerun), with
// the benchmarks judged against their bands in name order.
func LedgerVerdict(res *gate.GateResult, runs []data.Run, r Recorded) store.Verdict {
	last := &runs[len(runs)-1]
	v := store.Verdict{Run: last.ID, Verdict: res.Verdict, Detail: res.VerdictDetail, Score: res.Score, Floor: res.Floor,
		FloorSource: res.FloorSource, Partial: res.Partial, Kind: store.KindRun, RunnerHealth: res.RunnerHealth,
		RunnerZ: res.MedianZ, Recorded: r.Now}
	if r.SHA256 != "" {
		v.Calibration = store.CalibrationRef{SHA256: r.SHA256, Name: r.Name}
		v.Profile = r.Profile
	}
	attempt := last.Labels["attempt"]
	if attempt == "" {
		attempt = r.Attempt
	}
	if n, err := strconv.Atoi(attempt); err == nil && n > 1 {
		v.Kind = store.KindRerun
	}
	if len(runs) == 2 {
		v.Kind, v.Other = store.KindPair, runs[0].ID
	}
	for _, b := range res.Benchmarks {
		if b.Band != "" {
			v.Bands = append(v.Bands, store.BandOutcome{Benchmark: b.Name, Band: b.Band})
		}
	}
	slices.SortFunc(v.Bands, func(a, b store.BandOutcome) int { return strings.Compare(a.Benchmark, b.Benchmark) })
	return v
}
