package present

import (
	"testing"

	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
)

// TestGoldenRecommend: qoscal recommend's view, and with --by its
// profiles, in text, Markdown and JSON.
func TestGoldenRecommend(t *testing.T) {
	g, h, x := glibc(t), hoard(t), hostile(t)
	recommend := func(c *calibration) *Recommend {
		return &Recommend{A: c.a, Rec: c.rec, Warnings: WarningTexts(c.a.Warnings, c.rec.Warnings), BacktestName: "--backtest"}
	}
	cases := []goldenCase{
		{name: "glibc", reason: "the Linux sample with the default method: bands, candidates, warnings"},
		{name: "hoard", reason: "the Windows worked example: five runs"},
		{name: "hostile", reason: "names with ::, CR, LF, HTML, @ and | as benchmarks, variants and a run id"},
	}
	for i, c := range []*calibration{g, h, x} {
		v := recommend(c)
		cases[i].doc = v.Doc
		cases[i].json = func() any { return v.JSON() }
	}

	// The other methods, on the sample's runs measured three times over
	// (variance components), with a backtest of the regressed runs and
	// recommend --detect's plan.
	var reps []data.Run
	for _, r := range g.runs {
		reps = append(reps, repeated(r, 3))
	}
	regressed := loadGlibc(t, "regressed", "regressed/")
	for _, m := range []struct {
		name, reason string
		method       model.Method
		detect       float64
	}{
		{"margin", "the margin method, a backtest of the regressed runs, a --detect plan of 5%", model.MethodMargin, 0.05},
		{"prediction", "the prediction method, a --detect plan no single job can meet", model.MethodPrediction, 0.01},
		{"tolerance", "the tolerance method", model.MethodTolerance, 0},
	} {
		opt := model.DefaultRecommendOptions
		opt.Method, opt.Margin, opt.RerunBand = m.method, 0.05, 0.03
		c := calibrateOn(t, reps, opt, nil)
		v := recommend(c)
		others, err := calfloor.Backtest(c.a, c.rec.Floor, append(regressed, without(regressed[0], "larson")), c.a.Directions[c.a.Suite[0]], "")
		if err != nil {
			t.Fatal(err)
		}
		others[len(others)-1].ID = "regressed/partial"
		v.Others = others
		if m.detect > 0 {
			p, err := gate.Detect(c.a, c.rec, m.detect, 0.9, 2.5, 30)
			if err != nil {
				t.Fatal(err)
			}
			v.Detect = &p
		}
		cases = append(cases, goldenCase{name: m.name, reason: m.reason, doc: v.Doc, json: func() any { return v.JSON() }})
	}
	l := glibcLatest(t)
	lv := recommend(l)
	cases = append(cases, goldenCase{name: "glibc-latest", reason: "the Linux sample as the command calibrates it: on its latest regime, the earlier one named",
		doc: lv.Doc, json: func() any { return lv.JSON() }})
	checkGolden(t, "recommend", cases)
}
