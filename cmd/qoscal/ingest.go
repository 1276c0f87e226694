package main

import (
	"fmt"
	"iter"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/present"
)

var ingestCmd = &command{
	name:    "ingest",
	summary: "parse result files into the store",
	usage: `qoscal ingest [flags] PATH...
qoscal ingest [flags] --run ID --baseline FILE --candidate FILE
`,
	intro: `Parses runs of result files into the store (a SQLite file, or a PostgreSQL
database shared by a team's runners: see --db). A PATH is a run
folder (it holds the baseline's and the candidate's result files), a folder of
run folders (each subfolder holding them is a run, named after the folder), or
a CSV file of many runs. Without a PATH, --baseline and --candidate are the
result files of a single run, named by --run.

All runs of one call land together or not at all. A run id already stored
with the same content is left alone ("already stored"); with other content it
is an error, unless --replace. The store keeps each sample's repetition (a
folder 'qoscal measure' wrote), so a run scores the same from the store as
from its folder; a run an older qoscal stored without them is given them.
`,
	example: `Example: twelve CI runs of glibc malloc against mimalloc (bundled samples):

    $ qoscal ingest --db calib.db --label os=linux \
        --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
    calib.db: 12 runs added, 0 already stored, 0 replaced; 240 measurements written
`,
	new: func() runner { return new(ingestFlags) },
}

func init() {
	register(ingestCmd)
}

// ingestFlags are the ingest command's flags.
type ingestFlags struct {
	runFlags
	labels     []string
	db, prefix string
	replace    bool
}

func (f *ingestFlags) flags(fs *flagSet) {
	f.addLoadFlags(fs, loadHelp{
		baseline:  "the baseline's result `[NAME=]FILE` in each run folder (without a PATH, its path); without NAME=, the variant is the file's stem",
		candidate: "the candidate's result `[NAME=]FILE`, likewise",
		variant:   "a further variant's result `[NAME=]FILE`, measured in the same runs and stored with them",
		run:       "the run's `ID`, for a single run given by its files",
	}, "input-format")
	f.addFormatAlias(fs)
	fs.StringArrayVar(&f.labels, "label", nil, "a `KEY=VALUE` label for every run ingested")
	fs.StringVar(&f.prefix, "id-prefix", "", "put `PREFIX` before every run id (run folders of two sets are often both named run-01)")
	fs.StringVar(&f.db, "db", "", "the `STORE`: a SQLite file, or a PostgreSQL URL postgres://USER@HOST/DATABASE (password from the URL, PGPASSWORD or ~/.pgpass) (default $QOSCAL_DB, else qoscal.db)")
	fs.BoolVar(&f.replace, "replace", false, "overwrite stored runs whose content differs")
}

func (f *ingestFlags) run(u *ui, paths []string) error {
	in, labels, db, prefix, replace := &f.runFlags, f.labels, f.db, f.prefix, f.replace
	lab, err := data.ParseLabels(labels)
	if err != nil {
		return usagef("--label: %v", err)
	}
	opt, err := in.loadOptions(u, len(paths) > 0 && namesVariants(paths))
	if err != nil {
		return err
	}
	opt.Labels = lab
	if err := data.CheckName("run id prefix", prefix); err != nil {
		return usagef("--id-prefix: %v", err)
	}
	opt.IDPrefix = prefix
	fc := u.newFiles()
	fc.runs(in, paths)
	fc.store(storePath(u, db))
	if err := fc.check(); err != nil {
		return err
	}
	// The loader's warnings are said once the ingest is over: with the
	// runs when they were stored or the input failed, not when the store
	// refused them (a conflict), since how much of the input was read by
	// then depends on the store's backend.
	var warnings []string
	opt.Warn = func(msg string) { warnings = append(warnings, msg) }
	warn := func() {
		for _, w := range warnings {
			u.warnf("%s", w)
		}
	}
	runs, err := in.each(opt, paths)
	if err != nil {
		return err
	}
	var progress func(done, total int)
	shown := false
	if isTerminal(u.stderr) {
		progress = func(done, _ int) {
			if done >= progressMin {
				fmt.Fprintf(u.stderr, "\rqoscal: storing runs %d", done)
				shown = true
			}
		}
	}
	// The runs are read as they are stored (source.Ingest), the first
	// before the store is opened; the reading (and with it the loader's
	// warnings) has stopped when it returns.
	loc, res, inputFailed, err := source.Ingest(u.ctx, storePath(u, db), runs, store.IngestOptions{Replace: replace, Progress: progress}, u.now)
	if shown {
		fmt.Fprint(u.stderr, "\r\033[K")
	}
	if err == nil || inputFailed {
		warn()
	}
	if err != nil {
		return err
	}
	switch n := len(res.AlreadyStored); {
	case n > 0 && n <= 5:
		for _, id := range res.AlreadyStored {
			u.notef("run %s already stored", id)
		}
	case n > 5:
		u.notef("runs %s, %s, ... %s already stored (%d runs)", res.AlreadyStored[0], res.AlreadyStored[1], res.AlreadyStored[n-1], n)
	}
	if res.Completed > 0 {
		u.notef("%s stored without repetitions (by an older qoscal, or from input without them) given them now", present.Plural(res.Completed, "run"))
	}
	fmt.Fprintf(u.stdout, "%s: %s added, %d already stored, %d replaced; %d measurements written\n",
		loc, present.Plural(res.Added, "run"), res.Unchanged, res.Replaced, res.Measurements)
	return nil
}

// progressMin is the number of runs from which ingest shows progress on a
// terminal.
const progressMin = 50

// each yields the runs of PATHs as they are read (load.Runs), or, with
// no PATH, the single run whose files --baseline and --candidate name.
func (f *runFlags) each(opt load.Options, paths []string) (iter.Seq2[data.Run, error], error) {
	if len(paths) > 0 {
		return load.Runs(paths, opt), nil
	}
	runs, err := f.load(opt, nil)
	if err != nil {
		return nil, err
	}
	return func(yield func(data.Run, error) bool) {
		for _, r := range runs {
			if !yield(r, nil) {
				return
			}
		}
	}, nil
}
