package main

import (
	"errors"
	"time"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
)

// profilesBy calibrates one profile per value of the run label by
// (calfloor.Profiles), and warns of the runs in no profile and of each
// profile's warnings.
func profilesBy(u *ui, in *input, rec *calfloor.Recommendation, by string, now time.Time) ([]model.FileProfile, error) {
	if err := data.CheckName("--by", by); err != nil || by == "" {
		return nil, usagef("--by: expected a label key such as cpu")
	}
	res, err := calfloor.Profiles(in.collected, in.analysis, rec, runLabels(in.runs), by, now)
	var nl *calfloor.NoLabelError
	if errors.As(err, &nl) {
		return nil, usagef("%v", err)
	}
	if res.Unlabelled > 0 {
		u.warnf("--by %s: %d of the %d runs carry no label %s, so they are in no profile (only in the calibration of all the runs)", by, res.Unlabelled, res.Runs, by)
	}
	for _, pw := range res.Warnings {
		for _, t := range warningTexts(pw.Warnings...) {
			u.warnf("--by %s, the profile of %s: %s", by, pw.Value, t)
		}
	}
	if err != nil {
		return nil, err
	}
	return res.Profiles, nil
}
