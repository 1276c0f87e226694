// Package site builds qoscal's static history site (qoscal site): the
// view model of main's history and the files that show it. From the runs
// of a store, the ledger beside them (the verdicts gate --record kept and
// the marks of qoscal mark) and the calibration files, it builds, per
// calibration, the status line (the latest verdict, the floor and its
// stated false-alarm rate, the audit's claimed against realised rate),
// the score of each run of the calibrated branch in the order recorded
// (the calibration's runs, the regimes, the verdicts, the marks, reruns
// and pairs), what changed at the latest run, and every benchmark's
// ratios with its band; and writes them as one compact data file beside a
// page, a style sheet and a script of its own (Files).
//
// It computes no statistics of its own: scores and ratios are
// calibrate's (Ratios, RunRatios.ScoreOver), the regimes and each
// benchmark's share of the score's variance spread.Analyze's, the bands
// the calibration model's (model.Matrix.Bands at the file's family-wise
// rate), the stated rate audit.ClaimedRate's and the audit audit.Audit's,
// which the caller runs (Calibration.Audit). Text from inputs (benchmark names, run ids,
// labels, notes) reaches the page only as data: the data file is JSON
// with every character that could end a script (<, >, &, U+2028, U+2029)
// escaped, and the script puts it in the page with textContent alone.
package site

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/audit"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/store"
)

// Scale is the fixed point of the data file's log values: a ratio r is
// written as the integer round(Scale·ln r), a resolution of 0.01%.
const Scale = 10000

// Calibration is one calibration file and its audit.
type Calibration struct {
	File *model.File
	// Audit is the audit of the file's top level on the ledger's verdicts
	// against it (calibrate.Audit, as qoscal audit runs it); nil when the
	// ledger holds none.
	Audit *audit.AuditResult
}

// Input is what the site is built from.
type Input struct {
	// Runs are the store's runs in the order they were recorded.
	Runs []data.Run
	// Ledger is the store's ledger: verdicts and marks.
	Ledger store.Ledger
	// Calibrations are the calibrations shown, in this order.
	Calibrations []Calibration
	// Store names the store (for the page).
	Store string
	// Repository is the https URL of the repository (on GitHub:
	// https://github.com/OWNER/REPO), used to link runs (their github_run
	// label) and commits; "" for no links.
	Repository string
	// Generated is when the site was made, as text; "" leaves it out (so
	// that the same inputs give the same bytes).
	Generated string
	// Version is qoscal's version.
	Version string
}

// Site is the built site: its data document and the figures of its size.
type Site struct {
	Doc *Doc
	// Data is data.js, the data document as a script.
	Data []byte
	// Points counts the values the data holds for the charts (scores and
	// ratios), for its size per point.
	Points int
}

// Doc is the data document the page's script draws (window.QOSCAL_SITE).
type Doc struct {
	Schema     int    `json:"schema"`
	Scale      int    `json:"scale"`
	Store      string `json:"store"`
	Repository string `json:"repository,omitempty"`
	Generated  string `json:"generated,omitempty"`
	Version    string `json:"version"`
	Cals       []Cal  `json:"cals"`
}

