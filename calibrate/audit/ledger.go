package audit

import (
	"context"
	"fmt"

	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data/store"
)

// ProfileError is a verdict of the ledger judged by a profile that the
// calibration does not have: the ledger was written by something else.
type ProfileError struct {
	Run      string   // the run judged
	CalName  string   // the calibration's name as the ledger recorded it
	Profile  string   // the profile's value the verdict names
	Profiles []string // the calibration's profiles' values
}

func (e *ProfileError) Error() string {
	return fmt.Sprintf("the verdict of run %s was judged by a profile %s the calibration does not have", e.Run, e.Profile)
}

// AuditLedger audits cal on the verdicts the ledger of st kept against
// its exact bytes, of the runs that carry the labels of filter, with the
// latest mark of each. Each verdict is audited against what judged it: a
// profiled calibration's verdicts judged by a profile (store.Verdict's
// Profile) against that profile's floor, bands and claimed rate, one
// audit per profile in the file's order; the others against the file's
// top level (the result). A run counts as on the calibrated branch when
// it also carries every label of the calibration. It returns the ledger
// read, whose Verdicts are none when no run was judged against cal; a
// verdict judged by a profile cal does not have is a *ProfileError.
func AuditLedger(ctx context.Context, st store.Store, filter map[string]string, cal *model.File) (*AuditResult, []ProfileResult, store.Ledger, error) {
	ledger, err := st.Ledger(ctx, store.LedgerQuery{Labels: filter, Calibration: cal.SHA256})
	if err != nil {
		return nil, nil, ledger, err
	}
	onBranch, err := branchRuns(ctx, st, filter, cal)
	if err != nil {
		return nil, nil, ledger, err
	}
	marks := ledger.LatestMarks()
	byProfile := map[string][]AuditRun{}
	for _, v := range ledger.Verdicts {
		r := AuditRun{ID: v.Run, Verdict: v.Verdict, Score: v.Score, Floor: v.Floor, FloorSource: v.FloorSource,
			Partial: v.Partial, Kind: v.Kind, RunnerHealth: v.RunnerHealth, BandsJudged: len(v.Bands) > 0,
			OnBranch: onBranch == nil || onBranch[v.Run]}
		for _, b := range v.Bands {
			if b.Band == gate.BandBelow {
				r.Below = append(r.Below, b.Benchmark)
			}
		}
		if m, ok := marks[v.Run]; ok {
			r.Mark, r.Note = m.Truth, m.Note
		}
		if v.Profile != "" {
			if _, ok := cal.Profile(v.Profile); !ok {
				return nil, nil, ledger, &ProfileError{Run: v.Run, CalName: v.Calibration.Name, Profile: v.Profile, Profiles: cal.ProfileValues()}
			}
		}
		byProfile[v.Profile] = append(byProfile[v.Profile], r)
	}
	res, profiles, err := AuditProfiles(cal, byProfile, AuditOptions{})
	if err != nil {
		return nil, nil, ledger, err
	}
	return res, profiles, ledger, nil
}

// branchRuns returns the runs of the calibrated branch among those the
// filter selects: those that also carry every label of the calibration
// (by id); nil when the calibration has no labels (every run is).
func branchRuns(ctx context.Context, st store.Store, filter map[string]string, cal *model.File) (map[string]bool, error) {
	if len(cal.Labels) == 0 {
		return nil, nil
	}
	both := map[string]string{}
	for k, v := range cal.Labels {
		both[k] = v
	}
	for k, v := range filter {
		if w, ok := both[k]; ok && w != v {
			return map[string]bool{}, nil // no run carries both
		}
		both[k] = v
	}
	l, err := st.Ledger(ctx, store.LedgerQuery{Labels: both, Calibration: cal.SHA256})
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, v := range l.Verdicts {
		out[v.Run] = true
	}
	return out, nil
}
