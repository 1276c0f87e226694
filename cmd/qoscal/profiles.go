package main

import (
	"fmt"
	"maps"
	"slices"
	"time"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/present"
)

// profilesBy calibrates one profile per value of the run label by among
// the runs the recommendation rests on (its analysis' matrix), each by
// the recommendation's method and options on that value's runs alone, on
// the same suite: what recommend gives on those runs (the regime window
// is the recommendation's, not chosen again). Runs without the label are
// in no profile, which is said; a value whose runs are too few for the
// method, or measure another suite, is an error naming it and its runs.
func profilesBy(u *ui, in *input, rec *calfloor.Recommendation, by string, now time.Time) ([]model.FileProfile, error) {
	if err := data.CheckName("--by", by); err != nil || by == "" {
		return nil, usagef("--by: expected a label key such as cpu")
	}
	a := in.analysis
	labels := runLabels(in.runs)
	groups := map[string][]string{}
	ids := model.MatrixOf(a).Runs
	unlabelled := 0
	for _, id := range ids {
		v := labels(id)[by]
		if v == "" {
			unlabelled++
			continue
		}
		groups[v] = append(groups[v], id)
	}
	if len(groups) == 0 {
		return nil, usagef("--by %s: none of the %d runs carries the label %s (a run folder's qoscal.json gives cpu, cpus, kernel, arch and image; --label gives others)", by, len(ids), by)
	}
	if unlabelled > 0 {
		u.warnf("--by %s: %d of the %d runs carry no label %s, so they are in no profile (only in the calibration of all the runs)", by, unlabelled, len(ids), by)
	}
	var out []model.FileProfile
	for _, v := range slices.Sorted(maps.Keys(groups)) {
		set := map[string]bool{}
		for _, id := range groups[v] {
			set[id] = true
		}
		bad := func(err error) error {
			return fmt.Errorf("--by %s: the profile of %s, on %s: %w", by, v, present.Plural(len(set), "run"), err)
		}
		sub, err := in.collected.Analyze(func(id string) bool { return set[id] })
		if err != nil {
			return nil, bad(err)
		}
		if !slices.Equal(sub.Suite, a.Suite) {
			return nil, bad(fmt.Errorf("its suite (%d benchmarks) is not the calibration's (%d): every profile is calibrated on the same suite", len(sub.Suite), len(a.Suite)))
		}
		r, err := calfloor.Recommend(sub, rec.Options)
		if err != nil {
			return nil, bad(err)
		}
		if err := calfloor.CheckUseful(sub, r.Floor, r.Options); err != nil {
			return nil, bad(err)
		}
		for _, t := range warningTexts(sub.Warnings, r.Warnings) {
			u.warnf("--by %s, the profile of %s: %s", by, v, t)
		}
		out = append(out, model.NewProfile(v, calfloor.NewFile(sub, r, nil, now, "")))
	}
	return out, nil
}