// Cal is one calibration's part of the document. Log values are integers
// at Scale; a series of them is written as offsets from a base (the
// benchmark's usual ratio, the calibration's median score), which keeps
// them to a few digits each; a missing value is null.
type Cal struct {
	Name      string  `json:"name"`
	SHA       string  `json:"sha"`
	Baseline  string  `json:"baseline"`
	Candidate string  `json:"candidate"`
	Labels    string  `json:"labels"`
	Floor     float64 `json:"floor"`
	FloorText string  `json:"floor_text"`
	// Rate is the stated false-alarm rate per healthy run, RateFrom the
	// figure it is (audit.ClaimedRate); null when the file states
	// none.
	Rate     *float64 `json:"rate"`
	RateFrom string   `json:"rate_from"`
	// Profiles counts the calibration's profiles: the page shows the
	// file's top level and says so.
	Profiles int    `json:"profiles"`
	Audit    *Audit `json:"audit"`
	// Latest is the index of the latest gated run of the sequence (-1:
	// none), LatestVerdict its verdict.
	Latest        int    `json:"latest"`
	LatestVerdict string `json:"latest_verdict"`
	// Runs are the calibrated branch's runs in the order recorded:
	// their ids, commits (12 hex digits, "" unknown) and GitHub run ids
	// ("" unknown).
	Runs    []string `json:"runs"`
	Commits []string `json:"commits"`
	GHRuns  []string `json:"gh_runs"`
	// ScoreBase and Scores: each run's log score at Scale, as an offset
	// from ScoreBase (null: the run lacks a suite benchmark).
	ScoreBase int    `json:"score_base"`
	Scores    []*int `json:"scores"`
	FloorLog  int    `json:"floor_log"`
	// InCal are the indices of the calibration's own runs.
	InCal []int `json:"in_cal"`
	// Verdicts is one letter per run: p pass, f fail, w warn (report
	// only), i inconclusive, r rerun, u ungated, - no verdict recorded.
	Verdicts string `json:"verdicts"`
	// Links join runs judged together: [i, j, kind] with kind "pair" (j
	// was judged with i as a pair) or "rerun" (j re-ran i's commit).
	Links [][3]any `json:"links"`
	// Marks are [i, truth, note]: the latest mark of a run.
	Marks [][3]any `json:"marks"`
	// Regimes are [start, runs, median score]: spread.Analyze's
	// change points over the sequence.
	Regimes [][3]any `json:"regimes"`
	// Benchmarks are the calibration's suite, in its order, with each
	// one's share of the score's variance over the sequence (per
	// thousand), its band and usual ratio (log at Scale: [lower, upper,
	// usual], null without a band) and its ratios (offsets from usual).
	Benchmarks []string `json:"benchmarks"`
	Share      []int    `json:"share"`
	Bands      [][3]int `json:"bands"`
	NoBand     []int    `json:"no_band"`
	Ratios     [][]*int `json:"ratios"`
	// Changed is what changed at the latest run.
	Changed Changed `json:"changed"`
	// Note says why part of the calibration cannot be shown ("" when
	// all can).
	Note string `json:"note,omitempty"`
}

// Audit is the audit's figures the status line shows.
type Audit struct {
	Gated       int      `json:"gated"`
	Passed      int      `json:"passed"`
	Failed      int      `json:"failed"`
	Rerun       int      `json:"rerun"`
	Healthy     int      `json:"healthy"`
	Marked      int      `json:"marked"`
	Presumed    int      `json:"presumed"`
	FalseAlarms int      `json:"false_alarms"`
	Rate        float64  `json:"rate"`
	Lo          float64  `json:"lo"`
	Hi          float64  `json:"hi"`
	Claimed     *float64 `json:"claimed"`
	Confidence  float64  `json:"confidence"`
	Verdict     string   `json:"verdict"`
	Missed      int      `json:"missed"`
}

// Changed is the latest run against the run before it and against the
// calibration, per benchmark.
type Changed struct {
	// Latest and Prev are run indices (-1: none).
	Latest int `json:"latest"`
	Prev   int `json:"previous"`
	// Rows are the benchmarks, the largest fall since the run before
	// first: [benchmark index, log change since the run before (null:
	// none compared), log ratio against the usual ratio, the band's
	// outcome the gate recorded ("below", "within", "above"; "" when the
	// bands were not judged)].
	Rows [][4]any `json:"rows"`
}

var hexCommit = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)
var ghRun = regexp.MustCompile(`^[0-9]{1,20}$`)

// Build builds the site's data from in.
func Build(in Input) (*Site, error) {
	doc := &Doc{Schema: 1, Scale: Scale, Store: in.Store, Generated: in.Generated, Version: in.Version}
	if strings.HasPrefix(in.Repository, "https://") && !strings.ContainsAny(in.Repository, "\"'<> \t\r\n") {
		doc.Repository = strings.TrimRight(in.Repository, "/")
	}
	s := &Site{Doc: doc}
	for _, c := range in.Calibrations {
		cal, points, err := buildCal(in, c)
		if err != nil {
			return nil, err
		}
		s.Points += points
		doc.Cals = append(doc.Cals, cal)
	}
	b, err := dataScript(doc)
	if err != nil {
		return nil, err
	}
	s.Data = b
	return s, nil
}

