package cliflag

// A command's flags list themselves in its help from their registration:
// each flag is described once, by the text it is registered with, so
// that a flag cannot be missing from the help, nor described in two
// places that disagree.

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/qoscal/qoscal/render"
)

// Set is a command's flags: a pflag.FlagSet whose flags the help lists
// (WriteHelp) in groups under titles ("The floor:"), each in the order
// registered, with the positional arguments among them.
//
// A flag's description is its registered usage text, with its value's
// placeholder in backquotes as pflag has it ("the `STORE` to read":
// --from STORE, "the STORE to read"). The help adds what follows from the
// registration: "(repeatable)" for a flag that collects its values, and
// "(default V)" for a default that is not the zero value. A default with
// a meaning to explain ("0: off", "$QOSCAL_DB") is zero to pflag, and the
// description says it.
type Set struct {
	*pflag.FlagSet
	groups []flagGroup
	args   []argHelp
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

// The layout of a flag list: flags indented by Indent, descriptions from
// column 29 (a flag and its placeholder longer than that get a line of
// their own), wrapped so that no line is longer than 79 columns.
const (
	Indent     = 4
	flagColumn = 29
	helpWidth  = 79
)

// ungrouped is the title of flags registered before any group.
const ungrouped = "Flags:"

// NewSet is an empty set of flags named name, which reports its errors
// rather than print them, and keeps its flags in the order registered.
func NewSet(name string) *Set {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	return &Set{FlagSet: fs}
}

// Group starts a group: the flags registered next, up to the next group,
// are listed under title.
func (s *Set) Group(title string) {
	s.groups = append(s.groups, flagGroup{title: title, from: s.count()})
}

// Arg lists a positional argument among the flags, before the next flag
// registered.
func (s *Set) Arg(name, text string) {
	s.args = append(s.args, argHelp{at: s.count(), name: name, text: text})
}

// count is the number of flags registered so far.
func (s *Set) count() int {
	n := 0
	s.VisitAll(func(*pflag.Flag) { n++ })
	return n
}

// WriteHelp lists the flags by group, each group after a blank line.
// Hidden flags are left out (a deprecated flag: the flag it stands for
// says so).
func (s *Set) WriteHelp(b *strings.Builder) {
	var flags []*pflag.Flag
	s.VisitAll(func(f *pflag.Flag) { flags = append(flags, f) })
	groups := s.groups
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
			for _, a := range s.args {
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
	if _, ok := f.Value.(pflag.SliceValue); ok {
		text += " (repeatable)"
	}
	if d := ShownDefault(f); d != "" {
		text += " (default " + d + ")"
	}
	return text
}

// ShownDefault is a flag's default as the help states it: "" for the
// zero value of its type (no value, 0, false, none), which the
// description explains when it means something.
func ShownDefault(f *pflag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "[]":
		return ""
	}
	return f.DefValue
}

// writeEntry writes one entry of a flag list: name at Indent, text from
// flagColumn, wrapped.
func writeEntry(b *strings.Builder, name, text string) {
	head := strings.Repeat(" ", Indent) + name
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

// Nearest is the registered flag nearest to the unknown name (by edit
// distance: a letter left out, added, changed or two swapped), or ""
// when none is near: at most a third of the name's letters away, and at
// most 3. A flag the name begins or ends with (--repetition for
// --repetitions) is near too. Hidden flags are not suggested.
func (s *Set) Nearest(name string) string {
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	best, bestD := "", -1
	limit := min(3, max(1, len([]rune(name))/3))
	s.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(name, f.Name)
		if len(name) >= 4 && (strings.HasPrefix(f.Name, name) || strings.HasPrefix(name, f.Name)) {
			d = min(d, limit)
		}
		if d <= limit && (bestD < 0 || d < bestD) {
			best, bestD = f.Name, d
		}
	})
	return best
}

// editDistance is the optimal string alignment distance of a and b: the
// fewest insertions, deletions, substitutions and swaps of neighbours that
// turn a into b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// Once makes every flag of the set that takes one value refuse a second
// (a *TwiceError, inside pflag's error): in a workflow a second value is
// most often a mistake that would silently change the result. A flag that
// collects its values (a pflag.SliceValue) is left as it is. Given
// reports a flag's value as given, for the check of empty values.
func (s *Set) Once() {
	s.VisitAll(func(f *pflag.Flag) {
		if _, repeatable := f.Value.(pflag.SliceValue); !repeatable {
			f.Value = &onceValue{Value: f.Value}
		}
	})
}

// Given is the value the flag f was given, and whether Once watches it.
func Given(f *pflag.Flag) (string, bool) {
	o, ok := f.Value.(*onceValue)
	if !ok {
		return "", false
	}
	return o.given, true
}

// onceValue is the value of a flag that takes one value: a second Set is
// an error (TwiceError). given is the value as given.
type onceValue struct {
	pflag.Value
	set   bool
	given string
}

func (o *onceValue) Set(s string) error {
	if o.set {
		return &TwiceError{First: o.given}
	}
	o.set, o.given = true, s
	return o.Value.Set(s)
}

// TwiceError is the error of a flag given a second value; First is the
// first.
type TwiceError struct{ First string }

func (e *TwiceError) Error() string { return "given twice" }
