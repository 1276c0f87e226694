package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/qoscal/qoscal/calibrate"
	calaudit "github.com/qoscal/qoscal/calibrate/audit"
	"github.com/qoscal/qoscal/calibrate/drift"
	calgate "github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/measure"
	"github.com/qoscal/qoscal/present"
	"github.com/qoscal/qoscal/render"
)

// driftNote checks, when --db names a store of gated runs and the
// calibration has its model, whether the last --drift-window stored runs
// (those not in the calibration) have moved away from it, and returns a
// one-line note when they have ("" otherwise), with the advice drift
// gives: a fall is to investigate (it may be a regression the gate
// passed), never to recalibrate; a rise is to recalibrate. The check (drift.Drift)
// runs at a false-alarm rate of 5% per --drift-window runs: steady runs,
// checked after each as the gate does, raise a false note in at most 5%
// of sequences of that many runs. A store that cannot be read gives a
// warning, not an error: the verdict does not depend on it.
func (g *gateFlags) driftNote(u *ui, dbGiven bool, cal *model.File, dir calibrate.Direction) string {
	if !dbGiven || g.driftWindow <= 0 || cal == nil || cal.Matrix == nil {
		return ""
	}
	filter, err := data.ParseLabels(g.labels)
	if err != nil {
		return ""
	}
	src := source.Source{Store: storePath(u, g.db), Labels: filter}
	runs, err := src.Runs(u.ctx)
	if err != nil {
		u.warnf("no drift check: %v", err)
		return ""
	}
	recent := drift.Recent(cal, runs, g.driftWindow)
	if recent == nil {
		return ""
	}
	d, err := drift.Drift(cal, recent, dir, drift.DriftOptions{PerRuns: g.driftWindow, ScoreOnly: true})
	if err != nil {
		u.warnf("no drift check: %v", present.Error(err))
		return ""
	}
	return present.GateDriftNote(d, store.RedactLocation(src.Store))
}

// recordRun stores the runs judged (one, the two of a pair, named by
// their folders, or the run and its automatic rerun, as ID and ID-rerun)
// with the --label labels, and the verdict in the ledger with them, in one
// transaction (store.IngestOptions.Ledger): a verdict is kept with its
// run, against the calibration named by the SHA-256 of its bytes, so that
// 'qoscal audit' can check the calibration's claims, and with the value
// of the profile that judged it ("" for the file's top level), whose
// claims audit checks it against.
func (g *gateFlags) recordRun(u *ui, judged []*data.Run, res *calgate.GateResult, cal *model.File, profile string, rerun bool) error {
	labels, err := data.ParseLabels(g.labels)
	if err != nil {
		return usagef("--label: %v", err)
	}
	runs := source.Labelled(judged, labels)
	if len(runs) == 1 || rerun {
		runs[0].ID = g.runID
	}
	now, err := u.now()
	if err != nil {
		return err
	}
	rec := calaudit.Recorded{Attempt: u.getenv("GITHUB_RUN_ATTEMPT"), Now: now}
	if cal != nil {
		rec.SHA256, rec.Name, rec.Profile = cal.SHA256, render.OneLine(g.calibration), profile
	}
	v := calaudit.LedgerVerdict(res, runs, rec)
	loc, ir, err := source.Record(u.ctx, storePath(u, g.db), runs, v, now)
	if err != nil {
		return err
	}
	name := "run " + runs[0].ID
	switch {
	case rerun:
		name = fmt.Sprintf("runs %s and %s (a run and its rerun)", runs[0].ID, runs[1].ID)
	case len(runs) == 2:
		name = fmt.Sprintf("runs %s and %s (a pair)", runs[0].ID, runs[1].ID)
	}
	switch l := ir.Ledger; {
	case ir.Added+ir.Replaced+ir.Completed > 0:
		u.notef("recorded %s in %s", name, loc)
	case l.VerdictsAdded > 0:
		u.notef("%s already stored in %s; recorded its verdict", name, loc)
	case l.VerdictsReplaced > 0:
		u.notef("%s already stored in %s; its earlier verdict against the same calibration replaced", name, loc)
	default:
		u.notef("%s already stored in %s", name, loc)
	}
	return nil
}

// writeMeta writes qoscal.json beside the candidate's result file (in the
// run folder, when one is given), from the Actions environment, so that an
// uploaded artifact carries its run's labels (load.Meta).
func (g *gateFlags) writeMeta(u *ui, paths []string) error {
	p, err := g.metaPath(paths)
	if err != nil {
		return err
	}
	now, err := u.now()
	if err != nil {
		return err
	}
	// A value the environment gave that is no name is refused below, as
	// what is written must read back.
	m, _ := load.ActionsMeta(u.getenv, now, version)
	m.Version = load.MetaVersion
	// The machine the gate runs on is the one that measured (gate runs in
	// the job that measured), as 'qoscal measure' records it: version 2,
	// which carries the environment.
	if env := measure.Fingerprint(u.getenv); env != nil {
		m.Version, m.Environment = load.MeasuredMetaVersion, env
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	// What is written must read back: a value the environment gave with a
	// line break is refused here, not by whoever reads the artifact.
	if _, err := load.ParseMeta(p, b); err != nil {
		return fmt.Errorf("--emit-meta: %w", err)
	}
	if err := writeFile(p, append(b, '\n')); err != nil {
		return fmt.Errorf("--emit-meta: %w", err)
	}
	u.notef("wrote %s", p)
	return nil
}

// metaPath is where --emit-meta writes qoscal.json: beside the
// candidate's result file (in the run folder, when one is given).
func (g *gateFlags) metaPath(paths []string) (string, error) {
	if g.candidate == "" {
		return "", usagef("--emit-meta writes beside the candidate's result file: give it with --candidate (not a stored run)")
	}
	spec, err := load.ParseVariantSpec(g.candidate)
	if err != nil {
		return "", usagef("--candidate: %v", err)
	}
	dir := filepath.Dir(spec.File)
	if len(paths) >= 1 {
		dir = filepath.Join(paths[0], dir)
	}
	return filepath.Join(dir, load.MetaFile), nil
}
