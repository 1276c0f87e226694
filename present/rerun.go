package present

import (
	"fmt"

	"github.com/qoscal/qoscal/render"
)

// rerunJSON is the gate's automatic rerun (gate --rerun-command): the
// command, and the scores of the first run and of its rerun over the
// gated suite; the document's verdict and score are the pair's.
type rerunJSON struct {
	Command string       `json:"command"`
	First   render.Float `json:"first"`
	Second  render.Float `json:"second"`
}

// rerunJSON is the rerun's JSON, nil when the gate ran no rerun.
func (g *Gate) rerunJSON() *rerunJSON {
	if g.RerunCommand == "" || len(g.Res.Pair) != 2 {
		return nil
	}
	return &rerunJSON{Command: g.RerunCommand, First: render.Float(g.Res.Pair[0].Score), Second: render.Float(g.Res.Pair[1].Score)}
}

// rerunSentence says, after an automatic rerun, what happened: the first
// score, within the rerun band below the floor, the command that
// measured again and the rerun's score, and how the pair was judged;
// "" without a rerun.
func (g *Gate) rerunSentence() string {
	if g.rerunJSON() == nil {
		return ""
	}
	a, b := g.Res.Pair[0], g.Res.Pair[1]
	return fmt.Sprintf("Rerun: run %s scored %sx, just below the %sx floor (within the rerun band), so the rerun command \"%s\" measured again: run %s scored %sx. The two are judged together by their mean, %sx, against the floor with no band (docs/STATS.md 2.14).",
		a.ID, ratio(a.Score), g.FloorText(), render.OneLine(g.RerunCommand), b.ID, ratio(b.Score), ratio(g.Res.Score))
}
