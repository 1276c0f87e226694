package present

import "testing"

// TestGoldenSpread: qoscal spread's view, in text, Markdown and JSON.
func TestGoldenSpread(t *testing.T) {
	g, h, x := glibc(t), hoard(t), hostile(t)
	spread := func(c *calibration) *Spread {
		return &Spread{A: c.a, Warnings: WarningTexts(c.a.Warnings)}
	}
	cases := []goldenCase{
		{name: "glibc", reason: "the Linux sample: two regimes, noisy benchmarks, their warnings"},
		{name: "hoard", reason: "the Windows worked example: five runs, too few for the model checks' power"},
		{name: "hostile", reason: "names with ::, CR, LF, HTML, @ and | as benchmarks, variants and a run id"},
	}
	for i, c := range []*calibration{g, h, x} {
		v := spread(c)
		cases[i].doc = v.Doc
		cases[i].json = func() any { return v.JSON() }
	}
	checkGolden(t, "spread", cases)
}
