package mermaid

import (
	"fmt"
	"math"
	"strings"

	"github.com/qoscal/qoscal/chartdata"
)

// Strips are the ratio spread drawn as text, for a table in Markdown
// where a chart cannot show it legibly: for each benchmark (a row of the
// chart, in its order), one line of stripWidth characters on a log scale
// common to all the benchmarks, from Lo at the left end to Hi at the
// right, that marks the range of its ratios over the runs, its median,
// its band and a marked run's ratio. Shown in a monospaced font (a code
// span), the strips line up, so that benchmarks compare at a glance.
type Strips struct {
	Lines  []string
	Lo, Hi float64
	// Key names each mark the strips use, for the Markdown under them.
	Key string
}

// stripWidth is a strip's length in characters: about 290 px of a code
// span in a step summary, beside the table's name and number columns.
const stripWidth = 40

// The marks of a strip, from the lowest layer up: where two fall on one
// character, the later one is shown.
const (
	markTrack    = '·'
	markBand     = '░'
	markParity   = '┆'
	markRange    = '━'
	markBandLo   = '['
	markBandHi   = ']'
	markBandOne  = '┃' // a band narrower than one character
	markMedian   = '●'
	markThis     = '◆'
	stripRunesOK = "·░┆━[]┃●◆"
)

// RatioStrips draws each benchmark of the ratio spread as a text strip on
// the chart's own range of ratios (c.X, log scale). It returns no lines
// for a chart left out.
func RatioStrips(c *chartdata.RatioSpread) Strips {
	if c.LeftOut != "" || len(c.Rows) == 0 || !(c.X.Min > 0) || !(c.X.Max > c.X.Min) {
		return Strips{}
	}
	s := Strips{Lo: c.X.Min, Hi: c.X.Max}
	l0, l1 := math.Log(c.X.Min), math.Log(c.X.Max)
	cell := func(v float64) int {
		i := int(math.Floor((math.Log(v) - l0) / (l1 - l0) * stripWidth))
		return min(max(i, 0), stripWidth-1)
	}
	var parity *chartdata.Ref
	for i, r := range c.Refs {
		if r.Kind == chartdata.RefParity && r.At > c.X.Min && r.At < c.X.Max {
			parity = &c.Refs[i]
		}
	}
	bands, this := false, false
	for _, row := range c.Rows {
		line := []rune(strings.Repeat(string(markTrack), stripWidth))
		fill := func(lo, hi float64, m rune) {
			for i := cell(lo); i <= cell(hi); i++ {
				line[i] = m
			}
		}
		if row.Band != nil {
			bands = true
			fill(row.Band.Lo, row.Band.Hi, markBand)
		}
		if parity != nil {
			line[cell(parity.At)] = markParity
		}
		fill(row.Box.Min, row.Box.Max, markRange)
		if row.Band != nil {
			lo, hi := cell(row.Band.Lo), cell(row.Band.Hi)
			line[lo], line[hi] = markBandLo, markBandHi
			if lo == hi {
				line[lo] = markBandOne
			}
		}
		line[cell(row.Box.Median)] = markMedian
		if row.This > 0 {
			this = true
			line[cell(row.This)] = markThis
		}
		s.Lines = append(s.Lines, string(line))
	}

	runs := ""
	if n := len(c.Rows[0].Ratios); n > 0 {
		runs = fmt.Sprintf(" over the %d runs", n)
	}
	key := []string{fmt.Sprintf("%c lowest to highest ratio%s", markRange, runs), fmt.Sprintf("%c median", markMedian)}
	if bands {
		key = append(key, fmt.Sprintf("%c %c %s, %c where it reaches past the ratios seen", markBandLo, markBandHi, c.BandLegend, markBand))
	}
	if this {
		key = append(key, fmt.Sprintf("%c %s", markThis, c.ThisLegend))
	}
	if parity != nil {
		key = append(key, fmt.Sprintf("%c parity, 1.0", markParity))
	}
	s.Key = fmt.Sprintf("Strips: each benchmark's ratios on a log scale from %s at the left end to %s at the right, %d characters: %s.",
		chartdata.Num(s.Lo), chartdata.Num(s.Hi), stripWidth, strings.Join(key, "; "))
	return s
}
