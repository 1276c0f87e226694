package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Ledger is what a store keeps beside its runs so that a calibration's
// claims can be checked after the fact (qoscal audit): every verdict the
// gate recorded (gate --record) and every mark a person made later
// (qoscal mark). Entries refer to stored runs by id, so a run's labels,
// the environment it ran on among them, select its ledger entries as they
// select the run (LedgerQuery.Labels).
type Ledger struct {
	// Verdicts in the order they were recorded.
	Verdicts []Verdict
	// Marks in the order they were made: a run's latest mark is the last
	// of its marks (LatestMarks); the earlier ones are kept.
	Marks []Mark
}

// Empty reports whether the ledger holds nothing.
func (l *Ledger) Empty() bool { return l == nil || len(l.Verdicts)+len(l.Marks) == 0 }

// Kinds of judgement a verdict was (Verdict.Kind).
const (
	// KindRun is one run judged alone.
	KindRun = "run"
	// KindRerun is one run judged alone that re-ran a CI job (a GitHub
	// Actions attempt after the first).
	KindRerun = "rerun"
	// KindPair is two runs judged by the mean of their log scores
	// (gate RUN1 RUN2); the verdict is kept with the second, and Other
	// names the first.
	KindPair = "pair"
)

// Truths a mark records (Mark.Truth).
const (
	TruthHealthy   = "healthy"
	TruthRegressed = "regressed"
)

// Verdict is one gate verdict as the ledger keeps it: what the gate said
// of a stored run, against which calibration, and what it rested on. A
// run has at most one verdict per calibration (per Calibration.SHA256,
// "" for a run gated on a floor alone): a run recorded again against the
// same calibration keeps its verdict when the verdict is the same
// (Digest), and has it replaced, in its place, when it is not.
type Verdict struct {
	// Run is the id of the stored run judged (of a pair, the second).
	Run string
	// Calibration is the calibration file the run was judged against
	// (SHA256 "" without one).
	Calibration CalibrationRef
	// Profile is the value of the calibration's profile label (its "by")
	// whose profile judged the run: its floor, bands and claimed rate
	// ('recommend --by'); "" when the file's own top-level figures did.
	Profile string
	// Verdict is the gate's verdict (pass, fail, warn, inconclusive,
	// rerun, ungated) and Detail what qualifies it ("pass on a degraded
	// runner").
	Verdict, Detail string
	// Score is the run's score and Floor the floor it was judged against
	// (0: none); FloorSource says where the floor came from (calibration,
	// given). Partial is set when the run was gated on part of the suite
	// (its score and floor are then the sub-suite's).
	Score, Floor float64
	FloorSource  string
	Partial      bool
	// Kind is KindRun, KindRerun or KindPair; Other, for a pair, is the
	// pair's first run.
	Kind, Other string
	// RunnerHealth is the runner-health check's outcome (ok, degraded,
	// unchecked, or "" without a calibration) and RunnerZ the median
	// robust z it compared (NaN when not computed).
	RunnerHealth string
	RunnerZ      float64
	// Bands are the benchmarks judged against their calibrated bands and
	// each one's outcome (below, within, above), in name order; none when
	// the bands were not judged.
	Bands []BandOutcome
	// Recorded is when the verdict was recorded.
	Recorded time.Time
}

// CalibrationRef names a calibration file by its content: the SHA-256 of
// its bytes, in lower-case hex, and the name it was read by.
type CalibrationRef struct {
	SHA256, Name string
}

// BandOutcome is one benchmark against its calibrated band.
type BandOutcome struct {
	Benchmark, Band string
}

// Mark is what a person learned of a run after its verdict: that it was
// healthy (a failure was a false alarm) or regressed (a pass missed a
// regression), with a note (a pull request, a cause).
type Mark struct {
	Run, Truth, Note string
	Marked           time.Time
}

// LedgerQuery selects ledger entries.
type LedgerQuery struct {
	// Labels keeps the entries of the runs that carry every label given.
	Labels map[string]string
	// Run, when not "", keeps the entries of that run alone.
	Run string
	// Calibration, when not "", keeps the verdicts against the
	// calibration of that SHA-256 (the marks of every selected run are
	// returned whatever it is).
	Calibration string
}