func fixed(x float64) int { return int(math.Round(x * Scale)) }

func ptr(i int) *int { return &i }

// onBranch reports whether r carries every label of the calibration and
// both its variants.
func onBranch(r *data.Run, f *model.File) bool {
	for k, v := range f.Labels {
		if r.Labels[k] != v {
			return false
		}
	}
	var b, c bool
	for _, m := range r.Measurements {
		b = b || m.Variant == f.Baseline
		c = c || m.Variant == f.Candidate
	}
	return b && c
}

func buildCal(in Input, c Calibration) (Cal, int, error) {
	f := c.File
	rate, from := audit.ClaimedRate(f)
	out := Cal{Name: filepath.Base(f.Path), SHA: f.SHA256, Baseline: f.Baseline, Candidate: f.Candidate,
		Labels: data.FormatLabels(f.Labels), Floor: f.Floor, FloorText: f.FloorText, Rate: finite(rate), RateFrom: from,
		Profiles: len(f.Profiles), Latest: -1, FloorLog: fixed(math.Log(f.Floor)),
		Benchmarks: append([]string{}, f.Suite...), Changed: Changed{Latest: -1, Prev: -1}}
	if a := c.Audit; a != nil {
		out.Audit = &Audit{Gated: a.Gated, Passed: a.Passed, Failed: a.Failed, Rerun: a.Rerun,
			Healthy: a.Floor.Healthy, Marked: a.Floor.Marked, Presumed: a.Floor.Presumed, FalseAlarms: a.Floor.FalseAlarms,
			Rate: nanZero(a.Floor.Rate), Lo: nanZero(a.Floor.Lo), Hi: nanZero(a.Floor.Hi), Claimed: finite(a.Floor.Claimed),
			Confidence: a.Options.Confidence, Verdict: a.Floor.Verdict, Missed: len(a.Missed)}
	}
	var runs []data.Run
	for i := range in.Runs {
		if onBranch(&in.Runs[i], f) {
			runs = append(runs, in.Runs[i])
		}
	}
	index := map[string]int{}
	for i := range runs {
		index[runs[i].ID] = i
		out.Runs = append(out.Runs, runs[i].ID)
		commit := runs[i].Labels["commit"]
		if !hexCommit.MatchString(commit) {
			commit = ""
		}
		out.Commits = append(out.Commits, commit[:min(12, len(commit))])
		gh := runs[i].Labels["github_run"]
		if !ghRun.MatchString(gh) {
			gh = ""
		}
		out.GHRuns = append(out.GHRuns, gh)
	}
	usual := out.setBands(f)
	logRatio, points, err := out.series(runs, f, usual)
	if err != nil {
		return out, 0, err
	}
	// The calibration's runs, the verdicts and marks.
	if f.Matrix != nil {
		for _, id := range f.Matrix.Runs {
			if i, ok := index[id]; ok {
				out.InCal = append(out.InCal, i)
			}
		}
		sort.Ints(out.InCal)
	}
	judged := out.ledger(in.Ledger, f, runs, index)
	out.analyse(runs, f, index)
	out.Changed = changed(out, logRatio, usual, judged)
	return out, points, nil
}

