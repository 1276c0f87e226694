package main

import (
	"fmt"
	"iter"

	"qoscal/data"
	"qoscal/present"
)

var ingestCmd = &command{
	name:    "ingest",
	summary: "parse result files into the store",
	usage: `Usage:
    qoscal ingest [flags] PATH...
    qoscal ingest [flags] --run ID --baseline [NAME=]FILE --candidate [NAME=]FILE

Parses runs of result files into the store (a SQLite file, or a PostgreSQL
database shared by a team's runners: see --db). A PATH is a run
folder (it holds the baseline's and the candidate's result files), a folder of
run folders (each subfolder holding them is a run, named after the folder), or
a CSV file of many runs. Without a PATH, --baseline and --candidate are the
result files of a single run, named by --run.

All runs of one call land together or not at all. A run id already stored
with the same content is left alone ("already stored"); with other content it
is an error, unless --replace.

Flags:
    --baseline [NAME=]FILE   the baseline's result file in each run folder;
                             without NAME=, the variant is the file's stem
    --candidate [NAME=]FILE  the candidate's result file in each run folder
    --variant [NAME=]FILE    a further variant measured in the same runs
                             (repeatable)
    --run ID                 the run's id, for a single run
    --id-prefix PREFIX       put PREFIX before every run id (run folders of
                             two sets are often both named run-01)
    --label KEY=VALUE        a label for every run ingested (repeatable)
    --input-format NAME      result-file format: auto (default), ops, csv,
                             gobench, gbench, hyperfine, pytest-benchmark
                             (--format is a deprecated alias)
    --strip-procs            drop the -N GOMAXPROCS suffix of Go benchmark
                             names (BenchmarkX-8 becomes BenchmarkX)
    --ignore-columns         ignore CSV columns qoscal does not know (else
                             they are an error)
    --db STORE               the store: a SQLite file, or a PostgreSQL URL
                             postgres://USER@HOST/DATABASE (password from
                             the URL, PGPASSWORD or ~/.pgpass) (default
                             $QOSCAL_DB, else qoscal.db)
    --replace                overwrite stored runs whose content differs
    --skip-incomplete        skip, with a warning, run folders lacking a file

Example: twelve CI runs of glibc malloc against mimalloc (bundled samples):

    $ qoscal ingest --db calib.db --label os=linux \
        --baseline glibc=baseline.txt --candidate mimalloc=mimalloc.txt \
        data/samples/linux-glibc-vs-mimalloc/healthy
    calib.db: 12 runs added, 0 already stored, 0 replaced; 240 measurements written
`,
}

func init() {
	ingestCmd.run = runIngest
	register(ingestCmd)
}

func runIngest(u *ui, args []string) error {
	c := ingestCmd
	fs := newFlags(c)
	var in runFlags
	in.addLoadFlags(fs, true, "input-format")
	in.addFormatAlias(fs)
	var labels []string
	var db string
	var replace bool
	var prefix string
	fs.StringArrayVar(&labels, "label", nil, "a `KEY=VALUE` label for every run")
	fs.StringVar(&prefix, "id-prefix", "", "put `PREFIX` before every run id")
	fs.StringVar(&db, "db", "", "the `STORE`: a SQLite file or a postgres:// URL")
	fs.BoolVar(&replace, "replace", false, "overwrite stored runs whose content differs")
	if err := parseFlags(u, c, fs, args); err != nil {
		return err
	}
	lab, err := data.ParseLabels(labels)
	if err != nil {
		return usagef(c.name, "--label: %v", err)
	}
	opt, err := in.loadOptions(u, c.name, fs.NArg() > 0 && namesVariants(fs.Args()))
	if err != nil {
		return err
	}
	opt.Labels = lab
	if err := data.CheckName("run id prefix", prefix); err != nil {
		return usagef(c.name, "--id-prefix: %v", err)
	}
	opt.IDPrefix = prefix
	fc := u.newFiles()
	fc.runs(&in, fs.Args())
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
	runs, err := in.each(c.name, opt, fs.Args())
	if err != nil {
		return err
	}
	// The runs are read as they are stored, never all held: read ahead by
	// a goroutine of their own (up to prefetchRuns), so that parsing and
	// storing use a core each. The first is read before the store is
	// opened, so that input that fails at once (a file that does not
	// parse, a bad CSV) does not make a store.
	next, stop := data.Prefetch(runs, prefetchRuns)
	defer stop()
	first, err, ok := next()
	if ok && err != nil {
		stop()
		warn()
		return err
	}
	now, err := u.now()
	if err != nil {
		return err
	}
	st, err := data.Open(u.ctx, storePath(u, db), data.ReadWrite)
	if err != nil {
		return err
	}
	defer st.Close()
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
	var inputErr error
	all := func(yield func(data.Run, error) bool) {
		if !ok || !yield(first, nil) {
			return
		}
		for {
			r, err, more := next()
			if err != nil {
				inputErr = err
			}
			if !more || !yield(r, err) {
				return
			}
		}
	}
	res, err := st.IngestEach(u.ctx, data.Incoming(all), data.IngestOptions{Replace: replace, Progress: progress, Now: now})
	// The reading stops (and with it the loader's warnings) before they
	// are said.
	stop()
	if shown {
		fmt.Fprint(u.stderr, "\r\033[K")
	}
	if err == nil || err == inputErr {
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
	fmt.Fprintf(u.stdout, "%s: %s added, %d already stored, %d replaced; %d measurements written\n",
		st.Location(), present.Plural(res.Added, "run"), res.Unchanged, res.Replaced, res.Measurements)
	return nil
}

// progressMin is the number of runs from which ingest shows progress on a
// terminal.
const progressMin = 50

// prefetchRuns is how many runs ingest reads ahead of the store: enough to
// keep both busy, few enough that memory does not grow with the input.
const prefetchRuns = 64

// each yields the runs of PATHs as they are read (data.LoadSeq), or, with
// no PATH, the single run whose files --baseline and --candidate name.
func (f *runFlags) each(cmd string, opt data.LoadOptions, paths []string) (iter.Seq2[data.Run, error], error) {
	if len(paths) > 0 {
		return data.LoadSeq(paths, opt), nil
	}
	runs, err := f.load(cmd, opt, nil)
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