// LedgerResult counts what an ingest did to the ledger.
type LedgerResult struct {
	VerdictsAdded, VerdictsReplaced, VerdictsUnchanged int
	MarksAdded, MarksUnchanged                         int
}

// Digest is a content hash of a verdict: every field but the time it was
// recorded, so that the same verdict recorded again is the same verdict.
// Values are written bit for bit (a score is its 8-byte float), each part
// as its length, a colon and its bytes, as Digest of a run.
func (v *Verdict) Digest() string {
	var b []byte
	part := func(p string) {
		b = strconv.AppendInt(b, int64(len(p)), 10)
		b = append(b, ':')
		b = append(b, p...)
	}
	num := func(x float64) { part(strconv.FormatUint(math.Float64bits(x), 16)) }
	part(v.Run)
	part(v.Calibration.SHA256)
	part(v.Calibration.Name)
	if v.Profile != "" {
		// Only a profiled verdict hashes its profile, so that the
		// digest of a verdict without one is the digest schema version
		// 3 stored, and recording it again after an upgrade finds it
		// unchanged.
		part("profile")
		part(v.Profile)
	}
	part(v.Verdict)
	part(v.Detail)
	num(v.Score)
	num(v.Floor)
	part(v.FloorSource)
	part(strconv.FormatBool(v.Partial))
	part(v.Kind)
	part(v.Other)
	part(v.RunnerHealth)
	if math.IsNaN(v.RunnerZ) {
		part("")
	} else {
		num(v.RunnerZ)
	}
	for _, o := range v.Bands {
		part(o.Benchmark)
		part(o.Band)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Verdicts a verdict may be (Verdict.Verdict), as the gate gives them.
var Verdicts = []string{"pass", "fail", "warn", "inconclusive", "rerun", "ungated"}

// Floor sources a verdict may name (Verdict.FloorSource): the
// calibration file, a floor given on the command line (--floor), or none
// ("", an ungated run, whose Floor is 0).
var FloorSources = []string{"calibration", "given", ""}

// RunnerHealths a verdict may record (Verdict.RunnerHealth), "" without a
// calibration.
var RunnerHealths = []string{"ok", "degraded", "unchecked", ""}

// Check says what makes a verdict unfit to keep, or nil: a run id and a
// verdict of Verdicts are needed, the kind must be known (a pair names
// its other run), the score a finite number above 0 (a geometric mean of
// ratios), the floor 0 without a floor source and a finite number above
// 0 with one (FloorSources), the runner health one of RunnerHealths, the
// bands as CheckBands says, and the texts free of line breaks and NUL
// (stores keep them as text). A store checks the verdicts it reads as
// well as those it writes: a value no qoscal writes is a damaged store,
// not a verdict to count.
func (v *Verdict) Check() error {
	switch {
	case v.Run == "":
		return fmt.Errorf("a verdict names no run")
	case v.Verdict == "":
		return fmt.Errorf("the verdict of run %s is empty", v.Run)
	case !slices.Contains(Verdicts, v.Verdict):
		return fmt.Errorf("the verdict of run %s: verdict %q, expected one of %s", v.Run, v.Verdict, strings.Join(Verdicts, ", "))
	case v.Kind != KindRun && v.Kind != KindRerun && v.Kind != KindPair:
		return fmt.Errorf("the verdict of run %s: kind %q, expected %s, %s or %s", v.Run, v.Kind, KindRun, KindRerun, KindPair)
	case (v.Kind == KindPair) != (v.Other != ""):
		return fmt.Errorf("the verdict of run %s: a pair, and only a pair, names its other run", v.Run)
	case !(v.Score > 0) || math.IsInf(v.Score, 0):
		return fmt.Errorf("the verdict of run %s: score %v, expected a finite number above 0", v.Run, v.Score)
	case !slices.Contains(FloorSources, v.FloorSource):
		return fmt.Errorf("the verdict of run %s: floor source %q, expected calibration, given or none", v.Run, v.FloorSource)
	case v.FloorSource == "" && v.Floor != 0:
		return fmt.Errorf("the verdict of run %s: floor %v with no floor source, expected 0 (no floor)", v.Run, v.Floor)
	case v.FloorSource != "" && (!(v.Floor > 0) || math.IsInf(v.Floor, 0)):
		return fmt.Errorf("the verdict of run %s: floor %v from the %s, expected a finite number above 0", v.Run, v.Floor, v.FloorSource)
	case !slices.Contains(RunnerHealths, v.RunnerHealth):
		return fmt.Errorf("the verdict of run %s: runner health %q, expected ok, degraded, unchecked or none", v.Run, v.RunnerHealth)
	case math.IsInf(v.RunnerZ, 0):
		return fmt.Errorf("the verdict of run %s: runner z %v must be finite or NaN", v.Run, v.RunnerZ)
	case v.Recorded.IsZero():
		return fmt.Errorf("the verdict of run %s has no time", v.Run)
	case v.Profile != "" && v.Calibration.SHA256 == "":
		return fmt.Errorf("the verdict of run %s: profile %q without a calibration, expected none", v.Run, v.Profile)
	}
	for _, s := range []string{v.Calibration.SHA256, v.Calibration.Name, v.Profile, v.Verdict, v.Detail, v.FloorSource, v.Other, v.RunnerHealth} {
		if strings.ContainsAny(s, "\x00\n\r") {
			return fmt.Errorf("the verdict of run %s holds a line break or NUL in %q", v.Run, s)
		}
	}
	return v.CheckBands()
}

// CheckBands says what makes a verdict's bands unfit to keep, or nil:
// they must be in name order, once each, and each below, within or
// above.
func (v *Verdict) CheckBands() error {
	if !slices.IsSortedFunc(v.Bands, func(a, b BandOutcome) int { return strings.Compare(a.Benchmark, b.Benchmark) }) {
		return fmt.Errorf("the verdict of run %s: its bands are not in name order", v.Run)
	}
	for i, o := range v.Bands {
		if i > 0 && v.Bands[i-1].Benchmark == o.Benchmark {
			return fmt.Errorf("the verdict of run %s: benchmark %s has two bands", v.Run, o.Benchmark)
		}
		switch o.Band {
		case "below", "within", "above":
		default:
			return fmt.Errorf("the verdict of run %s: benchmark %s is %q its band, expected below, within or above", v.Run, o.Benchmark, o.Band)
		}
	}
	return nil
}

// Check says what makes a mark unfit to keep, or nil.
func (m *Mark) Check() error {
	switch {
	case m.Run == "":
		return fmt.Errorf("a mark names no run")
	case m.Truth != TruthHealthy && m.Truth != TruthRegressed:
		return fmt.Errorf("the mark of run %s: %q, expected %s or %s", m.Run, m.Truth, TruthHealthy, TruthRegressed)
	case m.Marked.IsZero():
		return fmt.Errorf("the mark of run %s has no time", m.Run)
	case strings.ContainsRune(m.Note, 0):
		return fmt.Errorf("the note of the mark of run %s holds a NUL", m.Run)
	}
	return nil
}

// Check checks every entry of the ledger (Verdict.Check, Mark.Check):
// what a backend does before it writes any.
func (l *Ledger) Check() error {
	if l == nil {
		return nil
	}
	for i := range l.Verdicts {
		if err := l.Verdicts[i].Check(); err != nil {
			return err
		}
	}
	for i := range l.Marks {
		if err := l.Marks[i].Check(); err != nil {
			return err
		}
	}
	return nil
}

// LatestMarks returns each run's latest mark: the last of its marks in
// the ledger's order.
func (l *Ledger) LatestMarks() map[string]Mark {
	out := map[string]Mark{}
	for _, m := range l.Marks {
		out[m.Run] = m
	}
	return out
}

// LedgerTime is how the ledger's times are kept, by both backends: RFC
// 3339 with nanoseconds, in UTC (TimeText).
func LedgerTime(t time.Time) string { return TimeText(t) }

// MissingRunError is a ledger entry for a run the store does not hold.
type MissingRunError struct {
	Store, Run, What string
}

func (e *MissingRunError) Error() string {
	return fmt.Sprintf("store %s holds no run %q, so it cannot keep its %s: store the run first (qoscal ingest, or gate --record)", e.Store, e.Run, e.What)
}
