package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/qoscal/qoscal/calibrate"
	calgate "github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/present"
	"github.com/qoscal/qoscal/render"
)

// writeGate writes a gate's verdict: the step summary first (a summary
// that cannot be written exits 2, and stdout must then hold nothing or,
// with --format json, the error document alone), the step outputs, the
// warnings (same, the command's own about the files it was given, before
// the gate's), the view, the annotations and the verdict line, then the
// drift note; and returns the verdict's exit code.
func writeGate(u *ui, v *gateView, outs []output, same string, warnings []calibrate.Warning, driftNote string, code int) error {
	// The summary is written before the verdict is printed: a summary that
	// cannot be written exits 2, and stdout must then hold nothing or, with
	// --format json, the error document alone.
	if summary := u.summary; summary != "" {
		var md bytes.Buffer
		v.Doc().WriteMarkdown(&md)
		if err := appendFile(summary, md.Bytes()); err != nil {
			// The error's own summary entry would fail the same way.
			u.summary = ""
			return fmt.Errorf("step summary %s: %w", summary, err)
		}
	}
	if err := u.setOutputs(outs); err != nil {
		return err
	}
	if same != "" {
		u.warnAbout("same file", same)
	}
	u.warnAll(warnings)
	if err := show(u, v); err != nil {
		return err
	}
	annotated := false
	if u.github {
		annotated = v.annotate(u.annotations())
	}
	v.verdictLine(u, u.json || u.markdown, annotated)
	if driftNote != "" {
		u.warnAbout("drift", "drift: "+driftNote)
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// gateView is the gate's verdict as the command shows it: the view of
// package present, and the output rules (where the verdict sentence and
// the annotations go).
type gateView struct {
	*present.Gate
}

// calibrationFacts are the kinds of the gate's warnings about the
// calibration file itself rather than the run: the same on every gate
// that rests on it, and said by recommend when it was written.
var calibrationFacts = map[calibrate.WarningKind]bool{
	calibrate.WarnThinCalibration: true,
	calibrate.WarnRunnerUnchecked: true,
}

// warnings are the gate's warnings to print as warnings (annotations
// under Actions). On a plain PASS the facts about the calibration itself
// (calibrationFacts: a thin calibration, a runner-health history it
// lacks) are said as plain notes instead, and in the summary's list: a
// healthy run of a known calibration leaves no annotation. On any other
// verdict, where a reviewer weighs them, they are warnings.
func (v *gateView) warnings(u *ui) []calibrate.Warning {
	if v.Word() != "PASS" {
		return v.Res.Warnings
	}
	var out []calibrate.Warning
	for _, w := range v.Res.Warnings {
		if !calibrationFacts[w.Kind] {
			out = append(out, w)
		}
	}
	var facts []calibrate.Warning
	for _, w := range v.Res.Warnings {
		if calibrationFacts[w.Kind] {
			facts = append(facts, w)
		}
	}
	for _, l := range present.WarningLines(facts) {
		u.notef("%s", l.Text)
	}
	return out
}

// outputs are the gate's step outputs under Actions ($GITHUB_OUTPUT):
// verdict (the JSON verdict: pass, fail, warn, inconclusive, rerun,
// ungated), verdict-detail (the JSON verdict_detail: what qualifies it,
// such as the benchmark an inconclusive verdict rests on), score, floor
// ("" with none), floor-source, run and exit-code.
func (v *gateView) outputs() []output {
	floor, src := "", ""
	if v.Res.Floor > 0 {
		floor, src = v.FloorText(), floorSourceName(v.Res.FloorSource)
		if v.Res.FloorSource == calgate.FloorCalibration {
			src = oneLine(v.CalPath)
		}
	}
	return []output{
		{"verdict", v.Res.Verdict},
		{"verdict-detail", oneLine(v.Res.VerdictDetail)},
		{"score", strconv.FormatFloat(v.Res.Score, 'f', 4, 64)},
		{"floor", floor},
		{"floor-source", src},
		{"run", oneLine(v.Run.ID)},
		{"exit-code", strconv.Itoa(v.ExitCode)},
	}
}

// oneLine puts outside text on one line, as a step output must be
// (render.OneLine).
func oneLine(s string) string { return render.OneLine(s) }

func gateExitCode(res *calgate.GateResult) int {
	switch res.Verdict {
	case calgate.VerdictFail:
		return exitRegression
	case calgate.VerdictInconclusive, calgate.VerdictRerun:
		return exitInconclusive
	}
	return exitOK
}

// verdictLine prints the verdict sentence: PASS (and "not gating") on
// stdout, FAIL and inconclusive on stderr, report-only below the floor as a
// warning. With JSON or Markdown on stdout the sentence goes to stderr:
// stdout is the document only, whose own headline says the verdict with
// names escaped (issue 35: piped into qoscal comment, the plain sentence
// after a Markdown document put a benchmark named <img ...> or @octocat
// into the comment raw). When an annotation already said it, it is not
// said again.
func (v *gateView) verdictLine(u *ui, document, annotated bool) {
	h := v.Headline()
	out := func(s string) {
		if document {
			u.notef("%s", s)
		} else {
			fmt.Fprintln(u.stdout, s)
		}
	}
	switch v.Res.Verdict {
	case calgate.VerdictPass:
		out(h)
	case calgate.VerdictFail, calgate.VerdictInconclusive, calgate.VerdictRerun:
		if !annotated {
			u.notef("%s", h)
		}
	case calgate.VerdictWarn:
		if !annotated {
			u.warnf("%s", h)
		}
		out("report-only: not gating.")
	case calgate.VerdictUngated:
		out(h)
		out("no floor set: not gating.")
	}
}

// annotate writes the GitHub Actions annotation that states a verdict
// which needs one (FAIL, inconclusive, rerun, report-only below the
// floor), and reports whether it wrote one. The gate's warnings (runner
// degraded, below bands, partial suite) are annotations of their own
// (warnAll).
func (v *gateView) annotate(w io.Writer) (verdict bool) {
	kind := map[string]string{
		calgate.VerdictFail:         "error",
		calgate.VerdictWarn:         "warning",
		calgate.VerdictInconclusive: "error",
		calgate.VerdictRerun:        "warning",
	}[v.Res.Verdict]
	if kind == "" {
		return false
	}
	ghCommand(w, kind, "qoscal gate: "+v.Word(), v.Headline())
	return true
}
