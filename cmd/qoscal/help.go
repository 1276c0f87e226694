package main

// A command's help is written by hand where it is prose (the usage lines,
// what the command does, notes on its output, the worked example that
// TestHelpExamples runs) and listed from the registration where it is a
// flag: each flag is described once, by the text it is registered with,
// so that a flag cannot be missing from the help, nor described in two
// places that disagree (TestHelpListsEveryFlag).

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/qoscal/qoscal/render"
)

// flagSet is a command's flags: a pflag.FlagSet whose flags the help
// lists in groups under titles ("The floor:"), each in the order
// registered.
//
// A flag's description is its registered usage text, with its value's
// placeholder in backquotes as pflag has it ("the `STORE` to read":
// --from STORE, "the STORE to read"). The help adds what follows from the
// registration: "(repeatable)" for a flag that collects its values, and
// "(default V)" for a default that is not the zero value. A default with
// a meaning to explain ("0: off", "$QOSCAL_DB") is zero to pflag, and the
// description says it.
type flagSet struct {
	*pflag.FlagSet
	groups []flagGroup
	args   []argHelp
	// format and annotations are the values of the common flags that the
	// opening registers (command.flagSet) and applies (ui.open).
	format, annotations string
}

// flagGroup is a titled part of the help's list of flags: the flags
// registered from the from-th on (counting from 0), up to the next
// group's.
type flagGroup struct {
	title string
	from  int
}

// argHelp is a positional argument listed among the flags (PATH...),
// before the at-th flag registered.
type argHelp struct {
	at         int
	name, text string
}

// The layout of a flag list: flags indented by 4, descriptions from
// column 29 (a flag and its placeholder longer than that get a line of
// their own), wrapped so that no line is longer than 79 columns.
const (
	flagIndent = 4
	flagColumn = 29
	helpWidth  = 79
)

// ungrouped is the title of flags registered before any group.
const ungrouped = "Flags:"

func newFlagSet(name string) *flagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	return &flagSet{FlagSet: fs}
}

// group starts a group: the flags registered next, up to the next group,
// are listed under title.
func (fs *flagSet) group(title string) {
	fs.groups = append(fs.groups, flagGroup{title: title, from: fs.count()})
}

// arg lists a positional argument among the flags, before the next flag
// registered.
func (fs *flagSet) arg(name, text string) {
	fs.args = append(fs.args, argHelp{at: fs.count(), name: name, text: text})
}

// count is the number of flags registered so far.
func (fs *flagSet) count() int {
	n := 0
	fs.VisitAll(func(*pflag.Flag) { n++ })
	return n
}

// writeHelp lists the flags by group, each group after a blank line.
// Hidden flags are left out (ingest's deprecated --format: the flag it
// stands for says so).
func (fs *flagSet) writeHelp(b *strings.Builder) {
	var flags []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) { flags = append(flags, f) })
	groups := fs.groups
	if len(groups) == 0 || groups[0].from > 0 {
		groups = append([]flagGroup{{title: ungrouped}}, groups...)
	}
	for i, g := range groups {
		to := len(flags)
		if i+1 < len(groups) {
			to = groups[i+1].from
		}
		var entries strings.Builder
		for at := g.from; at <= to; at++ {
			for _, a := range fs.args {
				if a.at == at && (at < to || i+1 == len(groups)) {
					writeEntry(&entries, a.name, a.text)
				}
			}
			if at < to && !flags[at].Hidden {
				writeEntry(&entries, flagName(flags[at]), flagText(flags[at]))
			}
		}
		if entries.Len() == 0 {
			continue
		}
		fmt.Fprintf(b, "\n%s\n%s", g.title, entries.String())
	}
}

// flagName is how the help names a flag: --name and its placeholder
// (--db STORE), in brackets when the value may be left out (--summary
// [FILE.md]); a boolean flag has none.
func flagName(f *pflag.Flag) string {
	placeholder, _ := pflag.UnquoteUsage(f)
	switch {
	case f.Value.Type() == "bool":
		return "--" + f.Name
	case f.NoOptDefVal != "":
		return "--" + f.Name + " [" + placeholder + "]"
	}
	return "--" + f.Name + " " + placeholder
}

// flagText is a flag's description: its registered text, "(repeatable)"
// for a flag that collects its values, and its default unless it is the
// zero value.
func flagText(f *pflag.Flag) string {
	_, text := pflag.UnquoteUsage(f)
	if repeatable(f) {
		text += " (repeatable)"
	}
	if d := shownDefault(f); d != "" {
		text += " (default " + d + ")"
	}
	return text
}

// repeatable reports whether a flag collects every value given (--label),
// rather than taking one (parseFlags).
func repeatable(f *pflag.Flag) bool {
	_, ok := f.Value.(pflag.SliceValue)
	return ok
}

// shownDefault is a flag's default as the help states it: "" for the
// zero value of its type (no value, 0, false, none), which the
// description explains when it means something.
func shownDefault(f *pflag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "[]":
		return ""
	}
	return f.DefValue
}

// writeEntry writes one entry of a flag list: name at flagIndent, text
// from flagColumn, wrapped.
func writeEntry(b *strings.Builder, name, text string) {
	head := strings.Repeat(" ", flagIndent) + name
	if len(head)+2 > flagColumn {
		b.WriteString(head + "\n")
		head = ""
	}
	text = unbroken.ReplaceAllStringFunc(text, func(s string) string { return strings.ReplaceAll(s, " ", glue) })
	for _, line := range strings.Split(render.Wrap(text, helpWidth-flagColumn), "\n") {
		fmt.Fprintf(b, "%-*s%s\n", flagColumn, head, strings.ReplaceAll(line, glue, " "))
		head = ""
	}
}

// unbroken matches what wrapping must not part: a range ("in [0, 1)"), a
// default ("(default 0.01)"), and a workflow command with the word
// before it: under Actions, a line of help that starts with "::" would be
// a command (ci.Guard escapes it).
var unbroken = regexp.MustCompile(`in [\[(][^\])]*[\])]|\(default [^)]*\)| ::`)

// glue stands for a space inside what wrapping must not part.
const glue = "\x00"