// setBands sets each suite benchmark's band at the family-wise rate the
// file states, and returns its usual log ratio at Scale (0 without one).
func (out *Cal) setBands(f *model.File) []int {
	k := len(f.Suite)
	bands := map[string]model.Band{}
	if f.Matrix != nil {
		for _, b := range f.Matrix.Bands(f.RecommendOptions().FamilyAlpha) {
			bands[b.Name] = b
		}
	}
	usual := make([]int, k)
	out.Bands = make([][3]int, k)
	for j, name := range f.Suite {
		b, ok := bands[name]
		if !ok || !(b.Usual > 0) {
			usual[j] = 0
			out.NoBand = append(out.NoBand, j)
			continue
		}
		usual[j] = fixed(math.Log(b.Usual))
		if b.Lower > 0 && b.Upper > 0 && !math.IsInf(b.Upper, 0) {
			out.Bands[j] = [3]int{fixed(math.Log(b.Lower)), fixed(math.Log(b.Upper)), usual[j]}
		} else {
			out.Bands[j] = [3]int{usual[j], usual[j], usual[j]}
			out.NoBand = append(out.NoBand, j)
		}
	}
	return usual
}

// series sets each run's score and ratios, as the gate computes them,
// and returns the log ratios at full precision (NaN: not measured) and
// how many values it set.
func (out *Cal) series(runs []data.Run, f *model.File, usual []int) ([][]float64, int, error) {
	n, k := len(runs), len(f.Suite)
	// The scores are written from the calibration's median score (the
	// file's observed median; a file always has one above 0).
	if f.Observed.Median > 0 {
		out.ScoreBase = fixed(math.Log(f.Observed.Median))
	}
	out.Scores = make([]*int, n)
	out.Ratios = make([][]*int, k)
	for j := range out.Ratios {
		out.Ratios[j] = make([]*int, n)
	}
	logRatio := make([][]float64, k) // full precision, for what changed
	for j := range logRatio {
		logRatio[j] = make([]float64, n)
	}
	points := 0
	for i := range runs {
		rr, err := calibrate.Ratios(&runs[i], f.Baseline, f.Candidate, calibrate.Auto, "")
		if err != nil {
			return nil, 0, fmt.Errorf("run %s against calibration %s: %w", runs[i].ID, out.Name, err)
		}
		sc := rr.ScoreOver(f.Suite)
		if len(sc.Missing) == 0 && sc.Score > 0 {
			out.Scores[i] = ptr(fixed(sc.LogScore) - out.ScoreBase)
			points++
		}
		for j, name := range f.Suite {
			logRatio[j][i] = math.NaN()
			if br, ok := rr.Ratios[name]; ok && br.Ratio > 0 {
				logRatio[j][i] = math.Log(br.Ratio)
				out.Ratios[j][i] = ptr(fixed(logRatio[j][i]) - usual[j])
				points++
			}
		}
	}
	return logRatio, points, nil
}

// ledger sets the verdicts of the runs against f, the latest gated run,
// the pairs and reruns, and the marks; it returns each run's verdict (nil
// for none).
func (out *Cal) ledger(l store.Ledger, f *model.File, runs []data.Run, index map[string]int) []*store.Verdict {
	n := len(runs)
	verdicts := []byte(strings.Repeat("-", n))
	judged := make([]*store.Verdict, n)
	for vi := range l.Verdicts {
		v := &l.Verdicts[vi]
		if v.Calibration.SHA256 != f.SHA256 {
			continue
		}
		i, ok := index[v.Run]
		if !ok {
			continue
		}
		verdicts[i] = verdictLetter(v.Verdict)
		judged[i] = v
		if out.Latest < 0 || i > out.Latest {
			out.Latest, out.LatestVerdict = i, v.Verdict
		}
		switch v.Kind {
		case store.KindPair:
			if j, ok := index[v.Other]; ok {
				out.Links = append(out.Links, [3]any{j, i, "pair"})
			}
		case store.KindRerun:
			// The run re-ran a CI job: the earlier run of its commit.
			if commit := runs[i].Labels["commit"]; commit != "" {
				for j := i - 1; j >= 0; j-- {
					if runs[j].Labels["commit"] == commit {
						out.Links = append(out.Links, [3]any{j, i, "rerun"})
						break
					}
				}
			}
		}
	}
	out.Verdicts = string(verdicts)
	sort.Slice(out.Links, func(a, b int) bool { return out.Links[a][1].(int) < out.Links[b][1].(int) })
	marks := l.LatestMarks()
	for i := range runs {
		if m, ok := marks[runs[i].ID]; ok {
			out.Marks = append(out.Marks, [3]any{i, m.Truth, m.Note})
		}
	}
	return judged
}

