package present

import (
	"fmt"

	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/render"
)

// RecommendProfiles is a recommendation with its profiles (recommend
// --by): the recommendation on all the runs, then the floor of each
// profile, calibrated on the runs of one value of the label By alone.
type RecommendProfiles struct {
	*Recommend
	By       string
	Profiles []model.FileProfile
}

// profileJSON is one profile in recommend's JSON: its value and runs,
// its floor, the scores of its runs and its floor's false-positive rates.
type profileJSON struct {
	Value     string         `json:"value"`
	Runs      int            `json:"runs"`
	Floor     float64        `json:"floor"`
	FloorText string         `json:"floor_text"`
	Observed  observedJSON   `json:"observed"`
	FPR       profileFPRJSON `json:"false_positive_rate"`
}

// profileFPRJSON are a profile's floor's false-positive rates per healthy
// run: predictive and with no model (null when undefined).
type profileFPRJSON struct {
	Predictive       render.Float `json:"predictive"`
	DistributionFree render.Float `json:"distribution_free"`
}

// recommendProfilesJSON is recommend's JSON with profiles: the
// recommendation's document, and by and profiles.
type recommendProfilesJSON struct {
	recommendJSON
	By       string        `json:"by"`
	Profiles []profileJSON `json:"profiles"`
}

// JSON is the recommendation's JSON document with by and profiles.
func (v *RecommendProfiles) JSON() recommendProfilesJSON {
	j := recommendProfilesJSON{recommendJSON: v.Recommend.JSON(), By: v.By, Profiles: []profileJSON{}}
	for _, p := range v.Profiles {
		j.Profiles = append(j.Profiles, profileJSON{Value: p.Value, Runs: p.Runs, Floor: p.Floor, FloorText: p.FloorText,
			Observed: observedJSON{Min: p.Observed.Min, Median: p.Observed.Median, Max: p.Observed.Max},
			FPR:      profileFPRJSON{Predictive: render.Float(p.FPR.Predictive), DistributionFree: render.Float(p.FPR.DistributionFree)}})
	}
	return j
}

// Doc is the recommendation's document, then the profiles' floors: a
// line each in text, a table in Markdown.
func (v *RecommendProfiles) Doc() *render.Doc {
	d := v.Recommend.Doc()
	text, md := render.In{Only: render.Text}, render.In{Only: render.Markdown}
	head := fmt.Sprintf("profiles by %s, each calibrated on its runs alone (gate judges a run on the profile of its own %s):", v.By, v.By)
	lines := []string{"", head}
	for _, p := range v.Profiles {
		lines = append(lines, "    "+profileLine(p))
	}
	items := make([]string, len(v.Profiles))
	for i, p := range v.Profiles {
		items[i] = profileLine(p)
	}
	d.Add(&render.Lines{In: text, Lines: lines},
		&render.Heading{In: md, Level: 3, Text: "Profiles by " + v.By},
		&render.Paragraph{In: md, Text: fmt.Sprintf("Each calibrated on its runs alone; gate judges a run on the profile of its own %s.", v.By)},
		&render.List{In: md, Items: items})
	return d
}

// profileLine says a profile's floor: "Model A: floor 1.21x, 6 runs
// (scores 1.28–1.32), a healthy run trips it about once in 1,051 runs".
func profileLine(p model.FileProfile) string {
	return fmt.Sprintf("%s: floor %sx, %s (scores %s–%s), a healthy run trips it %s (predictive)",
		p.Value, p.FloorText, Plural(p.Runs, "run"), ratio(p.Observed.Min), ratio(p.Observed.Max), howOften(float64(p.FPR.Predictive)))
}
