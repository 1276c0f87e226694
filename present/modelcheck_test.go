package present

import (
	"math"
	"strings"
	"testing"

	calspread "github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/stats"
)

// TestModelCheckRows: the rows say whether the log scores passed the
// normality check and whether the runs were treated as independent, and
// what each does to the figures; too few runs say so instead.
func TestModelCheckRows(t *testing.T) {
	normal := calspread.ScoreStats{N: 9, ShapiroW: 0.925, ShapiroP: 0.437, Lag1: 0.30, Lag1SE: 0.33, Effective: stats.Independent(9)}
	notNormal := calspread.ScoreStats{N: 12, ShapiroW: 0.798, ShapiroP: 0.009, Lag1: 0.70, Lag1SE: 0.29, Effective: stats.AR1(12, 0.9)}
	for _, c := range []struct {
		name string
		s    calspread.ScoreStats
		want []string
	}{
		{"normal, independent", normal, []string{"yes at 5%: Shapiro–Wilk W 0.925, p 0.437", "+0.30 (SE 0.33): not significant, the runs are treated as independent"}},
		{"not normal, correlated", notNormal, []string{"no at 5%: Shapiro–Wilk W 0.798, p 0.009; the claimed rates are no lower than the model-free ones",
			"+0.70 (SE 0.29): consecutive runs correlated; allowing for ρ", "the 12 runs count as 2.0"}},
		{"too few", calspread.ScoreStats{N: 2, ShapiroW: math.NaN(), ShapiroP: math.NaN()}, []string{"too few runs"}},
	} {
		var got strings.Builder
		for _, r := range modelCheckRows(c.s) {
			got.WriteString(r[0] + ": " + r[1] + "\n")
		}
		for _, w := range c.want {
			if !strings.Contains(got.String(), w) {
				t.Errorf("%s: rows\n%s\nlack %q", c.name, got.String(), w)
			}
		}
	}
}
