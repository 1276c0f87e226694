package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/qoscal/qoscal/data/formats"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/internal/cliflag"
	buildversion "github.com/qoscal/qoscal/internal/version"
)

// version is the qoscal version (internal/version: the release's tag,
// which scripts/release.sh sets, or 0.0.0-dev+COMMIT off a release).
var version = buildversion.String()

// command is one subcommand: its name and summary in the list of
// commands, its help, and how it runs.
type command struct {
	name    string
	summary string
	// The help written by hand (see help): the usage lines (each a
	// "qoscal ..." line), what the command does, notes after the flags,
	// and the worked example, which TestHelpExamples runs. Each is text
	// ending in a newline; notes may be empty.
	usage, intro, notes, example string
	// format is set when the command prints a result in the format that
	// --format chooses: text, markdown or json (ui.show).
	format bool
	// annotates is what the command writes as GitHub Actions annotations
	// ("the verdict, every warning and an error"), when it has
	// --annotations to choose them; "" when it has not.
	annotates string
	// rewrite, when set, rewrites the arguments before they are parsed
	// (report's "--summary FILE.md": summaryArg).
	rewrite func(args []string) []string
	// new returns the command's flags, unset, and its body; nil for a
	// command of subcommands.
	new func() runner
	// subs are the subcommands (store copy, store upgrade), each with
	// flags of its own, listed in this command's help; parent is the
	// command a subcommand belongs to.
	subs   []*command
	parent *command
}

// runner is a command's flags and its body: flags registers the flags
// into fs (in groups: flagSet.group), and run runs the command with the
// arguments after the flags, once the opening (ui.open) has parsed them
// and applied the common ones.
type runner interface {
	flags(fs *flagSet)
	run(u *ui, args []string) error
}

var commands = map[string]*command{}

func register(c *command) {
	for _, sub := range c.subs {
		sub.parent = c
	}
	commands[c.name] = c
}

// commandOrder is the order of the commands in the help: the data flow,
// from ingest to gate. A registered command missing from it is a bug
// (TestCommandOrder).
var commandOrder = []string{"ingest", "runs", "store", "spread", "recommend", "plot", "report", "measure", "gate", "comment", "drift", "watch", "mark", "audit", "site", "samples"}

// commandNames returns the registered commands in commandOrder, then any
// others by name.
func commandNames() []string {
	rank := map[string]int{}
	for i, n := range commandOrder {
		rank[n] = i + 1
	}
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := rank[names[i]], rank[names[j]]
		if ri == 0 || rj == 0 {
			if ri != rj {
				return rj == 0
			}
			return names[i] < names[j]
		}
		return ri < rj
	})
	return names
}

// run runs qoscal with the arguments after the program name and returns the
// exit code. It is the only place that turns errors into exit codes.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	u := newUI(stdout, stderr, os.Getenv)
	u.stdin = stdin
	defer u.flush()
	defer u.noteUnannotated()
	defer func() {
		if p := recover(); p != nil {
			code = u.exitCode(fmt.Errorf("internal error: %v (this is a bug in qoscal; please report it with the command that caused it)", p))
		}
	}()
	return u.exitCode(dispatch(u, args))
}

func dispatch(u *ui, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(u.stderr, mainUsage())
		return &exitError{code: exitInput}
	}
	switch args[0] {
	case "help", "-h", "--help":
		if len(args) > 1 && args[0] == "help" {
			c, ok := commands[args[1]]
			if !ok {
				return usagef("unknown command %q", args[1])
			}
			fmt.Fprint(u.stdout, c.help())
			return nil
		}
		fmt.Fprint(u.stdout, mainUsage())
		return nil
	case "version", "--version":
		in := buildversion.Get()
		fmt.Fprintf(u.stdout, "qoscal %s\n", in.Version)
		if in.Commit != "" {
			fmt.Fprintf(u.stdout, "commit %s\n", in.Commit)
		}
		fmt.Fprintf(u.stdout, "built with %s\n", in.Go)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		if strings.HasPrefix(args[0], "-") {
			return usagef("unknown flag %s before the command", args[0])
		}
		return usagef("unknown command %q", args[0])
	}
	u.cmd = c.name
	return c.exec(u, args[1:])
}

// exec runs the command c with the arguments after its name: the
// subcommand they name, or its own body after the opening.
func (c *command) exec(u *ui, args []string) error {
	if c.subs != nil {
		if len(args) == 0 {
			return usagef("expected a subcommand: %s", c.subUsage())
		}
		for _, sub := range c.subs {
			if args[0] == sub.name {
				return sub.exec(u, args[1:])
			}
		}
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprint(u.stdout, c.help())
			return nil
		}
		return usagef("unknown subcommand %q: expected %s", args[0], c.subNames())
	}
	r := c.new()
	raw := args
	args, err := u.open(c, r, args)
	if err != nil {
		if c.name == "measure" && bisectFlag(raw) {
			return bisectCode(err)
		}
		return err
	}
	return r.run(u, args)
}

