package floor_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
)

// profileFixture collects 20 noise runs: 1-10 on cpu a, 11-18 on cpu b,
// 19-20 unlabelled, and recommends the worked example's floor on all.
func profileFixture(t *testing.T, label func(i int) string) (*spread.Collected, *spread.Analysis, *floor.Recommendation, []data.Run, func(string) map[string]string) {
	t.Helper()
	runs := calibtest.NoiseRuns(20)
	byID := map[string]map[string]string{}
	for i, r := range runs {
		if v := label(i); v != "" {
			byID[r.ID] = map[string]string{"cpu": v}
		}
	}
	c, err := spread.Collect(func(yield func(data.Run, error) bool) {
		for _, r := range runs {
			if !yield(r, nil) {
				return
			}
		}
	}, spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Analyze(func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	rec, err := floor.Recommend(a, calibtest.WorkedOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c, a, rec, runs, func(id string) map[string]string { return byID[id] }
}

func TestProfiles(t *testing.T) {
	c, a, rec, runs, labels := profileFixture(t, func(i int) string {
		switch {
		case i < 10:
			return "a"
		case i < 18:
			return "b"
		}
		return ""
	})
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	got, err := floor.Profiles(c, a, rec, labels, "cpu", now)
	if err != nil {
		t.Fatal(err)
	}
	if got.Runs != 20 || got.Unlabelled != 2 || len(got.Profiles) != 2 || len(got.Warnings) != 2 {
		t.Fatalf("got %d of %d unlabelled, %d profiles, %d warning lists; want 2 of 20, 2, 2", got.Unlabelled, got.Runs, len(got.Profiles), len(got.Warnings))
	}
	// Each profile is what Recommend gives on its runs alone.
	for i, want := range []struct {
		value    string
		from, to int
	}{{"a", 0, 10}, {"b", 10, 18}} {
		p := got.Profiles[i]
		if p.Value != want.value || got.Warnings[i].Value != want.value {
			t.Errorf("profile %d is %q (warnings %q), want %q", i, p.Value, got.Warnings[i].Value, want.value)
		}
		sub, err := spread.Analyze(runs[want.from:want.to], spread.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := floor.Recommend(sub, rec.Options)
		if err != nil {
			t.Fatal(err)
		}
		if p.Floor != r.Floor || p.Runs != want.to-want.from {
			t.Errorf("profile %s: floor %v on %d runs, want %v on %d", p.Value, p.Floor, p.Runs, r.Floor, want.to-want.from)
		}
	}
}

func TestProfilesErrors(t *testing.T) {
	c, a, rec, _, labels := profileFixture(t, func(int) string { return "" })
	_, err := floor.Profiles(c, a, rec, labels, "cpu", time.Time{})
	var nl *floor.NoLabelError
	if !errors.As(err, &nl) || nl.By != "cpu" || nl.Runs != 20 || !strings.Contains(err.Error(), "none of the 20 runs carries the label cpu") {
		t.Errorf("no run labelled: %v, want a NoLabelError of 20 runs", err)
	}
	// A value with one run is too few for the method: an error naming it,
	// with the profiles calibrated before it.
	c, a, rec, _, labels = profileFixture(t, func(i int) string {
		if i == 19 {
			return "z"
		}
		return "a"
	})
	got, err := floor.Profiles(c, a, rec, labels, "cpu", time.Time{})
	if err == nil || !strings.Contains(err.Error(), "--by cpu: the profile of z, on 1 run: ") {
		t.Fatalf("one run of z: %v, want an error naming the profile", err)
	}
	if got == nil || len(got.Profiles) != 1 || got.Profiles[0].Value != "a" {
		t.Errorf("one run of z: %+v, want profile a before the error", got)
	}
}
