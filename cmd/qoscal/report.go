package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/plots"
	"github.com/qoscal/qoscal/present"
	"github.com/qoscal/qoscal/render"
)

var reportCmd = &command{
	name:    "report",
	summary: "full variance report (HTML and/or Markdown)",
	usage: `qoscal report [flags] [PATH...] --out FILE.html [--markdown FILE.md]
qoscal report [flags] [PATH...] --summary [FILE.md]
`,
	intro: `Writes the variance report of runs of unchanged code: the plain-language
summary, the score distribution, the per-benchmark spread, the recommended
floor with its false-positive rate and detection power, the table of
candidate floors, the six charts of 'qoscal plot', and the inputs (runs,
labels, variant names, qoscal version, seed). With --calibration FILE (or
--floor) the report is about that floor instead: its heading, figures,
warnings and charts are that floor's, on the runs read, and the floor
recommend would give them is one row, for comparison. When the store (the
one the runs were read from, or --db with PATHs) holds verdicts 'gate
--record' kept against that calibration file, the report has an audit
section: what 'qoscal audit' says of them all, whatever runs --label
selects (the counts, the realised false-alarm rate with its exact interval
against the claimed one, the verdict, the marked misses); and the list of
runs says which were gated.

--out writes one self-contained HTML file: charts inline as SVG (each drawn
for a desktop and for a phone), styles inline, no scripts, nothing fetched.
--markdown writes the same content as GitHub-flavoured Markdown, with the
charts as SVG files next to it (FILE-ratio-spread.svg, ...).
--summary appends the Markdown report to $GITHUB_STEP_SUMMARY (or to
FILE.md), for a GitHub step summary or a pull-request comment: no image
files; the score sequence with the floor and the per-benchmark spread are
Mermaid charts, each with the table of its exact numbers. (--markdown
"$GITHUB_STEP_SUMMARY" does the same: it appends, never overwrites.)
The same inputs give byte-identical files: the time is printed only when
SOURCE_DATE_EPOCH is set.
`,
	example: `Example:

    $ qoscal report --out report.html --markdown report.md \
        --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
    report.html
    report.md
    report-ratio-spread.svg
    ...
`,
	rewrite: summaryArg,
	new:     func() runner { return new(reportFlags) },
}

func init() {
	register(reportCmd)
}

// reportFlags are the report command's flags.
type reportFlags struct {
	cf               chartFlags
	out, md, summary string
	fs               *pflag.FlagSet
}

func (r *reportFlags) flags(fs *flagSet) {
	r.fs = fs.FlagSet
	r.cf.add(fs)
	fs.group("Output:")
	fs.StringVar(&r.out, "out", "", "write the HTML report to `FILE.html` (its folders made if missing)")
	fs.StringVar(&r.md, "markdown", "", "write the Markdown report to `FILE.md`, its charts as SVG files beside it (its folders made if missing)")
	fs.StringVar(&r.summary, "summary", "", "append the report with Mermaid charts to $GITHUB_STEP_SUMMARY, or to `FILE.md` (a FILE not ending in .md: --summary=FILE; its folders made if missing)")
	fs.Lookup("summary").NoOptDefVal = stepSummary
}