// subUsage is the usage lines of a command of subcommands, joined with
// ", or ".
func (c *command) subUsage() string {
	return strings.Join(strings.Split(strings.TrimSpace(c.usage), "\n"), ", or ")
}

// subNames is "copy or upgrade".
func (c *command) subNames() string {
	var names []string
	for _, sub := range c.subs {
		names = append(names, sub.name)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// flagSet returns c's flags as r registers them, then the common flags
// the command has, in its last group: --annotations and --format, each
// described here once.
func (c *command) flagSet(r runner) *flagSet {
	fs := newFlagSet(c.name)
	r.flags(fs)
	if c.annotates != "" {
		fs.StringVar(&fs.annotations, "annotations", "auto", "CI annotations `MODE`: auto (github when GITHUB_ACTIONS=true, else none), github or none; with github, "+c.annotates+" are annotations (lines starting ::error:: or ::warning::) instead of plain lines")
	}
	if c.format {
		fs.StringVar(&fs.format, "format", "text", "the output `FORMAT`: text, markdown or json")
	}
	return fs
}

// help is c's help: its usage lines, what it does, its flags by group,
// listed from their registration (a subcommand's after its name), notes,
// and the worked example. A subcommand's help is its command's.
func (c *command) help() string {
	if c.parent != nil {
		return c.parent.help()
	}
	var b strings.Builder
	b.WriteString("Usage:\n")
	for _, l := range strings.Split(strings.TrimRight(c.usage, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	b.WriteString("\n" + c.intro)
	if c.subs == nil {
		c.flagSet(c.new()).WriteHelp(&b)
	}
	for _, sub := range c.subs {
		sub.flagSet(sub.new()).WriteHelp(&b)
	}
	if c.notes != "" {
		b.WriteString("\n" + c.notes)
	}
	b.WriteString("\n" + c.example)
	return b.String()
}

// open is how every command starts, the one place that does what each
// needs before its own work: it registers the command's flags and the
// common ones (flagSet), parses args (parseFlags), and applies the common
// flags to u: --annotations chooses whether warnings and errors are
// annotations, and --format the output (so that an error after it is a
// JSON document with json). It returns the arguments after the flags.
// Errors need not name the command: exitCode knows it (u.cmd).
//
// An --annotations given is followed even when another flag is wrong, so
// that "--annotations none" under Actions makes that error a plain line
// too; --format applies only once every flag is read.
func (u *ui) open(c *command, r runner, args []string) ([]string, error) {
	fs := c.flagSet(r)
	if c.rewrite != nil {
		args = c.rewrite(args)
	}
	err := parseFlags(u, c, fs, args)
	var modeErr error
	if c.annotates != "" {
		modeErr = u.annotationMode(fs.annotations)
	}
	if err != nil {
		return nil, err
	}
	if c.format {
		if err := u.outputFormat(fs.format); err != nil {
			return nil, err
		}
	}
	if modeErr != nil {
		return nil, modeErr
	}
	return fs.Args(), nil
}

func mainUsage() string {
	var b strings.Builder
	b.WriteString(`qoscal turns noisy CI benchmark numbers into a trustworthy merge gate.

Usage:
    qoscal COMMAND [flags] [PATH...]

Commands:
`)
	for _, n := range commandNames() {
		fmt.Fprintf(&b, "    %-10s %s\n", n, commands[n].summary)
	}
	b.WriteString(`
Run 'qoscal help COMMAND' (or 'qoscal COMMAND --help') for a command's flags
and a worked example, 'qoscal --version' for the version.

Exit codes: 0 success (or the gate passed), 1 the gate failed, 2 a usage or
input error, 3 the gate could not judge.
`)
	return b.String()
}

// parseFlags parses args; it reports --help as errHelp after printing the
// command's help to stdout. It is the one place that holds, for every command:
//   - a flag that takes one value (--floor, --db, --report-only) may be
//     given once: "--floor 2 --floor 0.5" is an error, not "the last
//     wins", since in a workflow the second is most often a mistake
//     that would silently change the gate (repeatable flags, such as
//     --label, collect every value);
//   - a flag given an empty (or blank) value is an error that names it:
//     it is most often an unset variable in the workflow (--db "$DB"),
//     which would otherwise mean "not given" (for --db, the local file
//     qoscal.db; for the gate's --calibration, no floor at all).
func parseFlags(u *ui, c *command, fs *flagSet, args []string) error {
	fs.Once()
	err := fs.Parse(args)
	if fs.Lookup("format") != nil && asksJSON(args) {
		// An error from here on, the flags' own included, is the
		// JSON error document on stdout, as after outputFormat.
		u.json = true
	}
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(u.stdout, c.help())
		return errHelp
	}
	var twice *cliflag.TwiceError
	if errors.As(err, &twice) {
		var ive *pflag.InvalidValueError
		if errors.As(err, &ive) {
			if ive.GetFlag().Value.Type() == "bool" {
				return usagef("--%s is given twice: give it once", ive.GetFlag().Name)
			}
			return usagef("--%s is given twice (%s, then %s): give it once", ive.GetFlag().Name, shownValue(twice.First), shownValue(ive.GetValue()))
		}
	}
	if err != nil {
		if m := emptyArgument.FindStringSubmatch(err.Error()); m != nil {
			return emptyFlag(m[1])
		}
		var ive *pflag.InvalidValueError
		if errors.As(err, &ive) {
			if kind := valueKinds[ive.GetFlag().Value.Type()]; kind != "" {
				return usagef("--%s %s: expected %s", ive.GetFlag().Name, shownValue(ive.GetValue()), kind)
			}
		}
		if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
			if near := fs.Nearest(name); near != "" {
				return withHint(usagef("%v", err), "did you mean --%s?", near)
			}
		}
		return usagef("%v", err)
	}
	var empty error
	fs.Visit(func(f *pflag.Flag) {
		if given, ok := cliflag.Given(f); ok && empty == nil && strings.TrimSpace(given) == "" {
			empty = emptyFlag(f.Name)
		}
	})
	return empty
}

// asksJSON reports whether args give --format json (as "--format json"
// or "--format=json") and no other --format, before "--", however the
// rest of them parse: --format given twice says no format.
func asksJSON(args []string) bool {
	formats, json := 0, false
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == "--format" || strings.HasPrefix(a, "--format=") {
			formats++
			json = a == "--format=json" || a == "--format" && i+1 < len(args) && args[i+1] == "json"
		}
	}
	return formats == 1 && json
}

// valueKinds says what a flag of each pflag value type takes, for the
// error of a value that is none.
var valueKinds = map[string]string{
	"float64": "a plain decimal number (such as 1.16, 0.05 or 1e-3)",
	"int":     "a whole number",
	"uint64":  "a whole number from 0 to 18446744073709551615",
	"bool":    "true or false, or no value",
}

// emptyFlag is the error for a flag given an empty value.
func emptyFlag(name string) error {
	return usagef("--%s is empty: expected a value (an unset variable in the workflow?)", name)
}

// shownValue quotes a flag's value for a message when it needs quotes.
func shownValue(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"'") || !strconv.CanBackquote(s) {
		return strconv.Quote(s)
	}
	return s
}

