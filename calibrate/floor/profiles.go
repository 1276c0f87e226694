package floor

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// NoLabelError is the error of Profiles when none of the Runs runs
// carries the label By: a mistake in the command line, not in the runs.
type NoLabelError struct {
	By   string
	Runs int
}

func (e *NoLabelError) Error() string {
	return fmt.Sprintf("--by %s: none of the %d runs carries the label %s (a run folder's qoscal.json gives cpu, cpus, kernel, arch and image; --label gives others)", e.By, e.Runs, e.By)
}

// ByLabel is what Profiles calibrated: one profile per value of the
// label, the runs left out for want of it, and each profile's warnings.
type ByLabel struct {
	Profiles []model.FileProfile
	// Unlabelled of Runs runs carry no value of the label.
	Unlabelled, Runs int
	// Warnings are each profile's analysis and recommendation warnings,
	// by the profile's value, in the order of Profiles.
	Warnings []ProfileWarnings
}

// ProfileWarnings are the warnings of one profile's calibration.
type ProfileWarnings struct {
	Value    string
	Warnings [][]calibrate.Warning
}

// Profiles calibrates one profile per value of the run label by among
// the runs the recommendation rests on (a's matrix), each by the
// recommendation's method and options on that value's runs alone (c
// analysed again), on the same suite: what Recommend gives on those
// runs (the regime window is the recommendation's, not chosen again).
// labels gives a run's labels by its id. Runs without the label are in
// no profile (ByLabel.Unlabelled); when no run has it the error is a
// *NoLabelError. A value whose runs are too few for the method, or measure
// another suite, is an error naming it and its runs, returned with the
// profiles calibrated before it (so that their warnings can be shown).
func Profiles(c *spread.Collected, a *spread.Analysis, rec *Recommendation, labels func(id string) map[string]string, by string, now time.Time) (*ByLabel, error) {
	groups := map[string][]string{}
	ids := model.MatrixOf(a).Runs
	out := &ByLabel{Runs: len(ids)}
	for _, id := range ids {
		v := labels(id)[by]
		if v == "" {
			out.Unlabelled++
			continue
		}
		groups[v] = append(groups[v], id)
	}
	if len(groups) == 0 {
		return nil, &NoLabelError{By: by, Runs: len(ids)}
	}
	for _, v := range slices.Sorted(maps.Keys(groups)) {
		p, ws, err := profileOf(c, a, rec, v, groups[v], now)
		if err != nil {
			return out, fmt.Errorf("--by %s: the profile of %s, on %s: %w", by, v, plural(len(groups[v]), "run"), err)
		}
		out.Profiles = append(out.Profiles, p)
		out.Warnings = append(out.Warnings, ProfileWarnings{Value: v, Warnings: ws})
	}
	return out, nil
}

// profileOf calibrates the profile of value v on the runs ids.
func profileOf(c *spread.Collected, a *spread.Analysis, rec *Recommendation, v string, ids []string, now time.Time) (model.FileProfile, [][]calibrate.Warning, error) {
	set := map[string]bool{}
	for _, id := range ids {
		set[id] = true
	}
	sub, err := c.Analyze(func(id string) bool { return set[id] })
	if err != nil {
		return model.FileProfile{}, nil, err
	}
	if !slices.Equal(sub.Suite, a.Suite) {
		return model.FileProfile{}, nil, fmt.Errorf("its suite (%d benchmarks) is not the calibration's (%d): every profile is calibrated on the same suite", len(sub.Suite), len(a.Suite))
	}
	r, err := Recommend(sub, rec.Options)
	if err != nil {
		return model.FileProfile{}, nil, err
	}
	if err := CheckUseful(sub, r.Floor, r.Options); err != nil {
		return model.FileProfile{}, nil, err
	}
	return model.NewProfile(v, NewFile(sub, r, nil, now, "")), [][]calibrate.Warning{sub.Warnings, r.Warnings}, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
