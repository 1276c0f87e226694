package main

// A command's help is written by hand where it is prose (the usage lines,
// what the command does, notes on its output, the worked example that
// TestHelpExamples runs) and listed from the registration where it is a
// flag (cliflag.Set): each flag is described once, by the text it is
// registered with, so that a flag cannot be missing from the help, nor
// described in two places that disagree (TestHelpListsEveryFlag).

import "github.com/qoscal/qoscal/internal/cliflag"

// flagSet is a command's flags (cliflag.Set: pflag's, listed in the help
// by group) and the values of the common flags that the opening registers
// (command.flagSet) and applies (ui.open).
type flagSet struct {
	*cliflag.Set
	format, annotations string
}

// flagIndent is where the help's flags begin.
const flagIndent = cliflag.Indent

func newFlagSet(name string) *flagSet { return &flagSet{Set: cliflag.NewSet(name)} }

// group starts a group of flags listed under title; arg lists a
// positional argument among the flags, before the next flag registered.
func (fs *flagSet) group(title string)    { fs.Group(title) }
func (fs *flagSet) arg(name, text string) { fs.Arg(name, text) }
