package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/render"
	"github.com/qoscal/qoscal/site"
)

var siteCmd = &command{
	name:    "site",
	summary: "a static site of main's history: status, scores, what changed",
	usage: `qoscal site --out DIR --calibration FILE... [--db STORE] [flags]
`,
	intro: `Writes a static site of the calibrated branch's history from a store and its
ledger: plain files (index.html, site.css, site.js, data.js) that GitHub
Pages or any file server serves as they are, and that open from disk. The
page fetches nothing from another host; its Content-Security-Policy allows
only its own files. For each calibration, in the order given:

  - its status: the latest verdict of the branch's runs against it, the
    floor and its stated false-alarm rate, and the audit ('qoscal audit':
    the realised false-alarm rate with its interval against the claimed);
  - the score of each run of the branch (the runs carrying the
    calibration's labels), in the order recorded, with the floor, the
    calibration's own runs, the regimes, each gated run in its verdict's
    colour, reruns and pairs joined, marks shown; pointing at a run (or
    the arrow keys) shows its run, commit, score and verdict;
  - what changed: the latest gated run against the run before it and the
    calibration, per benchmark, the largest fall first, with the bands;
  - every benchmark's ratios as a small multiple with its band, filtered
    by name and sorted by share of the score's variance or latest change.

Each chart has a table beneath it with its figures. With --repository (by
default $GITHUB_SERVER_URL/$GITHUB_REPOSITORY under GitHub Actions), runs
link to their Actions run (their github_run label) and commits to the
commit. The same inputs give the same files: the time is written only when
SOURCE_DATE_EPOCH is set.
`,
	example: `Example: the ledger of the audit's example as a site:

    $ qoscal site --out site --db ledger.db --calibration gate.json
    site/index.html
    site/site.css
    site/site.js
    site/data.js
`,
	new: func() runner { return new(siteFlags) },
}

func init() {
	register(siteCmd)
}

// siteFlags are the site command's flags.
type siteFlags struct {
	out, db, repository string
	calibrations        []string
}

func (f *siteFlags) flags(fs *flagSet) {
	fs.StringVar(&f.out, "out", "", "the `DIR` to write the site into, made if missing (required)")
	fs.StringArrayVar(&f.calibrations, "calibration", nil, "a calibration `FILE` to show, at least one: its runs are the store's runs that carry its labels")
	fs.StringVar(&f.db, "db", "", "the `STORE` of the runs and the ledger: a SQLite file or a postgres:// URL (default $QOSCAL_DB, else qoscal.db)")
	fs.StringVar(&f.repository, "repository", "", "link runs and commits to the repository at `URL` (https; default $GITHUB_SERVER_URL/$GITHUB_REPOSITORY when both are set)")
}

func (f *siteFlags) run(u *ui, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q: site reads the runs and the ledger of a store (--db)", render.OneLine(args[0]))
	}
	if f.out == "" {
		return usagef("--out DIR is required: the folder to write the site into")
	}
	if len(f.calibrations) == 0 {
		return usagef("--calibration FILE is required: the calibration whose runs, floor and verdicts to show (repeat it for more)")
	}
	repo := f.repository
	if repo == "" && u.getenv("GITHUB_SERVER_URL") != "" && u.getenv("GITHUB_REPOSITORY") != "" {
		repo = strings.TrimRight(u.getenv("GITHUB_SERVER_URL"), "/") + "/" + u.getenv("GITHUB_REPOSITORY")
	}
	if repo != "" && (!strings.HasPrefix(repo, "https://") || strings.ContainsAny(repo, "\"'<> \t\r\n\\")) {
		return usagef("--repository %s: expected an https:// URL without spaces or quotes", render.OneLine(repo))
	}
	loc := storePath(u, f.db)
	fc := u.newFiles()
	for _, c := range f.calibrations {
		fc.in("a calibration file", c)
	}
	fc.store(loc)
	fc.dir("--out", f.out)
	for _, name := range siteFileNames {
		fc.out("--out", filepath.Join(f.out, name))
	}
	if err := fc.check(); err != nil {
		return err
	}
	in := site.Input{Store: store.RedactLocation(loc), Repository: repo, Version: version}
	for _, c := range f.calibrations {
		cal, err := model.ReadFile(c)
		if err != nil {
			return err
		}
		in.Calibrations = append(in.Calibrations, site.Calibration{File: cal})
	}
	if u.getenv("SOURCE_DATE_EPOCH") != "" {
		t, err := u.now()
		if err != nil {
			return err
		}
		in.Generated = t.UTC().Format(time.RFC3339)
	}
	st, err := source.OpenStore(u.ctx, loc, store.ReadOnly)
	if err != nil {
		return err
	}
	defer st.Close()
	// A file store by its name alone: a runner's paths have no place on a
	// public page.
	if in.Store = st.Location(); !strings.Contains(in.Store, "://") {
		in.Store = filepath.Base(in.Store)
	}
	stored, err := st.Runs(u.ctx, store.Query{Order: store.IngestOrder})
	if err != nil {
		return err
	}
	in.Runs = make([]data.Run, len(stored))
	for i := range stored {
		in.Runs[i] = stored[i].Run
	}
	stored = nil
	if in.Ledger, err = st.Ledger(u.ctx, store.LedgerQuery{}); err != nil {
		return err
	}
	for i := range in.Calibrations {
		c := &in.Calibrations[i]
		res, _, ledger, err := auditLedger(u, st, nil, c.File)
		if err != nil {
			return err
		}
		if len(ledger.Verdicts) > 0 {
			c.Audit = res
		}
	}
	s, err := site.Build(in)
	if err != nil {
		return err
	}
	files, err := s.Files()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return err
	}
	for _, file := range files {
		p := filepath.Join(f.out, file.Name)
		if err := writeFile(p, file.Data); err != nil {
			return err
		}
		fmt.Fprintln(u.stdout, render.OneLine(p))
	}
	perPoint := 0.0
	if s.Points > 0 {
		perPoint = float64(len(s.Data)) / float64(s.Points)
	}
	u.notef("%s: %d bytes for %d values (%.1f bytes a value)", site.DataFile, len(s.Data), s.Points, perPoint)
	return nil
}

// siteFileNames are the files qoscal site writes into its folder.
var siteFileNames = []string{"index.html", "site.css", "site.js", site.DataFile}