func (r *reportFlags) run(u *ui, paths []string) error {
	cf, out, md, summary := &r.cf, r.out, r.md, r.summary
	if summary == stepSummary {
		if summary = u.getenv("GITHUB_STEP_SUMMARY"); summary == "" {
			return usagef("--summary without a FILE appends to $GITHUB_STEP_SUMMARY, which is not set: name the file (--summary report.md)")
		}
	}
	// The step summary is appended to, never overwritten, and cannot show
	// image files: --markdown naming it is --summary.
	if ss := u.getenv("GITHUB_STEP_SUMMARY"); md != "" && ss != "" && samePath(md, ss) {
		if summary == "" {
			summary = md
		}
		md = ""
	}
	if out == "" && md == "" && summary == "" {
		return usagef("name the report: --out FILE.html, --markdown FILE.md and/or --summary [FILE.md]")
	}
	fc := cf.files(u, paths)
	ledger := r.ledgerStore(u, paths)
	if len(paths) > 0 {
		fc.store(ledger)
	}
	fc.out("--out", out)
	if md != "" {
		fc.out("--markdown", md)
		chartFiles(fc, "--markdown's chart", filepath.Dir(md), mdChartPrefix(md), plots.SVG)
	}
	fc.appendTo("--summary", summary)
	if err := fc.check(); err != nil {
		return err
	}
	in, rec, floor, err := cf.read(u, paths)
	if err != nil {
		return err
	}
	// Both reports show the charts as SVG: compute their data and draw
	// them once (and warn once about a chart left out).
	cd, err := cf.charts(in, rec, floor)
	if err != nil {
		return err
	}
	ds, err := drawCharts(u, cd, plots.SVG)
	if err != nil {
		return err
	}
	rep := &present.Report{A: in.analysis, Rec: rec, Recommended: cf.recommended, Floor: floor, ChartData: cd,
		Cal: cf.ff.cal, CalPath: cf.ff.calibration, Sources: map[string]string{}, Source: in.source, Filter: in.filter, Version: version}
	if err := r.audit(u, rep, ledger); err != nil {
		return err
	}
	// The HTML page shows each chart drawn for a phone on a narrow screen.
	for i, d := range ds {
		c, phone := present.ReportChart{Name: d.name, Caption: d.caption, SVG: d.image, LeftOut: d.leftOut}, new(bytes.Buffer)
		if out != "" && d.leftOut == "" {
			if err := plots.DrawPhone(phone, cd[i], plots.SVG); err != nil {
				return fmt.Errorf("chart %s: %w", d.name, err)
			}
			c.Phone = phone.Bytes()
		}
		rep.Charts = append(rep.Charts, c)
	}
	for _, run := range in.runs {
		rep.Sources[run.ID] = run.Source
	}
	if s := u.getenv("SOURCE_DATE_EPOCH"); s != "" {
		t, err := u.now()
		if err != nil {
			return err
		}
		rep.When = t.Format(time.RFC3339)
	}
	if out != "" {
		var buf bytes.Buffer
		if err := rep.WriteHTML(&buf); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := writeFile(out, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintln(u.stdout, render.OneLine(out))
	}
	if md != "" {
		paths, err := writeCharts(filepath.Dir(md), mdChartPrefix(md), ds, plots.SVG)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		rep.Markdown(paths).WriteMarkdown(&buf)
		if err := writeFile(md, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintln(u.stdout, render.OneLine(md))
		for _, p := range paths {
			if p != "" {
				fmt.Fprintln(u.stdout, render.OneLine(p))
			}
		}
	}
	if summary != "" {
		var buf bytes.Buffer
		rep.Markdown(nil).WriteMarkdown(&buf)
		// A blank line first, so that the report starts a block of its own
		// after whatever the summary holds.
		if err := appendFile(summary, append([]byte("\n"), buf.Bytes()...)); err != nil {
			return fmt.Errorf("step summary %s: %w", summary, err)
		}
		fmt.Fprintln(u.stdout, render.OneLine(summary))
	}
	return nil
}

// ledgerStore is the store whose ledger the report's audit section reads:
// with --calibration, the store the runs were read from, or, with PATHs,
// the store --db names (not $QOSCAL_DB: a report of run folders reads no
// store unless asked); "" for none.
func (r *reportFlags) ledgerStore(u *ui, paths []string) string {
	switch {
	case r.cf.ff.calibration == "":
		return ""
	case len(paths) == 0:
		return storePath(u, r.cf.af.db)
	case r.fs.Changed("db"):
		return storePath(u, r.cf.af.db)
	}
	return ""
}

// audit adds to rep the audit of its calibration on the verdicts the
// ledger of the store loc kept against it, as 'qoscal audit --calibration
// FILE --db STORE' shows it: every verdict against the file, whatever
// runs the report's --label selects (pull requests' runs, gated against
// the calibration of the main branch, seldom carry its labels); and marks
// the runs gated. Nothing when there is no store or no such verdict.
func (r *reportFlags) audit(u *ui, rep *present.Report, loc string) error {
	cal := r.cf.ff.cal
	if loc == "" || cal == nil {
		return nil
	}
	st, err := source.OpenStore(u.ctx, loc, store.ReadOnly)
	if err != nil {
		return err
	}
	defer st.Close()
	res, profiles, ledger, err := auditLedger(u, st, nil, cal)
	if err != nil {
		return err
	}
	if len(ledger.Verdicts) == 0 {
		return nil
	}
	rep.Audit = &present.Audit{Res: res, Cal: cal, CalPath: r.cf.ff.calibration, Store: st.Location(), Profiles: profiles}
	marks := ledger.LatestMarks()
	rep.Gated = map[string]string{}
	for _, v := range ledger.Verdicts {
		cell := v.Verdict
		if m, ok := marks[v.Run]; ok {
			cell += ", marked " + m.Truth
		}
		rep.Gated[v.Run] = cell
	}
	return nil
}

// mdChartPrefix is the prefix of the chart files of the Markdown report
// md: its stem and a dash (report.md: report-ratio-spread.svg, ...).
func mdChartPrefix(md string) string {
	return strings.TrimSuffix(filepath.Base(md), filepath.Ext(md)) + "-"
}