// emptyArgument matches pflag's error for a flag given an empty (or
// blank) value it cannot parse.
var emptyArgument = regexp.MustCompile(`^invalid argument "\s*" for "(?:-\w, )?--([\w-]+)" flag`)

// errHelp ends a command after its usage was printed on request.
var errHelp = &exitError{code: exitOK}

// storePath resolves the store: --db, else $QOSCAL_DB, else qoscal.db. It
// is a SQLite file name or a PostgreSQL URL, which may hold a password:
// show a store by its Location, or store.RedactLocation.
func storePath(u *ui, flag string) string {
	if flag != "" {
		return flag
	}
	if env := u.getenv("QOSCAL_DB"); env != "" {
		return env
	}
	return store.DefaultStore
}

// now returns the current time, or SOURCE_DATE_EPOCH when it is set, for
// reproducible output.
// maxEpoch is the last second of year 9999, the latest time RFC 3339 can
// write.
const maxEpoch = 253402300799

func (u *ui) now() (time.Time, error) {
	if s := u.getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		// Times are written as RFC 3339, whose years have four digits:
		// a later time would be stored and then refused on every read.
		if err != nil || sec < 0 || sec > maxEpoch {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: expected whole seconds since 1970, from 0 to %d (9999-12-31)", s, maxEpoch)
		}
		return time.Unix(sec, 0).UTC(), nil
	}
	return time.Now().UTC(), nil
}

// outputFormat validates --format for commands that print results, and
// notes whether the command prints JSON (for the error document) or
// Markdown (for where annotations go).
func (u *ui) outputFormat(f string) error {
	switch f {
	case "text", "markdown", "json":
		u.json = f == "json"
		u.markdown = f == "markdown"
		return nil
	}
	err := usagef("--format must be text, markdown or json, got %q", f)
	if rf, _ := formats.LookupFormat(f); rf != nil {
		return withHint(err, "--format is the output's format; name the result files' format with --input-format %s", f)
	}
	return err
}
