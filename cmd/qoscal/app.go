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

	"qoscal/data"
)

// version is the qoscal version; release builds set it with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// command is one subcommand.
type command struct {
	name    string
	summary string
	usage   string // hand-written usage with a worked example
	run     func(u *ui, args []string) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// commandOrder is the order of the commands in the help: the data flow,
// from ingest to gate. A registered command missing from it is a bug
// (TestCommandOrder).
var commandOrder = []string{"ingest", "runs", "store", "spread", "recommend", "plot", "report", "gate", "drift", "samples"}

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
	defer u.flush()
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
				return usagef("", "unknown command %q", args[1])
			}
			fmt.Fprint(u.stdout, c.usage)
			return nil
		}
		fmt.Fprint(u.stdout, mainUsage())
		return nil
	case "version", "--version":
		fmt.Fprintf(u.stdout, "qoscal %s\n", version)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		if strings.HasPrefix(args[0], "-") {
			return usagef("", "unknown flag %s before the command", args[0])
		}
		return usagef("", "unknown command %q", args[0])
	}
	u.cmd = c.name
	return c.run(u, args[1:])
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

// newFlags returns the FlagSet of a subcommand: errors are returned, not
// printed, and --help prints the hand-written usage.
func newFlags(c *command) *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	return fs
}

// parseFlags parses args; it reports --help as errHelp after printing the
// usage to stdout. It is the one place that holds, for every command:
//   - a flag that takes one value (--floor, --db, --report-only) may be
//     given once: "--floor 2 --floor 0.5" is an error, not "the last
//     wins", since in a workflow the second is most often a mistake
//     that would silently change the gate (repeatable flags, such as
//     --label, collect every value);
//   - a flag given an empty (or blank) value is an error that names it:
//     it is most often an unset variable in the workflow (--db "$DB"),
//     which would otherwise mean "not given" (for --db, the local file
//     qoscal.db; for the gate's --calibration, no floor at all).
func parseFlags(u *ui, c *command, fs *pflag.FlagSet, args []string) error {
	if sawFlags != nil {
		sawFlags(c, fs)
	}
	fs.VisitAll(func(f *pflag.Flag) {
		if _, repeatable := f.Value.(pflag.SliceValue); !repeatable {
			f.Value = &onceValue{Value: f.Value}
		}
	})
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(u.stdout, c.usage)
		return errHelp
	}
	var twice *givenTwice
	if errors.As(err, &twice) {
		var ive *pflag.InvalidValueError
		if errors.As(err, &ive) {
			if ive.GetFlag().Value.Type() == "bool" {
				return usagef(c.name, "--%s is given twice: give it once", ive.GetFlag().Name)
			}
			return usagef(c.name, "--%s is given twice (%s, then %s): give it once", ive.GetFlag().Name, shownValue(twice.first), shownValue(ive.GetValue()))
		}
	}
	if err != nil {
		if m := emptyArgument.FindStringSubmatch(err.Error()); m != nil {
			return emptyFlag(c.name, m[1])
		}
		var ive *pflag.InvalidValueError
		if errors.As(err, &ive) {
			if kind := valueKinds[ive.GetFlag().Value.Type()]; kind != "" {
				return usagef(c.name, "--%s %s: expected %s", ive.GetFlag().Name, shownValue(ive.GetValue()), kind)
			}
		}
		return usagef(c.name, "%v", err)
	}
	var empty error
	fs.Visit(func(f *pflag.Flag) {
		if o, ok := f.Value.(*onceValue); ok && empty == nil && strings.TrimSpace(o.given) == "" {
			empty = emptyFlag(c.name, f.Name)
		}
	})
	return empty
}

// valueKinds says what a flag of each pflag value type takes, for the
// error of a value that is none.
var valueKinds = map[string]string{
	"float64": "a number",
	"int":     "a whole number",
	"uint64":  "a whole number from 0 to 18446744073709551615",
	"bool":    "true or false, or no value",
}

// sawFlags, when set (by a test), is shown every command's flags.
var sawFlags func(*command, *pflag.FlagSet)

// emptyFlag is the error for a flag given an empty value.
func emptyFlag(cmd, name string) error {
	return usagef(cmd, "--%s is empty: expected a value (an unset variable in the workflow?)", name)
}

// shownValue quotes a flag's value for a message when it needs quotes.
func shownValue(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"'") || !strconv.CanBackquote(s) {
		return strconv.Quote(s)
	}
	return s
}

// onceValue is the value of a flag that takes one value: a second Set is
// an error (givenTwice). given is the value as given.
type onceValue struct {
	pflag.Value
	set   bool
	given string
}

func (o *onceValue) Set(s string) error {
	if o.set {
		return &givenTwice{first: o.given}
	}
	o.set, o.given = true, s
	return o.Value.Set(s)
}

// givenTwice is the error of a flag given a second value.
type givenTwice struct{ first string }

func (e *givenTwice) Error() string { return "given twice" }

// emptyArgument matches pflag's error for a flag given an empty (or
// blank) value it cannot parse.
var emptyArgument = regexp.MustCompile(`^invalid argument "\s*" for "(?:-\w, )?--([\w-]+)" flag`)

// errHelp ends a command after its usage was printed on request.
var errHelp = &exitError{code: exitOK}

// storePath resolves the store: --db, else $QOSCAL_DB, else qoscal.db. It
// is a SQLite file name or a PostgreSQL URL, which may hold a password:
// show a store by its Location, or data.RedactLocation.
func storePath(u *ui, flag string) string {
	if flag != "" {
		return flag
	}
	if env := u.getenv("QOSCAL_DB"); env != "" {
		return env
	}
	return data.DefaultStore
}

// now returns the current time, or SOURCE_DATE_EPOCH when it is set, for
// reproducible output.
func (u *ui) now() (time.Time, error) {
	if s := u.getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: expected seconds since 1970", s)
		}
		return time.Unix(sec, 0).UTC(), nil
	}
	return time.Now().UTC(), nil
}

// outputFormat validates --format for commands that print results, and
// notes whether the command prints JSON (for the error document).
func (u *ui) outputFormat(cmd, f string) error {
	u.json = f == "json"
	u.markdown = f == "markdown"
	return checkFormat(cmd, f)
}

// checkFormat validates --format for commands that print results.
func checkFormat(cmd, f string) error {
	switch f {
	case "text", "markdown", "json":
		return nil
	}
	err := usagef(cmd, "--format must be text, markdown or json, got %q", f)
	if rf, _ := data.LookupFormat(f); rf != nil {
		return withHint(err, "--format is the output's format; name the result files' format with --input-format %s", f)
	}
	return err
}
