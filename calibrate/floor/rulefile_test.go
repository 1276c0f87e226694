package floor_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/qoscal/qoscal/calibrate/audit"
	"github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/internal/calibtest"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// TestMarginRuleInFile: a margin floor on 20 runs claims the margin
// rule's own rate (docs/STATS.md 2.1); the file it writes carries it as
// false_positive_rate.rule (version 5), reads back, and is what audit
// claims. A file whose rule rate was edited, or that puts it in an older
// version or a file of another method, is refused; a margin floor on
// fewer than MarginRuleMinRuns runs claims the predictive rate and its
// file has no rule (version 2, as before).
func TestMarginRuleInFile(t *testing.T) {
	a, err := spread.Analyze(calibtest.NoiseRuns(20), spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := model.DefaultRecommendOptions
	opt.Method, opt.Margin, opt.Step = model.MethodMargin, 0.02, 0.01
	r, err := floor.Recommend(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := model.MarginRuleRate(a.Scores(), opt.Margin, opt.Step, opt.Seed)
	if math.IsNaN(want) || r.Cost.RuleRate != want || (r.Cost.Claimed != want && !a.Score.InDoubt()) {
		t.Fatalf("rule rate %v, claimed %v, want %v", r.Cost.RuleRate, r.Cost.Claimed, want)
	}
	f := floor.NewFile(a, r, nil, time.Unix(1796112000, 0), "qoscal test")
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := model.ParseFile("c.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if g.Version != model.RuleVersion || g.FPR.Rule == nil || float64(*g.FPR.Rule) != want {
		t.Fatalf("read back: version %d, rule %v", g.Version, g.FPR.Rule)
	}
	if got, from := audit.ClaimedRate(g); got != r.Cost.Claimed || (from != "rule" && from != "distribution_free") {
		t.Errorf("audit claims %v (%s), recommend %v", got, from, r.Cost.Claimed)
	}
	edit := func(change func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		b, _ := json.Marshal(m)
		return b
	}
	fpr := func(m map[string]any) map[string]any { return m["false_positive_rate"].(map[string]any) }
	for _, c := range []struct {
		reason string
		change func(m map[string]any)
		want   string
	}{
		{"edited", func(m map[string]any) { fpr(m)["rule"] = want / 2 }, "is not the margin rule's rate on the matrix"},
		{"an older version", func(m map[string]any) { m["version"] = 4 }, "field false_positive_rate.rule is a field of version 5, and this file says version 4"},
	} {
		if _, err := model.ParseFile("c.json", edit(c.change)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ...%s", c.reason, err, c.want)
		}
	}
	few, err := spread.Analyze(calibtest.NoiseRuns(model.MarginRuleMinRuns-1), spread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r9, err := floor.Recommend(few, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(r9.Cost.RuleRate) {
		t.Errorf("%d runs: rule rate %v, want none", model.MarginRuleMinRuns-1, r9.Cost.RuleRate)
	}
	if f9 := floor.NewFile(few, r9, nil, time.Unix(1796112000, 0), "t"); f9.FPR.Rule != nil || f9.Version != model.MinFileVersion {
		t.Errorf("%d runs: file version %d with rule %v", model.MarginRuleMinRuns-1, f9.Version, f9.FPR.Rule)
	}
}