// analyse sets the regimes of the runs' scores and each benchmark's share
// of the score's variance: calibrate's analysis of the sequence.
func (out *Cal) analyse(runs []data.Run, f *model.File, index map[string]int) {
	n, k := len(runs), len(f.Suite)
	// Regimes and the variance shares: calibrate's analysis of the
	// sequence.
	out.Share = make([]int, k)
	out.Regimes = [][3]any{}
	if n >= 2 {
		a, err := spread.Analyze(runs, spread.Options{Baseline: f.Baseline, Candidate: f.Candidate, AllowPartial: true, Seed: 1})
		if err != nil {
			out.Note = "the runs could not be analysed for regimes and variance shares: " + data.Clip(err.Error())
		} else {
			for _, rg := range a.Regimes {
				if i, ok := index[rg.First]; ok {
					out.Regimes = append(out.Regimes, [3]any{i, rg.N, roundTo(rg.Median, 4)})
				}
			}
			for _, b := range a.Benchmarks {
				for j, name := range f.Suite {
					if name == b.Name {
						out.Share[j] = int(math.Round(nanZero(b.VarianceShare) * 1000))
					}
				}
			}
		}
	} else {
		out.Note = fmt.Sprintf("%d runs of the calibrated branch: no regimes to find", n)
	}
}

// changed is the latest gated run (else the latest run) against the run
// before it and the calibration.
func changed(c Cal, logRatio [][]float64, usual []int, judged []*store.Verdict) Changed {
	ch := Changed{Latest: -1, Prev: -1, Rows: [][4]any{}}
	n := len(c.Runs)
	if n == 0 {
		return ch
	}
	ch.Latest = c.Latest
	if ch.Latest < 0 {
		ch.Latest = n - 1
	}
	ch.Prev = ch.Latest - 1
	outcome := map[string]string{}
	if v := judged[ch.Latest]; v != nil {
		for _, b := range v.Bands {
			outcome[b.Benchmark] = b.Band
		}
	}
	type row struct {
		j         int
		vsPrev    float64
		vsCal     float64
		hasPrev   bool
		hasLatest bool
	}
	var rows []row
	for j := range c.Benchmarks {
		x := logRatio[j][ch.Latest]
		r := row{j: j, vsCal: x - float64(usual[j])/Scale, hasLatest: !math.IsNaN(x)}
		if ch.Prev >= 0 && !math.IsNaN(logRatio[j][ch.Prev]) && r.hasLatest {
			r.vsPrev, r.hasPrev = x-logRatio[j][ch.Prev], true
		}
		rows = append(rows, r)
	}
	// The largest fall first; benchmarks not compared last, by name.
	sort.SliceStable(rows, func(a, b int) bool {
		ra, rb := rows[a], rows[b]
		if ra.hasPrev != rb.hasPrev {
			return ra.hasPrev
		}
		if ra.hasPrev && ra.vsPrev != rb.vsPrev {
			return ra.vsPrev < rb.vsPrev
		}
		return ra.vsCal < rb.vsCal
	})
	for _, r := range rows {
		var prev, cal any
		if r.hasPrev {
			prev = fixed(r.vsPrev)
		}
		if r.hasLatest {
			cal = fixed(r.vsCal)
		}
		ch.Rows = append(ch.Rows, [4]any{r.j, prev, cal, outcome[c.Benchmarks[r.j]]})
	}
	return ch
}

func verdictLetter(v string) byte {
	switch v {
	case "pass":
		return 'p'
	case "fail":
		return 'f'
	case "warn":
		return 'w'
	case "inconclusive":
		return 'i'
	case "rerun":
		return 'r'
	case "ungated":
		return 'u'
	}
	return '-'
}

// finite is x, or nil when it is NaN or infinite (JSON null).
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func nanZero(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

func roundTo(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(nanZero(x)*p) / p
}
