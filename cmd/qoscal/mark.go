package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/render"
)

var markCmd = &command{
	name:    "mark",
	summary: "record what a run turned out to be (healthy, regressed)",
	usage: `qoscal mark RUN --healthy [--note TEXT] [--db STORE]
qoscal mark RUN --regressed [--note TEXT] [--db STORE]
`,
	intro: `Records what a person learned of a stored run after the gate judged it: that
it was healthy (its FAIL was a false alarm: the pull request was fine, the
runner was not) or regressed (its PASS missed a regression found later).
'qoscal audit' takes a marked run's health from its mark, whatever the gate
said and whatever the audit would presume. Marks are kept: marking a run
again adds a mark and the latest counts, the earlier ones staying in the
store as the run's history ('store copy' copies them too); the same mark
made again at the same time is kept once. The run must be in the store
('gate --record', or 'ingest'). A mark's time is the clock's, or
SOURCE_DATE_EPOCH's.
`,
	example: `Example: the Windows runner's first measurement, gated against the worked
example's calibration and recorded as job-17; later the team found that it
had hidden a regression:

    $ qoscal gate --calibration gate.json --record --db ledger.db --run job-17 \
        --baseline system=baseline.txt --candidate hoard=hoard.txt
    ...
    PASS: hoard is 1.55x system (geomean), >= 1.25x floor. ...
    $ qoscal mark job-17 --regressed --db ledger.db --note "larson slowed on Windows, found in production"
    marked run job-17 regressed in ledger.db
`,
	new: func() runner { return new(markFlags) },
}

func init() {
	register(markCmd)
}

// maxNoteBytes is the longest note a mark keeps.
const maxNoteBytes = 4096

// markFlags are the mark command's flags.
type markFlags struct {
	healthy, regressed bool
	note, db           string
}

func (m *markFlags) flags(fs *flagSet) {
	fs.arg("RUN", "the id of the stored run to mark")
	fs.BoolVar(&m.healthy, "healthy", false, "the run was healthy: a FAIL of it was a false alarm")
	fs.BoolVar(&m.regressed, "regressed", false, "the run was regressed: a PASS of it missed a regression")
	fs.StringVar(&m.note, "note", "", fmt.Sprintf("what was learned, and where (a pull request, an issue): `TEXT` of at most %d bytes, kept with the mark", maxNoteBytes))
	fs.StringVar(&m.db, "db", "", "the `STORE`: a SQLite file or a postgres:// URL (default $QOSCAL_DB, else qoscal.db)")
}

func (m *markFlags) run(u *ui, args []string) error {
	if len(args) != 1 {
		return usagef("name one stored run to mark: qoscal mark RUN --healthy|--regressed")
	}
	id := args[0]
	truth := ""
	switch {
	case m.healthy && m.regressed:
		return usagef("--healthy and --regressed say opposite things: give one")
	case m.healthy:
		truth = store.TruthHealthy
	case m.regressed:
		truth = store.TruthRegressed
	default:
		return usagef("say what run %s turned out to be: --healthy or --regressed", render.OneLine(id))
	}
	if strings.ContainsRune(m.note, 0) || len(m.note) > maxNoteBytes {
		return usagef("--note must be text of at most %d bytes without NUL, got %d bytes", maxNoteBytes, len(m.note))
	}
	loc := storePath(u, m.db)
	fc := u.newFiles()
	fc.store(loc)
	if err := fc.check(); err != nil {
		return err
	}
	now, err := u.now()
	if err != nil {
		return err
	}
	res, err := source.Mark(u.ctx, loc, store.Mark{Run: id, Truth: truth, Note: m.note, Marked: now})
	if err != nil {
		return err
	}
	if !res.Added {
		fmt.Fprintf(u.stdout, "run %s is marked %s in %s already\n", render.OneLine(id), truth, res.Location)
		return nil
	}
	line := fmt.Sprintf("marked run %s %s in %s", render.OneLine(id), truth, res.Location)
	if n := len(res.Earlier); n > 0 {
		last := res.Earlier[n-1]
		line += fmt.Sprintf(" (it was marked %s at %s; its earlier marks are kept)", last.Truth, last.Marked.UTC().Format(time.RFC3339))
	}
	fmt.Fprintln(u.stdout, line)
	return nil
}
